from __future__ import annotations

import errno
import itertools
import os
import stat
import threading
from pathlib import Path

import pytest

from docshelf.errors import StorageError
from docshelf.store import LocalStore, local
from docshelf.store.base import put_again


def _files(root: Path) -> list[str]:
    return sorted(path.relative_to(root).as_posix() for path in root.rglob("*") if path.is_file())


def test_an_object_is_read_back_and_replaced_whole(tmp_path: Path) -> None:
    store = LocalStore(tmp_path)
    store.put("docs/ns/d1/chunks.json", b"first")
    store.put("docs/ns/d1/chunks.json", b"second, longer")
    assert store.get("docs/ns/d1/chunks.json") == b"second, longer"
    assert store.get("docs/ns/d2/chunks.json") is None
    assert _files(tmp_path) == ["docs/ns/d1/chunks.json"]


def test_a_large_object_is_written_in_full(tmp_path: Path) -> None:
    data = os.urandom(3 * 1024 * 1024 + 17)
    LocalStore(tmp_path).put("big.bin", data)
    assert (tmp_path / "big.bin").read_bytes() == data


def test_objects_take_the_mode_the_umask_gives(tmp_path: Path) -> None:
    previous = os.umask(0o022)
    try:
        LocalStore(tmp_path).put("a/b.json", b"{}")
    finally:
        os.umask(previous)
    assert stat.S_IMODE((tmp_path / "a" / "b.json").stat().st_mode) == 0o644


@pytest.mark.parametrize("key", ["", "/abs", "a//b", "a/../b", "./a", "a/."])
def test_keys_that_leave_or_blur_the_folder_are_refused(tmp_path: Path, key: str) -> None:
    store = LocalStore(tmp_path)
    with pytest.raises(StorageError):
        store.put(key, b"x")
    with pytest.raises(StorageError):
        store.get(key)


def test_a_failed_write_keeps_the_old_object_and_leaves_no_temporary_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = LocalStore(tmp_path)
    store.put("ns/d1.json", b"old")

    def full_disk(descriptor: int, data: object) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "write", full_disk)
    with pytest.raises(OSError, match="No space left"):
        store.put("ns/d1.json", b"new")
    monkeypatch.undo()
    assert store.get("ns/d1.json") == b"old"
    assert _files(tmp_path) == ["ns/d1.json"]


def test_short_writes_are_continued(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real_write = os.write

    def three_bytes_at_a_time(descriptor: int, data: bytes) -> int:
        return real_write(descriptor, bytes(data[:3]))

    monkeypatch.setattr(os, "write", three_bytes_at_a_time)
    LocalStore(tmp_path).put("short.txt", b"written in pieces")
    monkeypatch.undo()
    assert (tmp_path / "short.txt").read_bytes() == b"written in pieces"


def test_a_temporary_file_left_by_a_crashed_writer_is_neither_listed_nor_overwritten(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = LocalStore(tmp_path)
    store.put("ns/d1.json", b"1")
    monkeypatch.setattr(local, "_SERIALS", itertools.count())
    # The name this process would take next: a crashed writer of the same pid (on another boot) left it.
    leftover = tmp_path / "ns" / f".tmp-{os.getpid()}-{local._TOKEN}-0"
    leftover.write_bytes(b"partial")
    store.put("ns/d2.json", b"2")
    assert list(store.list("ns/")) == ["ns/d1.json", "ns/d2.json"]
    assert leftover.read_bytes() == b"partial"


def test_threads_putting_one_key_leave_one_of_their_objects_whole(tmp_path: Path) -> None:
    store = LocalStore(tmp_path)
    payloads = [bytes([n]) * (64 * 1024) for n in range(8)]

    def put_often(payload: bytes) -> None:
        for _ in range(25):
            store.put("shared/key.bin", payload)

    threads = [threading.Thread(target=put_often, args=(payload,)) for payload in payloads]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert store.get("shared/key.bin") in payloads
    assert _files(tmp_path) == ["shared/key.bin"]


def test_list_gives_keys_under_a_prefix_in_order(tmp_path: Path) -> None:
    store = LocalStore(tmp_path)
    for key in ("b/2", "a/1", "b/1", "ba/1"):
        store.put(key, b"x")
    assert list(store.list("b/")) == ["b/1", "b/2"]
    assert list(store.list("")) == ["a/1", "b/1", "b/2", "ba/1"]
    assert list(LocalStore(tmp_path / "absent").list("")) == []


def test_create_writes_only_an_absent_key_also_without_hard_links(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = LocalStore(tmp_path)
    assert store.create("log/1.json", b"first")
    assert not store.create("log/1.json", b"second")

    def refused(source: str, target: str) -> None:
        raise PermissionError(errno.EPERM, "hard links not supported")

    monkeypatch.setattr(os, "link", refused)
    assert not store.create("log/1.json", b"third")
    assert store.create("log/2.json", b"fourth")
    assert store.get("log/1.json") == b"first"
    assert store.get("log/2.json") == b"fourth"
    assert _files(tmp_path) == ["log/1.json", "log/2.json"]


def test_link_names_an_object_twice_without_a_second_file(tmp_path: Path) -> None:
    store = LocalStore(tmp_path)
    store.put("docs/a/chunks.json", b"chunks")
    store.put("cache/a/old.json", b"stale")
    store.link("docs/a/chunks.json", "cache/b/1.json")  # its folder made
    store.link("docs/a/chunks.json", "cache/a/old.json")  # an existing key replaced
    assert store.get("cache/b/1.json") == store.get("cache/a/old.json") == b"chunks"
    assert (tmp_path / "cache/b/1.json").stat().st_ino == (tmp_path / "docs/a/chunks.json").stat().st_ino
    store.put("docs/a/chunks.json", b"next revision")
    store.delete("cache/a/old.json")
    assert store.get("cache/b/1.json") == b"chunks"
    assert _files(tmp_path) == ["cache/b/1.json", "docs/a/chunks.json"]


def test_link_of_a_missing_object_is_refused_and_leaves_nothing(tmp_path: Path) -> None:
    store = LocalStore(tmp_path)
    store.put("cache/x.json", b"x")
    with pytest.raises(StorageError, match=r"no object 'docs/absent\.json'"):
        store.link("docs/absent.json", "cache/y.json")
    with pytest.raises(StorageError, match="no object"):
        store.link("docs/absent.json", "elsewhere/y.json")
    assert _files(tmp_path) == ["cache/x.json"]


def test_link_copies_where_there_are_no_hard_links(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = LocalStore(tmp_path)
    store.put("a.json", b"bytes")

    def refused(source: str, target: str) -> None:
        raise PermissionError(errno.EPERM, "hard links not supported")

    monkeypatch.setattr(os, "link", refused)
    store.link("a.json", "b/c.json")
    assert store.get("b/c.json") == b"bytes"
    assert (tmp_path / "b/c.json").stat().st_ino != (tmp_path / "a.json").stat().st_ino


def test_put_again_links_on_a_local_store_and_puts_otherwise(tmp_path: Path) -> None:
    store = LocalStore(tmp_path)
    store.put("a.json", b"bytes")
    put_again(store, "b.json", b"bytes", same_as="a.json")
    assert (tmp_path / "b.json").stat().st_ino == (tmp_path / "a.json").stat().st_ino
    put_again(store, "c.json", b"its own bytes", same_as="deleted meanwhile.json")
    assert store.get("c.json") == b"its own bytes"

    class PutOnly:
        def __init__(self) -> None:
            self.puts: dict[str, tuple[bytes, str]] = {}

        def put(self, key: str, data: bytes, *, content_type: str = "application/octet-stream") -> None:
            self.puts[key] = (data, content_type)

    remote = PutOnly()
    put_again(remote, "b.json", b"bytes", same_as="a.json")  # type: ignore[arg-type]
    assert remote.puts == {"b.json": (b"bytes", "application/json")}

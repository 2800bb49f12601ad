"""`docshelf ingest`: list the files, ingest them with progress, and close with a summary by status."""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from docshelf.local.folder_records import folder_keys, remember, remembered
from docshelf.local.progress import ProgressLines, status_counts
from docshelf.local.services import LocalServices
from docshelf.local.sources import Listing, list_sources, shown
from docshelf.local.terminal import shown_line
from docshelf.pipeline import IngestResult

if TYPE_CHECKING:
    from docshelf.fetch.fetcher import Fetcher

EXIT_OK, EXIT_FAILED = 0, 1
KEY_COLLISION = "key_collision"


class Progress(Protocol):
    def parsed(self) -> None:
        """A file is parsed (or unchanged, or could not be read): it waits to be published."""

    def update(self, status: str) -> None:
        """A file's result, once it is published (or its failure recorded)."""

    def close(self, *, finished: bool = True) -> None: ...


def cmd_ingest(args: argparse.Namespace, services: Callable[[argparse.Namespace], LocalServices]) -> int:
    """Exit 1 when some document failed, or when every entry found was skipped (nothing ingested, a symlink out of
    the folder, an unreadable folder); ok, partial and needs_ocr documents are results, not errors."""
    urls = [item for item in args.paths if is_url(item)]
    local_paths = [Path(item) for item in args.paths if not is_url(item)]
    listing = list_sources(local_paths, follow_symlinks=args.follow_symlinks)
    for reason in listing.skipped:
        print(f"docshelf ingest: skipped {shown_line(reason)}", file=sys.stderr)
    opened = services(args)
    started = time.perf_counter()
    refused = sum(len(paths) for paths in listing.collisions.values())
    progress = _progress(len(listing.files) + refused + len(urls), quiet=args.quiet)
    try:
        results = _collisions(listing, args.namespace)
        for result in results:
            progress.parsed()
            progress.update(result.status)
        files = [(source.path, source.key) for source in listing.files]
        for result in opened.ingest_files(files, namespace=args.namespace, on_parsed=progress.parsed):
            results.append(result)
            progress.update(result.status)
        fetcher = _fetcher(args.allow_host) if urls else None
        for url in urls:
            result = opened.ingest_url(url, namespace=args.namespace, fetcher=fetcher)
            results.append(result)
            progress.parsed()
            progress.update(result.status)
    except BaseException:
        progress.close(finished=False)
        raise
    progress.close()
    pruned = _folders(opened, args.namespace, local_paths, listing, prune=args.prune)
    make_visible(opened)
    print_summary(results, time.perf_counter() - started, namespace=args.namespace, store=args.store)
    for key in pruned:
        print(f"  {shown_line(key)}: deleted (its file is gone; --prune)")
    if not results and listing.skipped:  # an empty folder is a sync of nothing; a folder of skipped entries is not
        print("docshelf ingest: nothing ingested: every entry found was skipped (see above)", file=sys.stderr)
        return EXIT_FAILED
    return EXIT_FAILED if any(result.status == "failed" for result in results) else EXIT_OK


def _folders(
    services: LocalServices, namespace: str, paths: Sequence[Path], listing: Listing, *, prune: bool
) -> list[str]:
    """Remember each folder argument's keys (folder_records.py: those of every ingest since the last prune); with
    `prune`, first delete the documents they name whose files are gone. Returns the keys deleted."""
    live = {r.source_key for r in services.registry.list(namespace) if r.status != "deleted"}
    pruned: list[str] = []
    for folder in (path for path in paths if path.is_dir()):
        keys = folder_keys(folder, listing)
        if keys is None:
            if prune:
                print(
                    f"docshelf ingest: {shown_line(str(folder))} not pruned: part of it could not be listed",
                    file=sys.stderr,
                )
            continue
        before = remembered(services.store, namespace, folder)
        if prune and before is None:
            reason = "no earlier ingest of it is recorded, so nothing is pruned; its files are recorded now"
            print(f"docshelf ingest: {shown_line(str(folder))}: {reason}", file=sys.stderr)
        for key in sorted((before or set()) - keys) if prune else []:
            if key in live and services.delete(namespace=namespace, source_key=key):
                pruned.append(key)
        remember(services.store, namespace, folder, keys if prune else keys | (before or set()))
    return pruned


def _fetcher(allow_hosts: Sequence[str]) -> Fetcher:
    """The SSRF-safe fetcher, letting through the internal hosts `--allow-host` names and no others."""
    from docshelf.fetch.fetcher import Fetcher, FetchLimits, host_key

    return Fetcher(limits=FetchLimits(allowed_hosts=frozenset(host_key(host) for host in allow_hosts)))


def is_url(item: str) -> bool:
    """A command-line input with a scheme (`https://…`): fetched, never read as a file (refused unless http(s))."""
    scheme, separator, _rest = item.partition("://")
    return bool(separator) and scheme.isascii() and scheme.isalpha()


def _collisions(listing: Listing, namespace: str) -> list[IngestResult]:
    """Different files claiming one source key: each is refused (nothing is written for that key)."""
    return [
        _refused(namespace, key, path, [other for other in paths if other != path])
        for key, paths in sorted(listing.collisions.items())
        for path in paths
    ]


def _refused(namespace: str, key: str, path: str, others: list[str]) -> IngestResult:
    message = f"{path} not ingested: {', '.join(others)} has the same source key (use one folder, or two namespaces)"
    return IngestResult(namespace, "", key, "failed", error_code=KEY_COLLISION, error_message=message)


def print_summary(results: Sequence[IngestResult], seconds: float, *, namespace: str, store: Path) -> None:
    statuses = Counter(result.status for result in results)
    chunks = sum(result.chunks for result in results)
    place = shown_line(f"(namespace {namespace}, store {shown(store)})")
    print(f"{status_counts(statuses)}, {chunks} chunks, {seconds:.2f}s {place}")
    for result in sorted((r for r in results if r.status != "ok"), key=lambda r: r.source_key):
        print("  " + shown_line(f"{result.source_key}: {result.status} [{result.error_code}] {result.error_message}"))


def make_visible(services: LocalServices) -> None:
    """The command's writes durable and searchable before it returns."""
    services.index.commit()


def _progress(total: int, *, quiet: bool) -> Progress:
    if quiet:
        return _NoProgress()
    if sys.stderr.isatty():
        return _Bar(total)
    return ProgressLines(total, sys.stderr)


class _NoProgress:
    def parsed(self) -> None:
        pass

    def update(self, status: str) -> None:
        pass

    def close(self, *, finished: bool = True) -> None:
        pass


class _Bar:
    """The bar advances as files are parsed (so its rate and ETA are the parse's); the files published so far, by
    status, follow it: a batch is published several files at once."""

    def __init__(self, total: int) -> None:
        from tqdm import tqdm

        tqdm.monitor_interval = 0  # no monitor thread: ingest forks parse workers, which needs a single thread
        self._bar: Any = tqdm(total=total, unit="file", desc="parsed", file=sys.stderr, dynamic_ncols=True)
        self._statuses: Counter[str] = Counter()

    def parsed(self) -> None:
        self._bar.update(1)

    def update(self, status: str) -> None:
        self._statuses[status] += 1
        published = sum(self._statuses.values())
        self._bar.set_postfix_str(f"published {published}: {status_counts(self._statuses)}")

    def close(self, *, finished: bool = True) -> None:
        self._bar.close()

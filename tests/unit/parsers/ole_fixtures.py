"""OLE compound files for tests (no installed library writes .doc or .ppt): a minimal writer, version 3 with
512-byte sectors, every stream padded to the 4096-byte mini-stream cutoff so no mini FAT is needed."""

from __future__ import annotations

import struct

SECTOR = 512
FREE, END, FATSECT = 0xFFFFFFFF, 0xFFFFFFFE, 0xFFFFFFFD


def compound_file(streams: dict[str, bytes]) -> bytes:
    """Streams by name; a name `storage/inner/stream` puts the stream in storages below the root."""
    # Siblings form a binary search tree ordered as MS-CFB compares names (length first, then upper case): each
    # entry's right sibling is the next name in that order, a valid (if unbalanced) tree.
    order = _cfb_order
    children: dict[str, set[str]] = {"": set()}  # a storage's path ("" the root) -> its entries' names
    for name in streams:
        parts = name.split("/")
        for depth, part in enumerate(parts):
            children.setdefault("/".join(parts[:depth]), set()).add(part)
    placed: list[str] = []  # every entry's path, in directory order after the root (a storage's entries together)
    pending = [""]
    while pending:
        parent = pending.pop(0)
        for name in sorted(children.get(parent, ()), key=order):
            path = f"{parent}/{name}" if parent else name
            placed.append(path)
            if path not in streams:
                pending.append(path)
    index = {path: at + 1 for at, path in enumerate(placed)}
    files = [(path, streams[path]) for path in placed if path in streams]
    bodies = [body.ljust(max(4096, -(-len(body) // SECTOR) * SECTOR), b"\0") for _, body in files]
    counts = [len(body) // SECTOR for body in bodies]
    dir_sectors = -(-(len(placed) + 1) // 4)
    data_sectors = sum(counts) + dir_sectors
    fat_sectors = 1
    while (data_sectors + fat_sectors) > fat_sectors * 128:
        fat_sectors += 1
    fat: list[int] = [FATSECT] * fat_sectors
    starts = {}
    for (path, _), count in zip(files, counts, strict=True):
        starts[path] = len(fat)
        fat.extend([*range(len(fat) + 1, len(fat) + count), END])
    dir_start = len(fat)
    fat.extend([*range(len(fat) + 1, len(fat) + dir_sectors), END])
    fat.extend([FREE] * (fat_sectors * 128 - len(fat)))
    entries = [_entry("Root Entry", 5, END, 0, child=1 if placed else FREE)]
    sizes = {path: len(body) for (path, _), body in zip(files, bodies, strict=True)}
    for path in placed:
        parent, _, name = path.rpartition("/")
        siblings = sorted(children[parent], key=order)
        following = siblings.index(name) + 1
        right = (
            index[f"{parent}/{siblings[following]}" if parent else siblings[following]]
            if following < len(siblings)
            else FREE
        )
        if path in starts:
            entries.append(_entry(name, 2, starts[path], sizes[path], right=right))
        else:
            first = sorted(children[path], key=order)[0]
            entries.append(_entry(name, 1, 0, 0, child=index[f"{path}/{first}"], right=right))
    entries += [_entry("", 0, 0, 0)] * (dir_sectors * 4 - len(entries))
    directory = b"".join(entries)
    difat = list(range(fat_sectors)) + [FREE] * (109 - fat_sectors)
    header = struct.pack(
        "<8s16sHHHHH6sIIIIIIIII",
        b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1",
        b"\0" * 16,
        0x3E,
        3,
        0xFFFE,
        9,
        6,
        b"\0" * 6,
        0,
        fat_sectors,
        dir_start,
        0,
        4096,
        END,
        0,
        END,
        0,
    ) + struct.pack("<109I", *difat)
    fat_bytes = struct.pack(f"<{len(fat)}I", *fat)
    return header + fat_bytes + b"".join(bodies) + directory


def _cfb_order(name: str) -> tuple[int, str]:
    return len(name), name.upper()


def _entry(name: str, kind: int, start: int, size: int, *, child: int = FREE, right: int = FREE) -> bytes:
    encoded = (name + "\0").encode("utf-16-le") if name else b""
    return struct.pack(
        "<64sHBBIII16sIQQIII",
        encoded.ljust(64, b"\0"),
        len(encoded),
        kind,
        1,
        FREE,
        right,
        child,
        b"\0" * 16,
        0,
        0,
        0,
        start,
        size,
        0,
    )


WORD_TEXT_OFFSET = 2048
PAPX_PAGE = 8  # the paragraph properties' 512-byte page in the WordDocument stream (after FIB and text)


def word97_document(
    paragraphs: list[str],
    *,
    encrypted: bool = False,
    stylesheet: bool = False,
    headings: dict[int, int] | None = None,
    properties: dict[int, bytes] | None = None,
    footnotes: list[str] | None = None,
    text_boxes: list[str] | None = None,
    lists: list[list[tuple[int, str]]] | None = None,
    style_sprms: dict[int, bytes] | None = None,
    style_names: dict[int, str] | None = None,
    style_characters: dict[int, bytes] | None = None,
    characters: dict[int, bytes] | None = None,
    pictures: dict[int, bytes] | None = None,
) -> bytes:
    """A Word 97 file as MS-DOC describes it: a FIB, the text as UTF-16 in one piece, the piece table in the 1Table
    stream. With `headings` (paragraph index -> level 1-9), a stylesheet of Normal and Heading 1-9 (their built-in
    style ids) and a page of paragraph properties giving each paragraph its style, and the sprms of `properties`
    (paragraph index -> grpprl). With `stylesheet` alone, an STSH of one empty slot and no paragraph properties:
    unword panics on it, legacy-doc reads it. A paragraph "\x0c" is a page break; one ending with BEL is a table
    cell (or, with sprmPFTtp, a row's end) and gets no paragraph mark of its own. Each "\x02" of the text cites
    the next of `footnotes`, each "\x08" anchors the next of `text_boxes` (their paragraphs CR-separated). Each
    of `lists` is a list definition, its levels (nfc, label template with "\x00" for level 1's number, "\x01" for
    level 2's…), used by LFO (ilfo) n for the nth definition; `style_sprms` gives styles (istd) sprms of their own,
    `style_names` makes styles user-defined ones of that name (`headings` then gives paragraphs that style),
    `style_characters` gives styles character sprms (their second UPX); `characters` (paragraph index -> grpprl)
    sets a paragraph's characters, through a page of character properties after the paragraph properties'.
    `pictures` (paragraph index -> PNG bytes) makes those paragraphs an inline picture each (a 0x01 character whose
    run locates its PICF and OfficeArt blip in a Data stream)."""
    data_stream = b""
    if pictures:
        characters = dict(characters or {})
        paragraphs = list(paragraphs)
        for index, png in pictures.items():
            paragraphs[index] = "\x01\x07" if paragraphs[index].endswith("\x07") else "\x01"  # a cell's picture
            location = struct.pack("<HB", 0x0855, 1) + struct.pack("<HI", 0x6A03, len(data_stream))
            characters[index] = characters.get(index, b"") + location
            data_stream += _picf(png)
    paragraphs = [paragraph if paragraph.endswith("\x07") else paragraph + "\r" for paragraph in paragraphs]
    main = "".join(paragraphs)
    stories, story_plcs = _stories(main, footnotes or [], text_boxes or [])
    text = (main + stories).encode("utf-16-le")
    if WORD_TEXT_OFFSET + len(text) > PAPX_PAGE * 512:
        raise ValueError("the fixture's text must fit before its paragraph-properties page")
    fib = bytearray(WORD_TEXT_OFFSET)
    struct.pack_into("<HHHHH", fib, 0, 0xA5EC, 0x00C1, 0, 0x0409, 0)
    struct.pack_into("<H", fib, 0x0A, (1 << 9) | (0x0100 if encrypted else 0))  # fWhichTblStm, fEncrypted
    struct.pack_into("<H", fib, 0x0C, 0x00BF)
    struct.pack_into("<II", fib, 0x18, WORD_TEXT_OFFSET, WORD_TEXT_OFFSET + len(text))  # fcMin, fcMac
    struct.pack_into("<H", fib, 32, 14)  # csw
    struct.pack_into("<H", fib, 62, 22)  # cslw
    struct.pack_into("<I", fib, 64, (PAPX_PAGE + 1) * 512)  # cbMac
    struct.pack_into("<I", fib, 76, _units(main))  # ccpText
    struct.pack_into("<I", fib, 80, len("".join(f"\x02 {note}\r" for note in footnotes or [])) + bool(footnotes))
    struct.pack_into("<I", fib, 100, len("".join(f"{box}\r" for box in text_boxes or [])) + bool(text_boxes))
    struct.pack_into("<H", fib, 152, 0x5D)  # cbRgFcLcb
    piece = struct.pack("<HIH", 0, WORD_TEXT_OFFSET, 0)  # not compressed: UTF-16 at this byte offset
    plc = struct.pack("<II", 0, len(text) // 2) + piece
    clx = b"\x02" + struct.pack("<I", len(plc)) + plc
    word = (bytes(fib) + text).ljust(PAPX_PAGE * 512, b"\0")
    stsh, bte, chpx_bte = b"", b"", b""
    if headings is not None or properties is not None or characters is not None:
        stsh = _heading_stylesheet(style_sprms or {}, style_names or {}, style_characters or {})
        page, bte = _paragraph_styles(paragraphs, headings or {}, properties or {})
        word += page
        if characters is not None:
            chpx_page, chpx_bte = _character_runs(paragraphs, characters)
            word += chpx_page
            struct.pack_into("<I", fib, 64, (PAPX_PAGE + 2) * 512)  # cbMac
    elif stylesheet:
        stsh = _one_slot_stylesheet()
    table = stsh + bte + clx + chpx_bte
    struct.pack_into("<II", fib, 154 + 12 * 8, len(stsh + bte + clx), len(chpx_bte))  # fcPlcfBteChpx
    struct.pack_into("<II", fib, 154 + 1 * 8, 0, len(stsh))  # fcStshf, lcbStshf
    struct.pack_into("<II", fib, 154 + 13 * 8, len(stsh), len(bte))  # fcPlcfBtePapx, lcbPlcfBtePapx
    struct.pack_into("<II", fib, 154 + 33 * 8, len(stsh) + len(bte), len(clx))  # fcClx, lcbClx
    for index, plc_data in story_plcs.items():
        struct.pack_into("<II", fib, 154 + index * 8, len(table), len(plc_data))
        table += plc_data
    if lists:
        plf_lst, levels, plf_lfo = _lists(lists)
        struct.pack_into("<II", fib, 154 + 73 * 8, len(table), len(plf_lst))  # fcPlfLst: its LVLs follow it
        table += plf_lst + levels
        struct.pack_into("<II", fib, 154 + 74 * 8, len(table), len(plf_lfo))  # fcPlfLfo
        table += plf_lfo
    word = bytes(fib) + word[WORD_TEXT_OFFSET:]
    streams = {"WordDocument": word, "1Table": table}
    return compound_file({**streams, "Data": data_stream} if data_stream else streams)


def _picf(png: bytes) -> bytes:
    """A PICF of an MM_SHAPE picture (its 0x44-byte header) followed by an FBSE holding a PNG blip (one UID, a tag)."""
    blip = struct.pack("<HHI", 0x6E0 << 4, 0xF01E, 17 + len(png)) + bytes(16) + b"\xff" + png
    fbse = struct.pack("<HHI", 2 | (6 << 4), 0xF007, 36 + len(blip)) + bytes(36) + blip
    header = bytearray(0x44)
    struct.pack_into("<IHH", header, 0, 0x44 + len(fbse), 0x44, 0x0064)
    return bytes(header) + fbse


def _stories(main: str, footnotes: list[str], boxes: list[str]) -> tuple[str, dict[int, bytes]]:
    """The footnote and text-box stories after the main text (each ending with one more CR, as Word ends them),
    and their PLCs by FibRgFcLcb97 index: PlcffndRef (2) and PlcffndTxt (3), PlcfSpaMom (40), PlcftxbxTxt (56)."""
    plcs: dict[int, bytes] = {}
    text = ""
    if footnotes:
        refs = [_units(main[:at]) for at, char in enumerate(main) if char == "\x02"]
        notes = [f"\x02 {note}\r" for note in footnotes]
        starts = [sum(len(note) for note in notes[:index]) for index in range(len(notes) + 1)]
        plcs[2] = _plc([*refs, _units(main)], [struct.pack("<H", index + 1) for index in range(len(refs))])
        plcs[3] = _plc([*starts, starts[-1] + 1], [])
        text += "".join(notes) + "\r"
    if boxes:
        anchors = [_units(main[:at]) for at, char in enumerate(main) if char == "\x08"]
        spids = [0x400 + index for index in range(len(boxes))]
        plcs[40] = _plc([*anchors, _units(main)], [struct.pack("<I", spid).ljust(26, b"\0") for spid in spids])
        stories = [f"{box}\r" for box in boxes]
        starts = [sum(len(story) for story in stories[:index]) for index in range(len(stories) + 1)]
        ftxbxs = [struct.pack("<iiHiii", 1, 0, 0, -1, spid, 0) for spid in spids] + [b"\0" * 22]  # the dummy
        plcs[56] = _plc([*starts, starts[-1] + 1], ftxbxs)
        text += "".join(stories) + "\r"
    return text, plcs


def _units(text: str) -> int:
    """The positions `text` takes in a Word file: UTF-16 code units (two for a character beyond the BMP)."""
    return len(text.encode("utf-16-le")) // 2


def _plc(cps: list[int], data: list[bytes]) -> bytes:
    return struct.pack(f"<{len(cps)}I", *cps) + b"".join(data)


def _one_slot_stylesheet() -> bytes:
    return _stylesheet([b""])


def _heading_stylesheet(sprms: dict[int, bytes], names: dict[int, str], characters: dict[int, bytes]) -> bytes:
    """istd 0 Normal (sti 0), istd 1-9 Heading 1-9 (sti 1-9): paragraph styles of the built-in ids; a style
    renamed in `names` is user-defined (sti 0xFFE)."""
    styles = [
        (0xFFE, names[istd]) if istd in names else (istd, "Normal" if istd == 0 else f"heading {istd}")
        for istd in range(10)
    ]
    return _stylesheet(
        [_style(sti, name, sprms.get(istd, b""), characters.get(istd, b"")) for istd, (sti, name) in enumerate(styles)]
    )


def _lists(lists: list[list[tuple[int, str]]]) -> tuple[bytes, bytes, bytes]:
    """PlfLst (an LSTF a list, lsid 1, 2…), the LVLs after it (a simple list has one level, else nine), PlfLfo
    (an LFO a list, without overrides)."""
    plf_lst = struct.pack("<H", len(lists))
    levels = b""
    for lsid, definition in enumerate(lists, start=1):
        simple = len(definition) == 1
        plf_lst += struct.pack("<ii18sBB", lsid, 0, b"\xff\x0f" * 9, 1 if simple else 0, 0)
        for nfc, template in (definition if simple else [*definition, *[(0, "")] * (9 - len(definition))])[:9]:
            lvlf = struct.pack("<iBB9sBiiBBBB", 1, nfc, 0, b"\0" * 9, 0, 0, 0, 0, 0, 0, 0)
            levels += lvlf + struct.pack("<H", len(template)) + template.encode("utf-16-le")
    plf_lfo = struct.pack("<I", len(lists)) + b"".join(
        struct.pack("<iiiBBBB", lsid, 0, 0, 0, 0, 0, 0) for lsid in range(1, len(lists) + 1)
    )
    plf_lfo += struct.pack("<I", 0xFFFFFFFF) * len(lists)  # each LFO's LFOData: a cp, no LFOLVL
    return plf_lst, levels, plf_lfo


def _stylesheet(styles: list[bytes]) -> bytes:
    # STSHI: cstd, cbSTDBaseInFile 10, fStdStylenamesWritten, stiMaxWhenSaved, istdMaxFixedWhenSaved, version,
    # three default fonts; then each style as an LPStd (a 0 length is an empty slot).
    stshi = struct.pack("<HHHHHH", len(styles), 10, 1, 0x5B, 15, 0) + struct.pack("<HHH", 0, 0, 0)
    return struct.pack("<H", len(stshi)) + stshi + b"".join(struct.pack("<H", len(std)) + std for std in styles)


def _style(sti: int, name: str, sprms: bytes = b"", characters: bytes = b"") -> bytes:
    # StdfBase: sti, stk 1 (paragraph) with istdBase 0, cupx 2 with istdNext 0, bchUpe, grfstd; the name; two
    # UPXs (paragraph: its istd and `sprms`, padded to an even size; character: `characters`).
    base = struct.pack("<HHHHH", sti, 1, 2, 0, 0)
    body = base + struct.pack("<H", len(name)) + name.encode("utf-16-le") + b"\0\0"
    papx = struct.pack("<H", sti) + sprms
    chpx = struct.pack("<H", len(characters)) + characters + b"\0" * (len(characters) % 2)
    return body + struct.pack("<H", len(papx)) + papx + b"\0" * (len(papx) % 2) + chpx


def _property_page(paragraphs: list[str]) -> tuple[bytearray, list[int]]:
    """A property page (FKP) with each paragraph's byte range in the text, and those ranges' bounds."""
    page = bytearray(512)
    fcs = [WORD_TEXT_OFFSET]
    for paragraph in paragraphs:
        fcs.append(fcs[-1] + len(paragraph.encode("utf-16-le")))
    struct.pack_into(f"<{len(paragraphs) + 1}I", page, 0, *fcs)
    return page, fcs


def _character_runs(paragraphs: list[str], characters: dict[int, bytes]) -> tuple[bytes, bytes]:
    """(the CHPX FKP page, the PlcBteChpx pointing at it): a run a paragraph, with its sprms when it has some."""
    page, fcs = _property_page(paragraphs)
    runs = len(paragraphs)
    position = 511
    for index in range(runs):
        grpprl = characters.get(index, b"")
        if not grpprl:
            continue
        position = (position - 1 - len(grpprl)) & ~1
        page[position] = len(grpprl)
        page[position + 1 : position + 1 + len(grpprl)] = grpprl
        page[4 * (runs + 1) + index] = position // 2
    if 4 * (runs + 1) + runs > position:
        raise ValueError("the fixture's paragraphs must fit on one page of character properties")
    page[511] = runs
    return bytes(page), struct.pack("<III", fcs[0], fcs[-1], PAPX_PAGE + 1)


def _paragraph_styles(
    paragraphs: list[str], headings: dict[int, int], properties: dict[int, bytes]
) -> tuple[bytes, bytes]:
    """(the PAPX FKP page, the PlcBtePapx pointing at it): each paragraph's byte range (its mark included), its
    style and sprms; paragraphs of the same properties share one PAPX, as Word writes them."""
    page, fcs = _property_page(paragraphs)
    runs = len(paragraphs)
    position = 511
    written: dict[bytes, int] = {}
    for index in range(runs):
        grpprl = struct.pack("<H", headings.get(index, 0)) + properties.get(index, b"")
        grpprl += b"\0" * (len(grpprl) % 2)
        papx = b"\x00" + bytes([len(grpprl) // 2]) + grpprl  # cb 0, cb': the grpprl's size in words
        if papx not in written:
            position = (position - len(papx)) & ~1
            page[position : position + len(papx)] = papx
            written[papx] = position
        page[4 * (runs + 1) + 13 * index] = written[papx] // 2
    if 4 * (runs + 1) + 13 * runs > position:
        raise ValueError("the fixture's paragraphs must fit on one page of paragraph properties")
    page[511] = runs
    return bytes(page), struct.pack("<III", fcs[0], fcs[-1], PAPX_PAGE)


WORD6_TEXT_OFFSET = 0x600


def word6_document(text: str, *, n_fib: int = 101, lid: int = 0x0409, fast_saved: bool = False) -> bytes:
    """A Word 6.0 (nFib 101) or Word 95 (104) file: `text` with its CR / BEL / FF marks in the document's code page.
    Saved normally, it lies at fcMin; fast-saved, it is two pieces stored in reverse order behind a piece table in
    the WordDocument stream (fcClx at 0x160), as Word 6.0/95 keep it."""
    encoding = {0x0411: "cp932", 0x0804: "cp936"}.get(lid, "cp1252")
    encoded = text.encode(encoding)
    stream = bytearray(WORD6_TEXT_OFFSET + 2 * len(encoded) + 512)
    struct.pack_into("<HHHH", stream, 0, 0xA5DC, n_fib, 0, lid)
    struct.pack_into("<H", stream, 0x0A, 0x0004 if fast_saved else 0)
    struct.pack_into("<II", stream, 0x18, WORD6_TEXT_OFFSET, WORD6_TEXT_OFFSET + len(encoded))  # fcMin, fcMac
    struct.pack_into("<I", stream, 0x34, len(text))  # ccpText
    if not fast_saved:
        stream[WORD6_TEXT_OFFSET : WORD6_TEXT_OFFSET + len(encoded)] = encoded
        return compound_file({"WordDocument": bytes(stream)})
    half = len(text) // 2
    first, second = text[:half].encode(encoding), text[half:].encode(encoding)
    second_at = WORD6_TEXT_OFFSET
    first_at = second_at + len(second) + 16
    stream[second_at : second_at + len(second)] = second
    stream[first_at : first_at + len(first)] = first
    plc = (
        struct.pack("<III", 0, half, len(text))
        + struct.pack("<HIH", 0, first_at, 0)
        + struct.pack("<HIH", 0, second_at, 0)
    )
    clx = b"\x01" + struct.pack("<H", 2) + b"\x00\x00" + b"\x02" + struct.pack("<I", len(plc)) + plc
    clx_at = 0x300
    stream[clx_at : clx_at + len(clx)] = clx
    struct.pack_into("<II", stream, 0x160, clx_at, len(clx))
    return compound_file({"WordDocument": bytes(stream)})


def _record(record_type: int, payload: bytes, *, container: bool = False, instance: int = 0) -> bytes:
    return struct.pack("<HHI", (instance << 4) | (0xF if container else 0), record_type, len(payload)) + payload


def powerpoint97_document(slides: list[list[tuple[int | None, int, str]]]) -> bytes:
    """A PowerPoint 97 file of `slides`, each a list of text shapes (placementId of its OEPlaceholderAtom or None,
    TextHeaderAtom text type, text): a DocumentContainer listing the slides (SlideListWithText), the
    SlideContainers with their OfficeArt shapes, a persist directory and the UserEditAtom the Current User stream
    points at."""
    document = _record(0x03E9, struct.pack("<II", 5760, 4320) + b"\0" * 32)  # DocumentAtom: slide size (master units)
    persists = b"".join(
        _record(0x03F3, struct.pack("<IIiII", 2 + index, 0, 0, 256 + index, 0)) for index in range(len(slides))
    )  # SlidePersistAtom: persistIdRef, flags, cTexts, slideId, reserved
    document += _record(0x0FF0, persists, container=True)
    stream = _record(0x03E8, document, container=True)
    offsets = [0]
    for shapes in slides:
        offsets.append(len(stream))
        stream += _record(0x03EE, _slide_records(shapes), container=True)
    directory_at = len(stream)
    entry = ((len(offsets)) << 20) | 1  # persist ids 1 (the document), 2… (the slides)
    stream += _record(0x1772, struct.pack(f"<I{len(offsets)}I", entry, *offsets))
    edit_at = len(stream)
    stream += _record(
        0x0FF5, struct.pack("<IHBBIIIIHH", 0, 0, 0, 3, 0, directory_at, 1, len(offsets) + 1, 1, 0) + b"\0" * 4
    )
    current_user = _record(0x0FF6, struct.pack("<IIIHHBBH", 20, 0xE391C05F, edit_at, 0, 0x03F4, 3, 0, 0), instance=0)
    return compound_file({"Current User": current_user, "PowerPoint Document": stream})


def _slide_records(shapes: list[tuple[int | None, int, str]]) -> bytes:
    slide_atom = _record(0x03EF, struct.pack("<I8sIIHH", 0, b"\0" * 8, 0x80000000, 0, 0, 0))  # SlideAtom
    group = _record(
        0xF004, _record(0xF009, b"\0" * 16) + _record(0xF00A, struct.pack("<II", 0x400, 0x5)), container=True
    )
    for index, (placement, text_type, text) in enumerate(shapes):
        sp = _record(0xF00A, struct.pack("<II", 0x401 + index, 0xA00), instance=202)  # FSP: a text box
        sp += _record(0xF010, struct.pack("<hhhh", 100, 100 + 600 * index, 5000, 600 + 600 * index))  # anchor
        if placement is not None:
            sp += _record(0xF011, _record(0x0BC3, struct.pack("<iBBH", index, placement, 0, 0)), container=True)
        box = _record(0x0F9F, struct.pack("<I", text_type)) + _record(0x0FA0, text.encode("utf-16-le"))
        sp += _record(0xF00D, box, container=True)
        group += _record(0xF004, sp, container=True, instance=0)
    drawing = _record(
        0xF002,
        _record(0xF008, struct.pack("<II", len(shapes) + 1, 0x400)) + _record(0xF003, group, container=True),
        container=True,
    )
    return slide_atom + _record(0x040C, drawing, container=True)

"""The lists of a Word 97-2003 file: the labels ("2.3", "a)", "IV.") Word draws in front of its list paragraphs.

A list paragraph names its list by an LFO index (ilfo, 1-based) and its level (ilvl), directly or through its
paragraph style. The LFO (PlfLfo) names a list definition (LSTF, by lsid) and may restart or reformat some
levels (LFOLVL); the definition (PlfLst, its LVLs right after it) gives each level its start, number format (nfc)
and label template (an xst whose characters 0-8 stand for the levels' numbers). The counting is WordprocessingML's
(docx_numbering), one list definition counting for all the LFOs using it.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

from docshelf.parsers.office.code_blocks import is_code_style
from docshelf.parsers.office.doc_props import ParagraphStyles, sprms
from docshelf.parsers.office.docx_numbering import Level, Numbering

FIB_FC_LCB = 154
PLF_LST, PLF_LFO, STSHF = 73, 74, 1
LSTF_SIZE, LVLF_SIZE, LFO_SIZE = 28, 28, 16
_FORMATS = {0: "decimal", 1: "upperRoman", 2: "lowerRoman", 3: "upperLetter", 4: "lowerLetter", 22: "decimalZero"}
_FORMATS.update({23: "bullet", 255: "none"})
SPRM_ILVL, SPRM_ILFO = 0x260A, 0x460B
SPRM_OUTLINE_LEVEL = 0x2640  # sprmPOutLvl: 0-8 a heading's level less one, 9 body text
SPRM_BOLD, SPRM_HALF_POINTS = 0x0835, 0x4A43  # sprmCFBold, sprmCHps: a style's character properties
DEFAULT_HALF_POINTS = 20  # the size a paragraph has when no style sets one (the default CHP: 10 pt)
HEADING_STIS = range(1, 10)  # the built-in styles "heading 1" to "heading 9" (sti)


def list_numbering(word_document: bytes, table: bytes) -> Numbering:
    """The file's lists as docx_numbering counts them: num ids are ilfo, abstract ids lsid (empty when the file
    has none, or they cannot be read)."""
    try:
        return _numbering(word_document, table)
    except (struct.error, IndexError, ValueError):
        return Numbering.of({}, {})


def _numbering(word_document: bytes, table: bytes) -> Numbering:
    fc, size = _fc_lcb(word_document, PLF_LST)
    abstract: dict[str, dict[int, Level]] = {}
    if size >= 2 and fc + size <= len(table):
        count = struct.unpack_from("<H", table, fc)[0]
        at = fc + size  # the LVLs follow the PlfLst
        for index in range(count):
            lstf = fc + 2 + LSTF_SIZE * index
            lsid = struct.unpack_from("<i", table, lstf)[0]
            levels: dict[int, Level] = {}
            for ilvl in range(1 if table[lstf + 26] & 1 else 9):  # fSimpleList: one level
                levels[ilvl], at = _level(table, at)
            abstract[str(lsid)] = levels
    nums: dict[str, str] = {}
    starts: dict[str, dict[int, int]] = {}
    overrides: dict[str, dict[int, Level]] = {}
    fc, size = _fc_lcb(word_document, PLF_LFO)
    if size >= 4 and fc + size <= len(table):
        count = min(struct.unpack_from("<I", table, fc)[0], (size - 4) // LFO_SIZE)
        at = fc + 4 + LFO_SIZE * count  # then each LFO's LFOData: a cp, then its LFOLVLs
        for index in range(count):
            lfo = fc + 4 + LFO_SIZE * index
            ilfo = str(index + 1)
            nums[ilfo] = str(struct.unpack_from("<i", table, lfo)[0])
            at += 4
            for _ in range(table[lfo + 12]):  # clfolvl
                start, flags = struct.unpack_from("<iI", table, at)
                at += 8
                ilvl = flags & 0x0F
                if flags & 0x10:  # fStartAt
                    starts.setdefault(ilfo, {})[ilvl] = start
                if flags & 0x20:  # fFormatting: a whole LVL follows
                    overrides.setdefault(ilfo, {})[ilvl], at = _level(table, at)
    return Numbering.of(abstract, nums, starts=starts, levels=overrides)


def _level(table: bytes, at: int) -> tuple[Level, int]:
    """An LVL at `at`, and where the next one starts."""
    start, nfc, flags = struct.unpack_from("<iBB", table, at)
    chpx, papx, restart_limit = table[at + 24], table[at + 25], table[at + 26]
    xst = at + LVLF_SIZE + papx + chpx
    cch = struct.unpack_from("<H", table, xst)[0]
    raw = table[xst + 2 : xst + 2 + 2 * cch]
    if len(raw) < 2 * cch:
        raise ValueError("a list level cut short")
    text = "".join(f"%{ord(char) + 1}" if ord(char) < 9 else char for char in raw.decode("utf-16-le", "replace"))
    level = Level(
        start=start,
        num_fmt=_FORMATS.get(nfc, "decimal"),
        text=text,
        restart_after=restart_limit if flags & 0x08 else None,  # fNoRestart: restarts only after ilvlRestartLim
        legal=bool(flags & 0x04),
    )
    return level, xst + 2 + 2 * cch


def paragraph_styles(word_document: bytes, table: bytes) -> ParagraphStyles:
    """What the paragraph styles (through their base styles) give their paragraphs: a list, code, a heading's
    level (a built-in heading style's, or an outline level's: a style of its own based on "heading 2" is one)."""
    styles = _paragraph_styles(word_document, table)
    lists: dict[int, tuple[int, int]] = {}
    code: set[int] = set()
    headings: dict[int, int] = {}
    looks: dict[int, tuple[bool, int]] = {}
    for istd in styles:
        chain: dict[int, int] = {}
        seen = istd
        for _ in range(11):  # the style, then its bases: the nearest setting wins
            style = styles.get(seen)
            if style is None:
                break
            for sprm, value in style.sprms.items():
                chain.setdefault(sprm, value)
            if is_code_style(style.name):
                code.add(istd)
            if style.sti in HEADING_STIS:
                chain.setdefault(SPRM_OUTLINE_LEVEL, style.sti - 1)
            seen = style.base
        if chain.get(SPRM_ILFO, 0) > 0:
            lists[istd] = (chain[SPRM_ILFO], chain.get(SPRM_ILVL, 0))
        if chain.get(SPRM_OUTLINE_LEVEL, 9) < 9:
            headings[istd] = chain[SPRM_OUTLINE_LEVEL] + 1
        looks[istd] = (chain.get(SPRM_BOLD, 0) & 1 == 1, chain.get(SPRM_HALF_POINTS, DEFAULT_HALF_POINTS))
    return ParagraphStyles(lists, frozenset(code), headings, looks)


@dataclass(frozen=True, slots=True)
class _Style:
    sti: int  # the built-in style's id, 0x0FFE for a user-defined style
    base: int  # istdBase, 0x0FFF for none
    name: str
    sprms: dict[int, int]  # the list and outline sprms of its own paragraph properties, its bold and size


def _paragraph_styles(word_document: bytes, table: bytes) -> dict[int, _Style]:
    """The stylesheet's paragraph styles by index (none when it cannot be read)."""
    fc, size = _fc_lcb(word_document, STSHF)
    if size < 4 or fc + size > len(table):
        return {}
    styles: dict[int, _Style] = {}
    try:
        header = struct.unpack_from("<H", table, fc)[0]
        count = struct.unpack_from("<H", table, fc + 2)[0]
        base_size = struct.unpack_from("<H", table, fc + 4)[0]
        at = fc + 2 + header
        for istd in range(count):
            length = struct.unpack_from("<H", table, at)[0]
            std = at + 2
            at = std + length
            if not length or at > fc + size:
                continue
            sti, kind_base = struct.unpack_from("<HH", table, std)
            if kind_base & 0x0F != 1:  # a paragraph style
                continue
            name = std + base_size
            characters = struct.unpack_from("<H", table, name)[0]
            upx = name + 2 + 2 * (characters + 1)
            upx_size = struct.unpack_from("<H", table, upx)[0]
            character = upx + 2 + upx_size + (upx_size & 1)  # the second UPX: the style's character properties
            character_size = struct.unpack_from("<H", table, character)[0] if character + 2 <= at else 0
            own = _list_sprms(table[upx + 4 : upx + 2 + upx_size])  # after the UPX's istd
            own.update(_look_sprms(table[character + 2 : min(character + 2 + character_size, at)]))
            styles[istd] = _Style(
                sti=sti & 0x0FFF,
                base=kind_base >> 4,
                name=table[name + 2 : name + 2 + 2 * characters].decode("utf-16-le", "replace"),
                sprms=own,
            )
    except struct.error:
        return {}
    return styles


def _list_sprms(grpprl: bytes) -> dict[int, int]:
    found = sprms(grpprl)
    values: dict[int, int] = {}
    if SPRM_ILFO in found and len(found[SPRM_ILFO]) >= 2:
        values[SPRM_ILFO] = int.from_bytes(found[SPRM_ILFO][:2], "little", signed=True)
    if found.get(SPRM_ILVL):
        values[SPRM_ILVL] = min(found[SPRM_ILVL][0], 8)
    if found.get(SPRM_OUTLINE_LEVEL):
        values[SPRM_OUTLINE_LEVEL] = min(found[SPRM_OUTLINE_LEVEL][0], 9)
    return values


def _look_sprms(grpprl: bytes) -> dict[int, int]:
    """A style's bold (0 or 1; Word's 0x80, "as the base style", left to the base, and its opposite 0x81 read as
    bold, the base being plain nearly always) and size."""
    found = sprms(grpprl)
    values: dict[int, int] = {}
    if found.get(SPRM_BOLD) and found[SPRM_BOLD][0] != 0x80:
        values[SPRM_BOLD] = 1 if found[SPRM_BOLD][0] == 0x81 else found[SPRM_BOLD][0] & 1
    if len(found.get(SPRM_HALF_POINTS, b"")) == 2:
        values[SPRM_HALF_POINTS] = int.from_bytes(found[SPRM_HALF_POINTS], "little") or DEFAULT_HALF_POINTS
    return values


def _fc_lcb(word_document: bytes, index: int) -> tuple[int, int]:
    at = FIB_FC_LCB + 8 * index
    if at + 8 > len(word_document):
        return 0, 0
    fc, size = struct.unpack_from("<II", word_document, at)
    return fc, size

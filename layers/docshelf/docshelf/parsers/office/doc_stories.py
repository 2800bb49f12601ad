"""The stories of a Word 97-2003 file that its main text cites or anchors: footnotes, endnotes and text boxes.

Word keeps every story in one run of characters after the main text (ccpText): footnotes (ccpFtn), headers and
footers (ccpHdd), macros (ccpMcr), comments (ccpAtn), endnotes (ccpEdn), text boxes (ccpTxbx), then header text
boxes. A note's reference is a character of the main text (PlcffndRef, PlcfendRef: their positions), its text a
range of its story (PlcffndTxt, PlcfendTxt). A text box is the range of the text-box story (PlcftxbxTxt) whose
FTXBXS names the shape holding it (lid), and the main text anchors that shape at a character (PlcfSpaMom: each
position with its FSPA, the shape id first).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import Literal

FIB_CCP = 0x4C  # ccpText, ccpFtn, ccpHdd, ccpMcr, ccpAtn, ccpEdn, ccpTxbx, ccpHdrTxbx
FIB_FC_LCB = 154  # FibRgFcLcb97: (fc, lcb) pairs in the table stream
PLCF_FND_REF, PLCF_FND_TXT = 2, 3
PLCF_SPA_MOM = 40
PLCF_END_REF, PLCF_END_TXT = 46, 47
PLCF_TXBX_TXT = 56
FSPA_SIZE, FTXBXS_SIZE, FRD_SIZE = 26, 22, 2
FTXBXS_LID = 14  # after cTxbx/iNextReuse (4), cReusable (4), fReusable (2), itxbxsDest (4)


@dataclass(frozen=True, slots=True)
class Story:
    """A note or text box: its characters (marks included) and where they start in the file's text."""

    kind: Literal["footnote", "endnote", "box"]
    cp: int
    text: str


def story_lengths(word_document: bytes) -> list[int]:
    """ccpText, ccpFtn, ccpHdd, ccpMcr, ccpAtn, ccpEdn, ccpTxbx, ccpHdrTxbx."""
    return list(struct.unpack_from("<8I", word_document, FIB_CCP))


def cited_stories(word_document: bytes, table: bytes, text: str) -> dict[int, list[Story]]:
    """The footnotes, endnotes and text boxes by the main-text position citing or anchoring them, in story order
    (a text box whose shape is not anchored in the main text is at position ccpText, after it). `text`: the file's
    characters, all stories, one a position."""
    lengths = story_lengths(word_document)
    starts = [sum(lengths[:index]) for index in range(len(lengths))]
    cited: dict[int, list[Story]] = {}
    for kind, ref, txt, story in (
        ("footnote", PLCF_FND_REF, PLCF_FND_TXT, 1),
        ("endnote", PLCF_END_REF, PLCF_END_TXT, 5),
    ):
        refs = _plc(word_document, table, ref, FRD_SIZE)[0]
        ranges = _plc(word_document, table, txt, 0)[0]
        for index, cp in enumerate(refs[:-1]):
            if index + 1 < len(ranges) and cp < lengths[0]:
                start, end = starts[story] + ranges[index], starts[story] + min(ranges[index + 1], lengths[story])
                cited.setdefault(cp, []).append(Story(kind, start, text[start:end]))  # type: ignore[arg-type]
    anchors = _shape_anchors(word_document, table)
    boxes, box_data = _plc(word_document, table, PLCF_TXBX_TXT, FTXBXS_SIZE)
    for index in range(len(boxes) - 2):  # the last range is a dummy box
        start, end = starts[6] + boxes[index], starts[6] + min(boxes[index + 1], lengths[6])
        shape = int.from_bytes(box_data[index][FTXBXS_LID : FTXBXS_LID + 4], "little")
        cp = anchors.get(shape, lengths[0])
        cited.setdefault(min(cp, lengths[0]), []).append(Story("box", start, text[start:end]))
    return cited


def _shape_anchors(word_document: bytes, table: bytes) -> dict[int, int]:
    """The main-text position anchoring each shape, by shape id."""
    cps, data = _plc(word_document, table, PLCF_SPA_MOM, FSPA_SIZE)
    return {int.from_bytes(fspa[:4], "little"): cp for cp, fspa in zip(cps, data, strict=False)}


def _plc(word_document: bytes, table: bytes, index: int, size: int) -> tuple[tuple[int, ...], list[bytes]]:
    """A PLC of the table stream: its n+1 positions and n data items of `size` bytes (empty when absent)."""
    at = FIB_FC_LCB + 8 * index
    if at + 8 > len(word_document):
        return (), []
    fc, lcb = struct.unpack_from("<II", word_document, at)
    count = (lcb - 4) // (4 + size) if lcb >= 4 else 0
    if count < 1 or fc + lcb > len(table):
        return (), []
    cps = struct.unpack_from(f"<{count + 1}I", table, fc)
    first = fc + 4 * (count + 1)
    return cps, [table[first + size * item : first + size * (item + 1)] for item in range(count)]

"""Subtitles and transcripts (`.srt`, `.vtt`: a recording's captions, a meeting's transcript from Teams or Zoom):
what was said, without the cue numbers and timings, in a section for each five minutes of the recording (`00:05:00`,
so a citation says where to listen). Consecutive cues of one speaker (WebVTT's `<v Name>`, or a `Name:` the cues
begin with) are one paragraph, `Name: what they said`; without speakers, cues are joined into paragraphs at
sentence ends. Markup inside cues (`<i>`, `<c.colour>`, karaoke timestamps) and WebVTT's NOTE, STYLE and REGION
blocks are left out."""

from __future__ import annotations

import re
from dataclasses import dataclass

from docshelf.model import Block, Heading, Paragraph
from docshelf.parsers.base import ParsedContent, ParseLimits
from docshelf.parsers.textcodec import decode_text

SECTION_SECONDS = 300
PARAGRAPH_CHARS = 600  # a speakerless paragraph ends at the first sentence end past this
_TIMING = re.compile(
    r"^\s*(?:(\d+):)?(\d{1,2}):(\d{2})[.,](\d{1,3})\s*-->\s*(?:\d+:)?\d{1,2}:\d{2}[.,]\d{1,3}(?:\s.*)?$"
)
_VOICE = re.compile(r"<v(?:\.[\w.-]+)?\s+([^>]+)>")
_TAG = re.compile(r"</?[^>]*>")
_NAMED = re.compile(r"^([A-Z][\w.'-]*(?: [A-Z][\w.'-]*){0,3}):\s+(.*)$", re.S)
_SENTENCE_END = re.compile(r"[.!?…。！？][\"')\]]*$")


@dataclass(frozen=True, slots=True)
class Cue:
    start: float  # seconds into the recording
    speaker: str
    text: str


def parse(data: bytes, *, filename: str, limits: ParseLimits) -> ParsedContent:
    text, _ = decode_text(data)
    return ParsedContent(blocks=transcript_blocks(cues(text)), page_count=1)


def cues(text: str) -> list[Cue]:
    """The cues of an SRT or WebVTT text, in order."""
    found: list[Cue] = []
    for block in re.split(r"\n\s*\n", text.replace("\r\n", "\n").replace("\r", "\n").lstrip("\ufeff")):
        lines = [line for line in block.split("\n") if line.strip()]
        timing = next((match for line in lines if (match := _TIMING.match(line))), None)
        if timing is None:  # the header, a NOTE, STYLE or REGION block: no cue
            continue
        hours, minutes, seconds, _ = timing.groups()
        start = int(hours or 0) * 3600 + int(minutes) * 60 + int(seconds)
        said = " ".join(lines[lines.index(timing.string) + 1 :])
        voice = _VOICE.search(said)
        speaker = voice.group(1).strip() if voice else ""
        words = " ".join(_TAG.sub("", said).split())
        named = _NAMED.match(words) if not speaker else None
        if named is not None:
            speaker, words = named.group(1), named.group(2)
        if words:
            found.append(Cue(float(start), speaker, words))
    return found


def transcript_blocks(found: list[Cue]) -> list[Block]:
    blocks: list[Block] = []
    section = -1
    speaker = ""
    parts: list[str] = []  # the paragraph being gathered

    def close() -> None:
        if parts:
            said = " ".join(parts)
            blocks.append(Paragraph(text=f"{speaker}: {said}" if speaker else said, page=1))
            parts.clear()

    for cue in found:
        at = int(cue.start // SECTION_SECONDS)
        if at != section:
            close()
            section = at
            blocks.append(Heading(text=_clock(at * SECTION_SECONDS), level=1, page=1))
        if cue.speaker != speaker or (not cue.speaker and _full(parts)):
            close()
            speaker = cue.speaker
        parts.append(cue.text)
    close()
    return blocks


def _full(parts: list[str]) -> bool:
    return sum(map(len, parts)) >= PARAGRAPH_CHARS and bool(_SENTENCE_END.search(parts[-1]))


def _clock(seconds: int) -> str:
    return f"{seconds // 3600:02d}:{seconds % 3600 // 60:02d}:{seconds % 60:02d}"

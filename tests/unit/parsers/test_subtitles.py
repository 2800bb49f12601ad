"""Subtitles and transcripts (.srt, .vtt): what was said, by speaker turns, in five-minute sections."""

from __future__ import annotations

from docshelf.parsers import parse_bytes
from docshelf.parsers.detect import detect_format

TEAMS = """WEBVTT

NOTE exported from the meeting

0f3b-1
00:00:01.000 --> 00:00:04.000
<v Ana Silva>Morning. The pump PX-9 failed its pressure test.</v>

0f3b-2
00:00:04.500 --> 00:00:07.000
<v Ana Silva>The seal kit SK-7 is on order.</v>

0f3b-3
00:00:07.500 --> 00:00:09.000
<v Bo Chen><c.yellow>When</c> does it arrive?</v>

0f3b-4
00:05:02.000 --> 00:05:06.000
<v Ana Silva>Thursday. Torque the M10 bolts to 45 Nm when you fit it.</v>
"""

SUBTITLES = """1
00:00:01,000 --> 00:00:03,000
<i>Tighten every flange bolt</i>

2
00:00:03,200 --> 00:00:05,000
crosswise, a quarter turn at a time.

3
01:02:03,000 --> 01:02:05,000
Then check the gasket.
"""


def test_a_meeting_transcript_is_speaker_turns_in_five_minute_sections() -> None:
    assert detect_format(TEAMS.encode(), "meeting.vtt") == "subtitles"
    blocks = [(block.kind, getattr(block, "text", "")) for block in parse_bytes(TEAMS.encode(), "meeting.vtt").blocks()]
    assert blocks == [
        ("heading", "00:00:00"),
        ("paragraph", "Ana Silva: Morning. The pump PX-9 failed its pressure test. The seal kit SK-7 is on order."),
        ("paragraph", "Bo Chen: When does it arrive?"),
        ("heading", "00:05:00"),
        ("paragraph", "Ana Silva: Thursday. Torque the M10 bolts to 45 Nm when you fit it."),
    ]


def test_subtitles_without_speakers_read_as_sentences_without_numbers_or_timings() -> None:
    blocks = [
        (block.kind, getattr(block, "text", ""))
        for block in parse_bytes(SUBTITLES.encode("utf-8-sig"), "film.srt").blocks()
    ]
    assert blocks == [
        ("heading", "00:00:00"),
        ("paragraph", "Tighten every flange bolt crosswise, a quarter turn at a time."),
        ("heading", "01:00:00"),
        ("paragraph", "Then check the gasket."),
    ]


def test_a_transcript_naming_its_speakers_in_the_text() -> None:
    first, second = "1\n00:00:01.000 --> 00:00:02.000\nAna Silva: Ready?", "2\n00:00:02.500 --> 00:00:03.000\nBo: Yes."
    zoom = f"WEBVTT\n\n{first}\n\n{second}\n"
    blocks = [getattr(block, "text", "") for block in parse_bytes(zoom.encode(), "zoom.vtt").blocks()]
    assert blocks == ["00:00:00", "Ana Silva: Ready?", "Bo: Yes."]

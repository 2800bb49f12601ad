"""Calendars and contact cards (`.ics` iCalendar, RFC 5545; `.vcf` vCard, RFC 6350): what a calendar or an address
book shows. Each event, to-do or journal entry a heading of its summary, then when, where, who organises and attends,
and its description; each card a heading of its name, then its organisation, title, e-mails, telephones, addresses
and note. Content lines are unfolded, values unescaped (`\\n`, `\\,`, `\\;`), parameters (`;TZID=…`) set aside; times
shown as written (`2026-12-07 10:00`, `Z` as UTC); alarms, time zone definitions and photos left out."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from docshelf.errors import CorruptDocumentError
from docshelf.model import Block, Heading, Paragraph
from docshelf.parsers.base import ParsedContent, ParseLimits
from docshelf.parsers.textcodec import decode_report

MAX_ENTRIES = 100_000
_FOLD = re.compile(r"\r?\n[ \t]")
_ESCAPE = re.compile(r"\\([nN,;\\])")
_DATE = re.compile(r"^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})?(Z?))?$")
_ENTRIES = {"VEVENT": "", "VTODO": "To do: ", "VJOURNAL": "Journal: ", "VCARD": ""}
_LEFT_OUT = frozenset({"VALARM", "VTIMEZONE", "STANDARD", "DAYLIGHT"})
# What each line of an entry is shown as, in order: (label, properties).
_EVENT_LINES = (
    ("When", ("DTSTART", "DTEND", "DUE")), ("Where", ("LOCATION",)), ("Organizer", ("ORGANIZER",)),
    ("Attendees", ("ATTENDEE",)), ("Status", ("STATUS",)), ("Link", ("URL",)),
)  # fmt: skip
_CARD_LINES = (
    ("Organization", ("ORG",)), ("Title", ("TITLE", "ROLE")), ("E-mail", ("EMAIL",)), ("Telephone", ("TEL",)),
    ("Address", ("ADR",)), ("Website", ("URL",)), ("Birthday", ("BDAY",)),
)  # fmt: skip


@dataclass
class _Entry:
    kind: str
    values: dict[str, list[str]] = field(default_factory=dict)


def parse(data: bytes, *, filename: str, limits: ParseLimits) -> ParsedContent:
    decoded = decode_report(data)
    entries, calendar_name = _entries(_FOLD.sub("", decoded.text))
    if not entries:
        raise CorruptDocumentError("no event, to-do or card in the file")
    blocks: list[Block] = []
    for entry in entries[:MAX_ENTRIES]:
        blocks += _entry_blocks(entry)
    warnings = decoded.document_warnings()
    if len(entries) > MAX_ENTRIES:
        warnings.append(f"only the first {MAX_ENTRIES} entries are read")
    return ParsedContent(blocks=blocks, page_count=1, title=calendar_name, warnings=warnings)


def _entries(text: str) -> tuple[list[_Entry], str]:
    """The entries in file order, and the calendar's own name (X-WR-CALNAME) when it has one."""
    entries: list[_Entry] = []
    open_kinds: list[str] = []
    calendar_name = ""
    for line in text.splitlines():
        name, _, value = line.partition(":")
        name = name.split(";", 1)[0].strip().upper()
        if name == "BEGIN":
            open_kinds.append(value.strip().upper())
            if open_kinds[-1] in _ENTRIES and len(entries) <= MAX_ENTRIES:
                entries.append(_Entry(open_kinds[-1]))
        elif name == "END":
            if open_kinds:
                open_kinds.pop()
        elif name == "X-WR-CALNAME" and not calendar_name:
            calendar_name = _unescaped(value)
        elif entries and open_kinds and open_kinds[-1] == entries[-1].kind and not set(open_kinds) & _LEFT_OUT:
            entries[-1].values.setdefault(name, []).append(value)
    return entries, calendar_name


def _entry_blocks(entry: _Entry) -> list[Block]:
    values = entry.values
    if entry.kind == "VCARD":
        title = _unescaped(_first(values, "FN")) or " ".join(_parts(_first(values, "N"))[1::-1]).strip()
        lines = [(label, _card_value(names, values)) for label, names in _CARD_LINES]
        body = _unescaped(_first(values, "NOTE"))
    else:
        title = _ENTRIES[entry.kind] + (_unescaped(_first(values, "SUMMARY")) or "(no title)")
        lines = [(label, _event_value(names, values)) for label, names in _EVENT_LINES]
        body = _unescaped(_first(values, "DESCRIPTION"))
    blocks: list[Block] = [Heading(text=title, level=1, page=1)] if title.strip() else []
    shown = "\n".join(f"{label}: {value}" for label, value in lines if value)
    if shown:
        blocks.append(Paragraph(text=shown, page=1))
    blocks += [Paragraph(text=part.strip(), page=1) for part in re.split(r"\n\s*\n", body) if part.strip()]
    return blocks


def _event_value(names: tuple[str, ...], values: dict[str, list[str]]) -> str:
    if names[0] == "DTSTART":
        start, end = _when(_first(values, "DTSTART")), _when(_first(values, "DTEND") or _first(values, "DUE"))
        return f"{start} – {end}" if start and end and end != start else start or end
    found = [value for name in names for value in values.get(name, [])]
    people = names[0] in ("ORGANIZER", "ATTENDEE")
    return ", ".join(_person(value) if people else _unescaped(value) for value in found)


def _person(value: str) -> str:
    """An organiser or attendee: its address without `mailto:`."""
    return re.sub(r"^mailto:", "", value.strip(), flags=re.IGNORECASE)


def _card_value(names: tuple[str, ...], values: dict[str, list[str]]) -> str:
    found = [value for name in names for value in values.get(name, [])]
    if names[0] in ("ORG", "ADR"):
        return "; ".join(", ".join(part for part in _parts(value) if part) for value in found)
    if names[0] == "BDAY":
        return ", ".join(_when(value) for value in found)
    return ", ".join(_person(_unescaped(value)) for value in found)


def _when(value: str) -> str:
    """A date or time as written: `20261207T100000Z` -> `2026-12-07 10:00 UTC`."""
    found = _DATE.match(value.strip())
    if found is None:
        return value.strip()
    year, month, day, hour, minute, _, utc = found.groups()
    shown = f"{year}-{month}-{day}"
    if hour is not None:
        shown += f" {hour}:{minute}" + (" UTC" if utc else "")
    return shown


def _first(values: dict[str, list[str]], name: str) -> str:
    return values.get(name, [""])[0]


def _parts(value: str) -> list[str]:
    """A structured value's parts (N, ADR, ORG: `;` apart, `\\;` kept)."""
    return [_unescaped(part) for part in re.split(r"(?<!\\);", value)]


def _unescaped(value: str) -> str:
    return _ESCAPE.sub(lambda match: "\n" if match.group(1) in "nN" else match.group(1), value).strip()

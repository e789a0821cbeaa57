"""The unnumbered glossary at the end of a rulebook (Summoner Master) -> addressable entries.

Each entry gets ``clause_id = "glossary/<slug>"``, kind ``glossary``, parent ``glossary`` (a
chapter node), every printed name as an alias. Entry starts are, in the glossary region:

* a markdown heading at any depth or a whole-line bold run ("### Cast / ร่าย", "**Deal**"),
  except a bold numbered sub-item ("**1. คำว่าทุกใบใน Trigger Ability**") and a "Glossary …"
  group heading;
* an unmarked term line: after a blank line, once the previous entry has a definition, a line
  with no Thai outside <…>/[…] that starts with a letter or a quote ("Paste on Seal (PS)").

Everything else (definitions, numbered lists such as the SM list of names "101. Ninja: …",
which collides with sections 100–105) is the text of the entry above.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field

from judgekb.corpus.model import Clause, Document, LintFinding
from judgekb.corpus.segment_lines import Line

GLOSSARY_ID = "glossary"
GLOSSARY_HEADING_RE = re.compile(r"^(glossary|อภิธานศัพท์|istilah)\b", re.IGNORECASE)
THAI_RE = re.compile(r"[\u0e00-\u0e7f]")
BRACKETED_RE = re.compile(r"<[^>]*>|\[[^\]]*\]")
NUMBERED_RE = re.compile(r"^\d+(?:\.\d+)*\.?\s")
TERM_START_RE = re.compile(r"^[A-Za-z“\"(]")
TRAILING_ABBREV_RE = re.compile(r"^(?P<name>.+?)\s*\((?P<abbr>[A-Za-z][A-Za-z .]{0,19})\)$")
TERM_MAX = 200


@dataclass
class _Entry:
    line: int
    name: str
    lines: list[Line] = field(default_factory=list)

    @property
    def has_definition(self) -> bool:
        return any(not ln.blank for ln in self.lines[1:])


def glossary_start(lines: list[Line]) -> int | None:
    """Index in ``lines`` of the "Glossary" heading that opens the glossary, or None."""
    for i, line in enumerate(lines):
        if line.heading and GLOSSARY_HEADING_RE.match(line.body) and not _has_number(line.body):
            return i
    return None


def _has_number(body: str) -> bool:
    return bool(re.match(r"^\d", body))


def slugify(name: str) -> str:
    """``glossary/<slug>`` slug: ASCII names lowercased with every run outside [a-z0-9] -> "-";
    names with Thai keep their Thai letters (else "Mp ของผู้เล่น" and "Mp ค่าร้ายปกติ" collide);
    a name with no letters at all ("“...”") gets a short hash."""
    low = name.lower()
    allowed = r"a-z0-9\u0e00-\u0e7f" if THAI_RE.search(low) else r"a-z0-9"
    slug = re.sub(rf"[^{allowed}]+", "-", low).strip("-")
    return slug or "term-" + hashlib.sha1(name.encode("utf-8")).hexdigest()[:8]


def entry_names(heading: str) -> tuple[str, ...]:
    """Every name of an entry: "Wake Up / Wake Up <เงื่อนไข>" -> both; "(PA)" abbreviations too."""
    heading = heading.strip().rstrip(":").strip()
    names = [n.strip() for n in re.split(r"\s+/\s+", heading) if n.strip()]
    out: list[str] = []
    for name in names:
        out.append(name)
        m = TRAILING_ABBREV_RE.match(name)
        if m:
            out.append(m["abbr"].strip())
    return tuple(dict.fromkeys(out))


def _is_heading_term(line: Line) -> bool:
    return line.heading and not NUMBERED_RE.match(line.body)


def _is_plain_term(line: Line, previous: Line | None, entry: _Entry | None) -> bool:
    if previous is None or not previous.blank or entry is None or not entry.has_definition:
        return False
    body = line.body
    if len(body) > TERM_MAX or not TERM_START_RE.match(body) or NUMBERED_RE.match(body):
        return False
    return not THAI_RE.search(BRACKETED_RE.sub("", body))


def _split_entries(lines: list[Line]) -> tuple[list[_Entry], list[Line]]:
    entries: list[_Entry] = []
    group_lines: list[Line] = []
    previous: Line | None = None
    for line in lines:
        entry = entries[-1] if entries else None
        if line.blank:
            if entry:
                entry.lines.append(line)
        elif line.heading and GLOSSARY_HEADING_RE.match(line.body):
            group_lines.append(line)
        elif _is_heading_term(line) or _is_plain_term(line, previous, entry):
            entries.append(_Entry(line.no, line.body, [line]))
        elif entry:
            entry.lines.append(line)
        else:
            group_lines.append(line)
        previous = line
    return entries, group_lines


def _raw(lines: list[Line]) -> str:
    raws = [ln.raw for ln in lines]
    while len(raws) > 1 and not raws[-1].strip():
        raws.pop()
    return "\n".join(raws)


def parse_glossary(doc: Document, lines: list[Line]) -> tuple[list[Clause], list[LintFinding]]:
    """Glossary chapter node + one ``glossary`` clause per entry (``lines[0]`` is the heading)."""
    entries, group_lines = _split_entries(lines[1:])
    head = lines[0]
    chapter_text = "\n".join([head.body] + [ln.body for ln in group_lines])
    out = [
        Clause(
            doc.doc_id,
            GLOSSARY_ID,
            None,
            "chapter",
            head.body,
            chapter_text,
            _raw([head] + group_lines),
            doc.lang,
            head.no,
        )
    ]
    findings: list[LintFinding] = []
    used: dict[str, list[int]] = {}
    for entry in entries:
        names = entry_names(entry.name)
        slug = base = slugify(names[0] if names else entry.name)
        used.setdefault(base, []).append(entry.line)
        if len(used[base]) > 1:
            slug = f"{base}-{len(used[base])}"
            findings.append(
                LintFinding(
                    doc.doc_id,
                    "duplicate",
                    f"{GLOSSARY_ID}/{slug}",
                    entry.line,
                    f"glossary term {entry.name!r} at line {entry.line} repeats the entry "
                    f"at line {used[base][0]}; kept as {GLOSSARY_ID}/{slug}",
                )
            )
        text = "\n".join(ln.body for ln in entry.lines if not ln.blank)
        out.append(
            Clause(
                doc.doc_id,
                f"{GLOSSARY_ID}/{slug}",
                GLOSSARY_ID,
                "glossary",
                entry.name,
                text,
                _raw(entry.lines),
                doc.lang,
                entry.line,
                aliases=names,
            )
        )
    return out, findings

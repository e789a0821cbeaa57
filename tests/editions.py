"""Fixture editions made by editing copies of the real rulebooks, in the tests.

The edits work on printed clause start lines ("- 6-5-3. …" in One Piece, a tab then "13-2-11. …"
in the clean Gundam rendering): reword a clause, delete one (with its sub-clauses), insert one,
renumber (shift the siblings after a point, or a whole chapter). Each test states the diff it
expects, so an edit that did not do what it says fails the test.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date, timedelta
from pathlib import Path

from judgekb.config import DATA_DIR
from judgekb.corpus.manifest import load_manifest

#: One Piece: "- 1-2-3. …", " 11-1-1. …" and chapter lines "11. …".
OP_START = re.compile(r"^(?P<lead>\s*(?:-\s+)?)(?P<id>\d+(?:-\d+)*)(?P<dot>\.)(?=\s)")
#: Gundam's clean rendering: a tab, then the id.
GUNDAM_START = re.compile(r"^(?P<lead>\t)(?P<id>\d+(?:-\d+)*)(?P<dot>\.)(?=\s)")

Renumber = Callable[[str], str]


def book_text(doc_id: str) -> str:
    manifest = load_manifest(DATA_DIR / "manifest.toml")
    return manifest.source_path(manifest.document(doc_id)).read_text(encoding="utf-8")


def gundam_clean() -> str:
    """The Gundam book from its changelog on: the changelog and the clean rendering only."""
    lines = book_text("gundam-cr").split("\n")
    at = next(i for i, line in enumerate(lines) if "●Ver." in line)
    return "\n".join(lines[at:])


class Book:
    """A rulebook text with the edits a new edition would make."""

    def __init__(self, text: str, start: re.Pattern[str] = OP_START) -> None:
        self.text = text
        self.start = start

    def _starts(self, lines: list[str]) -> list[tuple[int, str]]:
        return [(i, m.group("id")) for i, line in enumerate(lines) if (m := self.start.match(line))]

    def _spans(self, lines: list[str], cid: str, subtree: bool) -> list[tuple[int, int]]:
        starts = self._starts(lines)
        out = []
        for k, (i, c) in enumerate(starts):
            if c == cid or (subtree and c.startswith(cid + "-")):
                out.append((i, starts[k + 1][0] if k + 1 < len(starts) else len(lines)))
        assert out, f"no clause {cid} printed"
        return out

    def reword(self, cid: str, old: str, new: str) -> Book:
        lines = self.text.split("\n")
        done = 0
        for a, b in self._spans(lines, cid, subtree=False):
            for i in range(a, b):
                done += old in lines[i]
                lines[i] = lines[i].replace(old, new)
        assert done, f"{old!r} not in {cid}"
        self.text = "\n".join(lines)
        return self

    def delete(self, cid: str) -> Book:
        """Delete ``cid`` with its sub-clauses."""
        lines = self.text.split("\n")
        for a, b in reversed(self._spans(lines, cid, subtree=True)):
            del lines[a:b]
        self.text = "\n".join(lines)
        return self

    def insert_after(self, cid: str, line: str) -> Book:
        """Print ``line`` after the last printed sub-clause of ``cid``, with ``cid``'s lead."""
        lines = self.text.split("\n")
        spans = self._spans(lines, cid, subtree=True)
        lead = self.start.match(lines[spans[0][0]])
        assert lead is not None
        end = spans[-1][1]
        lines[end:end] = [lead.group("lead") + line]
        self.text = "\n".join(lines)
        return self

    def renumber(self, fn: Renumber) -> Book:
        def sub(m: re.Match[str]) -> str:
            return m.group("lead") + fn(m.group("id")) + m.group("dot")

        self.text = "\n".join(self.start.sub(sub, line, count=1) for line in self.text.split("\n"))
        return self


def shift(parent: str, first: int, delta: int) -> Renumber:
    """Renumber the children of ``parent`` numbered ``first`` or more (and their sub-clauses)."""
    depth = parent.count("-") + 1

    def fn(cid: str) -> str:
        parts = cid.split("-")
        if len(parts) > depth and "-".join(parts[:depth]) == parent and int(parts[depth]) >= first:
            parts[depth] = str(int(parts[depth]) + delta)
        return "-".join(parts)

    return fn


def chapters(first: int, delta: int) -> Renumber:
    """Renumber chapters ``first`` and later (with everything in them)."""

    def fn(cid: str) -> str:
        head, _, rest = cid.partition("-")
        if int(head) < first:
            return cid
        return f"{int(head) + delta}" + (f"-{rest}" if rest else "")

    return fn


def future(days: int = 365) -> str:
    return (date.today() + timedelta(days=days)).isoformat()


def write_editions(
    tmp: Path,
    editions: list[tuple[str, str, str, str]],
    *,
    doc_game: tuple[str, str, str] = ("op", "one-piece", "dashed"),
    extends: bool = False,
    changelog: bool = False,
) -> Path:
    """A manifest listing ``(doc_id, version, effective_date, text)`` as editions of one family;
    returns its path. Sources are written next to it (relative paths)."""
    family, game, numbering = doc_game
    parts = ['extends = "bundled"\n'] if extends else []
    for doc_id, version, when, text in editions:
        (tmp / "books").mkdir(parents=True, exist_ok=True)
        (tmp / "books" / f"{doc_id}.txt").write_text(text, encoding="utf-8")
        words = (
            'changelog = { added = ["เพิ่ม"], removed = ["ลบ"], changed = ["แก้ไข"] }\n'
            if changelog
            else ""
        )
        parts.append(
            f'[[document]]\ndoc_id = "{doc_id}"\nfamily = "{family}"\ngame = "{game}"\n'
            f'title = "{family} rules"\nlang = "th"\nversion = "{version}"\n'
            f'effective_date = "{when}"\nkind = "rules"\nsource = "books/{doc_id}.txt"\n'
            f'numbering = "{numbering}"\n{words}\n'
        )
    path = tmp / "manifest.toml"
    path.write_text("\n".join(parts), encoding="utf-8")
    return path

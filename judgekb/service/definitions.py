"""The game terms a clause uses and where each is defined: the Summoner Master glossary, and
the keyword sections of the other books (a clause titled ``[ดับเบิลแอทแทค]``, ``《รีแพร์》``,
``【…】``: its definition is its own text, or its sub-clauses').

One owner for both uses: clause text links each term to its entry (:meth:`Definitions.linker`,
the pages), and the answer card lists the definitions of the terms its clause prints
(:meth:`Definitions.used_in`).
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass

from judgekb.corpus.model import Clause
from judgekb.corpus.store import ClauseStore
from judgekb.index.language import any_function_word
from judgekb.service.markup import Linker, Term, preview, term_pattern

MIN_TERM_CHARS = 3  # shorter glossary names ("Lv", "Mp") would link half the text
MIN_THAI_TERM_CHARS = 4  # "และ" (and) is a glossary entry of the SM rulebook: not a link
DEFINITION_CHARS = 600  # a keyword defined by its sub-clauses: their text, up to this long
_BRACKETED = re.compile(r"^\s*[\[【《]\s*(?P<name>[^\]】》]+?)\s*[\]】》]\s*$")


@dataclass(frozen=True)
class Definition:
    """A game term and the clause that defines it."""

    names: tuple[str, ...]  # as printed: "[ดับเบิลแอทแทค]", "ดับเบิลแอทแทค"
    doc_id: str
    clause_id: str
    title: str
    text: str  # the definition, verbatim (sub-clauses joined for a keyword heading)
    url: str


def _linkable(name: str) -> bool:
    """Names worth a link: long enough, no placeholder like "<xxx>", and no word that carries
    grammar ("หรือ" "or" is a glossary entry of the SM rulebook: not a link in every clause)."""
    need = MIN_TERM_CHARS if name.isascii() else MIN_THAI_TERM_CHARS
    return len(name) >= need and "<" not in name and name.casefold() not in any_function_word()


def defining_names(c: Clause) -> tuple[str, ...]:
    """The names a clause defines: a glossary entry's title and aliases; a keyword heading's
    bracketed title and the bare word inside it; nothing for other clauses."""
    if c.kind == "glossary":
        names = [c.title, *c.aliases]
    else:
        m = _BRACKETED.match(c.title)
        names = [c.title, m.group("name")] if m else []
    cleaned = (n.strip().rstrip(":").strip() for n in names)
    return tuple(dict.fromkeys(n for n in cleaned if _linkable(n)))


def definition_text(store: ClauseStore, c: Clause) -> str:
    """A glossary entry's text after its name; a keyword heading's own text, or else its
    sub-clauses' texts."""
    body = c.text.removeprefix(c.title).strip()
    if body:
        return body
    kids = [k.text for k in store.children(c.doc_id, c.clause_id)]
    joined = "\n".join(kids)
    return joined[:DEFINITION_CHARS] + ("…" if len(joined) > DEFINITION_CHARS else "") or c.text


class Definitions:
    """Every defined term of one game's documents in force."""

    def __init__(self, entries: list[Definition]) -> None:
        self.entries = entries
        self.by_name: dict[str, Definition] = {}
        for d in entries:
            for name in d.names:
                self.by_name.setdefault(name.casefold(), d)
        self.pattern = term_pattern(list(self.by_name))

    def linker(self) -> Linker:
        """For :func:`judgekb.service.markup.render_text`: each name links to its entry."""
        terms = {name: Term(d.url, d.title, preview(d.text)) for name, d in self.by_name.items()}
        return self.pattern, terms

    def used_in(
        self, text: str, skip: Collection[tuple[str, str]] = ()
    ) -> list[tuple[str, Definition]]:
        """The terms ``text`` prints (as printed) with their definitions, each entry once,
        none defined by a clause in ``skip`` (the clause itself and those around it)."""
        if self.pattern is None:
            return []
        out: dict[tuple[str, str], tuple[str, Definition]] = {}
        for m in self.pattern.finditer(text):
            d = self.by_name[m.group(0).casefold()]
            key = (d.doc_id, d.clause_id)
            if key not in skip:
                out.setdefault(key, (m.group(0), d))
        return list(out.values())

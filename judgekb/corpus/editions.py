"""Editions of a rulebook: which one is in force on a day, which documents a search sees.

A *family* is one rulebook across its editions (manifest key ``family``, e.g. ``gundam-cr``);
a document that names none is a family of one. Rules, in this order:

1. the editions of a family are ordered by ``effective_date`` (the manifest requires distinct
   dates once a family has two editions);
2. the edition in force on a day is the one with the latest effective date on or before it;
   before its first edition a family shows its first (nothing older is known);
3. a document without a date (Vanguard's Malay edition) is in force on every day;
4. an amendment (the 2009 Summoner Master decree) is not an edition: it is linked to its book by
   content (:mod:`judgekb.corpus.amend`) and stays searchable on every day, ranked beneath;
5. ``edition=VERSION`` names documents by their printed version instead of by day.

The one owner of "in force": the index mask, the clause store's lookups and the pages ask here.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import date

from judgekb.corpus.model import Document
from judgekb.errors import BadParameter, UnknownEdition, UnknownFamily


def parse_day(text: str | None) -> date | None:
    """``YYYY-MM-DD`` -> date; None stays None (= today). A bad date is a BadParameter."""
    if text is None or text == "":
        return None
    try:
        return date.fromisoformat(text)
    except ValueError as exc:
        raise BadParameter(f"date must be YYYY-MM-DD, not {text!r}") from exc


def families(docs: Iterable[Document]) -> dict[str, list[Document]]:
    """Family id -> its editions, oldest first (rule 1); amendments are left out (rule 4)."""
    out: dict[str, list[Document]] = {}
    for d in docs:
        if d.kind == "rules":
            out.setdefault(d.family_id, []).append(d)
    for eds in out.values():
        eds.sort(key=lambda d: d.effective_date)
    return out


def family_of(docs: Iterable[Document], family: str) -> list[Document]:
    """The editions of ``family``, oldest first; UnknownFamily lists the known ones."""
    fams = families(docs)
    if family not in fams:
        raise UnknownFamily(family, list(fams))
    return fams[family]


def same_version(printed: str, asked: str) -> bool:
    """An edition as a judge types it: "Ver.1.1.8", "ver. 1.1.8" and the printed "Ver. 1.1.8"
    are one edition (case and spaces aside)."""
    return "".join(printed.split()).casefold() == "".join(asked.split()).casefold()


def edition(docs: Iterable[Document], family: str, version: str) -> Document:
    """The edition of ``family`` printed as ``version``; UnknownEdition lists its versions."""
    eds = family_of(docs, family)
    for d in eds:
        if same_version(d.version, version):
            return d
    raise UnknownEdition(version, [d.version for d in eds], family)


def in_force(editions: Sequence[Document], day: date | None = None) -> Document:
    """The edition of one family in force on ``day`` (today when None), rules 2-3."""
    when = (day or date.today()).isoformat()
    current = [d for d in editions if not d.effective_date or d.effective_date <= when]
    return current[-1] if current else editions[0]


def later_edition(docs: Iterable[Document], doc: Document) -> Document | None:
    """The newest edition of ``doc``'s family dated after it (in force or not yet)."""
    if doc.kind != "rules":
        return None
    eds = families(docs).get(doc.family_id, [])
    later = [d for d in eds if d.effective_date > doc.effective_date]
    return later[-1] if later else None


def visible_docs(
    docs: Iterable[Document],
    day: date | None = None,
    version: str | None = None,
    game: str | None = None,
) -> set[str]:
    """Document ids a search sees: the editions in force on ``day`` and every amendment, or
    (rule 5) the documents printed as ``version`` (of ``game`` when given)."""
    docs = list(docs)
    if version is not None:
        named = {
            d.doc_id for d in docs if same_version(d.version, version) and game in (None, d.game)
        }
        if not named:
            scope = [d for d in docs if game in (None, d.game)]
            raise UnknownEdition(version, sorted({d.version for d in scope}), game or "")
        return named
    out = {d.doc_id for d in docs if d.kind != "rules"}
    for eds in families(docs).values():
        out.add(in_force(eds, day).doc_id)
    return out


def current_first(docs: Sequence[Document], day: date | None = None) -> list[Document]:
    """``docs`` reordered: editions in force, then amendments, then other editions (newest
    first) -- the order a clause number is looked up in when no document is named."""
    shown = visible_docs(docs, day)

    def rank(d: Document) -> tuple[int, str]:
        if d.doc_id in shown:
            return (0 if d.kind == "rules" else 1, "")
        return (2, "~" if not d.effective_date else _invert(d.effective_date))

    return sorted(docs, key=rank)


def _invert(iso: str) -> str:
    """A string that sorts newest date first."""
    return "".join(chr(ord("9") - ord(ch) + ord("0")) if ch.isdigit() else ch for ch in iso)


def primary_document(docs: Sequence[Document], game: str, day: date | None = None) -> Document:
    """The document a game's permalinks mean without ``?doc=`` or ``?edition=``: the edition
    in force of its first rulebook (manifest order), else its first document."""
    mine = [d for d in docs if d.game == game]
    first = next((d for d in mine if d.kind == "rules"), mine[0])
    return in_force(families(mine).get(first.family_id, [first]), day)


def permalink_pin(doc: Document, primary: Document) -> tuple[str | None, str | None]:
    """How a permalink names ``doc``: ``(None, None)`` for the primary document, ``(None,
    version)`` for another edition of its family, ``(doc_id, None)`` for another document."""
    if doc.doc_id == primary.doc_id:
        return None, None
    if doc.kind == "rules" and doc.family_id == primary.family_id:
        return None, doc.version
    return doc.doc_id, None

"""Domain objects of the corpus: frozen dataclasses, no behaviour beyond small helpers."""

from __future__ import annotations

from dataclasses import dataclass, field

GAME_SLUGS = ("summoner-master", "gundam", "one-piece", "vanguard")
CLAUSE_KINDS = ("chapter", "section", "clause", "glossary", "appendix")


@dataclass(frozen=True)
class Document:
    """One rulebook or amendment as listed in the manifest."""

    doc_id: str  # stable id used in URLs and exports, e.g. "sm-2014"
    game: str  # one of GAME_SLUGS
    game_name: str
    title: str
    lang: str  # th | ms | en
    version: str
    effective_date: str  # ISO date, or "" when the document gives none
    kind: str  # rules | amendment
    source: str  # path of the text file as the manifest gives it
    amends: str | None = None  # doc_id this amendment amends
    family: str = ""  # one rulebook across its editions (e.g. "gundam-cr"); "" = its own

    @property
    def family_id(self) -> str:
        """The family this document is an edition of (its own id when it names none)."""
        return self.family or self.doc_id


@dataclass(frozen=True)
class ChangelogWords:
    """How a book's printed changelog words its entries (manifest data, e.g. Thai verbs)."""

    added: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    changed: tuple[str, ...] = ()


@dataclass(frozen=True)
class Correction:
    """One reviewed OCR term correction applied to a clause's text."""

    wrong: str
    right: str
    count: int = 1
    note: str = ""


@dataclass(frozen=True)
class Clause:
    """One addressable node of a document's tree: chapter, section, clause or glossary entry.

    ``clause_id`` is kept exactly as printed (no trailing dot); glossary entries get
    ``glossary/<slug>``. ``text`` is what users search and read (repaired, corrected);
    ``raw_text`` is the verbatim source text of the chosen rendering.
    """

    doc_id: str
    clause_id: str
    parent_id: str | None
    kind: str  # one of CLAUSE_KINDS
    title: str  # heading title ("" for plain clauses)
    text: str
    raw_text: str
    lang: str
    line: int  # 1-based line in the source file where the clause starts
    seq: int = 0  # position in the document's tree order (set by the tree builder)
    provenance: str = "single"  # single | clean | damaged-repaired | damaged | …
    repaired: bool = False  # text differs from raw_text by Thai mark repair
    aliases: tuple[str, ...] = ()  # other names (glossary terms, printed variants)
    corrections: tuple[Correction, ...] = ()
    alt_raw_text: str = ""  # the other rendering's text where a document has two


@dataclass(frozen=True)
class CrossRef:
    """A reference written in one clause to another clause or section of the same document."""

    doc_id: str
    src_id: str
    written: str  # the id as written in the text, e.g. "11.6.1" or "Bahagian 13"
    context: str  # the matched snippet
    target_id: str | None  # resolved clause id, None when unresolved
    reason: str = ""  # why unresolved, or how resolved when not exact ("parent", …)


@dataclass(frozen=True)
class AmendmentLink:
    """A clause of an amendment linked by content to the clause it corresponds to."""

    amend_doc: str
    amend_id: str
    target_doc: str
    target_id: str | None  # None: no counterpart in the target document
    score: float
    note: str = ""


@dataclass(frozen=True)
class LintFinding:
    """One anomaly the lint found in a document."""

    doc_id: str
    code: str  # gap | duplicate | out-of-order | misprint | missing-ref | ref-title-mismatch | …
    clause_id: str
    line: int
    message: str  # English, for maintainers (`judgekb corpus lint`)
    # The message's facts by name ("intended": "7.35.1"), so a page can say it in the judge's
    # language (judgekb.service.notes).
    params: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class ParsedDocument:
    """What the parser returns for one document."""

    document: Document
    clauses: tuple[Clause, ...]
    findings: tuple[LintFinding, ...] = field(default_factory=tuple)

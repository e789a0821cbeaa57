"""Query understanding: validation, clause numbers anywhere in a sentence, script.

A clause number is recognised wherever a judge writes it ("What does rule 17.4.1.2 say?",
"ข้อ 602.1.4 ว่าไว้ยังไง", "peraturan 10.5.1.2 tentang apa", "OP 6-5-5-1", "Bab 13",
"๖๐๒.๑.๔"), in Thai or Arabic digits, with dots or dashes. A number counts as a clause
number when it is the whole query (punctuation around it aside: "703.6?", "(703.6)"), follows
a clause word (ข้อ, peraturan, rule, §…) or a game name, has three or more parts, or starts
with a three-digit part ("what does 703.6 say": Summoner Master's numbering; nobody draws
"703-6" cards); "Seal เลเวล 5", "จั่ว 1-2 ใบ" and "10.30" are not lookups.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from judgekb.corpus.normalize import normalize_text
from judgekb.errors import QueryError, QueryTooLong

# Words judges put before a clause number, in Thai, Malay and English. The Thai and Malay
# ones name the book's language ("Bahagian 13" is the Malay Vanguard book's Part 13, "ข้อ 13"
# a Thai book's clause 13): lookups try those books first.
_THAI_PREFIX = r"ข้อ(?:ที่)?|กฎ(?:ข้อ)?|มาตรา|หัวข้อ|บทที่|หมวด(?:ที่)?"
_MALAY_PREFIX = r"peraturan|perkara|fasal|klausa|seksyen|bahagian|bab"
_OTHER_PREFIX = r"rules?|clause|section|sec\.?|chapter|art(?:icle)?\.?|no\.?|para(?:graph)?|cr"
_PREFIX = rf"(?P<pre>(?P<th>{_THAI_PREFIX})|(?P<ms>\b(?:{_MALAY_PREFIX}))|\b(?:{_OTHER_PREFIX})|§)"
_NUMBER = r"\d{1,3}(?:[.\-]\d{1,3})*"
# Words that point a lookup at an amendment rather than the rulebook ("decree 711.5").
_AMENDMENT_HINT = (
    r"(?:decree|amendment|appendant(?:\s+decree)?|errata|ประกาศ|คำประกาศ|พระราชกฤษฎีกา)"
)
_MENTION_RE = re.compile(
    rf"(?P<hint>{_AMENDMENT_HINT}(?:\s+\d{{4}})?\s*)?"
    rf"(?:{_PREFIX}\s*[:#]?\s*)?"
    rf"(?<![\d.\-/])(?P<id>{_NUMBER})(?![\d/]|[.\-]\d)\.?",
    re.IGNORECASE,
)
MENTION_PATTERN = _MENTION_RE.pattern  # a clause number and its words (the offline bundle ships it)
_CONTROL = r"\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ufffd"
# Format characters that make a query look like something else (embeddings, overrides and
# isolates of the bidi algorithm, U+202E among them): rejected rather than searched.
_FORMAT = r"\u202a-\u202e\u2066-\u2069"
# Whitespace, zero-width characters, BOM and the invisible direction marks (LRM, RLM, ALM):
# a query of only these is empty, and they are dropped before searching.
_INVISIBLE = r"\s\x85\u200b-\u200f\u061c\u2060\ufeff"
_CONTROL_RE = re.compile(f"[{_CONTROL}]")
_FORMAT_RE = re.compile(f"[{_FORMAT}]")
_INVISIBLE_RE = re.compile(f"[{_INVISIBLE}]+")
# hyphens, en and em dashes, minus signs between digits (a number's separator)
_DASH_IN_NUMBER_RE = re.compile(r"(?<=\d)[\u2010-\u2015\u2212\ufe58\ufe63\uff0d](?=\d)")
# What validate_query accepts (length aside), for the OpenAPI schema (ECMA-262 syntax too).
QUERY_PATTERN = (
    f"^[^{_CONTROL}{_FORMAT}]*[^{_CONTROL}{_FORMAT}{_INVISIBLE}][^{_CONTROL}{_FORMAT}]*$"
)
_THAI_RE = re.compile(r"[\u0e01-\u0e5b]")
_LATIN_RE = re.compile(r"[A-Za-z]")
_WORD_RE = re.compile(r"[\w\u0e00-\u0e7f]", re.UNICODE)


@dataclass(frozen=True)
class IdMention:
    """A clause number written in the query, with what the words around it say."""

    ids: tuple[str, ...]  # the printed form first, then with the other separator
    span: tuple[int, int]  # where it stands in ``ParsedQuery.text`` (with its prefix)
    lang: str | None = None  # "th" / "ms" when its clause word names the book's language
    amendment: bool = False  # "decree 711.5": the amendment, not the rulebook


@dataclass(frozen=True)
class ParsedQuery:
    """A validated query: normalised text, clause numbers it mentions, the rest, script."""

    raw: str
    text: str
    lang: str  # th | latin (ms or en) | none
    mentions: tuple[IdMention, ...] = ()
    rest: str = ""  # the text without the clause numbers: what still gets searched

    @property
    def id_candidates(self) -> tuple[str, ...]:
        return self.mentions[0].ids if self.mentions else ()

    @property
    def doc_kind(self) -> str | None:
        return "amendment" if self.mentions and self.mentions[0].amendment else None

    @property
    def lookup_lang(self) -> str | None:
        return self.mentions[0].lang if self.mentions else None

    @property
    def bare(self) -> bool:
        """True when the query is only clause numbers (and clause words): nothing to search."""
        return bool(self.mentions) and not _WORD_RE.search(self.rest)


def validate_query(query: object, max_chars: int) -> str:
    """Reject empty, over-long, invisible and binary queries at once, saying why."""
    if not isinstance(query, str):
        raise QueryError("query must be text")
    if len(query) > max_chars:
        raise QueryTooLong(f"query is {len(query)} characters long; the limit is {max_chars}")
    if not _INVISIBLE_RE.sub("", query):
        raise QueryError("query is empty: type a question or a clause number")
    if _CONTROL_RE.search(query):
        raise QueryError("query contains binary or control characters")
    if _FORMAT_RE.search(query):
        raise QueryError("query contains text-direction control characters (U+202A-U+202E)")
    return query


def _candidates(cid: str) -> tuple[str, ...]:
    out = [cid]
    if "." in cid:
        out.append(cid.replace(".", "-"))
    if "-" in cid:
        out.append(cid.replace("-", "."))
    return tuple(out)


# What may stand around a number that is the whole query ("703.6?", "(703.6)", "“7-1”.").
_AROUND_ALONE = " \t?!.,;:()[]{}\"'“”‘’"
# A number whose first part has three digits and the next one or two (Summoner Master's
# chapters 100-999, "504.15"): a clause number wherever it stands ("power 100-200" is not).
_HUNDREDS_RE = re.compile(r"\d{3}[.\-]\d{1,2}(?!\d)")
HUNDREDS_PATTERN = _HUNDREDS_RE.pattern  # the offline bundle ships it
AROUND_ALONE_PATTERN = f"[{re.escape(_AROUND_ALONE)}]+"  # and this


def find_mentions(text: str, game_before: re.Pattern[str] | None = None) -> tuple[IdMention, ...]:
    """Clause numbers in normalised ``text``; ``game_before`` matches a game name that may
    stand right before a number ("OP 6-5", "gundam 1-2") and makes it a clause number."""
    out: list[IdMention] = []
    whole = text.strip(_AROUND_ALONE)
    for m in _MENTION_RE.finditer(text):
        cid = m.group("id")
        parts = len(re.split(r"[.\-]", cid))
        worded = bool(m.group("hint") or m.group("pre"))
        after_game = bool(
            game_before is not None and game_before.search(text[: m.start("id")].rstrip(" :#"))
        )
        alone = whole in (cid, m.group(0).strip(_AROUND_ALONE))
        if not (worded or after_game or alone or parts >= 3 or _HUNDREDS_RE.match(cid)):
            continue
        lang = "ms" if m.group("ms") else "th" if m.group("th") else None
        out.append(IdMention(_candidates(cid), (m.start(), m.end()), lang, bool(m.group("hint"))))
    return tuple(out)


_CLAUSE_WORD = re.compile(rf"(?i:{_THAI_PREFIX}|{_MALAY_PREFIX}|{_OTHER_PREFIX}|§)")


def is_clause_word(word: str) -> bool:
    """A word that only says a clause number follows ("ข้อ", "peraturan", "rule", "§")."""
    return bool(_CLAUSE_WORD.fullmatch(word.strip()))


def clause_id_candidates(text: str) -> tuple[str, ...]:
    """Clause ids a query that *is* a clause number means ('602.1.4.', 'ข้อ ๑-๒', 'Bahagian 13')."""
    pq = parse_query(text)
    return pq.id_candidates if pq.bare and len(pq.mentions) == 1 else ()


def guess_lang(text: str) -> str:
    """'th' when Thai letters dominate, 'latin' for Malay/English, 'none' otherwise."""
    th = len(_THAI_RE.findall(text))
    la = len(_LATIN_RE.findall(text))
    if th == 0 and la == 0:
        return "none"
    return "th" if th >= la else "latin"


def _without(text: str, spans: list[tuple[int, int]]) -> str:
    for start, end in sorted(spans, reverse=True):
        text = text[:start] + " " + text[end:]
    return " ".join(text.split())


def parse_query(
    query: object, max_chars: int = 1000, game_before: re.Pattern[str] | None = None
) -> ParsedQuery:
    raw = validate_query(query, max_chars)
    text = normalize_text(_INVISIBLE_RE.sub(" ", raw)).strip()
    text = _DASH_IN_NUMBER_RE.sub("-", text)  # "6–5–5–1" copied from a PDF is 6-5-5-1
    mentions = find_mentions(text, game_before)
    rest = _without(text, [m.span for m in mentions])
    return ParsedQuery(raw, text, guess_lang(text), mentions, rest)

"""The offline bundle: every clause of the corpus as compact JSON, for the phone's own search.

What a browser with no network needs to open any clause, follow its references, look up a
clause number and search by keywords (``static/offline.js`` reads it)::

    {"format", "version", "corpus_hash", "built_at", "bm25": {"k1", "b"}, "probable_below",
     "games": [[slug, name]],
     "docs": [[doc_id, game, title, lang, version, date, kind, amends, citation_prefix]],
     "clauses": [[doc, clause_id, parent_id, kind, title, text, heading]],  # doc = docs index
     "refs": [[src, target | -1, written]],        # clause indexes
     "amendments": [[amendment, target | -1, score]],
     "raw": {clause index: text as printed},       # only repaired or corrected clauses
     "aliases": {clause index: [names]},
     "questions": {clause index: "question\nquestion…"},  # the judges' questions it answers
     "notes": {lang: {clause index: [message]}},   # the book's known problems with it
     "query": {"mention", "hundreds", "around", "word", "stop", "lexicon", "thai", "max_words"}}

``heading`` is what the server's BM25 indexes besides the text (heading path, title,
aliases: :func:`judgekb.index.passages.passage_text`); ``query`` carries the server's own
clause-number pattern, stop words and expansion tables (English/Malay terms and everyday
Thai -> the book's terms, kept only where the game's books print them), so the phone
searches the way the server's BM25 does, with the same data. ``questions`` holds, per clause,
the judges' questions it answers (the question view's data, judgekb/data/questions/): the
server compares a question with them by meaning; the phone, with no model, searches their
words as a third field, so that a judge's everyday wording meets a clause whose book wording
it does not share. ``notes`` are the known problems the server's clause page shows (lint
findings and reviewed errata), said in each page language, so a phone never shows a misprint
or a lost icon as clean text either.

The bundle is versioned by a hash of everything it is made from (corpus hash, index date,
the vocabulary files and this module), cached under ``<data_dir>/offline/`` by
:func:`load_bundle`; a new corpus gives a new version, and the service worker then replaces a
phone's old copy.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import logging
import os
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from judgekb.config import DATA_DIR, Settings
from judgekb.corpus.amend import PROBABLE_BELOW
from judgekb.corpus.export import citation
from judgekb.corpus.manifest import load_manifest
from judgekb.corpus.model import Clause
from judgekb.corpus.normalize import normalize_text
from judgekb.corpus.store import ClauseStore
from judgekb.index.language import MALAY_SHARE, function_words
from judgekb.index.passages import heading_paths, passage_text
from judgekb.index.query import AROUND_ALONE_PATTERN, HUNDREDS_PATTERN, MENTION_PATTERN
from judgekb.index.question_view import clause_question_pairs
from judgekb.index.terms import (
    WORD_PATTERN,
    BookText,
    Lexicon,
    add_glossary_pairs,
    load_default_lexicon,
)
from judgekb.index.tokenize import LATIN_STOPWORDS, THAI_STOPWORDS

log = logging.getLogger(__name__)

BUNDLE_FORMAT = "1"
VOCABULARY_FILES = ("terms.toml", "thai_synonyms.toml")


@dataclass(frozen=True)
class OfflineBundle:
    """The built bundle: its version, its bytes (plain and gzip) and what the pages show."""

    version: str
    raw: bytes
    gz: bytes
    corpus_hash: str
    built_at: str  # the index's build date (YYYY-MM-DD), "" when unknown
    clauses: int

    @property
    def url(self) -> str:
        return f"/offline/bundle/{self.version}.json"

    @property
    def edition(self) -> str:
        """A short name of the corpus the copy holds (its hash), as pages print it."""
        return self.corpus_hash[:8]

    @cached_property
    def info(self) -> dict[str, Any]:
        """What a page says about the offline copy before it is downloaded."""
        return {
            "url": self.url,
            "version": self.version,
            "edition": self.edition,
            "built_at": self.built_at,
            "raw_bytes": len(self.raw),
            "gzip_bytes": len(self.gz),
            "size": _size(len(self.gz)),
        }


def _size(n: int) -> str:
    """Bytes as a judge reads them: "1.2 MB", "217 kB"."""
    return f"{n / 1e6:.1f} MB" if n >= 1e6 else f"{max(1, round(n / 1e3))} kB"


def _js_pattern(pattern: str) -> str:
    """A Python regex as JavaScript writes it (named groups ``(?P<x>`` -> ``(?<x>``)."""
    return pattern.replace("(?P<", "(?<")


def _expansions(
    table: dict[str, list[tuple[str, str]]], book: BookText, games: list[str]
) -> dict[str, list[list[Any]]]:
    """``table`` with each (game, term) kept only where that game's books print the term;
    "*" entries become one pair per game that prints them."""
    out: dict[str, list[list[Any]]] = {}
    for key, pairs in table.items():
        kept: list[list[Any]] = []
        for game, term in pairs:
            for g in games if game == "*" else [game]:
                if g in games and book.occurs(term, g) and [g, term] not in kept:
                    kept.append([g, term])
        if kept:
            out[key] = kept
    return out


def _query_data(
    lexicon: Lexicon, book: BookText, games: list[str], names: Mapping[str, Sequence[str]]
) -> dict[str, Any]:
    return {
        # index/games.py GameNames: each game's slug and names ("OP 6-5-5-1", "gundam: …")
        "names": {g: [g, *names.get(g, ())] for g in games},
        "mention": _js_pattern(MENTION_PATTERN),
        "hundreds": HUNDREDS_PATTERN,
        "around": AROUND_ALONE_PATTERN,  # what may stand around a number that is the query
        "word": WORD_PATTERN,
        "stop": sorted(LATIN_STOPWORDS | THAI_STOPWORDS),
        "lexicon": _expansions(lexicon.entries, book, games),
        "max_words": lexicon.max_words,
        "thai": _expansions(lexicon.thai, book, games),
        # index/language.py: English and Malay function words tell a Latin-script question's
        # language, as on the server
        "function": {k: sorted(function_words()[k]) for k in ("en", "ms")},
        "malay_share": MALAY_SHARE,
    }


def _heading(clause: Clause, path: tuple[str, ...]) -> str:
    """The passage without the clause's own text: heading path, title, aliases."""
    passage = passage_text(clause, path)
    text = normalize_text(clause.text)
    return passage[: -len(text)].strip() if text and passage.endswith(text) else passage


def _questions(store: ClauseStore, clauses: list[Clause]) -> dict[str, str]:
    """Clause index -> the judges' questions it answers, one per line (in every edition)."""
    questions = store.questions()
    texts: dict[int, list[str]] = {}
    for q, row in clause_question_pairs(store, clauses, questions).tolist():
        texts.setdefault(row, []).append(normalize_text(questions[q].text))
    return {str(row): "\n".join(t) for row, t in sorted(texts.items())}


def _notes(store: ClauseStore, clauses: list[Clause]) -> dict[str, dict[str, list[str]]]:
    """Page language -> clause index -> the book's known problems with that clause, worded as
    the server's pages word them."""
    from judgekb.service.answer import finding_text
    from judgekb.service.i18n import LANGS

    row = {(c.doc_id, c.clause_id): i for i, c in enumerate(clauses)}
    out: dict[str, dict[str, list[str]]] = {lang: {} for lang in LANGS}
    for f in store.findings():
        i = row.get((f.doc_id, f.clause_id))
        if i is None:
            continue
        for lang in LANGS:
            out[lang].setdefault(str(i), []).append(finding_text(f, lang))
    return out


def bundle_data(
    store: ClauseStore,
    manifest: dict[str, Any],
    lexicon: Lexicon,
    names: Mapping[str, Sequence[str]] | None = None,
) -> dict[str, Any]:
    """The bundle as a dict (without its version); ``names``: each game's names (the corpus
    manifest's ``[[game]] aliases``)."""
    docs = store.documents()
    doc_index = {d.doc_id: i for i, d in enumerate(docs)}
    clauses = store.clauses()
    row = {(c.doc_id, c.clause_id): i for i, c in enumerate(clauses)}
    paths = heading_paths(clauses)
    game_of = {d.doc_id: d.game for d in docs}
    games = list(store.games())
    add_glossary_pairs(lexicon, clauses, game_of)
    book = BookText(clauses, game_of)

    def cite_prefix(doc_id: str) -> str:
        probe = Clause(doc_id, "", None, "clause", "", "", "", "", 0)
        return citation(docs[doc_index[doc_id]], probe)

    return {
        "format": BUNDLE_FORMAT,
        "corpus_hash": store.meta.get("corpus_hash", ""),
        "built_at": str(manifest.get("built_at", ""))[:10],
        "bm25": manifest.get("bm25", {"k1": 0.9, "b": 0.75}),
        "probable_below": PROBABLE_BELOW,
        "games": [[slug, name] for slug, name in store.games().items()],
        "docs": [
            [d.doc_id, d.game, d.title, d.lang, d.version, d.effective_date, d.kind, d.amends]
            + [cite_prefix(d.doc_id)]
            for d in docs
        ],
        "clauses": [
            [doc_index[c.doc_id], c.clause_id, c.parent_id, c.kind, c.title, c.text]
            + [_heading(c, paths.get((c.doc_id, c.clause_id), ()))]
            for c in clauses
        ],
        "refs": [
            [row[(r.doc_id, r.src_id)], row.get((r.doc_id, r.target_id or ""), -1), r.written]
            for r in store.all_refs()
            if (r.doc_id, r.src_id) in row
        ],
        "amendments": [
            [
                row[(a.amend_doc, a.amend_id)],
                row.get((a.target_doc, a.target_id or ""), -1),
                round(a.score, 3),
            ]
            for a in store.all_amendments()
            if (a.amend_doc, a.amend_id) in row
        ],
        "raw": {str(i): c.raw_text for i, c in enumerate(clauses) if c.repaired or c.corrections},
        "aliases": {str(i): list(c.aliases) for i, c in enumerate(clauses) if c.aliases},
        "questions": _questions(store, clauses),
        "notes": _notes(store, clauses),
        "query": _query_data(lexicon, book, games, names or {}),
    }


def bundle_key(
    store: ClauseStore, manifest: dict[str, Any], names: Mapping[str, Sequence[str]] | None = None
) -> str:
    """A hash of every input of the bundle: it names the cached file and is its version."""
    h = hashlib.sha256()
    h.update(json.dumps({g: list(n) for g, n in (names or {}).items()}, sort_keys=True).encode())
    for part in (
        BUNDLE_FORMAT,
        store.meta.get("corpus_hash", ""),
        str(manifest.get("built_at", "")),
        json.dumps(manifest.get("bm25", {}), sort_keys=True),
    ):
        h.update(part.encode() + b"\0")
    for q in store.questions():  # the judges' questions are not in the corpus hash
        h.update(f"{q.doc_id}\t{q.clause_id}\t{q.text}\n".encode())
    # nor the known problems (lint, reviewed errata); how the pages word them is NOTES
    from judgekb.service.i18n import NOTES

    for f in store.findings():
        h.update(json.dumps([f.doc_id, f.clause_id, f.code, f.message, f.params]).encode())
    h.update(json.dumps(NOTES, sort_keys=True).encode())
    for name in VOCABULARY_FILES:
        path = DATA_DIR / name
        h.update(path.read_bytes() if path.exists() else b"")
    h.update(Path(__file__).read_bytes())  # a change to what is bundled changes the version
    return h.hexdigest()[:12]


def _write_atomic(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


def _bundle(version: str, raw: bytes, gz: bytes, data: dict[str, Any]) -> OfflineBundle:
    return OfflineBundle(
        version, raw, gz, data["corpus_hash"], data["built_at"], len(data["clauses"])
    )


def load_bundle(
    settings: Settings, store: ClauseStore, manifest: dict[str, Any], lexicon: Lexicon | None = None
) -> OfflineBundle:
    """The bundle of this store and index: read from the cache, or built and cached."""
    names = load_manifest(settings.manifest).game_aliases
    version = bundle_key(store, manifest, names)
    path = settings.data_dir / "offline" / f"bundle-{version}.json.gz"
    if path.exists():
        gz = path.read_bytes()
        raw = gzip.decompress(gz)
        return _bundle(version, raw, gz, json.loads(raw))
    data = bundle_data(store, manifest, lexicon or load_default_lexicon(), names)
    data["version"] = version
    raw = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    gz = gzip.compress(raw, compresslevel=9, mtime=0)
    try:
        _write_atomic(path, gz)
        for old in path.parent.glob("bundle-*.json.gz"):
            if old != path:
                old.unlink(missing_ok=True)
    except OSError as exc:  # a read-only data directory: serve it from memory
        log.warning("offline bundle not cached in %s (%s); it is rebuilt at each start", path, exc)
    log.info(
        "offline bundle %s: %d clauses, %d bytes (%d gzip)",
        version,
        len(data["clauses"]),
        len(raw),
        len(gz),
    )
    return _bundle(version, raw, gz, data)

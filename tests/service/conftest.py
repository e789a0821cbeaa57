"""A tiny real clause store (Thai and Malay, two games, references, an amendment, a glossary
entry, a repaired clause and stored XSS probes) and a FakeSearcher over it.

The fake only stands in for ``judgekb.index.search.Searcher`` in these tests: substring
scoring, clause-id lookup through the real query parser, and hits built like real ones.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from judgekb.config import Settings
from judgekb.corpus.model import AmendmentLink, Clause, CrossRef, Document
from judgekb.corpus.store import ClauseStore, write_store
from judgekb.index.hits import HitFactory
from judgekb.index.query import parse_query
from judgekb.index.results import SearchResult
from judgekb.service.app import create_app

STORED_XSS_TITLE = '"><img src=x onerror=alert(1)>'
STORED_XSS_TEXT = "<script>alert('stored')</script> ข้อความทดสอบ"

DOCS = [
    Document(
        "sm-2014",
        "summoner-master",
        "Summoner Master",
        "Summoner Master Complete Rulebook",
        "th",
        "Update 2014-01",
        "2014-01-01",
        "rules",
        "000.txt",
    ),
    Document(
        "sm-decree-2009",
        "summoner-master",
        "Summoner Master",
        "Appendant Decree 20/07/2009 (SMORT)",
        "th",
        "20/07/2009",
        "2009-07-25",
        "amendment",
        "003.txt",
        "sm-2014",
    ),
    Document(
        "vg-cr",
        "vanguard",
        "Cardfight!! Vanguard",
        "Cardfight!! Vanguard Peraturan Komprehensif",
        "ms",
        "Malay edition",
        "",
        "rules",
        "004.txt",
    ),
]


def _c(
    doc: str,
    cid: str,
    parent: str | None,
    text: str,
    kind: str = "clause",
    title: str = "",
    seq: int = 0,
    **kw: object,
) -> Clause:
    lang = "ms" if doc == "vg-cr" else "th"
    raw = str(kw.pop("raw_text", text))
    return Clause(doc, cid, parent, kind, title, text, raw, lang, seq + 1, seq, **kw)  # type: ignore[arg-type]


CLAUSES = [
    _c("sm-2014", "602", None, "ชนิดของ Effect", "section", "ชนิดของ Effect", 0),
    _c(
        "sm-2014", "602.1", "602", "Trigger Effect คือ Effect ที่เริ่มทำงานเมื่อเงื่อนไขครบ ดู 602.1.4", seq=1
    ),
    _c(
        "sm-2014",
        "602.1.4",
        "602.1",
        "เมื่อผู้เล่นร่าย Seal ให้ตรวจสอบเงื่อนไขของ Trigger Effect",
        seq=2,
        raw_text="เมือ่ผูเ้ลน่ร่าย Seal ให้ตรวจสอบเงือ่นไขของ Trigger Effect",
        repaired=True,
        provenance="damaged-repaired",
    ),
    _c("sm-2014", "602.2", "602", "Continuous Effect ทำงานตลอดเวลา ดู 699.9", seq=3),
    _c("sm-2014", "602.3", "602", STORED_XSS_TEXT, title=STORED_XSS_TITLE, seq=4),
    _c("sm-2014", "glossary", None, "Glossary", "chapter", "Glossary", 5),
    _c(
        "sm-2014",
        "glossary/cast",
        "glossary",
        "การนำการ์ด Seal ลงสนามโดยจ่าย Mp",
        "glossary",
        "Cast / ร่าย",
        6,
        aliases=("Cast", "ร่าย"),
    ),
    _c("sm-decree-2009", "602.1", None, "แก้ไขข้อ 602.1 ให้ Trigger Effect ทำงานก่อน", seq=0),
    _c("sm-decree-2009", "610.1", None, "ร่าย Seal ได้ครั้งละหนึ่งใบต่อเทิร์น", seq=1),
    _c("vg-cr", "11", None, "Semakan", "section", "Semakan", 0),
    _c(
        "vg-cr",
        "11.6.1",
        "11",
        "Semakan tindakan peraturan dilakukan sebelum pemain bertindak.",
        seq=1,
    ),
    _c("vg-cr", "13", None, "Tindakan Peraturan", "section", "Tindakan Peraturan", 2),
    _c("vg-cr", "13.1", "13", "Jika pemain tiada kad dalam dek, pemain itu kalah (11.6.1).", seq=3),
]
REFS = [
    CrossRef("sm-2014", "602.1", "602.1.4", "ดู 602.1.4", "602.1.4"),
    CrossRef("sm-2014", "602.2", "699.9", "ดู 699.9", None, "no such clause"),
    CrossRef("vg-cr", "13.1", "11.6.1", "(11.6.1)", "11.6.1"),
]
AMENDMENTS = [AmendmentLink("sm-decree-2009", "610.1", "sm-2014", "602.1.4", 0.8, "content")]
MANIFEST = {"model": "fake", "dim": 3, "normaliser_version": "test", "corpus_hash": "abc"}


class FakeSearcher:
    """Substring search with the real query parser and real-shaped hits."""

    def __init__(self, store: ClauseStore, max_chars: int = 1000) -> None:
        self.store = store
        self.manifest = dict(MANIFEST)
        self.max_chars = max_chars
        self.calls: list[dict] = []
        clauses = store.clauses()
        self._factory = HitFactory(store, clauses)
        self._row = {(c.doc_id, c.clause_id): i for i, c in enumerate(clauses)}

    def search(
        self,
        query: str,
        game: str | None = None,
        k: int = 10,
        mode: str = "hybrid",
        doc: str | None = None,
        lang: str | None = None,
        kind: str | None = None,
    ) -> SearchResult:
        t0 = time.perf_counter()
        self.calls.append(
            {"query": query, "game": game, "k": k, "mode": mode, "doc": doc, "lang": lang}
        )
        pq = parse_query(query, self.max_chars)
        docs = self.store.docs_of(game) if game else self.store.documents()
        docs = [d for d in docs if doc is None or d.doc_id == doc]
        for cid in pq.id_candidates:
            for d in sorted(docs, key=lambda d: d.kind != "rules"):
                found = self.store.get(d.doc_id, cid)
                if found:
                    return SearchResult(query, 0.1, (self.hit(found, 1.0, (), "lookup"),), game)
        words = pq.text.casefold().split()
        scored = []
        for d in docs:
            for c in self.store.clauses(d.doc_id):
                found = tuple(w for w in words if w in c.text.casefold())
                if found and (kind is None or c.kind == kind):
                    scored.append((len(found) / len(words), c, found))
        scored.sort(key=lambda x: (-x[0], x[1].doc_id, x[1].seq))
        hits = tuple(self.hit(c, s, m) for s, c, m in scored[:k])
        return SearchResult(query, (time.perf_counter() - t0) * 1000, hits, game, mode)

    def hit(self, c: Clause, score: float, matched: tuple[str, ...], via: str = "search"):
        """Hits are built by the real HitFactory, so they carry real citations and refs."""
        row = self._row[(c.doc_id, c.clause_id)]
        return self._factory.make(row, score, via, matched)


@pytest.fixture(scope="session")
def store_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("svc") / "clauses.sqlite"
    write_store(path, DOCS, CLAUSES, REFS, AMENDMENTS)
    return path


@pytest.fixture(scope="session")
def settings(store_path: Path) -> Settings:
    return Settings(data_dir=store_path.parent, max_query_chars=1000)


@pytest.fixture(scope="session")
def searcher(store_path: Path) -> FakeSearcher:
    return FakeSearcher(ClauseStore(store_path))


@pytest.fixture(scope="session")
def app(settings: Settings, searcher: FakeSearcher):
    return create_app(settings, searcher=searcher)


@pytest.fixture()
def client(app) -> TestClient:
    return TestClient(app, follow_redirects=False)

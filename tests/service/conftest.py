"""A tiny real clause store (Thai and Malay, two games, references, an amendment, a glossary
entry, a repaired clause and stored XSS probes), indexed and searched by the real
:class:`~judgekb.index.search.Searcher` with the keyword one-hot encoder of tests/fakes.py.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from judgekb.config import Settings
from judgekb.corpus.model import AmendmentLink, Clause, CrossRef, Document, LintFinding
from judgekb.corpus.store import ClauseStore, write_store
from judgekb.index.build import build_index
from judgekb.index.confidence import ConfidenceModel
from judgekb.index.request import SearchRequest
from judgekb.index.results import SearchResult
from judgekb.index.search import Searcher
from judgekb.service.app import create_app
from tests.fakes import FakeEmbedder
from tests.service.browsing import ARGS, CHROMIUM, PHONE, free_port, watch_errors

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
    # printed under a misprinted number: 13.2 was meant (like the real book's 7.46.1 / 7.35.1)
    _c("vg-cr", "13.9.1", "13", "Zon jatuh terbuka kepada semua pemain.", seq=4, aliases=("13.2",)),
]
REFS = [
    CrossRef("sm-2014", "602.1", "602.1.4", "ดู 602.1.4", "602.1.4"),
    CrossRef("sm-2014", "602.2", "699.9", "ดู 699.9", None, "no such clause"),
    CrossRef("vg-cr", "13.1", "11.6.1", "(11.6.1)", "11.6.1"),
]
AMENDMENTS = [AmendmentLink("sm-decree-2009", "610.1", "sm-2014", "602.1.4", 0.8, "content")]
# what the lint says of that misprint (judgekb.corpus.lint.find_misprints)
FINDINGS = [
    LintFinding(
        "vg-cr",
        "misprint",
        "13.9.1",
        5,
        "13.9.1 is probably 13.2; placed under 13",
        (("intended", "13.2"), ("parent", "13")),
    )
]


class SpySearcher(Searcher):
    """The real :class:`Searcher` (keyword one-hot encoder), recording each request it gets."""

    def __init__(self, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
        super().__init__(*args, **kwargs)
        self.calls: list[SearchRequest] = []

    def search(self, request: SearchRequest) -> SearchResult:
        self.calls.append(request)
        return super().search(request)


def make_store(directory: Path) -> Path:
    """The tiny store written to ``directory/clauses.sqlite``."""
    path = directory / "clauses.sqlite"
    write_store(path, DOCS, CLAUSES, REFS, AMENDMENTS, FINDINGS)
    return path


def make_searcher(store_path: Path) -> SpySearcher:
    """The real Searcher over ``store_path``, indexed beside it with the keyword encoder."""
    store = ClauseStore(store_path)
    index_dir = store_path.parent / "index"
    build_index(
        store, index_dir, store_path.parent / "cache.sqlite", FakeEmbedder, FakeEmbedder.name
    )
    aliases = {"summoner-master": ("SM",), "vanguard": ("VG", "Vanguard")}
    return SpySearcher(
        store,
        index_dir,
        FakeEmbedder(),
        FakeEmbedder.name,
        game_aliases=aliases,
        confidence=FAKE_CONFIDENCE,
    )


# The keyword encoder's cosines are not e5's: the pages are tested with a fixed confidence
# model (the one calibrated before the question view; the tiny books have no judges'
# questions), so that each page state stays reachable; the shipped model is checked on the
# real engine (tests/index/test_real_search.py).
FAKE_CONFIDENCE = ConfidenceModel(
    (0.380555, 1.863389, 2.375493, 1.278925, 0.503732, 0.142793, 0.478613, 0.0, 0.0),
    bias=-4.607653,
    high=0.6391,
    none_prob=0.348133,
)


def make_app(directory: Path):  # type: ignore[no-untyped-def]
    """A service app over a fresh tiny store and index in ``directory``."""
    store_path = make_store(directory)
    settings = Settings(data_dir=directory, max_query_chars=1000)
    return create_app(settings, searcher=make_searcher(store_path))


@pytest.fixture(scope="session")
def store_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_store(tmp_path_factory.mktemp("svc"))


@pytest.fixture(scope="session")
def settings(store_path: Path) -> Settings:
    return Settings(data_dir=store_path.parent, max_query_chars=1000)


@pytest.fixture(scope="session")
def searcher(store_path: Path) -> SpySearcher:
    return make_searcher(store_path)


@pytest.fixture(scope="session")
def app(settings: Settings, searcher: SpySearcher):
    return create_app(settings, searcher=searcher)


@pytest.fixture()
def client(app) -> TestClient:
    return TestClient(app, follow_redirects=False)


@contextmanager
def served(app) -> Iterator[str]:  # type: ignore[no-untyped-def]
    """``app`` served by uvicorn on a free loopback port, for the browser tests."""
    import uvicorn

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    assert server.started, "uvicorn did not start"
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(5)


@pytest.fixture(scope="session")
def base_url(app) -> Iterator[str]:
    """The tiny app served for the browser tests."""
    with served(app) as url:
        yield url


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture()
def page(browser, base_url):  # type: ignore[no-untyped-def]
    """A phone-sized page in a fresh context (its own storage and service worker)."""
    context = browser.new_context(viewport=PHONE, base_url=base_url)
    yield watch_errors(context.new_page())
    context.close()


def without_typed_query(location: str) -> tuple[str, str]:
    """A redirect's permalink and the typed query it carries for the page's search box."""
    from urllib.parse import parse_qsl, urlencode, urlsplit

    parts = urlsplit(location)
    params = parse_qsl(parts.query)
    typed = [v for k, v in params if k == "q"]
    rest = urlencode([(k, v) for k, v in params if k != "q"])
    return parts.path + (f"?{rest}" if rest else ""), typed[0] if typed else ""

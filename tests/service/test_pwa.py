"""Issue 15 without a browser: the UI language, translated error pages, share previews, the
web manifest and icons, the service worker script, the offline bundle and the offline shell."""

from __future__ import annotations

import gzip
import json
import re
import struct
from pathlib import Path

import pytest

from judgekb.config import Settings
from judgekb.corpus.manifest import load_manifest
from judgekb.corpus.store import ClauseStore, write_store
from judgekb.service.i18n import LANG_NAMES, accepted_lang
from judgekb.service.offline import bundle_key, load_bundle
from judgekb.service.render import STATIC_DIR
from judgekb.service.security import CSP
from tests.service.conftest import AMENDMENTS, CLAUSES, DOCS, REFS


@pytest.mark.parametrize(
    ("header", "lang"),
    [
        ("th-TH,th;q=0.9,en-US;q=0.8,en;q=0.7", "th"),
        ("ms-MY", "ms"),
        ("en-GB,ms;q=0.9", "en"),
        ("de-DE,ms;q=0.5,th;q=0.8", "th"),
        ("de, fr", None),
        ("th;q=0", None),
        ("", None),
        ("th;q=abc, ms", "ms"),
    ],
)
def test_accept_language(header: str, lang: str | None) -> None:
    assert accepted_lang(header) == lang


def test_first_visit_follows_the_browser_then_the_judges_choice(app) -> None:
    from fastapi.testclient import TestClient

    phone = TestClient(app, headers={"Accept-Language": "th-TH,th;q=0.9,en;q=0.8"})
    r = phone.get("/")
    assert '<html lang="th">' in r.text and "lang" not in r.cookies
    assert (r.headers["content-language"], r.headers["vary"]) == (
        "th",
        "Accept-Language, Cookie, Accept-Encoding",
    )
    assert '<html lang="ms">' in phone.get("/", params={"lang": "ms"}).text
    assert '<html lang="ms">' in phone.get("/rules/vanguard").text  # the cookie wins now


def test_language_names_in_their_own_script(client) -> None:
    html = client.get("/search", params={"q": "Effect", "lang": "th"}).text
    for code, name in LANG_NAMES.items():
        assert re.search(
            rf'<a href="[^"]*lang={code}" lang="{code}" hreflang="{code}"[^>]*>{name}</a>', html
        )
    assert '<nav class="langs" aria-label="ภาษา">' in html


def test_error_pages_speak_the_judges_language(client) -> None:
    r = client.get("/rules/summoner-master/602.9", params={"lang": "th"})
    assert r.status_code == 404
    assert "<h1>ข้อผิดพลาด 404</h1>" in r.text
    assert '<p class="message">ไม่มีเลขข้อนี้ในกฎ</p>' in r.text
    # the engine's English detail is folded away under the page's word for it
    assert '<summary>รายละเอียด (English)</summary><p lang="en">no clause &#39;602.9&#39;' in r.text
    assert (
        '<p class="message">Carian ini terlalu panjang (had 1000 aksara).'
        in client.get("/search", params={"q": "a" * 1001, "lang": "ms"}).text
    )
    api = client.get("/api/clauses/summoner-master/602.9", headers={"Accept-Language": "th"})
    assert api.json()["error"].startswith("no clause '602.9'")  # the API stays English


def test_skip_link_heading_and_live_region(client) -> None:
    html = client.get("/search", params={"q": "Trigger Effect"}).text
    assert '<a class="skip" href="#main">Skip to content</a>' in html
    assert '<main id="main" tabindex="-1">' in html
    assert '<h1 class="summary">Results for <q>Trigger Effect</q>' in html
    assert '<p id="live" class="sr-only" role="status"></p>' in html
    assert re.search(r'<button type="button" class="copy" [^>]*hidden>', html)


def test_clause_page_has_share_preview_and_print_address(client) -> None:
    html = client.get("/rules/vanguard/13.1").text
    assert (
        '<meta property="og:title" content="Cardfight!! Vanguard — Cardfight!! Vanguard Peraturan Komprehensif (Malay edition, date not printed) §13.1">'
        in html
    )
    assert (
        '<meta property="og:description" content="Jika pemain tiada kad dalam dek, pemain itu kalah (11.6.1).">'
        in html
    )
    assert '<meta property="og:url" content="http://testserver/rules/vanguard/13.1">' in html
    assert '<meta property="og:locale" content="ms_MY">' in html
    # the address a judge copies keeps the wording shown: pinned to the edition
    assert (
        '<span class="permalink">http://testserver/rules/vanguard/13.1?edition=Malay+edition</span>'
        in html
    )
    for cls in ("copy", "star", "share"):
        assert re.search(rf'<button type="button" class="{cls}" [^>]*hidden>', html)


def png_size(path: Path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", head[16:24])


def test_web_manifest_and_icons(client) -> None:
    r = client.get("/manifest.webmanifest")
    assert r.headers["content-type"] == "application/manifest+json"
    m = r.json()
    assert (m["name"], m["short_name"], m["start_url"], m["scope"], m["display"]) == (
        "judgekb: rules for judges",
        "judgekb",
        "/?source=app",
        "/",
        "standalone",
    )
    sizes = {i["sizes"] for i in m["icons"] if i["type"] == "image/png"}
    assert {"192x192", "512x512"} <= sizes
    assert any(i.get("purpose") == "maskable" for i in m["icons"])
    for icon in m["icons"]:
        assert client.get(icon["src"]).status_code == 200
        if icon["type"] == "image/png":
            n = int(icon["sizes"].split("x")[0])
            assert png_size(STATIC_DIR / icon["src"].removeprefix("/static/")) == (n, n)
    html = client.get("/").text
    assert '<link rel="manifest" href="/manifest.webmanifest">' in html
    assert '<link rel="apple-touch-icon" href="/static/icons/apple-touch-icon.png">' in html


def test_service_worker_script(client, app) -> None:
    r = client.get("/sw.js")
    assert r.headers["content-type"].startswith("text/javascript")
    assert (r.headers["cache-control"], r.headers["service-worker-allowed"]) == ("no-cache", "/")
    assert r.headers["content-security-policy"] == CSP
    assert "worker-src 'self'" in CSP and "manifest-src 'self'" in CSP
    first, rest = r.text.split("\n", 1)
    config = json.loads(first.removeprefix("const CONFIG = ").removesuffix(";"))
    bundle = app.state.site.bundle
    assert config["bundle"] == f"/offline/bundle/{bundle.version}.json"
    assert config["shells"] == {
        "en": "/offline/shell/en",
        "th": "/offline/shell/th",
        "ms": "/offline/shell/ms",
    }
    for url in config["precache"] + list(config["shells"].values()):
        assert client.get(url).status_code == 200, url
    assert rest == (STATIC_DIR / "sw.js").read_text(encoding="utf-8")


def test_offline_bundle_served_gzipped_and_immutable(client, app) -> None:
    bundle = app.state.site.bundle
    r = client.get(bundle.url, headers={"Accept-Encoding": "gzip"})
    assert r.headers["content-encoding"] == "gzip"
    assert r.headers["cache-control"] == "public, max-age=31536000, immutable"
    data = r.json()
    assert (data["version"], data["format"], len(data["clauses"])) == (bundle.version, "1", 14)
    assert data["clauses"][2] == [
        0,
        "602.1.4",
        "602.1",
        "clause",
        "",
        "เมื่อผู้เล่นร่าย Seal ให้ตรวจสอบเงื่อนไขของ Trigger Effect",
        "ชนิดของ Effect > 602.1",
    ]
    assert data["refs"] == [[1, 2, "602.1.4"], [3, -1, "699.9"], [12, 10, "11.6.1"]]
    assert data["raw"] == {"2": "เมือ่ผูเ้ลน่ร่าย Seal ให้ตรวจสอบเงือ่นไขของ Trigger Effect"}
    assert data["query"]["lexicon"]["lose"] == [["vanguard", "kalah"]]
    assert "ที่" in data["query"]["stop"] and "the" in data["query"]["stop"]
    plain = client.get(bundle.url, headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers and plain.content == bundle.raw
    assert gzip.decompress(bundle.gz) == bundle.raw
    assert client.get("/offline/bundle/0ld.json").status_code == 404


def test_bundle_version_follows_the_corpus(tmp_path: Path) -> None:
    manifest = {"built_at": "2026-11-25T08:00:00+00:00", "bm25": {"k1": 0.9, "b": 0.75}}
    versions = []
    for n, clauses in enumerate((CLAUSES, CLAUSES[:-1])):
        path = tmp_path / str(n) / "clauses.sqlite"
        write_store(path, DOCS, clauses, REFS[:2], AMENDMENTS)
        store = ClauseStore(path)
        settings = Settings(data_dir=path.parent)
        bundle = load_bundle(settings, store, manifest)
        names = load_manifest(settings.manifest).game_aliases  # the games' names, bundled too
        assert bundle.version == bundle_key(store, manifest, names)
        assert bundle.version != bundle_key(store, manifest, {})
        again = load_bundle(settings, store, manifest)  # read back from the cache
        assert (again.version, again.gz) == (bundle.version, bundle.gz)
        assert [p.name for p in (path.parent / "offline").iterdir()] == [
            f"bundle-{bundle.version}.json.gz"
        ]
        versions.append(bundle.version)
    assert versions[0] != versions[1]


def test_offline_shell_in_each_language(client) -> None:
    for lang in ("en", "th", "ms"):
        r = client.get(f"/offline/shell/{lang}")
        assert f'<html lang="{lang}">' in r.text and r.headers["cache-control"] == "no-cache"
        labels = json.loads(re.search(r"data-labels='([^']*)'", r.text).group(1))
        assert labels["offline_keywords"].startswith(
            {"en": "Offline: keyword", "th": "ออฟไลน์:", "ms": "Luar talian:"}[lang]
        )
        assert re.findall(r'<script src="([^"]+)"', r.text) == [
            "/static/app.js",
            "/static/vendor/minisearch.js",
            "/static/offline-rules.js",
            "/static/offline.js",
        ]
        assert "lang" not in r.cookies
    assert client.get("/offline/shell/de").status_code == 404


def test_home_offers_the_offline_copy_with_its_size(client, app) -> None:
    info = app.state.site.bundle.info
    html = client.get("/").text
    assert f'data-url="{info["url"]}" data-raw="{info["raw_bytes"]}"' in html
    assert (
        f'Download rules for offline <span class="size">(download size {info["size"]})</span>'
        in html
    )
    assert '<section class="device-list saved-list" aria-labelledby="saved-h" hidden>' in html


def _contrast(a: str, b: str) -> float:
    def lum(h: str) -> float:
        h = h.lstrip("#")
        h = "".join(c * 2 for c in h) if len(h) == 3 else h
        rgb = [int(h[i : i + 2], 16) / 255 for i in (0, 2, 4)]
        lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_colours_meet_wcag_in_both_schemes() -> None:
    """What axe does not measure: control borders and the focus ring against the page and
    the card (3:1), the primary button's label (4.5:1), in light and dark mode."""
    css = (STATIC_DIR / "app.css").read_text(encoding="utf-8")
    schemes = re.findall(r":root\{([^}]*)\}", css)[:2]
    assert len(schemes) == 2
    for block in schemes:
        v = dict(re.findall(r"--([\w-]+):(#[0-9a-f]{6}|#[0-9a-f]{3})\b", block))
        for ground in ("bg", "card"):
            assert _contrast(v["ctl"], v[ground]) >= 3.0
            assert _contrast(v["acc"], v[ground]) >= 4.5  # links and the focus ring
            assert _contrast(v["mute"], v[ground]) >= 4.5
        assert _contrast(v["on-acc"], v["acc"]) >= 4.5

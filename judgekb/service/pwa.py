"""The installable, offline app: web manifest, service worker, offline bundle and page shell.

- ``/manifest.webmanifest``: name, colours and icons (``static/icons/``, made by
  ``scripts/make_icons.py``), so Chromium offers "Add to home screen";
- ``/sw.js``: ``static/sw.js`` with this deployment's versions on its first lines, served
  from the root so that its scope is the whole site; a new corpus or new static files give
  new bytes, so browsers install the new worker, which replaces the old caches;
- ``/offline/bundle/{version}.json``: every clause (:mod:`judgekb.service.offline`), gzipped
  once and cached for a year (the version is in the URL);
- ``/offline/shell/{lang}``: the page the worker shows for any address when the network is
  gone; ``static/offline.js`` then renders the clause, contents or search from the bundle.
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, Response

from judgekb.errors import JudgeKBError
from judgekb.service.i18n import LANGS, labels
from judgekb.service.offline import OfflineBundle
from judgekb.service.render import STATIC_DIR, TEMPLATES_DIR, render

router = APIRouter(include_in_schema=False)

THEME_LIGHT = "#0b5cad"
BACKGROUND = "#ffffff"
ICON_SIZES = (48, 72, 96, 144, 192, 512)
# What the worker stores at install, besides the bundle and one shell per language.
PRECACHE = (
    "/static/app.css",
    "/static/app.js",
    "/static/device.js",
    "/static/offline-rules.js",
    "/static/offline.js",
    "/static/vendor/minisearch.js",
    "/static/icons/icon-192.png",
    "/manifest.webmanifest",
)
# Labels the offline renderer needs (shipped with the shell page in its language).
OFFLINE_LABELS = (
    "title",
    "known_problems",
    "crumbs",
    "alias_resolved",
    "help",
    "contents",
    "results_for",
    "no_results",
    "refers_to",
    "referred_by",
    "children",
    "other_docs",
    "original",
    "repaired",
    "corrected",
    "copy_cite",
    "copied",
    "superseded_by",
    "earlier_wording",
    "probable",
    "no_counterpart",
    "ambiguous_number",
    "not_in_game",
    "no_such_number",
    "searched_in_language",
    "searched_in_named",
    "offline_no_date",
    "err_unknown_game",
    "err_no_clause",
    "did_you_mean",
    "unresolved",
    "glossary",
    "offline_mode",
    "offline_keywords",
    "offline_loading",
    "offline_none",
    "offline_missing",
    "offline_edition",
    "offline_date",
    "back",
    "amendment",
    "effective",
    "save",
    "saved_done",
    "unsaved_done",
    "share",
    "saved",
    "recent",
    "clear",
)


class PwaError(JudgeKBError):
    """An offline resource that does not exist (an old bundle version, an unknown language)."""

    status = 404


@lru_cache(maxsize=4)
def app_version(bundle_version: str) -> str:
    """One version for the worker's caches: the bundle's plus every static file and template
    the offline app is made of (any change installs a new worker and fresh caches)."""
    h = hashlib.sha256(bundle_version.encode())
    for folder in (STATIC_DIR, TEMPLATES_DIR):
        for path in sorted(p for p in folder.rglob("*") if p.is_file()):
            h.update(path.relative_to(folder).as_posix().encode() + b"\0" + path.read_bytes())
    return h.hexdigest()[:12]


def web_manifest() -> dict[str, Any]:
    """The web app manifest (the installability criteria of Chromium: name, icons of 192 and
    512 px, start_url, display standalone)."""
    icons: list[dict[str, str]] = [
        {"src": f"/static/icons/icon-{n}.png", "sizes": f"{n}x{n}", "type": "image/png"}
        for n in ICON_SIZES
    ]
    icons.append(
        {
            "src": "/static/icons/maskable-512.png",
            "sizes": "512x512",
            "type": "image/png",
            "purpose": "maskable",
        }
    )
    icons.append({"src": "/static/icons/icon.svg", "sizes": "any", "type": "image/svg+xml"})
    return {
        "id": "/",
        "name": "judgekb: rules for judges",
        "short_name": "judgekb",
        "description": labels("en")["help"],
        "lang": "en",
        "start_url": "/?source=app",
        "scope": "/",
        "display": "standalone",
        "orientation": "any",
        "theme_color": THEME_LIGHT,
        "background_color": BACKGROUND,
        "categories": ["reference", "utilities"],
        "icons": icons,
    }


@lru_cache(maxsize=1)
def _worker_source() -> str:
    return (STATIC_DIR / "sw.js").read_text(encoding="utf-8")


def worker_script(version: str, bundle: OfflineBundle) -> str:
    """``static/sw.js`` preceded by the constants of this deployment."""
    config = {
        "version": version,
        "bundle": bundle.url,
        "shells": {lang: f"/offline/shell/{lang}" for lang in LANGS},
        "precache": list(PRECACHE),
    }
    return f"const CONFIG = {json.dumps(config)};\n{_worker_source()}"


@router.get("/manifest.webmanifest")
def manifest() -> Response:
    return Response(
        json.dumps(web_manifest(), ensure_ascii=False),
        media_type="application/manifest+json",
        headers={"Cache-Control": "public, max-age=86400"},
    )


@router.get("/favicon.ico")
def favicon() -> Response:
    """Browsers ask for /favicon.ico on pages with no icon link (JSON, the manifest)."""
    return FileResponse(
        STATIC_DIR / "icons" / "icon-48.png",
        media_type="image/png",
        headers={"Cache-Control": "public, max-age=86400"},
    )


@router.get("/sw.js")
def service_worker(request: Request) -> Response:
    site = request.app.state.site
    return Response(
        worker_script(app_version(site.bundle.version), site.bundle),
        media_type="text/javascript",
        # The browser checks the worker for updates at each visit: never a stale copy.
        headers={"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"},
    )


@router.get("/offline/bundle/{version}.json")
def offline_bundle(request: Request, version: str) -> Response:
    bundle: OfflineBundle = request.app.state.site.bundle
    if version != bundle.version:
        raise PwaError(f"no offline bundle {version!r}; the current one is {bundle.url}")
    headers = {"Cache-Control": "public, max-age=31536000, immutable", "Vary": "Accept-Encoding"}
    if "gzip" in request.headers.get("accept-encoding", ""):
        headers["Content-Encoding"] = "gzip"
        return Response(bundle.gz, media_type="application/json", headers=headers)
    return Response(bundle.raw, media_type="application/json", headers=headers)


@router.get("/offline/shell/{lang}")
def offline_shell(request: Request, lang: str) -> Response:
    """The page the worker shows offline, in ``lang``; offline.js fills its main part."""
    if lang not in LANGS:
        raise PwaError(f"no offline page in {lang!r}; languages: {', '.join(LANGS)}")
    t = labels(lang)
    response = render(
        request,
        "offline.html",
        {"offline_labels": {k: t[k] for k in OFFLINE_LABELS}},
        lang=lang,
    )
    response.headers["Cache-Control"] = "no-cache"
    return response

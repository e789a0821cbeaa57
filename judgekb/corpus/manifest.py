"""Read and validate the corpus manifest (TOML) into :class:`Document` objects.

A document's ``source`` is a path relative to the directory of the manifest that lists it,
or absolute. ``extends = "bundled"`` (or a path to another manifest) at the top of a manifest
lists that manifest's games and documents first, so a maintainer adds an edition with their
own file and ``JUDGEKB_MANIFEST`` without touching the package. Editions of one rulebook
share a ``family``; see :mod:`judgekb.corpus.editions`.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from judgekb.corpus.model import GAME_SLUGS, ChangelogWords, Document
from judgekb.corpus.toml_tables import entry_lines, toml_error_line
from judgekb.errors import ManifestError, UnknownDocument, UnknownGame

REQUIRED = ("doc_id", "game", "title", "lang", "version", "kind", "source")
LANGS = ("th", "ms", "en")
KINDS = ("rules", "amendment")
NUMBERINGS = ("dotted", "dashed", "bahagian")
BUNDLED = Path(__file__).resolve().parents[1] / "data" / "manifest.toml"
MAX_EXTENDS = 5  # manifests extending manifests: a cycle stops here


@dataclass(frozen=True)
class Manifest:
    """The validated manifest: games, documents and where their files live."""

    path: Path
    sources: dict[str, Path]  # doc_id -> the text file, resolved
    games: dict[str, str]  # slug -> display name
    documents: tuple[Document, ...]
    numbering: dict[str, str]  # doc_id -> numbering style
    game_aliases: dict[str, tuple[str, ...]] = field(default_factory=dict)  # slug -> names
    changelog: dict[str, ChangelogWords] = field(default_factory=dict)  # doc_id -> its words
    corrections: dict[str, str] = field(default_factory=dict)  # doc_id -> correction table
    # doc_id -> names judges call a document by ("2009 decree", "ประกาศ 2009")
    doc_aliases: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # doc_id -> its judges' questions file (judgekb.corpus.questions); may not exist
    questions: dict[str, Path] = field(default_factory=dict)
    # slug -> the short name a phone's game menu shows ([[game]] short_name; else the name)
    game_short: dict[str, str] = field(default_factory=dict)

    def document(self, doc_id: str) -> Document:
        for doc in self.documents:
            if doc.doc_id == doc_id:
                return doc
        raise UnknownDocument(doc_id, [d.doc_id for d in self.documents])

    def check_game(self, game: str) -> str:
        if game not in self.games:
            raise UnknownGame(game, list(self.games))
        return game

    def docs_of(self, game: str) -> list[Document]:
        self.check_game(game)
        return [d for d in self.documents if d.game == game]

    def source_path(self, doc: Document) -> Path:
        return self.sources[doc.doc_id]


def _read_toml(path: Path) -> tuple[str, dict]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise ManifestError("manifest file not found", path=str(path)) from exc
    except UnicodeDecodeError as exc:
        raise ManifestError("manifest is not UTF-8", path=str(path)) from exc
    try:
        return text, tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ManifestError(
            f"malformed TOML: {exc}", path=str(path), line=toml_error_line(exc)
        ) from exc


def load_manifest(path: Path, depth: int = 0) -> Manifest:
    """Parse ``path`` (and what it extends); raise :class:`ManifestError` naming the file and
    line on any problem."""
    text, data = _read_toml(path)
    base = _extended(path, data, depth)
    games, aliases = _read_games(data, text, path, base)
    short = {**(base.game_short if base else {}), **_short_names(data, text, path)}
    lines = entry_lines(text, "document")
    docs: list[Document] = list(base.documents) if base else []
    numbering = dict(base.numbering) if base else {}
    sources = dict(base.sources) if base else {}
    words = dict(base.changelog) if base else {}
    tables = dict(base.corrections) if base else {}
    doc_aliases = dict(base.doc_aliases) if base else {}
    questions = dict(base.questions) if base else {}
    for i, entry in enumerate(data.get("document", [])):
        line = lines[i] if i < len(lines) else None
        doc = _read_document(entry, games, path, line)
        if any(d.doc_id == doc.doc_id for d in docs):
            raise ManifestError(f"duplicate doc_id {doc.doc_id!r}", path=str(path), line=line)
        docs.append(doc)
        numbering[doc.doc_id] = str(entry.get("numbering", "dotted"))
        sources[doc.doc_id] = _source(path, doc.source)
        if "changelog" in entry:
            words[doc.doc_id] = _read_changelog(entry["changelog"], path, line)
        tables[doc.doc_id] = str(entry.get("corrections", doc.doc_id))
        doc_aliases[doc.doc_id] = _names(entry, "[[document]]", path, line)
        questions[doc.doc_id] = _source(path, str(entry.get("questions", _questions(doc))))
    if not docs:
        raise ManifestError("manifest lists no [[document]]", path=str(path))
    for doc in docs:
        if doc.amends and doc.amends not in numbering:
            raise ManifestError(
                f"{doc.doc_id} amends unknown document {doc.amends!r}", path=str(path)
            )
    _check_families(docs, path)
    return Manifest(
        path,
        sources,
        games,
        tuple(docs),
        numbering,
        aliases,
        words,
        tables,
        doc_aliases,
        questions,
        {slug: short.get(slug, name) for slug, name in games.items()},
    )


def _short_names(data: dict, text: str, path: Path) -> dict[str, str]:
    """``[[game]] short_name``: what a narrow game menu shows ("Vanguard")."""
    out: dict[str, str] = {}
    lines = entry_lines(text, "game")
    for i, entry in enumerate(data.get("game", [])):
        short = entry.get("short_name")
        if short is None:
            continue
        if not isinstance(short, str) or not short.strip():
            line = lines[i] if i < len(lines) else None
            raise ManifestError(
                "[[game]] short_name must be a non-empty string", path=str(path), line=line
            )
        out[str(entry.get("slug"))] = short.strip()
    return out


def _questions(doc: Document) -> str:
    """Where a document's judges' questions are by default, relative to its manifest."""
    return f"questions/{doc.doc_id}.jsonl"


def _names(entry: dict, table: str, path: Path, line: int | None) -> tuple[str, ...]:
    """An entry's ``aliases``: a list of non-empty names."""
    names = entry.get("aliases", [])
    if not isinstance(names, list) or not all(isinstance(n, str) and n for n in names):
        raise ManifestError(f"{table} 'aliases' must be a list of names", path=str(path), line=line)
    return tuple(names)


def _extended(path: Path, data: dict, depth: int) -> Manifest | None:
    """The manifest named by ``extends`` ("bundled" = the package's), loaded first."""
    name = data.get("extends")
    if name is None:
        return None
    if not isinstance(name, str) or not name:
        raise ManifestError("'extends' must be \"bundled\" or a manifest path", path=str(path))
    if depth >= MAX_EXTENDS:
        raise ManifestError(f"'extends' nested over {MAX_EXTENDS} deep (a cycle?)", path=str(path))
    target = BUNDLED if name == "bundled" else _source(path, name)
    return load_manifest(target, depth + 1)


def _source(manifest: Path, source: str) -> Path:
    """A path as written in ``manifest``: absolute, or relative to the manifest's directory."""
    p = Path(source)
    return p if p.is_absolute() else manifest.parent / p


def _read_changelog(entry: object, path: Path, line: int | None) -> ChangelogWords:
    ok = isinstance(entry, dict) and all(
        k in ("added", "removed", "changed")
        and isinstance(v, list)
        and all(isinstance(w, str) and w for w in v)
        for k, v in entry.items()
    )
    if not ok:
        raise ManifestError(
            "'changelog' maps added/removed/changed to lists of words", path=str(path), line=line
        )
    assert isinstance(entry, dict)
    return ChangelogWords(*(tuple(entry.get(k, ())) for k in ("added", "removed", "changed")))


def _check_families(docs: list[Document], path: Path) -> None:
    """Editions of one family: one game, rules documents, distinct versions and dates."""
    by_family: dict[str, list[Document]] = {}
    for d in docs:
        by_family.setdefault(d.family_id, []).append(d)
    for family, eds in by_family.items():
        if len(eds) < 2:
            continue
        names = ", ".join(d.doc_id for d in eds)
        if len({d.game for d in eds}) > 1 or any(d.kind != "rules" for d in eds):
            raise ManifestError(
                f"family {family!r} ({names}): editions must be rules of one game", path=str(path)
            )
        for key, what in ((lambda d: d.version, "version"), (lambda d: d.effective_date, "date")):
            values = [key(d) for d in eds]
            if "" in values or len(set(values)) < len(values):
                raise ManifestError(
                    f"family {family!r} ({names}): each edition needs its own {what}",
                    path=str(path),
                )


def _read_games(
    data: dict, text: str, path: Path, base: Manifest | None = None
) -> tuple[dict[str, str], dict[str, tuple[str, ...]]]:
    """Game slugs with display names, and the other names judges call each game by."""
    games: dict[str, str] = dict(base.games) if base else {}
    aliases: dict[str, tuple[str, ...]] = dict(base.game_aliases) if base else {}
    lines = entry_lines(text, "game")
    for i, entry in enumerate(data.get("game", [])):
        slug, name = entry.get("slug"), entry.get("name")
        if not isinstance(slug, str) or not isinstance(name, str):
            line = lines[i] if i < len(lines) else None
            raise ManifestError(
                "[[game]] needs string 'slug' and 'name'", path=str(path), line=line
            )
        names = _names(entry, "[[game]]", path, lines[i] if i < len(lines) else None)
        games[slug] = name
        aliases[slug] = (name, *names)
    for slug in GAME_SLUGS:
        games.setdefault(slug, slug)
        aliases.setdefault(slug, (games[slug],))
    return games, aliases


def _read_document(entry: dict, games: dict[str, str], path: Path, line: int | None) -> Document:
    def fail(msg: str) -> ManifestError:
        return ManifestError(msg, path=str(path), line=line)

    missing = [k for k in REQUIRED if not isinstance(entry.get(k), str) or not entry.get(k)]
    if missing:
        raise fail(f"[[document]] is missing {', '.join(missing)}")
    if entry["game"] not in games:
        raise fail(f"unknown game {entry['game']!r}; known: {', '.join(sorted(games))}")
    if entry["lang"] not in LANGS:
        raise fail(f"lang must be one of {', '.join(LANGS)}, not {entry['lang']!r}")
    if entry["kind"] not in KINDS:
        raise fail(f"kind must be one of {', '.join(KINDS)}, not {entry['kind']!r}")
    if entry.get("numbering", "dotted") not in NUMBERINGS:
        raise fail(f"numbering must be one of {', '.join(NUMBERINGS)}")
    if entry["kind"] == "amendment" and not entry.get("amends"):
        raise fail("an amendment needs 'amends' (the doc_id it amends)")
    when = str(entry.get("effective_date", ""))
    if when and not _is_iso_date(when):
        raise fail(f"effective_date must be YYYY-MM-DD, not {when!r}")
    family = entry.get("family", "")
    if not isinstance(family, str):
        raise fail("family must be a string (e.g. 'gundam-cr')")
    return Document(
        doc_id=entry["doc_id"],
        game=entry["game"],
        game_name=games[entry["game"]],
        title=entry["title"],
        lang=entry["lang"],
        version=entry["version"],
        effective_date=when,
        kind=entry["kind"],
        source=entry["source"],
        amends=entry.get("amends"),
        family=family,
    )


def _is_iso_date(text: str) -> bool:
    try:
        return date.fromisoformat(text).isoformat() == text
    except ValueError:
        return False

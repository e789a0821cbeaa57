"""Read and validate the corpus manifest (TOML) into :class:`Document` objects."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from judgekb.corpus.model import GAME_SLUGS, Document
from judgekb.errors import ManifestError, UnknownDocument, UnknownGame

REQUIRED = ("doc_id", "game", "title", "lang", "version", "kind", "source")
LANGS = ("th", "ms", "en")
KINDS = ("rules", "amendment")
NUMBERINGS = ("dotted", "dashed", "bahagian")


@dataclass(frozen=True)
class Manifest:
    """The validated manifest: games, documents and where their files live."""

    path: Path
    rulebook_dir: Path
    games: dict[str, str]  # slug -> display name
    documents: tuple[Document, ...]
    numbering: dict[str, str]  # doc_id -> numbering style
    game_aliases: dict[str, tuple[str, ...]] = field(default_factory=dict)  # slug -> names
    # doc_id -> names judges call a document by ("2009 decree", "ประกาศ 2009")
    doc_aliases: dict[str, tuple[str, ...]] = field(default_factory=dict)

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
        return self.rulebook_dir / doc.source


def toml_error_line(exc: tomllib.TOMLDecodeError) -> int | None:
    """The line of a TOML syntax error (Python 3.11 only puts it in the message)."""
    m = re.search(r"line (\d+)", str(exc))
    return int(m.group(1)) if m else None


def _entry_lines(text: str, table: str) -> list[int]:
    """1-based line numbers of each ``[[table]]`` header, for error messages."""
    return [i for i, line in enumerate(text.splitlines(), 1) if line.strip() == f"[[{table}]]"]


def load_manifest(path: Path, rulebook_dir: Path | None = None) -> Manifest:
    """Parse ``path``; raise :class:`ManifestError` naming the file and line on any problem."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise ManifestError("manifest file not found", path=str(path)) from exc
    except UnicodeDecodeError as exc:
        raise ManifestError("manifest is not UTF-8", path=str(path)) from exc
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ManifestError(
            f"malformed TOML: {exc}", path=str(path), line=toml_error_line(exc)
        ) from exc
    games, aliases = _read_games(data, text, path)
    lines = _entry_lines(text, "document")
    docs: list[Document] = []
    numbering: dict[str, str] = {}
    doc_aliases: dict[str, tuple[str, ...]] = {}
    for i, entry in enumerate(data.get("document", [])):
        line = lines[i] if i < len(lines) else None
        doc = _read_document(entry, games, path, line)
        if any(d.doc_id == doc.doc_id for d in docs):
            raise ManifestError(f"duplicate doc_id {doc.doc_id!r}", path=str(path), line=line)
        docs.append(doc)
        numbering[doc.doc_id] = str(entry.get("numbering", "dotted"))
        doc_aliases[doc.doc_id] = _names(entry, "[[document]]", path, line)
    if not docs:
        raise ManifestError("manifest lists no [[document]]", path=str(path))
    for doc in docs:
        if doc.amends and doc.amends not in numbering:
            raise ManifestError(
                f"{doc.doc_id} amends unknown document {doc.amends!r}", path=str(path)
            )
    base = rulebook_dir if rulebook_dir is not None else path.parent / "rulebooks"
    return Manifest(path, base, games, tuple(docs), numbering, aliases, doc_aliases)


def _names(entry: dict, table: str, path: Path, line: int | None) -> tuple[str, ...]:
    """An entry's ``aliases``: a list of non-empty names."""
    names = entry.get("aliases", [])
    if not isinstance(names, list) or not all(isinstance(n, str) and n for n in names):
        raise ManifestError(f"{table} 'aliases' must be a list of names", path=str(path), line=line)
    return tuple(names)


def _read_games(
    data: dict, text: str, path: Path
) -> tuple[dict[str, str], dict[str, tuple[str, ...]]]:
    """Game slugs with display names, and the other names judges call each game by."""
    games: dict[str, str] = {}
    aliases: dict[str, tuple[str, ...]] = {}
    lines = _entry_lines(text, "game")
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
    return Document(
        doc_id=entry["doc_id"],
        game=entry["game"],
        game_name=games[entry["game"]],
        title=entry["title"],
        lang=entry["lang"],
        version=entry["version"],
        effective_date=str(entry.get("effective_date", "")),
        kind=entry["kind"],
        source=entry["source"],
        amends=entry.get("amends"),
    )

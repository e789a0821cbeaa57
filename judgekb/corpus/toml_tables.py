"""Data kept as TOML arrays of tables (``[[document]]``, ``[[correction]]``, ``[[erratum]]``):
read with the line of each entry, so that whatever is wrong is reported by file and line."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Iterable
from pathlib import Path

from judgekb.errors import ManifestError


def toml_error_line(exc: tomllib.TOMLDecodeError) -> int | None:
    """The line of a TOML syntax error (Python 3.11 only puts it in the message)."""
    m = re.search(r"line (\d+)", str(exc))
    return int(m.group(1)) if m else getattr(exc, "lineno", None)


def entry_lines(text: str, table: str) -> list[int]:
    """1-based line numbers of each ``[[table]]`` header, for error messages."""
    return [i for i, line in enumerate(text.splitlines(), 1) if line.strip() == f"[[{table}]]"]


def read_table(path: Path, table: str) -> list[tuple[dict, int | None]]:
    """The ``[[table]]`` entries of the TOML file ``path``, each with its header's line.

    Raises :class:`ManifestError` naming the file (and line) when it is not TOML or ``table``
    is not an array of tables.
    """
    text = path.read_text(encoding="utf-8")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        line = toml_error_line(exc)
        raise ManifestError(f"malformed TOML: {exc}", path=str(path), line=line) from exc
    entries = data.get(table, [])
    if not isinstance(entries, list):
        raise ManifestError(f"'{table}' must be an array of tables", path=str(path))
    lines = entry_lines(text, table)
    return [(e, lines[i] if i < len(lines) else None) for i, e in enumerate(entries)]


def entry_error(table: str, path: str, line: int | None) -> Callable[[str], ManifestError]:
    """The error of one entry: ``fail("needs …")`` names the table, file and line."""

    def fail(msg: str) -> ManifestError:
        return ManifestError(f"[[{table}]] {msg}", path=path, line=line)

    return fail


def check_keys(entry: dict, known: Iterable[str], fail: Callable[[str], ManifestError]) -> None:
    """Raise ``fail(…)`` naming any key of ``entry`` not in ``known``."""
    known = set(known)
    unknown = set(entry) - known
    if unknown:
        raise fail(
            f"has unknown keys {', '.join(sorted(unknown))}; known: {', '.join(sorted(known))}"
        )

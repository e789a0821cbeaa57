"""Read a rulebook file safely: reject binary, empty and non-UTF-8 files with a clear error."""

from __future__ import annotations

from pathlib import Path

from judgekb.errors import RulebookError

MAX_BYTES = 50 * 1024 * 1024
BOM = "\ufeff"


def read_rulebook(path: Path) -> str:
    """Return the text of ``path``; raise :class:`RulebookError` naming file (and line) if unusable."""
    if not path.exists():
        raise RulebookError(
            "rulebook file not found (check 'source' in the manifest)", path=str(path)
        )
    if not path.is_file():
        raise RulebookError("rulebook path is not a regular file", path=str(path))
    data = path.read_bytes()
    if len(data) > MAX_BYTES:
        raise RulebookError(f"rulebook is larger than {MAX_BYTES} bytes", path=str(path))
    if not data.strip():
        raise RulebookError("rulebook file is empty", path=str(path))
    if b"\x00" in data:
        line = data[: data.index(b"\x00")].count(b"\n") + 1
        raise RulebookError(
            "binary file (NUL byte): not a text rulebook", path=str(path), line=line
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise RulebookError(
            f"not valid UTF-8 at byte {exc.start}; convert the file to UTF-8",
            path=str(path),
            line=line,
        ) from exc
    return text.removeprefix(BOM).replace("\r\n", "\n").replace("\r", "\n")

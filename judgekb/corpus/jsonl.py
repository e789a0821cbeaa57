"""JSON Lines, read one way everywhere: the judges' questions, the benchmark datasets and
``judgekb search --batch`` files each decide what a bad line costs (a listed problem, or an
error naming the file and line), but a line is parsed and numbered here."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class JsonLine:
    """One non-blank line: its number (from 1) and value, or why it is not JSON."""

    lineno: int
    value: Any = None
    error: str | None = None  # "invalid JSON (Expecting value)"


def json_lines(lines: Iterable[str]) -> Iterator[JsonLine]:
    """Each non-blank line of ``lines`` parsed; blank lines are skipped but still counted."""
    for lineno, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            yield JsonLine(lineno, json.loads(line))
        except json.JSONDecodeError as exc:
            yield JsonLine(lineno, error=f"invalid JSON ({exc.msg})")

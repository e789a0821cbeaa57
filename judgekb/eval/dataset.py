"""Load and validate the judge-question benchmark (JSON Lines, one question per line).

Line format::

    {"qid": "sm-001", "game": "summoner-master", "lang": "th", "kind": "paraphrase",
     "question": "...", "gold": ["602.1.4"], "note": "why the gold answers", "doc": "sm-2014"}

``doc`` is optional. ``gold`` lists clause ids as printed (no trailing dot); any one of them
answering counts as a hit.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

from judgekb.corpus.model import GAME_SLUGS
from judgekb.errors import ConfigError

log = logging.getLogger(__name__)

LANGS = ("th", "ms", "en")
KINDS = ("paraphrase", "keyword", "english", "crossref", "lookup")
REQUIRED = ("qid", "game", "lang", "kind", "question", "gold", "note")
OPTIONAL = ("doc",)


def _check_str(q: dict[str, Any], key: str) -> str | None:
    value = q.get(key)
    if not isinstance(value, str) or not value.strip():
        return f"{key!r} must be a non-empty string"
    return None


def _check_choice(q: dict[str, Any], key: str, choices: tuple[str, ...]) -> str | None:
    if q[key] not in choices:
        return f"{key!r} is {q[key]!r}; expected one of {', '.join(choices)}"
    return None


def _check_gold(gold: Any) -> str | None:
    if not isinstance(gold, list) or not gold:
        return "'gold' must be a non-empty list of clause ids"
    for gid in gold:
        if not isinstance(gid, str) or not gid.strip():
            return f"'gold' holds {gid!r}; every id must be a non-empty string"
        if gid != gid.strip() or gid.endswith("."):
            return f"gold id {gid!r} must be written as printed, without spaces or trailing dot"
    if len(set(gold)) != len(gold):
        return "'gold' lists the same clause id twice"
    return None


def validate_question(q: Any) -> str | None:
    """Return why ``q`` is not a valid benchmark question, or None when it is."""
    if not isinstance(q, dict):
        return "each line must be a JSON object"
    missing = [key for key in REQUIRED if key not in q]
    if missing:
        return f"missing key(s): {', '.join(missing)}"
    unknown = sorted(set(q) - set(REQUIRED) - set(OPTIONAL))
    if unknown:
        return f"unknown key(s): {', '.join(unknown)}"
    for key in ("qid", "game", "lang", "kind", "question", "note"):
        if problem := _check_str(q, key):
            return problem
    if "doc" in q and (problem := _check_str(q, "doc")):
        return problem
    for key, choices in (("game", GAME_SLUGS), ("lang", LANGS), ("kind", KINDS)):
        if problem := _check_choice(q, key, choices):
            return problem
    return _check_gold(q["gold"])


def parse_lines(lines: list[str], source: str) -> list[dict[str, Any]]:
    """Parse JSON Lines text; blank lines are skipped; raise ConfigError naming ``source:line``."""
    questions: list[dict[str, Any]] = []
    seen: dict[str, int] = {}
    for lineno, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            q = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ConfigError(f"{source}:{lineno}: invalid JSON ({exc.msg}); fix the line") from exc
        if problem := validate_question(q):
            raise ConfigError(f"{source}:{lineno}: {problem}")
        if q["qid"] in seen:
            raise ConfigError(
                f"{source}:{lineno}: duplicate qid {q['qid']!r} (first on line {seen[q['qid']]})"
            )
        seen[q["qid"]] = lineno
        questions.append(q)
    return questions


def load_dataset(path: str | Path) -> list[dict[str, Any]]:
    """Read a benchmark file; raise ConfigError naming the file and line of a malformed line."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise ConfigError(f"{path}: dataset file not found; pass an existing .jsonl") from exc
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path}: dataset is not UTF-8 text") from exc
    questions = parse_lines(text.splitlines(), str(path))
    if not questions:
        raise ConfigError(f"{path}: dataset holds no questions")
    log.debug("loaded %d questions from %s", len(questions), path)
    return questions


DATASET_DIR = Path(__file__).resolve().parent / "datasets"


def builtin_dataset(name: str) -> Path:
    """Path of a shipped dataset (``dev`` or ``test``); ConfigError lists the valid names."""
    path = DATASET_DIR / f"{name}.jsonl"
    if not path.is_file():
        known = sorted(p.stem for p in DATASET_DIR.glob("*.jsonl"))
        raise ConfigError(f"no built-in dataset {name!r}; known: {', '.join(known)}")
    return path

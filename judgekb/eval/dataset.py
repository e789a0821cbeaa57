"""Load and validate the judge-question benchmark (JSON Lines, one question per line).

Line format::

    {"qid": "sm-001", "game": "summoner-master", "lang": "th", "kind": "paraphrase",
     "question": "...", "gold": ["602.1.4"], "note": "why the gold answers", "doc": "sm-2014"}

``doc`` is optional. ``gold`` lists clause ids as printed (no trailing dot); any one of them
answering counts as a hit. Optional keys for the issue-11 cases:

- ``"game": null`` with ``"gold_game"``: a question that names no game (the page's default);
  ``gold`` is in ``gold_game``;
- ``"gold_all": true``: every gold clause is needed (scored by Multi-HR@5);
- ``"ambiguous": [{"game", "clause_id"}, ...]`` (``game`` null, ``gold`` empty): a clause number
  printed by several games; each listed clause is expected among the first n results;
- ``"elsewhere": [{"game", "clause_id"}, ...]`` (``gold`` empty): a number that the selected
  ``game`` does not print; the result is expected to name these games;
- ``"expect_confidence": "none"`` (``gold`` empty): off-topic or nonsense, scored on confidence.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from judgekb.corpus.jsonl import json_lines
from judgekb.corpus.model import GAME_SLUGS
from judgekb.errors import ConfigError

log = logging.getLogger(__name__)

LANGS = ("th", "ms", "en")
CLASSIC_KINDS = ("paraphrase", "keyword", "english", "crossref", "lookup")
NEW_KINDS = ("colloquial", "multi", "cited", "nogame", "ambiguous", "elsewhere", "offtopic")
KINDS = CLASSIC_KINDS + NEW_KINDS
CONFIDENCES = ("high", "low", "none")
REQUIRED = ("qid", "game", "lang", "kind", "question", "gold", "note")
OPTIONAL = ("doc", "gold_game", "gold_all", "ambiguous", "elsewhere", "expect_confidence")


def _check_str(q: dict[str, Any], key: str) -> str | None:
    value = q.get(key)
    if not isinstance(value, str) or not value.strip():
        return f"{key!r} must be a non-empty string"
    return None


def _check_choice(q: dict[str, Any], key: str, choices: tuple[str, ...]) -> str | None:
    if q[key] not in choices:
        return f"{key!r} is {q[key]!r}; expected one of {', '.join(choices)}"
    return None


def _check_gold(gold: Any, may_be_empty: bool = False) -> str | None:
    if not isinstance(gold, list) or (not gold and not may_be_empty):
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
    for key in ("qid", "lang", "kind", "question", "note"):
        if problem := _check_str(q, key):
            return problem
    for key in ("doc", "gold_game"):
        if key in q and (problem := _check_str(q, key)):
            return problem
    if q["game"] is not None and (problem := _check_str(q, "game")):
        return problem
    for key, choices in (("game", GAME_SLUGS), ("lang", LANGS), ("kind", KINDS)):
        if (key != "game" or q[key] is not None) and (problem := _check_choice(q, key, choices)):
            return problem
    no_gold = any(key in q for key in ("ambiguous", "elsewhere", "expect_confidence"))
    if problem := _check_gold(q["gold"], may_be_empty=no_gold):
        return problem
    return _check_extras(q)


def _check_pairs(q: dict[str, Any], key: str) -> str | None:
    """``ambiguous`` / ``elsewhere``: a non-empty list of {game, clause_id} objects."""
    pairs = q[key]
    if not isinstance(pairs, list) or not pairs:
        return f"{key!r} must be a non-empty list of {{game, clause_id}} objects"
    for pair in pairs:
        if not isinstance(pair, dict) or set(pair) != {"game", "clause_id"}:
            return f"{key!r} holds {pair!r}; each item must be {{game, clause_id}}"
        if pair["game"] not in GAME_SLUGS:
            return f"{key!r} names game {pair['game']!r}; expected one of {', '.join(GAME_SLUGS)}"
        if not isinstance(pair["clause_id"], str) or not pair["clause_id"].strip():
            return f"{key!r} holds an empty clause_id"
    if len({p["game"] for p in pairs}) != len(pairs):
        return f"{key!r} names the same game twice"
    return None


def _check_extras(q: dict[str, Any]) -> str | None:
    """The issue-11 keys: how they combine with ``game`` and ``gold``."""
    game, gold = q["game"], q["gold"]
    if game is None and gold and "gold_game" not in q:
        return "'game' is null: name the game of the gold clauses in 'gold_game'"
    if "gold_game" in q:
        if game is not None:
            return "'gold_game' is only for questions whose 'game' is null"
        if problem := _check_choice(q, "gold_game", GAME_SLUGS):
            return problem
    if "gold_all" in q and (q["gold_all"] is not True or len(gold) < 2):
        return "'gold_all' must be true and needs at least two gold clauses"
    for key in ("ambiguous", "elsewhere"):
        if key in q and (problem := _check_pairs(q, key)):
            return problem
    if "ambiguous" in q and (game is not None or gold or len(q["ambiguous"]) < 2):
        return "'ambiguous' needs 'game' null, empty 'gold' and at least two games"
    if "elsewhere" in q and (game is None or gold):
        return "'elsewhere' needs a selected 'game' and empty 'gold'"
    if "elsewhere" in q and any(p["game"] == game for p in q["elsewhere"]):
        return "'elsewhere' must name games other than the selected 'game'"
    if "expect_confidence" in q:
        if problem := _check_choice(q, "expect_confidence", CONFIDENCES):
            return problem
        if gold:
            return "'expect_confidence' rows are off-topic: 'gold' must be empty"
    return None


def scope_game(q: dict[str, Any]) -> str | None:
    """The game the gold clauses belong to: ``game``, else ``gold_game`` (None for neither)."""
    game = q["game"] if q["game"] is not None else q.get("gold_game")
    return str(game) if game is not None else None


def parse_lines(lines: list[str], source: str) -> list[dict[str, Any]]:
    """Parse JSON Lines text; blank lines are skipped; raise ConfigError naming ``source:line``."""
    questions: list[dict[str, Any]] = []
    seen: dict[str, int] = {}
    for line in json_lines(lines):
        lineno, q = line.lineno, line.value
        if line.error is not None:
            raise ConfigError(f"{source}:{lineno}: {line.error}; fix the line")
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

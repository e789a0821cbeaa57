"""Benchmark dataset loading, validation errors, and the shipped dev/test sets."""

from __future__ import annotations

import importlib.util
import json
from collections import Counter
from pathlib import Path

import pytest

from judgekb.errors import ConfigError
from judgekb.eval.dataset import (
    CLASSIC_KINDS,
    DATASET_DIR,
    builtin_dataset,
    load_dataset,
    scope_game,
    validate_question,
)

ROOT = Path(__file__).resolve().parents[2]

GOOD = {
    "qid": "sm-001",
    "game": "summoner-master",
    "lang": "th",
    "kind": "lookup",
    "question": "602.1.4",
    "gold": ["602.1.4"],
    "note": "clause number as printed",
}


def write(tmp_path: Path, lines: list[str]) -> Path:
    path = tmp_path / "bench.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_load_valid_file_skips_blank_lines(tmp_path: Path) -> None:
    other = dict(GOOD, qid="sm-002", doc="sm-decree-2009")
    path = write(tmp_path, [json.dumps(GOOD), "", json.dumps(other)])
    questions = load_dataset(path)
    assert [q["qid"] for q in questions] == ["sm-001", "sm-002"]
    assert questions[1]["doc"] == "sm-decree-2009"


def test_malformed_json_names_file_and_line(tmp_path: Path) -> None:
    path = write(tmp_path, [json.dumps(GOOD), "{not json"])
    with pytest.raises(ConfigError) as err:
        load_dataset(path)
    assert f"{path}:2: invalid JSON" in str(err.value)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"game": "pokemon"}, "'game' is 'pokemon'; expected one of summoner-master, gundam"),
        ({"lang": "jp"}, "'lang' is 'jp'; expected one of th, ms, en"),
        ({"kind": "trivia"}, "'kind' is 'trivia'"),
        ({"gold": []}, "'gold' must be a non-empty list of clause ids"),
        ({"gold": ["602.1.4."]}, "gold id '602.1.4.' must be written as printed"),
        ({"gold": ["1-2", "1-2"]}, "'gold' lists the same clause id twice"),
        ({"question": "  "}, "'question' must be a non-empty string"),
        ({"extra": 1}, "unknown key(s): extra"),
    ],
)
def test_validation_messages(tmp_path: Path, change: dict, message: str) -> None:
    path = write(tmp_path, [json.dumps({**GOOD, **change})])
    with pytest.raises(ConfigError) as err:
        load_dataset(path)
    assert str(err.value).startswith(f"{path}:1: ")
    assert message in str(err.value)


NOGAME = dict(GOOD, qid="ng-1", game=None, gold_game="gundam", kind="nogame", gold=["1-2-3"])
AMBIG = {
    **GOOD,
    "qid": "amb-1",
    "game": None,
    "kind": "ambiguous",
    "gold": [],
    "ambiguous": [
        {"game": "gundam", "clause_id": "7-1-3"},
        {"game": "one-piece", "clause_id": "7-1-3"},
    ],
}
ELSE = {
    **GOOD,
    "qid": "else-1",
    "game": "gundam",
    "kind": "elsewhere",
    "gold": [],
    "elsewhere": [{"game": "summoner-master", "clause_id": "602.1.4"}],
}
OFF = dict(GOOD, qid="off-1", game=None, kind="offtopic", gold=[], expect_confidence="none")
MULTI = dict(GOOD, qid="m-1", kind="multi", gold=["101.4.1", "101.4.3"], gold_all=True)


def test_issue11_rows_are_valid() -> None:
    for row in (NOGAME, AMBIG, ELSE, OFF, MULTI):
        assert validate_question(row) is None, row["qid"]
    assert scope_game(NOGAME) == "gundam"
    assert scope_game(GOOD) == "summoner-master"
    assert scope_game(OFF) is None


@pytest.mark.parametrize(
    ("row", "message"),
    [
        (dict(NOGAME, gold_game=None), "'gold_game' must be a non-empty string"),
        ({k: v for k, v in NOGAME.items() if k != "gold_game"}, "name the game of the gold"),
        (dict(NOGAME, gold_game="pokemon"), "'gold_game' is 'pokemon'"),
        (dict(GOOD, gold_game="gundam"), "'gold_game' is only for questions whose 'game' is null"),
        (dict(MULTI, gold=["101.4.1"]), "'gold_all' must be true and needs at least two"),
        (dict(MULTI, gold_all=False), "'gold_all' must be true"),
        (dict(AMBIG, game="gundam"), "'ambiguous' needs 'game' null"),
        (dict(AMBIG, ambiguous=AMBIG["ambiguous"][:1]), "at least two games"),
        (dict(AMBIG, ambiguous=[{"game": "gundam"}]), "each item must be {game, clause_id}"),
        (dict(AMBIG, ambiguous=[AMBIG["ambiguous"][0]] * 2), "names the same game twice"),
        (dict(ELSE, game=None), "'elsewhere' needs a selected 'game'"),
        (dict(ELSE, elsewhere=[{"game": "gundam", "clause_id": "1"}]), "other than the selected"),
        (dict(ELSE, elsewhere=[{"game": "chess", "clause_id": "1"}]), "names game 'chess'"),
        (dict(OFF, expect_confidence="maybe"), "'expect_confidence' is 'maybe'"),
        (dict(OFF, gold=["1"], gold_game="gundam"), "'gold' must be empty"),
        (dict(GOOD, gold=[]), "'gold' must be a non-empty list"),
        (dict(GOOD, game=None), "'game' is null: name the game"),
    ],
)
def test_issue11_validation_messages(row: dict, message: str) -> None:
    problem = validate_question(row)
    assert problem is not None and message in problem, problem


def test_shipped_issue11_counts() -> None:
    """The §9 categories: test part (unseen by tuning) and dev part (for calibration)."""
    test = Counter(q["kind"] for q in load_dataset(builtin_dataset("test")))
    dev = Counter(q["kind"] for q in load_dataset(builtin_dataset("dev")))
    assert test["colloquial"] >= 35 and test["multi"] >= 25 and test["nogame"] >= 50
    assert test["cited"] + test["ambiguous"] + test["elsewhere"] >= 36
    assert test["offtopic"] >= 40
    assert dev["colloquial"] >= 25 and dev["multi"] >= 15 and dev["nogame"] >= 20
    assert dev["cited"] + dev["ambiguous"] + dev["elsewhere"] >= 20 and dev["offtopic"] >= 40


def test_missing_key() -> None:
    q = {k: v for k, v in GOOD.items() if k != "note"}
    assert validate_question(q) == "missing key(s): note"
    assert validate_question(["not", "a", "dict"]) == "each line must be a JSON object"


def test_duplicate_qid_names_both_lines(tmp_path: Path) -> None:
    path = write(tmp_path, [json.dumps(GOOD), json.dumps(GOOD)])
    with pytest.raises(ConfigError, match=r":2: duplicate qid 'sm-001' \(first on line 1\)"):
        load_dataset(path)


def test_missing_and_empty_files(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="dataset file not found"):
        load_dataset(tmp_path / "nope.jsonl")
    with pytest.raises(ConfigError, match="holds no questions"):
        load_dataset(write(tmp_path, [""]))


def test_builtin_dataset_names() -> None:
    assert builtin_dataset("dev") == DATASET_DIR / "dev.jsonl"
    with pytest.raises(ConfigError, match="known: dev, test"):
        builtin_dataset("train")


def test_shipped_splits_cover_every_game_kind_and_lang() -> None:
    dev = load_dataset(builtin_dataset("dev"))
    test = load_dataset(builtin_dataset("test"))
    assert len(dev) + len(test) >= 200
    assert not {q["qid"] for q in dev} & {q["qid"] for q in test}
    for field in ("game", "kind", "lang"):
        assert {q[field] for q in dev} == {q[field] for q in test}
    every = dev + test
    assert {scope_game(q) for q in every} - {None} == {
        "summoner-master",
        "gundam",
        "one-piece",
        "vanguard",
    }
    classic = [q for q in every if q["kind"] in CLASSIC_KINDS]
    assert Counter(q["kind"] for q in classic)["english"] / len(classic) >= 0.20
    assert any(q.get("doc") == "sm-decree-2009" for q in dev)
    assert any(q.get("doc") == "sm-decree-2009" for q in test)


def _check_module():
    spec = importlib.util.spec_from_file_location(
        "check_dataset", ROOT / "scripts/check_dataset.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_check_script_copy_detection() -> None:
    check = _check_module()
    gold = "Seal ที่ติด Stone Curse ยังคงทำการสวนกลับได้"
    assert check.copied_runs("does the stone curse stop it", "no stone curse stop it here") == {
        ("stone", "curse", "stop", "it")
    }
    assert check.copied_runs("Stone Curse ยังสวนกลับได้ไหม", gold) == set()
    # a clause id typed as a lookup is not "copying"
    assert check.copied_runs("rule 1-2-2-1", "1-2-2-1 text") == set()


def test_check_script_glossary_slug() -> None:
    check = _check_module()
    assert check.glossary_slug("Wake Up / Wake Up <เงื่อนไข>") == "wake-up"
    assert check.glossary_slug("Cast / ร่าย") == "cast"
    assert check.glossary_slug("(X/Y)") == "x-y"
    assert check.glossary_slug("และ") == "และ"  # a Thai-only term keeps its letters


def test_shipped_datasets_pass_the_checker() -> None:
    check = _check_module()
    assert check.check_files(sorted(DATASET_DIR.glob("*.jsonl"))) == []

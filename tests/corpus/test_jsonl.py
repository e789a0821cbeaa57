"""The one JSON Lines reader: numbering over blank lines, a bad line reported, not raised."""

import pytest

from judgekb.corpus.jsonl import JsonLine, json_lines
from judgekb.errors import ConfigError
from judgekb.index.cli_search import read_batch


def test_lines_are_numbered_from_one_counting_blank_lines() -> None:
    got = list(json_lines(['{"a": 1}', "", "   ", '{"b": 2}']))
    assert got == [JsonLine(1, {"a": 1}), JsonLine(4, {"b": 2})]


def test_a_bad_line_says_why_and_the_next_line_is_still_read() -> None:
    got = list(json_lines(["{nope", '["ok"]']))
    assert got[0].lineno == 1 and got[0].value is None
    assert got[0].error == "invalid JSON (Expecting property name enclosed in double quotes)"
    assert got[1] == JsonLine(2, ["ok"])


def test_a_batch_file_line_that_is_not_json_is_named_by_file_and_line(tmp_path) -> None:
    path = tmp_path / "q.jsonl"
    path.write_text('{"qid": "a", "question": "x"}\n\n{"qid": "b", question}\n', encoding="utf-8")
    with pytest.raises(ConfigError, match=r"q\.jsonl:3: invalid JSON"):
        read_batch(path)

from __future__ import annotations

import pytest

from judgekb.config import DATA_DIR
from judgekb.corpus.manifest import load_manifest
from judgekb.errors import ManifestError

GOOD = """
[[document]]
doc_id = "a"
game = "vanguard"
title = "T"
lang = "ms"
version = "1"
kind = "rules"
source = "a.txt"
"""


def test_bundled_manifest_lists_five_documents_with_fixed_slugs():
    m = load_manifest(DATA_DIR / "manifest.toml")
    assert [d.doc_id for d in m.documents] == [
        "sm-2014",
        "sm-decree-2009",
        "gundam-cr",
        "op-cr",
        "vg-cr",
    ]
    assert sorted(m.games) == ["gundam", "one-piece", "summoner-master", "vanguard"]
    assert m.document("sm-decree-2009").amends == "sm-2014"
    for d in m.documents:
        assert m.source_path(d).is_file()


@pytest.mark.parametrize(
    ("text", "message", "line"),
    [
        ("[[document]\n", "malformed TOML", 1),
        (GOOD.replace('lang = "ms"', 'lang = "fr"'), "lang must be one of th, ms, en", 2),
        (GOOD.replace('game = "vanguard"', 'game = "chess"'), "unknown game 'chess'", 2),
        (GOOD.replace('title = "T"\n', ""), "missing title", 2),
        (GOOD + GOOD, "duplicate doc_id 'a'", 11),
        (GOOD.replace('kind = "rules"', 'kind = "amendment"'), "needs 'amends'", 2),
    ],
)
def test_malformed_manifest_names_file_and_line(tmp_path, text, message, line):
    path = tmp_path / "manifest.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ManifestError, match=message) as info:
        load_manifest(path)
    assert info.value.line == line
    assert str(path) in str(info.value)

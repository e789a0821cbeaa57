"""Tests of the reviewed errata: loading, what holds and what is stale, the bundled tables."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from judgekb.corpus.errata import CODE, ERRATA_DIR, LANGS, errata_findings, load_errata
from judgekb.corpus.model import Clause
from judgekb.errors import ManifestError

ENTRY = """[[erratum]]
clause = "703.6"
kind = "wrong-ref"
quote = "703.5"
en = "Cites 703.5, probably   meaning 703.4."
th = "อ้างถึงข้อ 703.5 น่าจะหมายถึงข้อ 703.4"
ms = "Merujuk 703.5, mungkin 703.4."
checked = "read 703.4 and 703.5"
"""


def _clause(cid: str, text: str) -> Clause:
    return Clause("sm-2014", cid, None, "clause", "", text, text, "th", 42)


def _write(tmp_path: Path, body: str) -> Path:
    (tmp_path / "sm-2014.toml").write_text(body, encoding="utf-8")
    return tmp_path


def test_missing_file_is_no_errata(tmp_path: Path) -> None:
    assert load_errata("sm-2014", tmp_path) == ()


def test_an_erratum_that_holds_is_a_finding_in_every_language(tmp_path: Path) -> None:
    errata = load_errata("sm-2014", _write(tmp_path, ENTRY))
    found, stale = errata_findings("sm-2014", [_clause("703.6", "ตามข้อ 703.5")], errata)
    assert stale == []
    [f] = found
    assert (f.doc_id, f.code, f.clause_id, f.line) == ("sm-2014", CODE, "703.6", 42)
    params = dict(f.params)
    assert params["kind"] == "wrong-ref"
    assert params["en"] == "Cites 703.5, probably meaning 703.4."  # whitespace folded
    assert set(LANGS) <= set(params)
    assert "703.4" in f.message


def test_stale_entries_are_reported_not_shown(tmp_path: Path) -> None:
    errata = load_errata("sm-2014", _write(tmp_path, ENTRY))
    found, stale = errata_findings("sm-2014", [_clause("703.6", "ตามข้อ 703.4")], errata)
    assert found == []
    assert len(stale) == 1 and "sm-2014.toml:1" in stale[0] and "no longer prints" in stale[0]
    found, stale = errata_findings("sm-2014", [_clause("703.7", "703.5")], errata)
    assert found == [] and "prints no clause 703.6" in stale[0]


@pytest.mark.parametrize(
    ("edit", "message", "line"),
    [
        (('kind = "wrong-ref"', 'kind = "typo"'), "'kind' is 'typo'", 1),
        (("ms = ", "why = "), "unknown keys why", 1),
        (('th = "อ้างถึงข้อ 703.5 น่าจะหมายถึงข้อ 703.4"\n', ""), "non-empty string 'th'", 1),
        (('quote = "703.5"', 'quote = ""'), "non-empty string 'quote'", 1),
    ],
)
def test_malformed_entries_name_file_and_line(tmp_path: Path, edit, message, line) -> None:
    body = ENTRY.replace(*edit)
    with pytest.raises(ManifestError, match=message) as err:
        load_errata("sm-2014", _write(tmp_path, body))
    assert err.value.path.endswith("sm-2014.toml") and err.value.line == line


def test_second_entry_is_named_by_its_line(tmp_path: Path) -> None:
    body = ENTRY + "\n" + ENTRY.replace('kind = "wrong-ref"', 'kind = "nope"')
    with pytest.raises(ManifestError) as err:
        load_errata("sm-2014", _write(tmp_path, body))
    assert err.value.line == ENTRY.count("\n") + 2


def test_malformed_toml_names_the_line(tmp_path: Path) -> None:
    with pytest.raises(ManifestError, match="malformed TOML") as err:
        load_errata("sm-2014", _write(tmp_path, "[[erratum]]\nclause = \n"))
    assert err.value.line == 2


def test_every_bundled_erratum_holds_in_its_book() -> None:
    """Each bundled entry still matches its clause: the build shows every one."""
    from judgekb.config import Settings
    from judgekb.corpus.build import collect_corpus
    from judgekb.corpus.manifest import load_manifest

    built_corpus = collect_corpus(load_manifest(Settings().manifest))
    files = sorted(ERRATA_DIR.glob("*.toml"))
    assert files, "no bundled errata"
    assert built_corpus.errata_problems == []
    shown = {(f.doc_id, f.clause_id) for f in built_corpus.findings if f.code == CODE}
    for path in files:
        entries = tomllib.loads(path.read_text(encoding="utf-8"))["erratum"]
        assert {(path.stem, e["clause"]) for e in entries} <= shown

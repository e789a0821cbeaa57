"""`judgekb users|rulings|kb` in-process (Typer's runner) on SQLite and PostgreSQL."""

from __future__ import annotations

import sqlite3

import pytest
from typer.testing import CliRunner

from judgekb.cli import app
from judgekb.config import get_settings
from judgekb.corpus.store import ClauseStore
from judgekb.kb.base import open_kb
from judgekb.kb.db import open_database
from judgekb.kb.transfer import export_lines
from tests.kb.conftest import PASSWORD, draft


@pytest.fixture()
def cli(monkeypatch, store_path, db_url, tmp_path):
    # a data dir whose current generation is the tiny store's directory
    data_dir = tmp_path / "var"
    data_dir.mkdir()
    (data_dir / "current").symlink_to(store_path.parent)
    monkeypatch.setenv("JUDGEKB_DATA_DIR", str(data_dir))
    monkeypatch.setenv("JUDGEKB_DATABASE_URL", db_url)
    get_settings.cache_clear()
    yield CliRunner()
    get_settings.cache_clear()


def test_users_and_tokens(cli, db_url) -> None:
    r = cli.invoke(
        app,
        ["users", "add", "hugo", "--role", "head-judge", "--password-stdin"],
        input=PASSWORD + "\n",
    )
    assert r.exit_code == 0, r.output
    bad = cli.invoke(
        app, ["users", "add", "x", "--role", "pope", "--password-stdin"], input=PASSWORD
    )
    assert bad.exit_code == 2 and "unknown role 'pope'" in bad.output
    token = cli.invoke(app, ["users", "token", "hugo"]).stdout.strip()
    assert token.startswith("jkb_")
    kb = open_kb(get_settings(), ClauseStore(get_settings().store_path))
    assert kb.accounts.token_user(token).name == "hugo"
    assert cli.invoke(app, ["users", "revoke", "hugo"]).exit_code == 0
    with pytest.raises(Exception, match="revoked"):
        kb.accounts.token_user(token)
    assert '"name": "hugo"' in cli.invoke(app, ["users", "list"]).stdout
    kb.db.dispose()


def test_export_import_and_backup(cli, kb, tmp_path, monkeypatch) -> None:
    from judgekb.kb.model import CLI_ACTOR

    r = kb.rulings.submit(draft(), CLI_ACTOR)
    kb.rulings.review(r.id, "approve", CLI_ACTOR)
    out = cli.invoke(app, ["rulings", "export"])
    assert out.exit_code == 0
    dump = tmp_path / "rulings.jsonl"
    dump.write_text(out.stdout, encoding="utf-8")
    assert out.stdout == "".join(line + "\n" for line in export_lines(kb.db))
    again = cli.invoke(app, ["rulings", "import", str(dump)])
    assert again.exit_code == 0 and "imported 0 rulings (1 already present)" in again.output
    target = f"sqlite:///{tmp_path / 'copy.sqlite'}"
    get_settings.cache_clear()
    monkeypatch.setenv("JUDGEKB_DATABASE_URL", target)
    assert cli.invoke(app, ["rulings", "import", str(dump)]).exit_code == 0
    assert list(export_lines(open_database(target))) == out.stdout.splitlines()
    backup = cli.invoke(app, ["kb", "backup", str(tmp_path / "b" / "kb-backup.sqlite")])
    assert backup.exit_code == 0, backup.output
    con = sqlite3.connect(tmp_path / "b" / "kb-backup.sqlite")
    assert con.execute("select question from rulings").fetchall() == [(r.question,)]
    assert cli.invoke(app, ["kb", "check"]).exit_code == 0


def test_an_imported_ruling_citing_a_clause_these_rules_lack_is_flagged(cli, kb, tmp_path) -> None:
    import json

    from judgekb.kb.model import CLI_ACTOR

    r = kb.rulings.submit(draft(), CLI_ACTOR)
    kb.rulings.review(r.id, "approve", CLI_ACTOR)
    line = json.loads(next(iter(export_lines(kb.db))))
    line["id"] = 77
    line["cites"][0]["clause_id"] = "999.9"  # exported from rules that printed 999.9
    dump = tmp_path / "other.jsonl"
    dump.write_text(json.dumps(line, ensure_ascii=False) + "\n", encoding="utf-8")
    out = cli.invoke(app, ["rulings", "import", str(dump)])
    assert out.exit_code == 0, out.output
    assert "imported 1 rulings" in out.output and "needs-review" in out.output
    assert kb.rulings.get(77).needs_review

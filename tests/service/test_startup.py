"""Start-up without a built store or index fails at once, naming the build command."""

from __future__ import annotations

from pathlib import Path

import pytest

from judgekb.config import Settings
from judgekb.errors import IndexNotBuilt, JudgeKBError
from judgekb.service.app import create_app


def test_missing_store_names_the_build_command(tmp_path: Path) -> None:
    with pytest.raises(IndexNotBuilt) as info:
        create_app(Settings(data_dir=tmp_path / "var"))
    assert "judgekb build" in str(info.value) and "make run" in str(info.value)


def test_missing_index_names_the_build_command(store_path: Path, tmp_path: Path) -> None:
    pytest.importorskip("judgekb.index.search", reason="the real searcher is not written yet")
    data = tmp_path / "var"
    data.mkdir()
    (data / "clauses.sqlite").write_bytes(store_path.read_bytes())
    with pytest.raises(JudgeKBError) as info:
        create_app(Settings(data_dir=data))
    assert "judgekb build" in str(info.value)


def test_serve_exits_with_the_message(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from typer.testing import CliRunner

    from judgekb import cli

    monkeypatch.setattr(cli, "_settings", lambda: Settings(data_dir=tmp_path / "none"))
    result = CliRunner().invoke(cli.app, ["serve"])
    assert result.exit_code == 2
    assert "judgekb build" in " ".join(result.output.split())

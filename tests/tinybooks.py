"""A tiny two-book corpus from tests/data, built into generations with the keyword encoder:
what the generation, rebuild and fault-injection tests build, damage and kill."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from judgekb.config import Settings

DATA = Path(__file__).resolve().parent / "data"
REPO = DATA.parent.parent
MODEL = "fake-onehot"  # tests.fakes.FakeEmbedder.name
MANIFEST = """
[[document]]
doc_id = "sm-tiny"
game = "summoner-master"
title = "Tiny"
lang = "th"
version = "1"
kind = "rules"
source = "rulebooks/tiny_dotted_th.txt"
numbering = "dotted"

[[document]]
doc_id = "vg-tiny"
game = "vanguard"
title = "Tiny"
lang = "ms"
version = "1"
kind = "rules"
source = "rulebooks/tiny_bahagian_ms.txt"
numbering = "bahagian"
"""


def write_books(root: Path) -> Path:
    """``root/manifest.toml`` and ``root/rulebooks/``; returns the manifest path."""
    books = root / "rulebooks"
    books.mkdir(parents=True, exist_ok=True)
    for name in ("tiny_dotted_th.txt", "tiny_bahagian_ms.txt"):
        shutil.copy(DATA / name, books)
    (root / "manifest.toml").write_text(MANIFEST, encoding="utf-8")
    return root / "manifest.toml"


def edit_books(root: Path, n: int = 1, word: str = "ใหม่") -> None:
    """Add a section of ``n`` clauses to the Thai book: the next build has new passages."""
    book = root / "rulebooks" / "tiny_dotted_th.txt"
    lines = "".join(f"102.{i}. กฎ{word}ที่ {i} จั่วการ์ด\n\n" for i in range(1, n + 1))
    text = book.read_text(encoding="utf-8")
    book.write_text(text.replace("## 2. Card", f"#### 102. {word}\n\n{lines}## 2. Card"), "utf-8")


def settings(root: Path, **kw: object) -> Settings:
    return Settings(
        data_dir=root / "var",
        manifest=root / "manifest.toml",
        model=MODEL,
        **kw,  # type: ignore[arg-type]
    )


def env(root: Path, **extra: str) -> dict[str, str]:
    """The environment of a ``python -m tests.faultrunner`` process over ``root``."""
    out = {k: v for k, v in os.environ.items() if not k.startswith("JUDGEKB_")}
    out.update(
        JUDGEKB_DATA_DIR=str(root / "var"),
        JUDGEKB_MANIFEST=str(root / "manifest.toml"),
        JUDGEKB_MODEL=MODEL,
        JUDGEKB_ENCODE_BATCH_SIZE="1",  # the cache commits every 4 passages
        JUDGEKB_TEST_MARK=str(root / "pause.mark"),
        HF_HUB_OFFLINE="1",
    )
    out.update(extra)
    return out


def judgekb(
    root: Path, *args: str, _wrap: Sequence[str] = (), **extra: str
) -> subprocess.Popen[str]:
    """Start ``judgekb ARGS`` (keyword encoder, optional pause) over ``root``, run by the
    ``_wrap`` command if one is given."""
    return subprocess.Popen(
        [*_wrap, sys.executable, "-m", "tests.faultrunner", *args],
        cwd=REPO,
        env=env(root, **extra),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def run(
    root: Path, *args: str, timeout: float = 60, _wrap: Sequence[str] = (), **extra: str
) -> tuple[int, str]:
    """Run ``judgekb ARGS`` to the end: (exit code, output with whitespace collapsed)."""
    proc = judgekb(root, *args, _wrap=_wrap, **extra)
    out, _ = proc.communicate(timeout=timeout)
    return proc.returncode, " ".join(out.split())

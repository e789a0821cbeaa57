from __future__ import annotations

import pytest

from judgekb.corpus.source import read_rulebook
from judgekb.errors import RulebookError


def test_reads_utf8_and_strips_bom_and_crlf(tmp_path):
    p = tmp_path / "r.txt"
    p.write_bytes("\ufeff1-1. ผู้เล่น\r\n1-2. การ์ด\r\n".encode())
    assert read_rulebook(p) == "1-1. ผู้เล่น\n1-2. การ์ด\n"


@pytest.mark.parametrize(
    ("data", "message", "line"),
    [
        (b"", "empty", None),
        (b"  \n\n", "empty", None),
        (b"1.1. ok\n2.2. \x00\x01binary", "binary file", 2),
        (b"1.1. ok\n" + "ผู้เล่น".encode("tis-620"), "not valid UTF-8", 2),
    ],
)
def test_unusable_files_name_file_and_line(tmp_path, data, message, line):
    p = tmp_path / "bad.txt"
    p.write_bytes(data)
    with pytest.raises(RulebookError, match=message) as info:
        read_rulebook(p)
    assert info.value.line == line
    assert str(p) in str(info.value)


def test_missing_file(tmp_path):
    with pytest.raises(RulebookError, match="not found"):
        read_rulebook(tmp_path / "nope.txt")

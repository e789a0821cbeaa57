"""The one text normaliser: the same chain runs on clause text at index time and on queries.

:func:`normalize_text` applies these public rules, in this order (each is a small function,
tested on exact strings, and safe on correct Thai -- none deletes a tone mark)::

    1. remove_zero_width     ZWSP/ZWNJ/ZWJ/word joiner/BOM left by PDF and web copies
    2. nfc                   Unicode NFC (also puts SARA U/UU before a tone mark)
    3. compose_sara_am       NIKHAHIT + SARA AA -> SARA AM, also with a tone mark between
    4. remove_dup_marks      the same Thai mark typed twice ("ก่่" -> "ก่")
    5. thai_digits_to_ascii  ๐-๙ -> 0-9, so "ข้อ ๑๒" and "ข้อ 12" match
    6. collapse_spaces       whitespace runs -> one space (or one newline), stripped

Unlike ``pythainlp.util.normalize`` this chain never removes a tone mark: pythainlp drops
the tone in "แพ ้" (a PDF extraction artefact), which turns "lose" into another word.
Bump :data:`NORMALISER_VERSION` whenever a rule changes what it outputs: index directories
record it and refuse to load under another version.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

NORMALISER_VERSION = "1"

NIKHAHIT = "\u0e4d"
SARA_AA = "\u0e32"
SARA_AM = "\u0e33"
TONE_MARKS = "\u0e48\u0e49\u0e4a\u0e4b"
# Combining Thai marks: MAI HAN-AKAT, SARA I..UU, PHINTHU, MAITAIKHU, tones, THANTHAKHAT,
# NIKHAHIT, YAMAKKAN.
THAI_MARKS = (
    "\u0e31\u0e34\u0e35\u0e36\u0e37\u0e38\u0e39\u0e3a\u0e47" + TONE_MARKS + "\u0e4c\u0e4d\u0e4e"
)

_ZERO_WIDTH_RE = re.compile("[\u200b\u200c\u200d\u2060\ufeff]")
_SARA_AM_RE = re.compile(f"{NIKHAHIT}([{TONE_MARKS}]?){SARA_AA}")
_DUP_MARK_RE = re.compile(f"([{THAI_MARKS}])\\1+")
_THAI_DIGITS = str.maketrans("๐๑๒๓๔๕๖๗๘๙", "0123456789")
_SPACE_RUN_RE = re.compile(r"\s+")


def remove_zero_width(s: str) -> str:
    """Delete zero-width characters, which split words invisibly and defeat matching."""
    return _ZERO_WIDTH_RE.sub("", s)


def nfc(s: str) -> str:
    """Unicode NFC: composed Latin accents; SARA U/UU + tone in canonical order."""
    return unicodedata.normalize("NFC", s)


def compose_sara_am(s: str) -> str:
    """Compose NIKHAHIT + SARA AA into SARA AM (PDFs emit "จํานวน" for "จำนวน").

    A tone mark between the two moves before SARA AM: "น" NIKHAHIT MAI THO SARA AA -> "น้ำ".
    """
    return _SARA_AM_RE.sub(lambda m: m.group(1) + SARA_AM, s)


def remove_dup_marks(s: str) -> str:
    """Collapse a Thai mark repeated back to back (typing slips, OCR doubling)."""
    return _DUP_MARK_RE.sub(r"\1", s)


def thai_digits_to_ascii(s: str) -> str:
    """Map Thai digits to ASCII, so clause numbers and counts match either way."""
    return s.translate(_THAI_DIGITS)


def collapse_spaces(s: str) -> str:
    """Turn each whitespace run into one space (one newline if it held one); strip the ends."""
    return _SPACE_RUN_RE.sub(lambda m: "\n" if "\n" in m.group(0) else " ", s).strip()


RULES: tuple[Callable[[str], str], ...] = (
    remove_zero_width,
    nfc,
    compose_sara_am,
    remove_dup_marks,
    thai_digits_to_ascii,
    collapse_spaces,
)
"""The rules :func:`normalize_text` applies, in order."""


def normalize_text(s: str) -> str:
    """Apply every rule of :data:`RULES` in order; idempotent, and fast enough per query."""
    for rule in RULES:
        s = rule(s)
    return s

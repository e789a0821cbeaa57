"""Check the game-term lexicon (judgekb/data/terms.toml) against the rulebooks themselves.

For every ``[[term]]`` entry, count how often each Thai (``th``) and Malay (``ms``) form occurs
in the rulebooks of the entry's games (all games when ``games`` is absent). Texts go through the
same normaliser as the index (``normalize_text``) and through the reviewed OCR corrections of
``judgekb/data/corrections/<doc_id>.toml`` when they exist, so a correct spelling counts once
the damaged print of it is corrected. Latin-script forms match whole words, case-insensitively;
Thai forms match as substrings (Thai has no spaces between words).

Prints the forms that never occur (with the entry's note, which must say why such a form is
kept) and a summary line ``forms found: F/T (P%)``.

Usage: python scripts/check_terms.py [--all] [--raw] [terms.toml]
    --all  also print the count of every form, per document
    --raw  count the text as printed, without the OCR corrections
"""

from __future__ import annotations

import re
import sys
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from judgekb.corpus.manifest import load_manifest  # noqa: E402
from judgekb.corpus.normalize import normalize_text  # noqa: E402

TERMS_PATH = ROOT / "judgekb" / "data" / "terms.toml"
MANIFEST_PATH = ROOT / "judgekb" / "data" / "manifest.toml"
KEYS = {"en", "th", "ms", "games", "note"}
_LATIN_EDGE = re.compile(r"[A-Za-z0-9]")  # texts are lower-cased, forms too


@dataclass(frozen=True)
class FormCount:
    """How often one th/ms form of one entry occurs, per document of the entry's games."""

    entry: int  # index of the entry in the file
    lang: str  # "th" or "ms"
    form: str
    per_doc: Mapping[str, int]

    @property
    def total(self) -> int:
        return sum(self.per_doc.values())


def load_terms(path: Path = TERMS_PATH) -> list[dict]:
    """The ``[[term]]`` tables of ``path``, in file order."""
    with path.open("rb") as fh:
        data = tomllib.load(fh)
    return list(data.get("term", []))


def validate_terms(entries: Iterable[dict], game_slugs: Iterable[str]) -> list[str]:
    """Problems in the lexicon: missing keys, unknown keys or games, duplicate English keys."""
    slugs = set(game_slugs)
    problems: list[str] = []
    seen: dict[str, int] = {}
    for i, entry in enumerate(entries):
        label = f"entry {i} {entry.get('en', ['?'])[:1]}"
        if set(entry) - KEYS:
            problems.append(f"{label}: unknown keys {sorted(set(entry) - KEYS)}")
        en = entry.get("en") or []
        if not en or not all(isinstance(w, str) and w == w.lower() and w.strip() for w in en):
            problems.append(f"{label}: 'en' must be a non-empty list of lower-case strings")
        if not (entry.get("th") or entry.get("ms")):
            problems.append(f"{label}: needs at least one 'th' or 'ms' form")
        for game in entry.get("games", []):
            if game not in slugs:
                problems.append(f"{label}: unknown game {game!r}; known: {sorted(slugs)}")
        for word in en:
            if word in seen:
                problems.append(f"{label}: en {word!r} already in entry {seen[word]}")
            seen.setdefault(word, i)
    return problems


def corpus_texts(
    manifest_path: Path = MANIFEST_PATH, corrected: bool = True
) -> dict[str, tuple[str, str]]:
    """doc_id -> (game, normalised, OCR-corrected, lower-cased text) for every rulebook.

    ``corrected=False`` counts the text as printed (before the reviewed corrections).
    """
    manifest = load_manifest(manifest_path)
    texts: dict[str, tuple[str, str]] = {}
    for doc in manifest.documents:
        text = normalize_text(manifest.source_path(doc).read_text(encoding="utf-8"))
        if corrected:
            text = _corrected(doc.doc_id, text)
        texts[doc.doc_id] = (doc.game, text.lower())
    return texts


def _corrected(doc_id: str, text: str) -> str:
    """Apply the reviewed OCR corrections of ``doc_id`` when that module and table exist."""
    try:
        from judgekb.corpus.corrections import apply_corrections, load_corrections
    except ImportError:  # corrections not built yet: count the printed text
        return text
    corrected, _ = apply_corrections(load_corrections(doc_id), text)
    return corrected


@dataclass(frozen=True)
class FormPattern:
    """One form as searched: normalised and lower-cased, whole-word at a Latin edge."""

    text: str
    word_left: bool  # starts with a Latin letter/digit: no letter/digit may precede it
    word_right: bool  # ends with one: no letter/digit may follow it


def form_pattern(form: str) -> FormPattern:
    """How to find ``form`` in a lower-cased text.

    Latin edges match whole words only ("seri" must not match "series"); Thai forms match as
    substrings, since Thai writes no spaces between words.
    """
    norm = normalize_text(form).lower()
    return FormPattern(norm, bool(_LATIN_EDGE.match(norm[:1])), bool(_LATIN_EDGE.match(norm[-1:])))


def count_in(pattern: FormPattern, text: str) -> int:
    """Non-overlapping occurrences of ``pattern`` in ``text`` (str.find: fast on 1 MB)."""
    if not (pattern.word_left or pattern.word_right):
        return text.count(pattern.text)
    count, start, size = 0, text.find(pattern.text), len(pattern.text)
    while start != -1:
        end = start + size
        left_ok = not pattern.word_left or start == 0 or not _LATIN_EDGE.match(text[start - 1])
        right_ok = not pattern.word_right or end == len(text) or not _LATIN_EDGE.match(text[end])
        if left_ok and right_ok:
            count += 1
        start = text.find(pattern.text, end if left_ok and right_ok else start + 1)
    return count


def count_forms(entries: list[dict], texts: Mapping[str, tuple[str, str]]) -> list[FormCount]:
    """Occurrences of every th/ms form in the documents of its entry's games."""
    counts: list[FormCount] = []
    for i, entry in enumerate(entries):
        games = set(entry.get("games", []))
        docs = {d: t for d, (g, t) in texts.items() if not games or g in games}
        for lang in ("th", "ms"):
            for form in entry.get(lang, []):
                pattern = form_pattern(form)
                per_doc = {d: count_in(pattern, t) for d, t in docs.items()}
                counts.append(FormCount(i, lang, form, {d: n for d, n in per_doc.items() if n}))
    return counts


def coverage(counts: list[FormCount]) -> tuple[int, int]:
    """(forms that occur at least once, all forms)."""
    return sum(1 for c in counts if c.total), len(counts)


def report(entries: list[dict], counts: list[FormCount], show_all: bool = False) -> str:
    """The text printed by :func:`main`."""
    lines: list[str] = []
    for c in counts:
        entry = entries[c.entry]
        if show_all:
            docs = ", ".join(f"{d}:{n}" for d, n in sorted(c.per_doc.items()))
            lines.append(f"{c.total:6d}  {c.lang} {c.form}  [{entry['en'][0]}]  {docs}")
        elif not c.total:
            note = entry.get("note", "")
            lines.append(f"never: {c.lang} {c.form!r}  [{entry['en'][0]}]  note: {note or '-'}")
    found, total = coverage(counts)
    empty = sum(1 for i in range(len(entries)) if not any(c.total for c in counts if c.entry == i))
    pct = 100.0 * found / total if total else 0.0
    lines.append(
        f"entries: {len(entries)}  entries with no form found: {empty}  "
        f"forms found: {found}/{total} ({pct:.1f}%)"
    )
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    args = [a for a in argv[1:] if not a.startswith("--")]
    entries = load_terms(Path(args[0]) if args else TERMS_PATH)
    manifest = load_manifest(MANIFEST_PATH)
    problems = validate_terms(entries, manifest.games)
    for problem in problems:
        sys.stdout.write(f"invalid: {problem}\n")
    texts = corpus_texts(MANIFEST_PATH, corrected="--raw" not in argv)
    counts = count_forms(entries, texts)
    sys.stdout.write(report(entries, counts, show_all="--all" in argv))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

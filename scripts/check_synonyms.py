"""Check an everyday-words table against the rulebooks: the Thai synonym table
(judgekb/data/thai_synonyms.toml) or, with ``--malay``, the everyday-Malay table
(judgekb/data/malay_colloquial.toml).

Every ``[[synonym]]`` entry maps the words a judge types (``everyday``, matched as substrings of
the query) to the wording the rulebook prints (``book``), optionally for some games only. This
script counts each book form in the rulebooks of the entry's games (all games when ``games`` is
absent), with the same normalised, OCR-corrected, lower-cased texts and the same matching as
``scripts/check_terms.py``, whose functions it reuses.

Prints:
    invalid: ...     a malformed entry (unknown key or game, empty list, an everyday key given
                     twice for the same game)
    never: ...       a book form that occurs in none of the entry's rulebooks (must be fixed)
    pointless: ...   an everyday key that is one of the entry's book forms, or that the
                     rulebooks of every game the entry serves already print at least as often
                     as the entry's book forms: BM25 matches it without help
    short: ...       an everyday key of fewer than 3 characters (fires on unrelated questions)
and a summary line ``book forms found: F/T (P%)``. With ``--all`` it also prints the count of
every book form per document, the keys the books print less often than the book forms
("in book:", often a sign of a second meaning worth checking) and the keys that are part of
one of their own book forms ("inside:", e.g. the truncation "คอส" of "คอสต์"). Exits 1 when
anything but the summary and the --all lines is printed.

The Malay table is checked the same way against the Malay rulebooks only (the documents whose
manifest ``lang`` is "ms"), with two differences: its keys match whole words, so short chat
spellings ("x", "yg") are allowed; and its ``[[filler]]`` words (dropped from a query) must not be
printed by the book, except a ``final`` question particle, which the book prints as a preposition
("printed:" otherwise).

Usage: python scripts/check_synonyms.py [--all] [--raw] [--malay] [TABLE.toml]
    --all    also print every book form's counts per document, and the "in book"/"inside" keys
    --raw    count the text as printed, without the OCR corrections
    --malay  check the everyday-Malay table against the Malay rulebooks
"""

from __future__ import annotations

import sys
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from check_terms import MANIFEST_PATH, ROOT, corpus_texts, count_in, form_pattern

from judgekb.corpus.manifest import load_manifest
from judgekb.corpus.normalize import normalize_text

SYNONYMS_PATH = ROOT / "judgekb" / "data" / "thai_synonyms.toml"
MALAY_PATH = ROOT / "judgekb" / "data" / "malay_colloquial.toml"
KEYS = {"everyday", "book", "games", "note"}
FILLER_KEYS = {"everyday", "final", "note"}
MIN_KEY_CHARS = 3  # Thai keys match as substrings; the Malay table's keys match whole words


@dataclass(frozen=True)
class BookCount:
    """How often one book form of one entry occurs, per document of the entry's games."""

    entry: int
    form: str
    per_doc: Mapping[str, int]

    @property
    def total(self) -> int:
        return sum(self.per_doc.values())


def load_synonyms(path: Path = SYNONYMS_PATH, table: str = "synonym") -> list[dict]:
    """The ``[[synonym]]`` (or ``[[table]]``) tables of ``path``, in file order."""
    with path.open("rb") as fh:
        data = tomllib.load(fh)
    return list(data.get(table, []))


def lang_texts(
    texts: Mapping[str, tuple[str, str]], langs: Mapping[str, str], lang: str
) -> dict[str, tuple[str, str]]:
    """The documents of ``texts`` written in ``lang`` (``langs``: doc_id -> manifest lang)."""
    return {d: gt for d, gt in texts.items() if langs.get(d) == lang}


def filler_findings(fillers: list[dict], texts: Mapping[str, tuple[str, str]]) -> list[str]:
    """Malformed ``[[filler]]`` entries, and fillers the books print (a query would lose them);
    a ``final`` particle is exempt: the book prints it as a preposition mid-sentence."""
    problems: list[str] = []
    for i, entry in enumerate(fillers):
        label = f"filler {i + 1} {(entry.get('everyday') or ['?'])[:1]}"
        if set(entry) - FILLER_KEYS:
            problems.append(f"{label}: unknown keys {sorted(set(entry) - FILLER_KEYS)}")
        words = entry.get("everyday")
        if not isinstance(words, list) or not words or not all(isinstance(w, str) for w in words):
            problems.append(f"{label}: 'everyday' must be a non-empty list of strings")
            continue
        if entry.get("final"):
            continue
        for word in words:
            n = sum(count_in(form_pattern(word), t) for _, t in texts.values())
            if n:
                problems.append(f"printed: filler {word!r} occurs {n} times in the book  {label}")
    return problems


def _label(i: int, entry: dict) -> str:
    first = (entry.get("everyday") or ["?"])[0]
    return f"entry {i + 1} [{first}]"


def validate_synonyms(entries: Iterable[dict], game_slugs: Iterable[str]) -> list[str]:
    """Malformed entries: unknown keys or games, empty or non-string lists, and an everyday key
    given twice for the same game (the loader would merge them silently)."""
    slugs = set(game_slugs)
    problems: list[str] = []
    seen: dict[str, list[tuple[set[str], int]]] = {}  # everyday key -> (games, entry) pairs
    for i, entry in enumerate(entries):
        label = _label(i, entry)
        if set(entry) - KEYS:
            problems.append(f"{label}: unknown keys {sorted(set(entry) - KEYS)}")
        for key in ("everyday", "book"):
            forms = entry.get(key)
            if not isinstance(forms, list) or not forms:
                problems.append(f"{label}: '{key}' must be a non-empty list")
            elif not all(isinstance(f, str) and f.strip() for f in forms):
                problems.append(f"{label}: '{key}' holds an empty or non-string form")
        games = set(entry.get("games", []))
        for game in sorted(games - slugs):
            problems.append(f"{label}: unknown game {game!r}; known: {sorted(slugs)}")
        for form in entry.get("everyday") or []:
            if not isinstance(form, str):
                continue
            if normalize_text(form).strip() != form:
                problems.append(f"{label}: everyday {form!r} is not normalised/stripped")
            for other_games, j in seen.get(form, []):
                # Unrestricted entries (empty set) overlap every game.
                if not games or not other_games or games & other_games:
                    problems.append(f"{label}: everyday {form!r} already in entry {j + 1}")
                    break
            seen.setdefault(form, []).append((games, i))
    return problems


def entry_docs(entry: dict, texts: Mapping[str, tuple[str, str]]) -> dict[str, tuple[str, str]]:
    """doc_id -> (game, text) of the rulebooks of the entry's games (all when unrestricted)."""
    games = set(entry.get("games", []))
    return {d: gt for d, gt in texts.items() if not games or gt[0] in games}


def count_books(entries: list[dict], texts: Mapping[str, tuple[str, str]]) -> list[BookCount]:
    """Occurrences of every book form in the rulebooks of its entry's games."""
    counts: list[BookCount] = []
    for i, entry in enumerate(entries):
        docs = entry_docs(entry, texts)
        for form in entry.get("book", []):
            pattern = form_pattern(form)
            per_doc = {d: count_in(pattern, t) for d, (_, t) in docs.items()}
            counts.append(BookCount(i, form, {d: n for d, n in per_doc.items() if n}))
    return counts


def key_findings(
    entries: list[dict],
    texts: Mapping[str, tuple[str, str]],
    counts: list[BookCount],
    min_key_chars: int = MIN_KEY_CHARS,
) -> list[tuple[str, str]]:
    """(kind, line) about everyday keys; kind is "pointless", "short", "in book" or "inside".

    A key is pointless when, in every game the entry serves, the rulebooks print it at least as
    often as the entry's book forms (occurrences inside a book form not counted): BM25 then
    matches the key without help. A key printed, but less often than the book forms, is only
    "in book" (the expansion still adds recall). "inside" marks a key that is part of one of
    the entry's book forms ("คอส" in "คอสต์"): it fires on the book form too, which is harmless.
    """
    out: list[tuple[str, str]] = []
    game_of = {d: g for d, (g, _) in texts.items()}
    for i, entry in enumerate(entries):
        label = _label(i, entry)
        docs = entry_docs(entry, texts)
        own = [c for c in counts if c.entry == i]
        # The games the entry serves: its own, or (unrestricted) those whose books print a form.
        served = set(entry.get("games", [])) or {game_of[d] for c in own for d in c.per_doc}
        book_n: dict[str, int] = {}
        for c in own:
            for d, n in c.per_doc.items():
                book_n[game_of[d]] = book_n.get(game_of[d], 0) + n
        books = [normalize_text(b).lower() for b in entry.get("book", [])]
        for form in entry.get("everyday", []):
            if not isinstance(form, str):
                continue
            key = normalize_text(form).strip().lower()
            if len(key) < min_key_chars:
                out.append(("short", f"short: {form!r}  {label}"))
            if key in books:
                out.append(("pointless", f"pointless: {form!r} is also a book form  {label}"))
                continue
            inside = [b for b in books if key in b]
            if inside:
                out.append(("inside", f"inside: {form!r} is part of {inside[0]!r}  {label}"))
            pattern = form_pattern(key)
            key_n: dict[str, int] = {}
            for g, t in docs.values():
                for b in inside:  # a key inside a book form: count it elsewhere only
                    t = t.replace(b, "\x00")
                n = count_in(pattern, t)
                if n:
                    key_n[g] = key_n.get(g, 0) + n
            if not key_n:
                continue
            where = ", ".join(
                f"{g}: key {n} / book {book_n.get(g, 0)}" for g, n in sorted(key_n.items())
            )
            if served and all(key_n.get(g, 0) >= max(1, book_n.get(g, 0)) for g in served):
                out.append(("pointless", f"pointless: {form!r} already printed  {label}  {where}"))
            else:
                out.append(("in book", f"in book: {form!r}  {label}  {where}"))
    return out


def report(
    entries: list[dict],
    counts: list[BookCount],
    key_lines: list[tuple[str, str]],
    show_all: bool = False,
) -> str:
    """The text printed by :func:`main`."""
    lines: list[str] = []
    for c in counts:
        label = _label(c.entry, entries[c.entry])
        if show_all:
            docs = ", ".join(f"{d}:{n}" for d, n in sorted(c.per_doc.items()))
            lines.append(f"{c.total:6d}  {c.form}  {label}  {docs}")
        elif not c.total:
            lines.append(f"never: {c.form!r}  {label}")
    lines += [line for kind, line in key_lines if show_all or kind in ("pointless", "short")]
    found = sum(1 for c in counts if c.total)
    total = len(counts)
    pct = 100.0 * found / total if total else 0.0
    keys = sum(len(e.get("everyday", [])) for e in entries)
    lines.append(
        f"entries: {len(entries)}  everyday keys: {keys}  "
        f"book forms found: {found}/{total} ({pct:.1f}%)"
    )
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    args = [a for a in argv[1:] if not a.startswith("--")]
    malay = "--malay" in argv
    path = Path(args[0]) if args else (MALAY_PATH if malay else SYNONYMS_PATH)
    entries = load_synonyms(path)
    manifest = load_manifest(MANIFEST_PATH)
    problems = validate_synonyms(entries, manifest.games)
    texts = corpus_texts(MANIFEST_PATH, corrected="--raw" not in argv)
    if malay:
        texts = lang_texts(texts, {d.doc_id: d.lang for d in manifest.documents}, "ms")
        problems += filler_findings(load_synonyms(path, "filler"), texts)
        problems += [
            f"{_label(i, e)}: the Malay table's 'book' holds exactly one form"
            for i, e in enumerate(entries)
            if len(e.get("book") or []) != 1
        ]
    for problem in problems:
        sys.stdout.write(f"invalid: {problem}\n")
    counts = count_books(entries, texts)
    key_lines = key_findings(entries, texts, counts, 1 if malay else MIN_KEY_CHARS)
    sys.stdout.write(report(entries, counts, key_lines, show_all="--all" in argv))
    missing = any(not c.total for c in counts)
    flagged = any(kind in ("pointless", "short") for kind, _ in key_lines)
    return 1 if problems or missing or flagged else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

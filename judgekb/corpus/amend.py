"""Link each clause of an amendment to the clause of the rulebook it corresponds to, by content.

The 2009 Summoner Master decree uses an older numbering than the 2014 book (its 711.6.x is the
book's 709.11.x; its 601.1.5 is another rule than the book's 601.1.5), so numbers cannot be
trusted; content decides, structure breaks ties.

Rules, in the order applied:

1. content: TF-IDF weighted character n-grams (Thai has no spaces between words), after
   lower-casing, dropping Thai tone marks (``ร้าย``/``ร่าย`` OCR damage then compares equal) and
   replacing ``http…`` image links and dotted numbers by nothing; cosine similarity;
2. leaves (clauses without children in the amendment) pick their best target by content;
3. headings are mapped bottom-up to the target node that holds most of their children's
   matches (weighted by score), blended with their own title similarity;
4. tie-break: a candidate under the target of the amendment clause's parent gets a bonus, so
   ``711.6.x`` lands under ``709.11`` once ``711.6`` maps to ``709.11``;
5. a best score under ``threshold`` means no counterpart (``target_id`` None).

Topic nodes that only summarise numbered clauses (``topic/<n>`` with children) and the
preamble are not linked; unnumbered topics (glossary changes, card errata) are.
"""

from __future__ import annotations

import logging
import math
import re
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, replace

from judgekb.corpus.model import AmendmentLink, Clause, ParsedDocument

logger = logging.getLogger(__name__)

NGRAM = 3
THRESHOLD = 0.45
# A link scored below this is shown as "probable": the wording moved or changed a lot.
PROBABLE_BELOW = 0.8
PARENT_BONUS = 0.08
TITLE_WEIGHT = 0.3
TONE_MARKS = re.compile("[\u0e48-\u0e4c]")
NOISE = re.compile(r"\(?https?://\S+|\b\d{3}(?:\.\d+)+\.?")
SKIP_IDS = re.compile(r"^preamble$")


@dataclass(frozen=True)
class _Match:
    target_id: str | None
    score: float


def features(text: str) -> Counter[str]:
    """Character n-gram counts of ``text`` after the normalisation of rule 1."""
    norm = TONE_MARKS.sub("", NOISE.sub(" ", text.lower()))
    norm = " ".join(norm.split())
    return Counter(norm[i : i + NGRAM] for i in range(max(0, len(norm) - NGRAM + 1)))


class _Space:
    """TF-IDF vectors over both documents, with an inverted index for the target."""

    def __init__(self, left: Sequence[str], right: Sequence[str]) -> None:
        raw_left = [features(t) for t in left]
        raw_right = [features(t) for t in right]
        df: Counter[str] = Counter()
        for feats in raw_left + raw_right:
            df.update(feats.keys())
        n = len(raw_left) + len(raw_right)
        self.idf = {g: math.log((1 + n) / (1 + c)) + 1.0 for g, c in df.items()}
        self.left = [self._weigh(f) for f in raw_left]
        self.right = [self._weigh(f) for f in raw_right]
        self.postings: dict[str, list[tuple[int, float]]] = defaultdict(list)
        for j, vec in enumerate(self.right):
            for g, w in vec.items():
                self.postings[g].append((j, w))

    def _weigh(self, feats: Counter[str]) -> dict[str, float]:
        vec = {g: (1 + math.log(c)) * self.idf[g] for g, c in feats.items()}
        norm = math.sqrt(sum(w * w for w in vec.values())) or 1.0
        return {g: w / norm for g, w in vec.items()}

    def scores(self, i: int) -> dict[int, float]:
        """Cosine of left vector ``i`` with every right vector sharing a feature."""
        acc: dict[int, float] = defaultdict(float)
        for g, w in self.left[i].items():
            for j, v in self.postings.get(g, ()):
                acc[j] += w * v
        return acc


def _content(clause: Clause) -> str:
    if clause.title and clause.title != clause.text:
        return f"{clause.title} {clause.text}"
    return clause.text or clause.title


def _children(clauses: Sequence[Clause]) -> dict[str, list[str]]:
    kids: dict[str, list[str]] = defaultdict(list)
    for c in clauses:
        if c.parent_id is not None:
            kids[c.parent_id].append(c.clause_id)
    return kids


def _linkable(clause: Clause, kids: dict[str, list[str]]) -> bool:
    if SKIP_IDS.match(clause.clause_id):
        return False
    return not (clause.clause_id.startswith("topic/") and kids.get(clause.clause_id))


def _depth_gap(clause_id: str, kid_id: str) -> int:
    """How many levels a child sits below its parent (``201.1`` -> ``201.1.2.1`` is 2)."""
    if clause_id[:1].isdigit() and kid_id[:1].isdigit():
        return max(1, kid_id.count(".") - clause_id.count("."))
    return 1


class _Linker:
    """Holds both documents and the current choice of every amendment clause."""

    def __init__(self, src: Sequence[Clause], dst: Sequence[Clause], threshold: float) -> None:
        self.src, self.dst, self.threshold = src, dst, threshold
        self.space = _Space([_content(c) for c in src], [_content(c) for c in dst])
        self.raw = [self.space.scores(i) for i in range(len(src))]
        self.dst_pos = {c.clause_id: j for j, c in enumerate(dst)}
        self.dst_parent = {c.clause_id: c.parent_id for c in dst}
        self.kids = _children(src)
        self.linkable = [i for i, c in enumerate(src) if _linkable(c, self.kids)]
        self.src_pos = {src[i].clause_id: i for i in self.linkable}
        self.matches: dict[str, _Match] = {}

    def run(self, rounds: int = 2) -> dict[str, _Match]:
        """Bottom-up on content (rules 2-3), then top-down with the parent bonus (rule 4)."""
        bottom_up = sorted(self.linkable, key=lambda i: (-self.src[i].clause_id.count("."), i))
        for i in bottom_up:
            self._choose(i, bonus=False)
        for _ in range(rounds):
            for i in self.linkable:
                self._choose(i, bonus=True)
        return self.matches

    def _choose(self, i: int, bonus: bool) -> None:
        clause = self.src[i]
        cands = self._candidates(clause, self.raw[i])
        if not cands:
            self.matches[clause.clause_id] = _Match(None, 0.0)
            return
        home = self._home(clause) if bonus else None

        def key(j: int) -> tuple[float, int]:
            extra = (
                PARENT_BONUS
                if home and _is_under(self.dst[j].clause_id, home, self.dst_parent)
                else 0.0
            )
            return (cands[j] + extra, -j)

        j = max(cands, key=key)
        self.matches[clause.clause_id] = _Match(self.dst[j].clause_id, cands[j])

    def _home(self, clause: Clause) -> str | None:
        parent = self.matches.get(clause.parent_id or "")
        if parent is None or parent.score < self.threshold:
            return None
        return parent.target_id

    def _candidates(self, clause: Clause, raw: dict[int, float]) -> dict[int, float]:
        """Leaves: content. Headings: mean of title similarity and children's votes (rule 3)."""
        kids = [k for k in self.kids.get(clause.clause_id, ()) if k in self.src_pos]
        if not kids:
            return raw
        votes: dict[int, float] = defaultdict(float)
        for kid in kids:
            m = self.matches.get(kid)
            if m is None or m.target_id is None or m.score < self.threshold:
                continue
            anc = _ancestor_at(m.target_id, _depth_gap(clause.clause_id, kid), self.dst_parent)
            if anc is not None:
                votes[self.dst_pos[anc]] += m.score / len(kids)
        keys = set(raw) | set(votes)
        return {j: (raw.get(j, 0.0) + votes.get(j, 0.0)) / 2 for j in keys}


def _ancestor_at(clause_id: str, levels: int, parent: dict[str, str | None]) -> str | None:
    node: str | None = clause_id
    for _ in range(levels):
        node = parent.get(node) if node is not None else None
    return node


def link_amendments(
    amendment: ParsedDocument, target: ParsedDocument, threshold: float = THRESHOLD
) -> list[AmendmentLink]:
    """One :class:`AmendmentLink` per linkable amendment clause, in the amendment's order."""
    src = list(amendment.clauses)
    matches = _Linker(src, list(target.clauses), threshold).run()
    links = [
        _link(amendment, target, c, matches[c.clause_id], threshold)
        for c in src
        if c.clause_id in matches
    ]
    links = _mark_shared(links)
    missing = sum(link.target_id is None for link in links)
    logger.info("%d amendment links, %d without counterpart", len(links), missing)
    return links


def _mark_shared(links: list[AmendmentLink]) -> list[AmendmentLink]:
    """Say so when several amendment clauses land on one target (the book merged them)."""
    by_target: dict[str, list[str]] = defaultdict(list)
    for link in links:
        if link.target_id is not None:
            by_target[link.target_id].append(link.amend_id)
    out = []
    for link in links:
        others = [a for a in by_target.get(link.target_id or "", []) if a != link.amend_id]
        if others:
            link = replace(link, note=f"{link.note}; target shared with {', '.join(others)}")
        out.append(link)
    return out


def _is_under(clause_id: str, ancestor: str, parent: dict[str, str | None]) -> bool:
    seen = 0
    node = parent.get(clause_id)
    while node is not None and seen < 50:
        if node == ancestor:
            return True
        node, seen = parent.get(node), seen + 1
    return False


def _link(
    amendment: ParsedDocument,
    target: ParsedDocument,
    clause: Clause,
    match: _Match,
    threshold: float,
) -> AmendmentLink:
    score = round(match.score, 4)
    if match.target_id is None or match.score < threshold:
        best = f" (best {match.target_id} at {score:.2f})" if match.target_id else ""
        note = f"no counterpart in {target.document.doc_id}{best}"
        target_id = None
    else:
        target_id = match.target_id
        if target_id == clause.clause_id:
            note = "same number"
        else:
            note = f"number differs: {clause.clause_id} -> {target_id}"
    return AmendmentLink(
        amend_doc=amendment.document.doc_id,
        amend_id=clause.clause_id,
        target_doc=target.document.doc_id,
        target_id=target_id,
        score=score,
        note=note,
    )

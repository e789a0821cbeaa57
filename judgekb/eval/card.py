"""The answer card measured against the benchmark (`judgekb eval --card`), on the real engine.

For every question with gold clauses, searched within its game as the page does:

- **card recall**: a gold clause is the answer, or in its context (parents, sub-clauses,
  list), in what it cites, or among the first three alternatives;
- **on the card**, reported beside it (not the bar): a gold clause anywhere the card shows
  one, also as a definition of a term it prints or as another wording of it (the
  alternatives leave those out, as they leave out the answer's context);
- **answer precision**: when confidence is ``high``, the answer is a gold clause;
- **off-topic**: how many off-topic or nonsense questions get ``high`` (bar: none);
- **completeness**: every resolved reference of each answer comes with its text; each
  Summoner Master answer with a decree counterpart shows it under ``versions``; each Vanguard
  clause printed under a misprinted number, asked for by number, carries a ``misprint`` note;
- **speed**: search alone, then search and card, per question (query cache off), p50/p95.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from judgekb.eval.dataset import scope_game
from judgekb.eval.metrics import percentile
from judgekb.index.request import SearchRequest

if TYPE_CHECKING:
    from judgekb.service.site import Site

ALTERNATIVES_COUNTED = 3


def card_ids(card: dict[str, Any]) -> list[tuple[str, str]]:
    """(game, clause_id) of everything a judge sees on the card, answer first."""
    a = card["answer"]
    alts = [(x["game"], x["clause_id"]) for x in card["alternatives"][:ALTERNATIVES_COUNTED]]
    if a is None:
        return alts
    game = a["game"]
    around = [(game, x["clause_id"]) for x in (*a["context"], *a["refs"])]
    return [(game, a["clause_id"]), *around, *alts]


def shown_ids(card: dict[str, Any]) -> list[tuple[str, str]]:
    """:func:`card_ids` and the definitions and other wordings the card shows with the answer."""
    a = card["answer"]
    if a is None:
        return card_ids(card)
    more = [(a["game"], x["clause_id"]) for x in (*a["definitions"], *a["versions"])]
    return [*card_ids(card), *more]


def _timed(
    site: Site, q: dict[str, Any], card_first: bool = False
) -> tuple[dict[str, Any], float, float]:
    """The card of one question, with the search's time alone and with the card (in the
    order ``card_first`` says: the caller alternates it, so that neither run always follows
    the other into warm caches)."""
    from judgekb.service.answer import build_card

    request = SearchRequest.of(q["question"], game=q["game"])

    def search_ms() -> float:
        t0 = time.perf_counter()
        site.searcher.search(request)
        return (time.perf_counter() - t0) * 1000

    t_search = 0.0 if card_first else search_ms()
    t0 = time.perf_counter()
    card = build_card(site, site.searcher.search(request), "en")
    t_card = (time.perf_counter() - t0) * 1000
    return card, search_ms() if card_first else t_search, t_card


def _rate(flags: Sequence[bool]) -> float:
    return sum(flags) / len(flags) if flags else 0.0


def completeness(site: Site, cards: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Refs with text, decree wording on SM answers, misprint notes on Vanguard clauses."""
    store = site.store
    refs_ok, decree_ok = [], []
    for card in cards:
        a = card["answer"]
        if a is None:
            continue
        shown = {r["clause_id"]: r["text"] for r in a["refs"]}
        want = {r.target_id for r in store.refs_out(a["doc"], a["clause_id"]) if r.target_id}
        refs_ok.append(all(shown.get(cid) for cid in want))
        linked = [x for x in store.amendments(a["doc"], a["clause_id"]) if x.target_id]
        if a["game"] == "summoner-master" and linked:
            decree_ok.append(any(v["doc"] == x.amend_doc or v["doc"] == x.target_doc
                                 for v in a["versions"] for x in linked))  # fmt: skip
    misprints = []
    for f in store.findings():
        if f.code != "misprint" or store.document(f.doc_id).game != "vanguard":
            continue
        card = _timed(site, {"question": f.clause_id, "game": "vanguard"})[0]
        notes = card["answer"]["notes"] if card["answer"] else []
        misprints.append(any(n["kind"] == "misprint" for n in notes))
    return {
        "refs_with_text": {"n": len(refs_ok), "rate": _rate(refs_ok)},
        "sm_decree_shown": {"n": len(decree_ok), "rate": _rate(decree_ok)},
        "vanguard_misprint_noted": {"n": len(misprints), "rate": _rate(misprints)},
    }


def evaluate_cards(site: Site, questions: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The card figures of the module docstring over ``questions``."""
    recall, shown, precise, off_high, cards = [], [], [], 0, []
    search_ms, card_ms = [], []
    for n, q in enumerate(questions):
        if q.get("ambiguous") or q.get("elsewhere"):
            continue
        card, t_search, t_card = _timed(site, q, card_first=n % 2 == 1)
        search_ms.append(t_search)
        card_ms.append(t_card)
        if not q["gold"]:
            off_high += card["confidence"] == "high"
            continue
        cards.append(card)
        gold = {(scope_game(q), g) for g in q["gold"]}
        recall.append(bool(gold & set(card_ids(card))))
        shown.append(bool(gold & set(shown_ids(card))))
        if card["confidence"] == "high" and card["answer"]:
            precise.append((card["answer"]["game"], card["answer"]["clause_id"]) in gold)
    p95_search, p95_card = percentile(search_ms, 95), percentile(card_ms, 95)
    return {
        "card_recall": {"n": len(recall), "rate": _rate(recall)},
        "on_card": {"n": len(shown), "rate": _rate(shown)},
        "high_precision": {"n": len(precise), "rate": _rate(precise)},
        "offtopic_high": off_high,
        "completeness": completeness(site, cards),
        "latency_ms": {
            "search_p50": percentile(search_ms, 50),
            "search_p95": p95_search,
            "card_p50": percentile(card_ms, 50),
            "card_p95": p95_card,
            "card_over_search_p95": p95_card / p95_search if p95_search else 0.0,
        },
    }

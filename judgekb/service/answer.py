"""The answer card: the governing rule, verbatim, with everything a judge reads aloud.

``build_card(site, result, lang)`` turns a search result into the JSON of ``/api/answer``
(the search page renders the same dict): the top hit as the answer whenever confidence is not
``none``, the sentences of it that answer the question (scored by the search's own models:
:meth:`judgekb.index.search.Searcher.answering`), where it stands (parents with their own
text; sub-clauses when it is a heading; the rest of its list when it is a list item), the text
of every clause it cites, who cites it, the definitions of the game terms it prints, its
other wordings (decree, other editions, dated and labelled), the book's known problems with
it in the judge's language, one citation in that language, and the next hits. Nothing is
written here: every text is a clause's own, verbatim.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from judgekb.corpus.amend import PROBABLE_BELOW
from judgekb.corpus.export import CitationWords, citation
from judgekb.corpus.model import Clause, LintFinding
from judgekb.index.results import SearchHit, SearchResult
from judgekb.service.i18n import labels, note_text
from judgekb.service.markup import preview
from judgekb.service.site import Site

ALTERNATIVES = 5  # the next hits shown with the card (the contract asks for at least three)
MAX_SIBLINGS = 12
# A clause whose own text ends like this introduces a list: its children are the list.
_LIST_INTRO = re.compile(r"(?::|ดังนี้|ดังต่อไปนี้|ได้แก่|berikut|seperti berikut)\s*$")
ONE_LINE = 160


def citation_words(lang: str) -> CitationWords:
    t = labels(lang)
    return CitationWords(t["clause_word"], t["date_not_printed"], t["citation_read_as"])


def _is_heading(c: Clause) -> bool:
    """A clause whose words are in its sub-clauses: a chapter or section, a title with no
    text of its own, or an introduction to a list."""
    own = c.text.strip()
    return (
        c.kind in ("chapter", "section")
        or not own
        or own == c.title.strip()
        or bool(_LIST_INTRO.search(own))
    )


def _brief(c: Clause, relation: str) -> dict[str, Any]:
    return {"clause_id": c.clause_id, "title": c.title, "text": c.text, "relation": relation}


def context(site: Site, clause: Clause) -> list[dict[str, Any]]:
    """Parents (outermost first) with their own text; sub-clauses of a heading (all of them)
    or of a rule (its details and exceptions, up to ``MAX_SIBLINGS``); the rest of the list
    a list item belongs to."""
    store = site.store
    parents = store.parents(clause)
    out = [_brief(p, "parent") for p in parents]
    heading = _is_heading(clause)
    kids = store.children(clause.doc_id, clause.clause_id)
    out += [_brief(k, "child") for k in (kids if heading else kids[:MAX_SIBLINGS])]
    if not heading and parents and _is_heading(parents[-1]):
        items = store.children(clause.doc_id, parents[-1].clause_id)
        if 1 < len(items) <= MAX_SIBLINGS:
            out += [_brief(k, "sibling") for k in items if k.clause_id != clause.clause_id]
    return out


def cited(site: Site, clause: Clause) -> tuple[list[dict], list[dict]]:
    """Every resolved reference of the clause with the cited text; the clauses citing it."""
    store = site.store
    refs, seen = [], set()
    for r in store.refs_out(clause.doc_id, clause.clause_id):
        target = store.get(r.doc_id, r.target_id) if r.target_id else None
        if target is not None and target.clause_id not in seen:
            seen.add(target.clause_id)
            refs.append(
                {"clause_id": target.clause_id, "doc": target.doc_id, "written": r.written,
                 "title": target.title, "text": target.text}
            )  # fmt: skip
    cited_by = list(dict.fromkeys(r.src_id for r in store.refs_in(clause.doc_id, clause.clause_id)))
    return refs, [{"clause_id": cid, "doc": clause.doc_id} for cid in cited_by]


def definitions(site: Site, game: str, clause: Clause) -> list[dict[str, Any]]:
    """The definitions of the terms the clause prints, but for those it stands under (a
    keyword's own heading is already in its context)."""
    around = {(c.doc_id, c.clause_id) for c in (clause, *site.store.parents(clause))}
    used = site.definitions(game).used_in(clause.text, around)
    return [
        {"term": term, "clause_id": d.clause_id, "doc": d.doc_id, "text": d.text, "url": d.url}
        for term, d in used
    ]


def versions(site: Site, clause: Clause, history: list[dict[str, Any]]) -> list[dict]:
    """Other wordings: the decree it was amended by (or the book clause that superseded a
    decree clause), dated, a probable link marked; and its wording in other editions."""
    store = site.store
    out: list[dict[str, Any]] = []
    for a in store.amendments(clause.doc_id, clause.clause_id):
        mine = (a.amend_doc, a.amend_id) == (clause.doc_id, clause.clause_id)
        other_doc, other_id = (a.target_doc, a.target_id) if mine else (a.amend_doc, a.amend_id)
        other = store.get(other_doc, other_id) if other_id else None
        if other is None:
            continue
        out.append(
            {
                "doc": other_doc,
                "clause_id": other_id,
                "date": store.document(other_doc).effective_date,
                "relation": "superseded_by" if mine else "earlier",
                "probable": a.score < PROBABLE_BELOW,
                "text": other.text,
            }
        )
    here = next((h for h in history if h["doc"] == clause.doc_id), None)
    for h in history:
        if h is here or h["status"] == "removed" or here is None:
            continue
        later = h["effective_date"] > here["effective_date"]
        out.append(
            {
                "doc": h["doc"],
                "clause_id": h["clause_id"],
                "date": h["effective_date"],
                "relation": "later_edition" if later else "earlier_edition",
                "probable": False,
                "text": h["text"],
            }
        )
    return out


def finding_text(f: LintFinding, lang: str) -> str:
    """A lint finding or reviewed erratum as the pages say it, in ``lang``."""
    return note_text(lang, f.code, dict(f.params), f.message)


def notes(site: Site, clause: Clause, lang: str) -> list[dict[str, str]]:
    """The book's known problems with this clause (lint findings), and repairs of its text,
    in the judge's language."""
    out = [
        {"kind": f.code, "message": finding_text(f, lang)}
        for f in site.store.findings(clause.doc_id, clause.clause_id)
    ]
    if clause.repaired:
        out.append({"kind": "repaired", "message": note_text(lang, "repaired", {}, "")})
    if clause.corrections:
        changes = ", ".join(
            f"{c.wrong} → {c.right}" + (f" ×{c.count}" if c.count > 1 else "")
            for c in clause.corrections
        )
        params = {"changes": changes}
        out.append({"kind": "corrected", "message": note_text(lang, "corrected", params, "")})
    return out


def answer_json(site: Site, result: SearchResult, hit: SearchHit, lang: str) -> dict[str, Any]:
    from judgekb.corpus.edition_store import editions_of, history_json

    store = site.store
    clause = store.get(hit.doc_id, hit.clause_id)
    assert clause is not None
    doc = store.document(clause.doc_id)
    spans = site.searcher.answering(result, hit)
    refs, cited_by = cited(site, clause)
    history = history_json(editions_of(store), clause.doc_id, clause.clause_id)
    return {
        "game": doc.game,
        "doc": clause.doc_id,
        "clause_id": clause.clause_id,
        "kind": clause.kind,
        "title": clause.title,
        "lang": clause.lang,
        "text": clause.text,
        # a heading's words are in its sub-clauses (``context``, relation "child")
        "heading": _is_heading(clause),
        "answer_sentences": [clause.text[a:b].strip() for a, b in spans],
        "answer_spans": [list(s) for s in spans],
        "citation": citation(doc, clause, citation_words(lang)),
        "url": site.clause_url(doc.game, clause.clause_id, clause.doc_id, pin=True),
        "document": {
            "title": doc.title,
            "version": doc.version,
            "effective_date": doc.effective_date,
            "kind": doc.kind,
        },
        "context": context(site, clause),
        "refs": refs,
        "cited_by": cited_by,
        "definitions": definitions(site, doc.game, clause),
        "versions": versions(site, clause, history),
        "notes": notes(site, clause, lang),
        "raw_text": clause.raw_text if clause.repaired or clause.corrections else None,
    }


def alternative_json(site: Site, hit: SearchHit, lang: str) -> dict[str, Any]:
    clause = site.store.get(hit.doc_id, hit.clause_id)
    assert clause is not None
    doc = site.store.document(hit.doc_id)
    return {
        "game": hit.game,
        "doc": hit.doc_id,
        "clause_id": hit.clause_id,
        "kind": hit.kind,
        "title": hit.title,
        "text": preview(hit.text or hit.title, ONE_LINE),
        "citation": citation(doc, clause, citation_words(lang)),
        "url": hit.url,
        "lang": clause.lang,
    }


def on_card(card: Mapping[str, Any]) -> set[tuple[str, str]]:
    """(doc, clause_id) of every clause the card already shows whole or folded: the answer,
    its context, what it cites, the definitions of its terms, its other wordings, and the
    two side candidates of a ``low`` card."""
    a = card["answer"]
    if a is None:
        return set()
    shown = {(a["doc"], x["clause_id"]) for x in (a, *a["context"])}
    shown |= {(x["doc"], x["clause_id"]) for x in (*a["refs"], *a["definitions"], *a["versions"])}
    if card["confidence"] == "low":
        shown |= {(x["doc"], x["clause_id"]) for x in card["alternatives"][:2]}
    return shown


def build_card(site: Site, result: SearchResult, lang: str) -> dict[str, Any]:
    """The ``/api/answer`` JSON of ``result``: ``answer`` is its top hit unless confidence
    is ``none``; ``alternatives`` the next hits the card does not already show (all hits
    when there is no answer)."""
    hits = list(result.hits)
    answer = None
    if result.confidence != "none" and hits:
        answer = answer_json(site, result, hits[0], lang)
        shown = on_card({"answer": answer, "confidence": "high", "alternatives": []})
        hits = [h for h in hits[1:] if (h.doc_id, h.clause_id) not in shown]
    return {
        "ok": True,
        "query": result.query,
        "took_ms": round(result.took_ms, 2),
        "confidence": result.confidence,
        "answer": answer,
        "alternatives": [alternative_json(site, h, lang) for h in hits[:ALTERNATIVES]],
        "ambiguous_games": list(result.ambiguous_games),
        "elsewhere": [e.to_json() for e in result.elsewhere],
    }

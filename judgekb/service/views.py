"""Plain dicts the templates render: hits, a clause page, a table of contents.

All retrieval and linking happens here (templates only loop and print); text fields that
hold HTML are :class:`markupsafe.Markup` built by :func:`judgekb.service.markup.render_text`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from itertools import pairwise
from typing import Any

from markupsafe import Markup, escape
from starlette.requests import Request

from judgekb.corpus.amend import PROBABLE_BELOW
from judgekb.corpus.editions import visible_docs
from judgekb.corpus.export import citation
from judgekb.corpus.model import Clause
from judgekb.index.query import parse_query
from judgekb.index.results import RefLink, SearchHit, SearchResult
from judgekb.service.answer import citation_words
from judgekb.service.answer import context as answer_context
from judgekb.service.answer import notes as answer_notes
from judgekb.service.i18n import labels
from judgekb.service.markup import Linker, Term, preview, ref_pattern, render_text
from judgekb.service.site import Site, page_url

OG_LOCALES = {"th": "th_TH", "ms": "ms_MY", "en": "en_US"}  # Open Graph names of languages
TOC_DEPTH = 2  # chapters and sections; clauses are listed on their section's page
LABEL_CHARS = 70
LINE_CHARS = 160  # a candidate under the answer card: one line of its own text


def node_label(clause_id: str, title: str, text: str, kind: str) -> str:
    """How a clause is named in lists and breadcrumbs: glossary by its term, others by id and
    title, cut to :data:`LABEL_CHARS` (One Piece 7-1 prints a paragraph where a title goes)."""
    if kind == "glossary" or "/" in clause_id or title.casefold() == clause_id.casefold():
        return preview(title, LABEL_CHARS) or clause_id  # an internal id is never shown
    return f"{clause_id} {preview(title or text, LABEL_CHARS)}".strip()


def _ref(site: Site, doc: str, clause_id: str | None, written: str, pre: str = "") -> dict:
    lang = site.doc_lang(doc)
    if clause_id is None:
        return {
            "label": written,
            "written": written,
            "url": None,
            "preview": "",
            "resolved": False,
            "lang": lang,
        }
    return {
        # an appendix is named as the book names it ("Lampiran B"), never by its internal id
        "label": clause_id if clause_id[:1].isdigit() else written,
        "written": written,
        "url": site.doc_url(doc, clause_id),
        "preview": pre or site.clause_preview(doc, clause_id),
        "resolved": True,
        "lang": lang,
    }


def _refs(site: Site, refs: Iterable[RefLink]) -> list[dict]:
    return [_ref(site, r.doc, r.clause_id, r.written, r.preview) for r in refs]


def _detail_refs(site: Site, refs: Iterable[Mapping[str, Any]]) -> list[dict]:
    return [_ref(site, r["doc"], r["clause_id"], r["written"]) for r in refs]


def amendment_links(site: Site, doc_id: str, clause_id: str, links: Iterable[Mapping]) -> list:
    """Each amendment link seen from this clause: what amends it, or what it amends."""
    out = []
    for a in links:
        amends = a["amend_doc"] == doc_id and a["amend_id"] == clause_id
        other_doc, other_id = (
            (a["target_doc"], a["target_id"]) if amends else (a["amend_doc"], a["amend_id"])
        )
        other = site.store.document(other_doc)
        out.append(
            {
                "direction": "amends" if amends else "amended_by",
                "doc_title": other.title,
                "clause_id": other_id,
                "url": site.doc_url(other_doc, other_id) if other_id else None,
                "date": a["target_date"] if amends else a["amend_date"],
                "score": a["score"],
                "probable": a["score"] < PROBABLE_BELOW,
                "note": a["note"],
                "preview": site.clause_preview(other_doc, other_id),
                "lang": other.lang,
            }
        )
    return out


def doc_badges(site: Site, doc_id: str, whole_document: bool = True) -> list[dict]:
    """Badges for the document: an amendment, superseded by a later one, or amended.

    "Amended" (or "earlier wording in") is about the whole document, for its contents page;
    a clause or a hit (``whole_document`` False) shows its own amendment links instead, so
    that a clause the decree never touched does not read as if it had an older wording."""
    docs = {d.doc_id: d for d in site.store.documents()}
    doc = docs[doc_id]
    badges = []
    if doc.kind == "amendment":
        badges.append(
            {"kind": "amendment", "label": "amendment", "title": "", "date": doc.effective_date}
        )
        target = docs.get(doc.amends or "")
        if target and target.effective_date > doc.effective_date:
            badges.append(
                {
                    "kind": "superseded",
                    "label": "superseded",
                    "title": target.title,
                    "date": target.effective_date,
                }
            )
    for d in docs.values() if whole_document else ():
        if d.amends == doc_id:
            # An amendment dated before the book (the 2009 decree, the 2014 book) holds the
            # book's earlier wording; one dated after it amends the book.
            older = bool(d.effective_date) and d.effective_date < doc.effective_date
            badges.append(
                {
                    "kind": "doc-amended",
                    "label": "doc_earlier_wording" if older else "doc_amended",
                    "title": d.title,
                    "date": d.effective_date,
                }
            )
    return badges


def _linkers(site: Site, game: str, refs: list[dict]) -> list[Linker]:
    """What clause text links: its references as written, and the game's defined terms."""
    links = {
        r["written"].casefold(): Term(r["url"], r["label"], r["preview"]) for r in refs if r["url"]
    }
    return [(ref_pattern(list(links)), links), site.glossary(game)]


def _aside(site: Site, clause: Clause, lang: str) -> tuple[int, str] | None:
    """Where text the book prints under ``clause`` but that belongs elsewhere starts (lint
    ``misplaced-text``), and the label shown before it; None when there is none."""
    for f in site.store.findings(clause.doc_id, clause.clause_id):
        params = dict(f.params)
        start = params.get("start", "")[:20]
        if f.code != "misplaced-text" or not start:
            continue
        pos = 0
        for line in clause.text.split("\n"):
            if pos and " ".join(line.split()).startswith(start):
                return pos, labels(lang)["misplaced_here"].format(home=params["home_named"])
            pos += len(line) + 1
    return None


# A clause number a note names: "17.1.1.2", "6-5-5-1", "§2" (one number only after §).
_NOTE_NUMBER = re.compile(r"§?(?<![\w.\-])(\d+(?:[.\-]\d+)+)(?![\w\-])|§(\d+)(?![\w.\-])")


def _note_views(
    site: Site, doc: str, notes: Iterable[Mapping[str, str]], own: str = ""
) -> list[dict]:
    """Each note with ``html``: its message, every other clause number the book prints linked."""
    out = []
    for n in notes:
        message, parts, pos = n["message"], [], 0
        for m in _NOTE_NUMBER.finditer(message):
            cid = m.group(1) or m.group(2)
            if cid == own or site.store.get(doc, cid) is None:
                continue
            parts += [escape(message[pos : m.start()]), _link(site.doc_url(doc, cid), m.group())]
            pos = m.end()
        parts.append(escape(message[pos:]))
        out.append({**n, "html": Markup("").join(parts)})
    return out


def _link(url: str, label: str) -> Markup:
    return Markup('<a class="ref" href="{}">{}</a>').format(url, label)


def _set_aside(before: Any, label: str, after: Any) -> Markup:
    """Rendered text, then the misplaced part after it set apart under its label."""
    return (
        Markup(before)
        + Markup('<span class="misplaced" role="note"><span class="misplaced-label">')
        + label
        + Markup("</span> ")
        + Markup(after)
        + Markup("</span>")
    )


def _text(
    site: Site, game: str, text: str, matched: Iterable[str], self_url: str, refs: list[dict]
) -> Any:
    """Clause text with matches marked, references and glossary terms linked in place."""
    return render_text(text, tuple(matched), _linkers(site, game, refs), self_url)


def hit_view(site: Site, hit: SearchHit) -> dict:
    """One search hit ready to render."""
    url = hit.url  # made by index.hits.clause_url, the same permalink rule as the pages
    refs_out = _refs(site, hit.refs_out)
    return {
        "url": url,
        "game_name": site.store.games().get(hit.game, hit.game),
        "clause_id": hit.clause_id,
        "label": node_label(hit.clause_id, hit.title, "", hit.kind),
        "citation": hit.citation,
        "doc_title": hit.doc_title,
        "version": hit.version,
        "effective_date": hit.effective_date,
        "breadcrumb": list(hit.heading_path),
        "html": _text(site, hit.game, hit.text, hit.matched, url, refs_out),
        "raw_text": hit.raw_text,
        "repaired": hit.repaired,
        "corrected": hit.corrected,
        "refs_out": refs_out,
        "refs_in": _refs(site, hit.refs_in),
        "amendments": amendment_links(site, hit.doc_id, hit.clause_id, hit.amendments),
        "badges": doc_badges(site, hit.doc_id, whole_document=False),
        "via": hit.via,
        "older": hit.doc_kind == "amendment",
        "later": hit.later,  # a later edition of its rulebook (issue 13)
        "changes_url": f"/changes/{hit.family}" if hit.later else None,
        "lang": site.doc_lang(hit.doc_id),
        "line": preview(hit.text or hit.title, LINE_CHARS),
    }


NEAREST = 3


def _nearest_numbers(site: Site, result: SearchResult) -> list[tuple[str, str]]:
    """(game, clause id) of the numbers nearest to those the query names that no book prints
    (:meth:`ClauseStore.suggest`: the existing ancestor, then close spellings), in the chosen
    game or in every game whose numbers begin the same way; at most :data:`NEAREST`."""
    games = [result.game] if result.game else list(site.store.games())
    out: list[tuple[str, str]] = []
    for mention in parse_query(result.query).mentions:
        typed = mention.ids[0]
        head = re.split(r"[.\-]", typed)[0]
        for game in games:
            docs = [d.doc_id for d in site.store.docs_of(game)]
            out += [
                (game, cid)
                for cid in site.store.suggest(docs, typed, n=NEAREST)
                if re.split(r"[.\-]", cid)[0] == head and (game, cid) not in out
            ]
    return out[:NEAREST]


def search_status(site: Site, request: Request, result: SearchResult) -> dict:
    """What the results page says above the hits: the judge's game filter as a removable
    chip, a clause number printed by several games (a chooser), a number the chosen game
    does not print (where it is), the game a question named or implied, and confidence."""
    games = site.store.games()

    def lookup(game: str, clause_id: str, doc: str) -> dict:
        return {
            "game": game,
            "game_name": games.get(game, game),
            "clause_id": clause_id,
            "url": site.clause_url(game, clause_id, doc),
            "preview": site.clause_preview(doc, clause_id),
            "lang": site.doc_lang(doc),
        }

    # the chooser: each game's clause of a number several games print, not the clauses of
    # another number typed with it ("10.5.1.2 dan 13.2.3": only 13.2.3's games)
    printed_by: dict[str, set[str]] = {}
    lookups = [h for h in result.hits if h.via == "lookup" and h.game in result.ambiguous_games]
    for h in lookups:
        printed_by.setdefault(h.clause_id.replace("-", "."), set()).add(h.game)
    ambiguous = [
        lookup(h.game, h.clause_id, h.doc_id)
        for h in lookups
        if len(printed_by[h.clause_id.replace("-", ".")]) > 1
    ]
    # a number no book prints ("602.1.4.9", "ข้อ 602.1.40"): the nearest ones that are
    nearest: list[dict] = []
    if result.lookup == "missing":
        for game, cid in _nearest_numbers(site, result):
            found = site.store.find(game, cid)
            nearest.append(lookup(game, found.clause_id, found.doc_id))
    inferred = None
    if result.inferred is not None:
        inferred = {
            "game_name": games.get(result.inferred.game, result.inferred.game),
            "reason": result.inferred.reason,
            "words": list(result.inferred.words),
            "url": page_url(request, game=result.inferred.game),
        }
    return {
        "confidence": result.confidence,
        "filter": (
            {"name": games.get(result.game, result.game), "remove": page_url(request, game=None)}
            if result.game
            else None
        ),
        "ambiguous": ambiguous,
        "nearest": nearest,
        "elsewhere": [lookup(e.game, e.clause_id, e.doc) for e in result.elsewhere],
        "inferred": inferred,
        "which_game": _which_game(site, request, result),
        "named": [
            {"game_name": games.get(g, g), "url": page_url(request, game=g)}
            for g in result.other_games_named
        ],
    }


def _which_game(site: Site, request: Request, result: SearchResult) -> list[dict]:
    """A question that reads like no one game, searched over several: each game its hits
    come from (best first), then every other game (the judge knows which game is on the
    table, even when its book's words did not come up), as the same search in that game.
    Not when nothing matches: a judge is not asked which game a nonsense query is about."""
    if not result.game_unsure or result.confidence == "none":
        return []
    names = site.store.games()
    games = list(dict.fromkeys(h.game for h in result.hits))
    if len(games) < 2:
        return []
    games += [g for g in names if g not in games]
    return [{"game_name": names.get(g, g), "url": page_url(request, game=g)} for g in games]


def _brief(site: Site, b: Mapping[str, Any] | None) -> dict | None:
    if b is None:
        return None
    return {
        "url": site.doc_url(b["doc"], b["clause_id"]),
        "label": node_label(b["clause_id"], b["title"], b["text"], b["kind"]),
    }


def clause_view(
    site: Site, game: str, detail: Mapping[str, Any], lang: str = "en", asked: str = ""
) -> dict:
    """The permalink page of one clause (``detail`` is :func:`clause_detail`'s dict): the
    answer card's context (parents with their text, sub-clauses of a heading, the rest of a
    list), the book's known problems and the citation in the judge's language; ``asked`` a
    misprinted number's intended form the URL named instead of the printed one."""
    doc, cid = detail["doc"], detail["clause_id"]
    url = site.clause_url(game, cid, doc)
    refs_out = _detail_refs(site, detail["refs_out"])
    clause = site.store.get(doc, cid)
    assert clause is not None
    around = [
        {**x, "url": site.doc_url(doc, x["clause_id"]), "lang": clause.lang}
        for x in answer_context(site, clause)
    ]
    cited = citation(site.store.document(doc), clause, citation_words(lang))
    misprint = asked in clause.aliases and clause.kind != "glossary"  # not a term's name
    alias = labels(lang)["alias_resolved"].format(asked=asked, printed=cid) if misprint else ""
    return {
        **detail,
        "citation": cited,
        "copy_text": f"{cited}\n{detail['text']}",
        "context_v": around,
        "notes": _note_views(site, doc, answer_notes(site, clause, lang), cid),
        "alias_note": alias,
        "own_text": detail["text"].strip() != detail["title"].strip(),
        "url": url,
        "permalink": site.clause_url(game, cid, doc, pin=True),  # copied: the wording shown
        "label": node_label(cid, detail["title"], "", detail["kind"]),
        "game_name": site.store.games()[game],
        "html": _rule_html(site, game, clause, detail["text"], [], url, refs_out, lang),
        "preview": preview(detail["text"] or detail["title"]),
        "locale": OG_LOCALES.get(detail["lang"], "en_US"),
        "parents_v": [_brief(site, p) for p in detail["parents"]],
        "children_v": [_brief(site, c) for c in detail["children"]],
        "prev_v": _brief(site, detail["prev"]),
        "next_v": _brief(site, detail["next"]),
        "refs_out_v": refs_out,
        "refs_in_v": _detail_refs(site, detail["refs_in"]),
        "amendments_v": amendment_links(site, doc, cid, detail["amendments"]),
        "other_docs_v": [
            {"url": site.clause_url(game, cid, d), "title": site.store.document(d).title}
            for d in detail["other_docs"]
        ],
        "badges": doc_badges(site, doc, whole_document=False),
    }


def _tree(site: Site, clauses: list[Clause], depth: int) -> list[dict]:
    kids: dict[str | None, list[Clause]] = {}
    ids = {c.clause_id for c in clauses}
    for c in clauses:
        kids.setdefault(c.parent_id if c.parent_id in ids else None, []).append(c)

    def build(parent: str | None, level: int) -> list[dict]:
        return [
            {
                "label": node_label(c.clause_id, c.title, c.text, c.kind),
                "url": site.doc_url(c.doc_id, c.clause_id),
                "children": build(c.clause_id, level + 1) if level < depth else [],
            }
            for c in kids.get(parent, [])
        ]

    return build(None, 1)


def toc_view(site: Site, game: str, depth: int = TOC_DEPTH) -> list[dict]:
    """Each document of ``game`` in force today with its clause tree down to ``depth`` levels
    (and, for a rulebook with several editions, a link to what changed)."""
    shown = visible_docs(site.store.documents())
    families = site.editions.families()
    return [
        {
            "doc": d,
            "lang": d.lang,
            "badges": doc_badges(site, d.doc_id),
            "nodes": _tree(site, site.store.clauses(d.doc_id), depth),
            "changes_url": (
                f"/changes/{d.family_id}" if len(families.get(d.family_id, [])) > 1 else None
            ),
        }
        for d in site.store.docs_of(game)
        if d.doc_id in shown
    ]


def games_view(site: Site) -> list[dict]:
    """Games with their documents, for the home page and the game filter."""
    return [
        {"slug": g, "name": name, "url": f"/rules/{g}", "docs": site.store.docs_of(g)}
        for g, name in site.store.games().items()
    ]


def _marks_part(text: str, spans: list[list[int]]) -> bool:
    """Whether ``spans`` leave some of ``text`` unmarked: marking every sentence (or the one
    sentence a clause has) says nothing."""
    inside = [False] * len(text)
    for a, b in spans:
        inside[a:b] = [True] * (b - a)
    return bool(spans) and any(ch.isalnum() and not i for ch, i in zip(text, inside, strict=True))


def _marked(
    site: Site, game: str, text: str, spans: list[list[int]], url: str, refs: list[dict]
) -> Any:
    """``text`` with the answer sentences in <mark class="answer">, references and defined
    terms linked in place; each piece escaped before any tag joins them."""
    linkers = _linkers(site, game, refs)
    answer = {(a, b) for a, b in spans} if _marks_part(text, spans) else set()
    cuts = sorted({0, len(text), *(x for s in spans for x in s)})
    out = []
    for a, b in pairwise(cuts):
        piece = render_text(text[a:b], (), linkers, url)
        mark = (a, b) in answer
        out.append(Markup('<mark class="answer">') + piece + Markup("</mark>") if mark else piece)
    return Markup("").join(out)


def _rule_html(
    site: Site,
    game: str,
    clause: Clause | None,
    text: str,
    spans: list[list[int]],
    url: str,
    refs: list[dict],
    lang: str,
) -> Any:
    """``text`` with its answer sentences (``spans``; none on a clause's own page) marked and,
    when it is ``clause``'s text, the part the book printed there but belongs elsewhere set
    apart under its label."""
    aside = _aside(site, clause, lang) if clause is not None and clause.text == text else None
    if aside is None or any(b > aside[0] for _, b in spans):
        return _marked(site, game, text, spans, url, refs)
    at, label = aside
    return _set_aside(
        _marked(site, game, text[:at], spans, url, refs),
        label,
        _marked(site, game, text[at:], [], url, refs),
    )


def _copy_text(a: Mapping[str, Any]) -> str:
    """The citation and the text read aloud: a heading's own line and its sub-clauses'."""
    lines = [a["citation"], a["text"]]
    if a["heading"]:
        lines += [f"{x['clause_id']} {x['text']}" for x in a["context"] if x["relation"] == "child"]
    return "\n".join(lines)


def card_view(site: Site, card: Mapping[str, Any], lang: str = "en") -> dict[str, Any]:
    """The answer card of :func:`judgekb.service.answer.build_card`, ready to render."""
    a = card["answer"]
    view: dict[str, Any] = {**card, "answer": None}
    view["alternatives"] = [
        {**x, "label": node_label(x["clause_id"], x["title"], "", x["kind"])}
        for x in card["alternatives"]
    ]
    if a is None:
        return view
    game, doc = a["game"], a["doc"]
    refs = _refs(site, [RefLink(doc, r["clause_id"], r["written"]) for r in a["refs"]])

    def item(x: Mapping[str, Any], where: str = doc) -> dict[str, Any]:
        url = site.doc_url(x.get("doc", where), x["clause_id"])
        return {**x, "url": url, "lang": site.doc_lang(x.get("doc", where))}

    view["answer"] = {
        **a,
        "game_name": site.store.games().get(game, game),
        "label": node_label(a["clause_id"], a["title"], "", a["kind"]),
        "html": _rule_html(
            site,
            game,
            site.store.get(doc, a["clause_id"]),
            a["text"],
            a["answer_spans"],
            a["url"],
            refs,
            lang,
        ),
        "copy_text": _copy_text(a),
        "context": [item(x) for x in a["context"]],
        "refs": [item(x) for x in a["refs"]],
        "cited_by": [item(x) for x in a["cited_by"]],
        "notes": _note_views(site, doc, a["notes"], a["clause_id"]),
        "versions": [
            {**item(v), "doc_title": site.store.document(v["doc"]).title} for v in a["versions"]
        ],
        "repaired": bool(a["raw_text"]),
        "corrected": False,
    }
    return view

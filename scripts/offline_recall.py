"""Offline keyword search against the server's BM25, on the eval questions that name a game.

    python scripts/offline_recall.py [--dataset judgekb/eval/datasets/test.jsonl] [--json]

The offline side is the product itself: the vendored MiniSearch and static/offline-rules.js
run in Debian's headless chromium (as on a phone: Intl.Segmenter for Thai words) over the
offline bundle of var/ (the bytes the service serves). The server side is ``judgekb.search``
in ``bm25`` mode (no model needed). Both search within the question's game, k = 10, scored by
judgekb.eval's own metric code; also printed: the chromium index build time, the index built
in steps as a phone does (``Rules.warm``, at full speed and at 4 x CPU throttling: total, the
longest block of the page, the first search), the offline query time, and the bundle's size.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
from tests.service.browsing import ARGS, CHROMIUM  # noqa: E402  (the tests' own launch flags)

STATIC = REPO / "judgekb/service/static"
MODES = ("bm25-server", "offline")


def rows_with_game(path: Path) -> list[dict[str, Any]]:
    from judgekb.eval.dataset import load_dataset

    return [q for q in load_dataset(path) if q["game"] is not None]


def agreement(server: dict[str, list], offline: dict[str, list]) -> dict[str, float]:
    """How often the phone shows what the server's BM25 shows: its top hit within the
    offline top 5, and the overlap of the two top-10 lists."""
    top1 = [bool(r) and r[0] in offline[q][:5] for q, r in server.items() if r]
    overlap = [
        len(set(r) & set(offline[q])) / max(1, len(set(r) | set(offline[q])))
        for q, r in server.items()
    ]
    return {
        "server_top1_in_offline_top5": round(sum(top1) / max(1, len(top1)), 3),
        "top10_jaccard": round(sum(overlap) / max(1, len(overlap)), 3),
    }


WARM = """text => new Promise(done => {
    const r = new JudgekbRules.Rules(JSON.parse(text), MiniSearch);
    let last = performance.now(), longest = 0;
    const tick = setInterval(() => {
        const now = performance.now(); longest = Math.max(longest, now - last); last = now; }, 10);
    const t0 = performance.now();
    r.warm().then(() => {
        const total = performance.now() - t0; clearInterval(tick);
        const t1 = performance.now(); r.search("ผู้เล่นแพ้เมื่อไหร่", "one-piece", 10);
        done({total_ms: Math.round(total), longest_block_ms: Math.round(longest),
              first_search_ms: Math.round(performance.now() - t1)});
    });
})"""


def warm_figures(page: Any, text: str) -> dict[str, dict[str, int]]:
    """The phone's index built in steps (``Rules.warm``) at full speed and at 4 x CPU
    throttling (a slow phone): total time, the longest the page was blocked (a 10 ms timer's
    largest gap), and the first search after it."""
    cdp = page.context.new_cdp_session(page)
    out = {}
    for rate in (1, 4):
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
        out[f"x{rate}"] = page.evaluate(WARM, text)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--dataset", type=Path, default=REPO / "judgekb/eval/datasets/test.jsonl")
    ap.add_argument("--json", action="store_true", help="print the full JSON report")
    ap.add_argument(
        "--as-page",
        action="store_true",
        help="with no game, choose the game as the offline page does (a name in the question, "
        "else the one game whose book is in the question's language) before searching",
    )
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    from judgekb.config import get_settings
    from judgekb.eval.cases import Outcome
    from judgekb.eval.runner import evaluate_mode
    from judgekb.index.request import Scope, SearchRequest
    from judgekb.index.search import load_searcher
    from judgekb.service.offline import load_bundle

    settings = get_settings()
    searcher = load_searcher(settings, with_model=False)
    bundle = load_bundle(settings, searcher.store, searcher.manifest)
    questions = rows_with_game(args.dataset)
    game_of = {d.doc_id: d.game for d in searcher.store.documents()}

    def server(q: str, game: str | None, k: int, mode: str) -> list[tuple[str, str]]:
        hits = searcher.search(SearchRequest(q, Scope(game=game), k, "bm25")).hits
        return [(h.doc_id, h.clause_id) for h in hits]

    report: dict[str, Any] = {
        "dataset": str(args.dataset.resolve().relative_to(REPO))
        if args.dataset.resolve().is_relative_to(REPO)
        else str(args.dataset),
        "questions": len(questions),
        "bundle": {
            "version": bundle.version,
            "raw_bytes": len(bundle.raw),
            "gzip_bytes": len(bundle.gz),
        },
    }
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        page = browser.new_page()
        page.add_script_tag(path=str(STATIC / "vendor/minisearch.js"))
        page.add_script_tag(path=str(STATIC / "offline-rules.js"))
        report["chromium_build_ms"] = page.evaluate(
            """text => { const t = performance.now();
                window.rules = new JudgekbRules.Rules(JSON.parse(text), MiniSearch);
                rules.build(); return Math.round(performance.now() - t); }""",
            bundle.raw.decode("utf-8"),
        )
        report["warm"] = warm_figures(page, bundle.raw.decode("utf-8"))

        def offline(q: str, game: str | None, k: int, mode: str) -> list[tuple[str, str]]:
            found = page.evaluate(
                """([q, game, k, asPage]) => {
                    if (asPage) { game = rules.searchedGame(q, game).game; }
                    return rules.search(q, game || null, k).hits
                        .map(h => [rules.doc(h.i).id, rules.id(h.i)]); }""",
                [q, game, k, args.as_page],
            )
            return [(d, c) for d, c in found]

        ranked: dict[str, dict[str, list[tuple[str, str]]]] = {name: {} for name in MODES}
        for name, fn in (("bm25-server", server), ("offline", offline)):

            def kept(q: str, game: str | None, k: int, mode: str, fn=fn, name=name) -> Any:
                pairs = fn(q, game, k, mode)
                if game is not None:  # not the runner's second pass over all games
                    ranked[name][q] = pairs
                return Outcome(tuple((game_of[d], d, c) for d, c in pairs))

            summary, _, _ = evaluate_mode(questions, kept, name, 10)
            report[name] = summary
        browser.close()
    report["agreement"] = agreement(ranked["bm25-server"], ranked["offline"])
    if args.json:
        print(json.dumps(report, ensure_ascii=False, indent=2))
        return 0
    keys = ("recall@1", "recall@5", "recall@10", "mrr@10")
    print(
        f"{report['questions']} questions of {report['dataset']} with a game; bundle "
        f"{bundle.version}: {len(bundle.raw):,} B, {len(bundle.gz):,} B gzip; chromium index "
        f"build {report['chromium_build_ms']} ms"
    )
    print("| search | " + " | ".join(keys) + " | query p50 ms |")
    print("|---|" + "---|" * (len(keys) + 1))
    for name in MODES:
        s = report[name]
        cells = " | ".join(f"{s['overall'][k]:.3f}" for k in keys)
        print(f"| {name} | {cells} | {s['latency_ms']['p50']:.1f} |")
    print(f"agreement: {report['agreement']}")
    for name in MODES:
        a = report[name]["all_games"]
        print(
            f"all games ({name}{', as the page scopes' if args.as_page and name == 'offline' else ''}): "
            f"R@5 {a['overall']['recall@5']:.3f}, top hit's game {a['top_game_right']:.3f}"
        )
    print(f"index built in steps (Rules.warm), at 1 x and 4 x CPU throttling: {report['warm']}")
    for group in ("by_lang", "by_kind"):
        for value in report["offline"][group]:
            a, b = report["bm25-server"][group][value], report["offline"][group][value]
            print(
                f"| {group[3:]} {value} (n={a['n']}) | R@5 server {a['recall@5']:.3f} | offline {b['recall@5']:.3f} |"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The `judgekb` command line: build, search, serve, eval, export, corpus, clause."""

from __future__ import annotations

import json
import logging
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from judgekb.config import Settings, get_settings
from judgekb.errors import JudgeKBError
from judgekb.index.request import ClauseKind, DocKind, DocLang, Mode
from judgekb.kb.cli_kb import check_after_build, kb_app, rulings_app, users_app

app = typer.Typer(
    help="judgekb: rules knowledge base and search for TCG tournament judges (Thai, Malay).",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)
corpus_app = typer.Typer(
    help="Corpus tools: build the clause store, lint it, repair PDF Thai.", no_args_is_help=True
)
export_app = typer.Typer(help="Export the corpus for outside tools.", no_args_is_help=True)
app.add_typer(corpus_app, name="corpus")
app.add_typer(export_app, name="export")
app.add_typer(users_app, name="users")
app.add_typer(rulings_app, name="rulings")
app.add_typer(kb_app, name="kb")

err = Console(stderr=True)
out = Console(soft_wrap=True)


def _settings() -> Settings:
    return get_settings()


def _fail(exc: JudgeKBError) -> None:
    err.print(f"[bold red]error:[/] {exc}", highlight=False)
    raise typer.Exit(2)


@app.callback()
def main(
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Debug logging.")] = False,
) -> None:
    logging.basicConfig(
        level=logging.DEBUG if verbose else logging.WARNING,
        format="%(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )


def _manifest(settings: Settings):  # type: ignore[no-untyped-def]
    from judgekb.corpus.manifest import load_manifest

    return load_manifest(settings.manifest)


# corpus ---------------------------------------------------------------------------------
@corpus_app.command("build")
def corpus_build(
    out_path: Annotated[
        Path | None, typer.Option("--out", help="Also write the clause store to this file.")
    ] = None,
) -> None:
    """Parse every rulebook and report; `judgekb build` makes a store current, with its indexes."""
    from judgekb.corpus.build import collect_corpus, store_corpus

    settings = _settings()
    try:
        manifest = _manifest(settings)
        with err.status("building corpus") as status:
            built = collect_corpus(manifest, progress=lambda m: status.update(m))
            if out_path is not None:
                store_corpus(built, manifest, out_path)
    except JudgeKBError as exc:
        _fail(exc)
    for doc_id, msg in built.errors:
        err.print(f"[yellow]skipped {doc_id}:[/] {msg}", highlight=False)
    for msg in built.errata_problems:
        err.print(f"[yellow]errata not shown:[/] {msg}", highlight=False)
    err.print(
        f"{len(built.clauses)} clauses, {len(built.refs)} references, "
        f"{len(built.findings)} lint findings" + (f" -> {out_path}" if out_path else "")
    )
    if built.errors:
        raise typer.Exit(1)


@corpus_app.command("lint")
def corpus_lint(
    as_json: Annotated[bool, typer.Option("--json", help="JSON output.")] = False,
    doc: Annotated[str | None, typer.Option(help="Only this document id.")] = None,
) -> None:
    """Report numbering gaps, duplicates, misprints, broken or mismatched references."""
    from judgekb.corpus.build import collect_corpus

    try:
        built = collect_corpus(_manifest(_settings()))
    except JudgeKBError as exc:
        _fail(exc)
    findings = [f for f in built.findings if doc is None or f.doc_id == doc]
    if as_json:
        out.print_json(
            json.dumps(
                {
                    "findings": [f.__dict__ for f in findings],
                    "errors": [{"doc": d, "error": m} for d, m in built.errors],
                    "errata_problems": built.errata_problems,
                },
                ensure_ascii=False,
            )
        )
        return
    from judgekb.corpus.lint_report import render_findings

    out.print(render_findings(findings))
    for d, m in built.errors:
        out.print(f"[red]{d}: {m}[/]", highlight=False)
    for msg in built.errata_problems:
        out.print(f"[yellow]errata not shown: {msg}[/]", highlight=False)


@corpus_app.command("repair")
def corpus_repair(
    file: Annotated[Path, typer.Argument(help="A text file extracted from a PDF.")],
) -> None:
    """Print FILE with PDF-displaced Thai marks repaired, line for line."""
    from judgekb.corpus.source import read_rulebook
    from judgekb.corpus.thai_repair import repair_lines

    try:
        text = read_rulebook(file)
    except JudgeKBError as exc:
        _fail(exc)
    lines = text.split("\n")
    sys.stdout.write("\n".join(repair_lines(lines)))


# export ---------------------------------------------------------------------------------
@export_app.command("clauses")
def export_clauses(
    jsonl: Annotated[
        bool, typer.Option("--jsonl", help="One JSON object per line (default).")
    ] = True,
) -> None:
    """Print every clause as JSON Lines (game, doc, clause_id, parent_id, kind, title, text, ...)."""
    from judgekb.corpus.export import export_clauses as run

    try:
        for line in run(_settings().store_path):
            sys.stdout.write(line + "\n")
    except JudgeKBError as exc:
        _fail(exc)


# build / search / clause ----------------------------------------------------------------
@app.command()
def build(
    force: Annotated[
        bool, typer.Option(help="Build a new generation even if the current one is up to date.")
    ] = False,
) -> None:
    """Build the clause store and the search indexes as a new generation (or say it is up to
    date); a damaged generation is rebuilt, a second build waits for the first."""
    from judgekb.index.rebuild import build_all

    try:
        settings = _settings()
        report = build_all(settings, force=force, console=err)
        report += "; " + _offline_bundle(settings)
        flagged = check_after_build()  # rulings citing clause text the rebuild changed
    except JudgeKBError as exc:
        _fail(exc)
    err.print(report, highlight=False)
    if flagged:
        err.print(f"{len(flagged)} ruling(s) now need review: cited text changed", highlight=False)


def _offline_bundle(settings: Settings) -> str:
    """The phone's offline copy of the rules, built now so the service starts at once."""
    from judgekb.corpus.store import ClauseStore
    from judgekb.index.artifacts import read_manifest
    from judgekb.service.offline import load_bundle

    bundle = load_bundle(
        settings, ClauseStore(settings.store_path), read_manifest(settings.index_dir)
    )
    return f"offline bundle {bundle.version} ({len(bundle.gz) / 1000:.0f} kB gzip)"


@app.command()
def search(
    query: Annotated[str | None, typer.Argument(help="A question or a clause number.")] = None,
    game: Annotated[str | None, typer.Option(help="Game slug to search within.")] = None,
    k: Annotated[int, typer.Option(help="Number of results.", min=1, max=100)] = 10,
    mode: Annotated[Mode, typer.Option(help="Retrieval mode.")] = "hybrid",
    doc: Annotated[str | None, typer.Option(help="Only this document id.")] = None,
    kind: Annotated[ClauseKind | None, typer.Option(help="Only clauses of this kind.")] = None,
    doc_kind: Annotated[DocKind | None, typer.Option(help="Only rules or amendments.")] = None,
    lang: Annotated[DocLang | None, typer.Option(help="Only documents in this language.")] = None,
    date: Annotated[
        str | None, typer.Option(help="YYYY-MM-DD: the rules in force that day (default today).")
    ] = None,
    edition: Annotated[
        str | None, typer.Option(help="An edition by its printed version, e.g. Ver.1.1.0.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="JSON output.")] = False,
    batch: Annotated[
        Path | None, typer.Option(help="JSON Lines file of {qid, question, game}.")
    ] = None,
    jsonl: Annotated[
        bool, typer.Option("--jsonl", help="With --batch: one JSON line per query.")
    ] = False,
) -> None:
    """Search the rules; `--batch FILE --jsonl` runs many queries with one model load."""
    from judgekb.index.cli_search import run_batch, run_single
    from judgekb.index.request import Scope, SearchRequest

    try:
        scope = Scope(game, doc, doc_kind, kind, lang, edition, date)
        if batch is not None:
            template = SearchRequest("batch", scope, k, mode)
            run_batch(_settings(), batch, template, write=sys.stdout.write)
        elif query is None:
            err.print("error: give a QUERY or --batch FILE")
            raise typer.Exit(2)
        else:
            run_single(_settings(), SearchRequest(query, scope, k, mode), as_json, out)
    except JudgeKBError as exc:
        _fail(exc)


@app.command()
def clause(
    game: Annotated[str, typer.Argument(help="Game slug, e.g. summoner-master.")],
    clause_id: Annotated[str, typer.Argument(help="Clause id as printed, e.g. 602.1.4.")],
    doc: Annotated[str | None, typer.Option(help="Document id when a game has several.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="JSON output.")] = False,
) -> None:
    """Show one clause with its parents, children and references both ways."""
    from judgekb.corpus.export import clause_detail, render_clause
    from judgekb.corpus.store import ClauseStore

    try:
        detail = clause_detail(
            ClauseStore(_settings().store_path), game, clause_id.rstrip("."), doc
        )
    except JudgeKBError as exc:
        _fail(exc)
    if as_json:
        out.print_json(json.dumps(detail, ensure_ascii=False))
    else:
        out.print(render_clause(detail), highlight=False)


@app.command()
def diff(
    family: Annotated[str, typer.Argument(help="Rulebook family, e.g. gundam-cr.")],
    from_version: Annotated[
        str | None, typer.Option("--from", help="Older edition (default: the one before --to).")
    ] = None,
    to_version: Annotated[
        str | None, typer.Option("--to", help="Newer edition (default: the newest).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="JSON output.")] = False,
) -> None:
    """What changed between two editions: added, removed, changed and renumbered clauses."""
    from judgekb.corpus.edition_store import Editions, diff_of_versions, render_diff
    from judgekb.corpus.store import ClauseStore

    try:
        result = diff_of_versions(
            Editions(ClauseStore(_settings().store_path)), family, from_version, to_version
        )
    except JudgeKBError as exc:
        _fail(exc)
    if as_json:
        out.print_json(json.dumps(result.to_json(), ensure_ascii=False))
    else:
        out.print(render_diff(result), highlight=False)


@app.command()
def serve(
    host: Annotated[str | None, typer.Option(help="Bind address (default 127.0.0.1).")] = None,
    port: Annotated[int | None, typer.Option(help="Port (default 8000).")] = None,
) -> None:
    """Run the judge web service (search page, permalinks, JSON API); it moves to a new
    generation by itself when `judgekb build` makes one current."""
    from judgekb.index.memory import limit_malloc_arenas
    from judgekb.service.app import create_app
    from judgekb.service.server import run_server

    settings = _settings()
    # Before the thread pool exists: its threads would each get a malloc arena that keeps
    # the memory of a burst of requests after the burst (issue 16: RSS never came back).
    limit_malloc_arenas(settings.malloc_arena_max)
    try:
        application = create_app(settings)
    except JudgeKBError as exc:
        _fail(exc)
    run_server(application, host or settings.host, port or settings.port, settings)


@app.command("eval")
def evaluate(
    dataset: Annotated[Path, typer.Option(help="JSON Lines questions file.")],
    mode: Annotated[str, typer.Option(help="bm25 | dense | hybrid | all")] = "hybrid",
    k: Annotated[int, typer.Option(help="Results per query.", min=1, max=100)] = 10,
    as_json: Annotated[bool, typer.Option("--json", help="JSON output.")] = False,
    card: Annotated[
        bool, typer.Option("--card", help="Measure the answer card instead (issue 12 figures).")
    ] = False,
) -> None:
    """Measure retrieval (R@k, MRR, nDCG) on a question file, per game, kind and language;
    with --card, the answer card (recall, precision, completeness, latency)."""
    from judgekb.eval.cli_eval import run_card_command, run_eval_command

    try:
        if card:
            run_card_command(_settings(), dataset, as_json, sys.stdout.write)
            return
        run_eval_command(
            _settings(), dataset, mode=mode, k=k, as_json=as_json, write=sys.stdout.write
        )
    except JudgeKBError as exc:
        _fail(exc)

"""Build the clause store from the manifest: parse, repair, correct, cross-link, lint, store."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from judgekb.corpus.lineage import Lineage
from judgekb.corpus.manifest import Manifest
from judgekb.corpus.model import (
    AmendmentLink,
    Clause,
    CrossRef,
    Document,
    LintFinding,
    ParsedDocument,
)
from judgekb.corpus.questions import Question, QuestionProblem
from judgekb.corpus.source import read_rulebook
from judgekb.errors import JudgeKBError

log = logging.getLogger(__name__)

Progress = Callable[[str], None]


@dataclass
class CorpusBuild:
    """Everything the corpus build produced, before or after it is stored."""

    documents: list[Document] = field(default_factory=list)
    parsed: dict[str, ParsedDocument] = field(default_factory=dict)
    clauses: list[Clause] = field(default_factory=list)
    refs: list[CrossRef] = field(default_factory=list)
    amendments: list[AmendmentLink] = field(default_factory=list)
    lineage: Lineage = field(default_factory=Lineage)
    findings: list[LintFinding] = field(default_factory=list)
    errors: list[tuple[str, str]] = field(default_factory=list)  # (doc_id, message)
    questions: list[Question] = field(default_factory=list)  # the question view's data
    question_problems: list[QuestionProblem] = field(default_factory=list)  # lines skipped
    # Reviewed errata not shown: a malformed file, or an entry its clause no longer matches.
    errata_problems: list[str] = field(default_factory=list)
    corpus_hash: str = ""


def parse_document(manifest: Manifest, doc: Document) -> ParsedDocument:
    """Read and parse one document, corrections applied; raises on unusable input."""
    from judgekb.corpus.corrections import correct_clauses
    from judgekb.corpus.decree import parse_decree
    from judgekb.corpus.segment import parse_rulebook

    text = read_rulebook(manifest.source_path(doc))
    if doc.kind == "amendment":
        parsed = parse_decree(doc, text)
    else:
        parsed = parse_rulebook(doc, text, manifest.numbering[doc.doc_id])
    table = manifest.corrections.get(doc.doc_id, doc.doc_id)  # an edition may share its family's
    corrected = tuple(correct_clauses(table, parsed.clauses))
    return ParsedDocument(parsed.document, corrected, parsed.findings)


def collect_corpus(manifest: Manifest, progress: Progress | None = None) -> CorpusBuild:
    """Parse every document; a broken one is recorded in ``errors`` and the rest still build."""
    from judgekb.corpus.amend import link_amendments
    from judgekb.corpus.lint import lint_document
    from judgekb.corpus.refs import extract_refs

    out = CorpusBuild()
    for doc in manifest.documents:
        if progress:
            progress(f"parsing {doc.doc_id}")
        try:
            parsed = parse_document(manifest, doc)
        except JudgeKBError as exc:
            log.error("skipping %s: %s", doc.doc_id, exc)
            out.errors.append((doc.doc_id, str(exc)))
            continue
        refs = extract_refs(doc, parsed.clauses)
        out.documents.append(doc)
        out.parsed[doc.doc_id] = parsed
        out.clauses.extend(parsed.clauses)
        out.refs.extend(refs)
        out.findings.extend(parsed.findings)
        out.findings.extend(lint_document(parsed, refs))
        _add_errata(out, doc.doc_id, parsed.clauses)
    for doc in out.documents:
        if doc.amends and doc.amends in out.parsed:
            if progress:
                progress(f"linking {doc.doc_id} -> {doc.amends}")
            out.amendments.extend(link_amendments(out.parsed[doc.doc_id], out.parsed[doc.amends]))
    _trace_editions(manifest, out, progress)
    _collect_questions(manifest, out)
    return out


def _add_errata(out: CorpusBuild, doc_id: str, clauses: Sequence[Clause]) -> None:
    """The reviewed errata of ``doc_id`` that still hold join the lint findings; a malformed
    file or a stale entry is reported and shown nowhere, and the document still builds."""
    from judgekb.corpus.errata import errata_findings, load_errata

    try:
        errata = load_errata(doc_id)
    except JudgeKBError as exc:
        out.errata_problems.append(str(exc))
        return
    found, stale = errata_findings(doc_id, clauses, errata)
    out.findings.extend(found)
    out.errata_problems.extend(stale)


def _collect_questions(manifest: Manifest, out: CorpusBuild) -> None:
    """The judges' questions of each document built (manifest ``questions``)."""
    from judgekb.corpus.questions import load_questions

    ids: dict[str, list[str]] = {}
    for c in out.clauses:
        ids.setdefault(c.doc_id, []).append(c.clause_id)
    files = {d.doc_id: manifest.questions[d.doc_id] for d in out.documents}
    out.questions, out.question_problems = load_questions(files, ids)


def _trace_editions(manifest: Manifest, out: CorpusBuild, progress: Progress | None) -> None:
    """Align the editions of every family; changelog findings join the lint findings."""
    from judgekb.corpus.gundam import CHANGELOG_ID
    from judgekb.corpus.lineage import trace_families

    if progress:
        progress("aligning editions")
    out.lineage = trace_families(manifest, out.parsed)
    out.findings.extend(out.lineage.findings)
    # "ลบหัวข้อ 12-3-7" names the previous edition's 12-3-7: the number now means another
    # clause, so the changelog must not link it as a reference.
    removed = {
        (e.doc_id, cid)
        for e in out.lineage.changelog
        if e.action == "removed"
        for cid in e.clause_ids
    }
    out.refs = [
        r
        for r in out.refs
        if not (r.src_id == CHANGELOG_ID and (r.doc_id, r.written.rstrip(".")) in removed)
    ]


def store_args(built: CorpusBuild, manifest: Manifest) -> dict:
    """What :func:`~judgekb.corpus.store.write_store` and ``store_digest`` take for ``built``."""
    from judgekb.corpus.normalize import NORMALISER_VERSION

    return {
        "documents": built.documents,
        "clauses": built.clauses,
        "refs": built.refs,
        "amendments": built.amendments,
        "findings": built.findings,
        "errors": built.errors,
        "meta": {"normaliser_version": NORMALISER_VERSION, "manifest": manifest.path.name},
        "lineage": built.lineage,
        "questions": built.questions,
    }


def store_corpus(built: CorpusBuild, manifest: Manifest, store_path: Path) -> None:
    """Write the collected corpus to ``store_path`` (atomically) and record its hash."""
    from judgekb.corpus.store import write_store

    built.corpus_hash = write_store(store_path, **store_args(built, manifest))
    log.info(
        "stored %d clauses of %d documents in %s",
        len(built.clauses),
        len(built.documents),
        store_path,
    )


def build_corpus(
    manifest: Manifest, store_path: Path, progress: Progress | None = None
) -> CorpusBuild:
    """Collect the corpus and write the SQLite store atomically."""
    built = collect_corpus(manifest, progress)
    if progress:
        progress(f"writing {store_path.name}")
    store_corpus(built, manifest, store_path)
    return built

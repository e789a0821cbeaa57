"""`judgekb users …`, `judgekb rulings …`, `judgekb kb …`: the knowledge base from the shell.

Registered in :mod:`judgekb.cli` with one line each. The shell user holds the data directory,
so these commands act as the ``cli`` actor (an admin); every write is audited as such.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from judgekb.config import get_settings
from judgekb.errors import JudgeKBError
from judgekb.kb.model import CLI_ACTOR, ROLES

users_app = typer.Typer(help="Accounts: add users, print API tokens, revoke.", no_args_is_help=True)
rulings_app = typer.Typer(help="Rulings: export and import JSON Lines.", no_args_is_help=True)
kb_app = typer.Typer(help="The knowledge-base database: backup, stale check.", no_args_is_help=True)

err = Console(stderr=True)


def _fail(exc: JudgeKBError) -> None:
    err.print(f"[bold red]error:[/] {exc}", highlight=False)
    raise typer.Exit(2)


def _kb(check: bool = False):  # type: ignore[no-untyped-def]
    """The knowledge base (the clause store is opened only where citations are resolved)."""
    from judgekb.corpus.store import ClauseStore
    from judgekb.kb.base import open_kb

    settings = get_settings()
    return open_kb(settings, ClauseStore(settings.store_path), check=check)


def _db():  # type: ignore[no-untyped-def]
    from judgekb.kb.db import open_database

    return open_database(get_settings().kb_url)


# users ------------------------------------------------------------------------------------
@users_app.command("add")
def users_add(
    name: Annotated[str, typer.Argument(help="User name: lower-case letters, digits, . _ -")],
    role: Annotated[str, typer.Option(help=f"One of {', '.join(ROLES)}.")],
    password_stdin: Annotated[
        bool, typer.Option("--password-stdin", help="Read the password from standard input.")
    ] = False,
) -> None:
    """Add a user (the password is read from stdin, never from the command line)."""
    from judgekb.kb.accounts import Accounts

    if not password_stdin:
        err.print("error: give --password-stdin and the password on standard input")
        raise typer.Exit(2)
    password = sys.stdin.readline().rstrip("\r\n")
    try:
        user = Accounts(_db()).add_user(name, role, password, CLI_ACTOR)
    except JudgeKBError as exc:
        _fail(exc)
    err.print(f"added {user.name} ({user.role})", highlight=False)


@users_app.command("token")
def users_token(name: Annotated[str, typer.Argument(help="An existing user.")]) -> None:
    """Print a new API token for NAME on stdout (only its hash is stored)."""
    from judgekb.kb.accounts import Accounts

    try:
        token = Accounts(_db()).create_token(name, CLI_ACTOR)
    except JudgeKBError as exc:
        _fail(exc)
    sys.stdout.write(token + "\n")


@users_app.command("revoke")
def users_revoke(name: Annotated[str, typer.Argument(help="An existing user.")]) -> None:
    """Revoke every API token of NAME."""
    from judgekb.kb.accounts import Accounts

    try:
        n = Accounts(_db()).revoke_tokens(name, CLI_ACTOR)
    except JudgeKBError as exc:
        _fail(exc)
    err.print(f"revoked {n} token(s) of {name}", highlight=False)


@users_app.command("disable")
def users_disable(
    name: Annotated[str, typer.Argument(help="An existing user.")],
    enable: Annotated[bool, typer.Option("--enable", help="Enable the account again.")] = False,
) -> None:
    """Disable NAME (tokens and sessions stop working at once), or --enable it again."""
    from judgekb.kb.accounts import Accounts

    try:
        Accounts(_db()).set_disabled(name, not enable, CLI_ACTOR)
    except JudgeKBError as exc:
        _fail(exc)


@users_app.command("list")
def users_list() -> None:
    """Print every user as JSON Lines (name, role, created_at, disabled)."""
    from judgekb.kb.accounts import Accounts

    for u in Accounts(_db()).list_users():
        sys.stdout.write(json.dumps(u.__dict__, ensure_ascii=False) + "\n")


# rulings ----------------------------------------------------------------------------------
@rulings_app.command("export")
def rulings_export() -> None:
    """Print every ruling (all statuses, with citations and revisions) as JSON Lines."""
    from judgekb.kb.transfer import export_lines

    try:
        for line in export_lines(_db()):
            sys.stdout.write(line + "\n")
    except JudgeKBError as exc:
        _fail(exc)


@rulings_app.command("import")
def rulings_import(
    file: Annotated[Path, typer.Argument(help="JSON Lines written by `judgekb rulings export`.")],
) -> None:
    """Import exported rulings as they were (ids, history, status); all or nothing. Then
    each citation is checked against the rules built here, as after a build: a ruling citing
    a clause these rules word differently, or do not print, is flagged needs-review."""
    from judgekb.kb.transfer import import_lines

    try:
        with file.open(encoding="utf-8") as fh:
            added, same = import_lines(_db(), fh, CLI_ACTOR)
    except OSError as exc:
        err.print(f"[bold red]error:[/] cannot read {file}: {exc.strerror}", highlight=False)
        raise typer.Exit(2) from None
    except JudgeKBError as exc:
        _fail(exc)
    err.print(f"imported {added} rulings ({same} already present)", highlight=False)
    try:
        flagged = check_after_build()
    except JudgeKBError as exc:
        err.print(f"not checked against the rules ({exc}); run `judgekb kb check` after a build")
        return
    if flagged:
        ids = ", ".join(str(i) for i in flagged)
        err.print(f"flagged needs-review (cited text changed or gone): {ids}", highlight=False)


# kb ---------------------------------------------------------------------------------------
@kb_app.command("backup")
def kb_backup(file: Annotated[Path, typer.Argument(help="Where to write the copy.")]) -> None:
    """A consistent online backup of the SQLite knowledge base (safe while the service runs)."""
    from judgekb.kb.db import Database, backup_sqlite

    try:
        size = backup_sqlite(Database(get_settings().kb_url), file)
    except JudgeKBError as exc:
        _fail(exc)
    err.print(f"backed up {size} bytes -> {file}", highlight=False)


@kb_app.command("check")
def kb_check() -> None:
    """Flag needs-review every ruling whose cited clause text changed; print their ids."""
    try:
        flagged = check_after_build()
    except JudgeKBError as exc:
        _fail(exc)
    for rid in flagged:
        sys.stdout.write(f"{rid}\n")
    err.print(f"{len(flagged)} ruling(s) flagged needs-review", highlight=False)


def check_after_build() -> list[int]:
    """The stale check against the clause store just built (`judgekb build` calls it)."""
    return list(_kb(check=False).check_stale())

"""Accounts on SQLite and PostgreSQL: argon2id hashes, hashed revocable tokens, sessions."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from judgekb.errors import Conflict, Unauthorized, ValidationFailed
from judgekb.kb import accounts
from judgekb.kb.accounts import digest
from judgekb.kb.model import CLI_ACTOR
from judgekb.kb.schema import tokens, users

PASSWORD = "correct horse battery"


def test_production_hasher_is_argon2id_with_the_library_defaults() -> None:
    from argon2 import PasswordHasher

    real = PasswordHasher()
    assert real.hash("x").startswith("$argon2id$v=19$m=65536,t=3,p=4$")


def test_users_tokens_and_sessions(kb) -> None:
    acc = kb.accounts
    acc.add_user("hugo", "head-judge", PASSWORD, CLI_ACTOR)
    with pytest.raises(Conflict):
        acc.add_user("hugo", "judge", PASSWORD, CLI_ACTOR)
    with pytest.raises(ValidationFailed):
        acc.add_user("Bad Name", "judge", PASSWORD, CLI_ACTOR)
    with pytest.raises(ValidationFailed):
        acc.add_user("shorty", "judge", "short", CLI_ACTOR)
    with pytest.raises(ValidationFailed):
        acc.add_user("pope", "pope", PASSWORD, CLI_ACTOR)
    token = acc.create_token("hugo", CLI_ACTOR)
    assert acc.token_user(token).role == "head-judge"
    with kb.db.read() as conn:
        stored = conn.execute(select(tokens.c.token_hash)).scalars().all()
        pw = conn.execute(select(users.c.password_hash)).scalar_one()
    assert stored == [digest(token)] and token not in stored
    assert pw.startswith("$argon2id$") and PASSWORD not in pw
    sid, session = acc.login("hugo", PASSWORD, "10.1.1.1")
    assert acc.session(sid).user.name == "hugo" and session.csrf == acc.session(sid).csrf
    acc.logout(sid, CLI_ACTOR)
    with pytest.raises(Unauthorized):
        acc.session(sid)
    assert acc.revoke_tokens("hugo", CLI_ACTOR) == 1
    with pytest.raises(Unauthorized):
        acc.token_user(token)
    second = acc.create_token("hugo", CLI_ACTOR)
    acc.set_disabled("hugo", True, CLI_ACTOR)
    with pytest.raises(Unauthorized):
        acc.token_user(second)
    with pytest.raises(Unauthorized):
        acc.login("hugo", PASSWORD, "10.1.1.1")
    actions = [e["action"] for e in kb.rulings.audit_entries()]
    assert actions[:4] == ["login.fail", "user.disable", "token.create", "token.revoke"]
    assert accounts.TOKEN_PREFIX == "jkb_"


def test_enabling_a_disabled_account_again_signs_no_one_back_in(kb) -> None:
    acc = kb.accounts
    acc.add_user("jane", "judge", PASSWORD, CLI_ACTOR)
    sid, _ = acc.login("jane", PASSWORD, "10.1.1.2")
    acc.set_disabled("jane", True, CLI_ACTOR)
    acc.set_disabled("jane", False, CLI_ACTOR)
    with pytest.raises(Unauthorized):
        acc.session(sid)  # the session was ended, not only paused
    assert acc.session(acc.login("jane", PASSWORD, "10.1.1.2")[0]).user.name == "jane"


def test_guessing_a_password_from_one_address_locks_out_that_address_only(kb) -> None:
    """Five wrong passwords for hugo from one address refuse hugo there (even the right
    password); hugo still signs in from the venue's address, until guesses for hugo come
    from several addresses: 4 x 5 in all."""
    from judgekb.errors import TooManyAttempts

    acc = kb.accounts
    acc.add_user("hugo", "judge", PASSWORD, CLI_ACTOR)
    for _ in range(5):
        with pytest.raises(Unauthorized):
            acc.login("hugo", "wrong password!", "203.0.113.9")
    with pytest.raises(TooManyAttempts):
        acc.login("hugo", PASSWORD, "203.0.113.9")
    acc.logout(acc.login("hugo", PASSWORD, "10.1.1.1")[0], CLI_ACTOR)  # the venue: fine
    for n in range(15):  # guesses spread over more addresses: 20 failures for hugo in all
        with pytest.raises(Unauthorized):
            acc.login("hugo", "wrong password!", f"198.51.100.{n % 3}")
    with pytest.raises(TooManyAttempts):
        acc.login("hugo", PASSWORD, "10.1.1.1")

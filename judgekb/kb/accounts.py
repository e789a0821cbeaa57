"""Users, API tokens, web sessions and the login throttle.

Passwords are hashed with argon2id (argon2-cffi). API tokens and session ids are 256-bit
random strings stored only as SHA-256 hashes (a database leak reveals no usable credential);
tokens are revoked, never deleted. Failed logins are counted per account and per address in
the database, so every replica throttles alike.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import Connection, and_, delete, func, insert, or_, select, update

from judgekb.errors import Conflict, TooManyAttempts, Unauthorized, ValidationFailed
from judgekb.kb import audit
from judgekb.kb.db import Database
from judgekb.kb.model import (
    ROLES,
    Actor,
    User,
    check_choice,
    check_name,
    check_password,
    now_iso,
)
from judgekb.kb.schema import login_failures, sessions, tokens, users

_hasher = PasswordHasher()  # argon2id, the library's current recommended parameters
_DUMMY_HASH = _hasher.hash("judgekb-no-such-user")
TOKEN_PREFIX = "jkb_"


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def _iso(dt: datetime) -> str:
    return dt.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _user(row: object) -> User:
    r = row._mapping  # type: ignore[attr-defined]
    return User(r["name"], r["role"], r["created_at"], bool(r["disabled"]))


@dataclass(frozen=True)
class Throttle:
    """Failed logins allowed within ``window_seconds``: ``max_per_account`` for one account
    from one address; ``max_per_address`` from one address, whatever the names; and
    ``ACCOUNT_SPREAD`` x ``max_per_account`` for one account from all addresses together. So
    someone guessing a judge's password from one place locks out that place only: the judge
    still signs in from the venue until guesses come from several addresses at once."""

    max_per_account: int = 5
    max_per_address: int = 20
    window_seconds: int = 900

    ACCOUNT_SPREAD = 4


@dataclass(frozen=True)
class Session:
    """A live web session: its user and the CSRF token its forms must carry."""

    user: User
    csrf: str


class Accounts:
    def __init__(self, db: Database, throttle: Throttle | None = None, session_hours: int = 12):
        self.db = db
        self.throttle = throttle or Throttle()
        self.session_hours = session_hours

    # users ---------------------------------------------------------------------------
    def add_user(self, name: str, role: str, password: str, actor: Actor) -> User:
        name = check_name(name)
        check_choice("role", role, ROLES)
        check_password(password)
        hashed = _hasher.hash(password)
        with self.db.write() as conn:
            if conn.execute(select(users.c.id).where(users.c.name == name)).first():
                raise Conflict(f"user {name!r} exists")
            conn.execute(
                insert(users).values(
                    name=name, role=role, password_hash=hashed, created_at=now_iso(), disabled=False
                )
            )
            audit.record(conn, actor, "user.add", f"user:{name}", role=role)
        return self.user(name)

    def user(self, name: str) -> User:
        with self.db.read() as conn:
            row = conn.execute(select(users).where(users.c.name == name)).first()
        if row is None:
            raise ValidationFailed(f"no user {name!r}; add one with `judgekb users add`", "name")
        return _user(row)

    def list_users(self) -> list[User]:
        with self.db.read() as conn:
            return [_user(r) for r in conn.execute(select(users).order_by(users.c.name))]

    def set_disabled(self, name: str, disabled: bool, actor: Actor) -> None:
        """Disable (or enable) an account: its tokens and sessions stop working at once, and
        its sessions are ended (enabling it again does not sign anyone back in; its API
        tokens work again until revoked)."""
        with self.db.write() as conn:
            uid = self._id(conn, name)
            conn.execute(update(users).where(users.c.name == name).values(disabled=disabled))
            if disabled:
                conn.execute(
                    update(sessions)
                    .where(sessions.c.user_id == uid, sessions.c.ended_at.is_(None))
                    .values(ended_at=now_iso())
                )
            audit.record(conn, actor, "user.disable" if disabled else "user.enable", f"user:{name}")

    def _id(self, conn: Connection, name: str) -> int:
        uid = conn.execute(select(users.c.id).where(users.c.name == name)).scalar()
        if uid is None:
            raise ValidationFailed(f"no user {name!r}; add one with `judgekb users add`", "name")
        return int(uid)

    # API tokens ----------------------------------------------------------------------
    def create_token(self, name: str, actor: Actor) -> str:
        """A new API token for ``name`` (shown once; only its hash is kept)."""
        token = TOKEN_PREFIX + secrets.token_urlsafe(32)
        with self.db.write() as conn:
            uid = self._id(conn, name)
            tid = conn.execute(
                insert(tokens)
                .values(user_id=uid, token_hash=digest(token), created_at=now_iso())
                .returning(tokens.c.id)
            ).scalar_one()
            audit.record(conn, actor, "token.create", f"user:{name}", token_id=tid)
        return token

    def revoke_tokens(self, name: str, actor: Actor) -> int:
        """Revoke every live token of ``name``; returns how many."""
        with self.db.write() as conn:
            uid = self._id(conn, name)
            n = conn.execute(
                update(tokens)
                .where(tokens.c.user_id == uid, tokens.c.revoked_at.is_(None))
                .values(revoked_at=now_iso())
            ).rowcount
            audit.record(conn, actor, "token.revoke", f"user:{name}", revoked=n)
        return int(n)

    def token_user(self, token: str) -> User:
        """The live user of an API token, or :class:`Unauthorized`."""
        with self.db.read() as conn:
            row = conn.execute(
                select(users)
                .join(tokens, tokens.c.user_id == users.c.id)
                .where(tokens.c.token_hash == digest(token), tokens.c.revoked_at.is_(None))
            ).first()
        if row is None or row.disabled:
            raise Unauthorized("invalid or revoked API token; get one with `judgekb users token`")
        return _user(row)

    # web login -----------------------------------------------------------------------
    def login(self, name: str, password: str, address: str) -> tuple[str, Session]:
        """Check the password (throttled per account and address); a new session id."""
        name = name.strip().lower()[:64]
        address = address[:64]
        self._check_throttle(name, address)
        with self.db.read() as conn:
            row = conn.execute(select(users).where(users.c.name == name)).first()
        ok = False
        try:
            ok = _hasher.verify(row.password_hash if row else _DUMMY_HASH, password[:256])
        except (VerificationError, InvalidHashError):
            ok = False
        who = Actor(name or "?", "", address)
        if not ok or row is None or row.disabled:
            with self.db.write() as conn:
                conn.execute(
                    insert(login_failures).values(name=name, address=address, at=now_iso())
                )
                audit.record(conn, who, "login.fail", f"user:{name}")
            raise Unauthorized("wrong user name or password")
        sid = secrets.token_urlsafe(32)
        csrf = secrets.token_urlsafe(32)
        now = datetime.now(UTC)
        with self.db.write() as conn:
            conn.execute(
                insert(sessions).values(
                    user_id=row.id,
                    session_hash=digest(sid),
                    csrf=csrf,
                    created_at=_iso(now),
                    expires_at=_iso(now + timedelta(hours=self.session_hours)),
                )
            )
            conn.execute(  # a success forgives its own address's misses, not a guesser's
                delete(login_failures).where(
                    login_failures.c.name == name, login_failures.c.address == address
                )
            )
            audit.record(conn, who, "login", f"user:{name}")
        return sid, Session(_user(row), csrf)

    def _check_throttle(self, name: str, address: str) -> None:
        t = self.throttle
        since = _iso(datetime.now(UTC) - timedelta(seconds=t.window_seconds))
        with self.db.read() as conn:
            by_pair, by_name, by_addr = conn.execute(
                select(
                    func.count().filter(
                        and_(login_failures.c.name == name, login_failures.c.address == address)
                    ),
                    func.count().filter(login_failures.c.name == name),
                    func.count().filter(login_failures.c.address == address),
                ).where(
                    login_failures.c.at >= since,
                    or_(login_failures.c.name == name, login_failures.c.address == address),
                )
            ).one()
        if (
            by_pair >= t.max_per_account
            or by_name >= t.ACCOUNT_SPREAD * t.max_per_account
            or by_addr >= t.max_per_address
        ):
            raise TooManyAttempts(
                f"too many failed logins; wait {t.window_seconds // 60} minutes and try again",
                t.window_seconds,
            )

    def session(self, sid: str) -> Session:
        """The live session of a cookie value, or :class:`Unauthorized`."""
        with self.db.read() as conn:
            row = conn.execute(
                select(users, sessions.c.csrf)
                .join(sessions, sessions.c.user_id == users.c.id)
                .where(
                    and_(
                        sessions.c.session_hash == digest(sid),
                        sessions.c.ended_at.is_(None),
                        sessions.c.expires_at > now_iso(),
                    )
                )
            ).first()
        if row is None or row.disabled:
            raise Unauthorized("not signed in, or the session expired; sign in at /login")
        return Session(_user(row), row.csrf)

    def logout(self, sid: str, actor: Actor) -> None:
        with self.db.write() as conn:
            conn.execute(
                update(sessions)
                .where(sessions.c.session_hash == digest(sid), sessions.c.ended_at.is_(None))
                .values(ended_at=now_iso())
            )
            audit.record(conn, actor, "logout", f"user:{actor.name}")

"""Owner accounts and their API tokens: created, signed in, given a new password, signed out
everywhere, removed; tokens issued, resolved from a request's header, revoked.

The first account turns owner mode on (scorer.access decides what that lets through). Passwords
are hashed with the app's PASSWORD_HASH_METHOD; a token is shown once, and only its digest is kept.
"""

from __future__ import annotations

import secrets
from datetime import timedelta
from functools import cache

from flask import current_app
from flask_babel import gettext as _
from flask_babel import ngettext
from sqlalchemy import select
from werkzeug.security import check_password_hash, generate_password_hash

from ..database import DbSession
from ..field_rules import NAME_MAX_LENGTH, PASSWORD_MIN_LENGTH, USER_NAME
from ..models import ApiToken, User, new_secret, secret_digest, utcnow
from .transactions import in_transaction

# How stale a token's last use may be before a write records it again.
TOKEN_USE_RESOLUTION = timedelta(minutes=1)


def add_user(session: DbSession, name: str, password: str) -> User:
    """Create an account; the first one turns on owner mode."""
    name = " ".join(name.split())
    if problem := USER_NAME.problem(name):
        raise ValueError(problem)
    if len(password) < PASSWORD_MIN_LENGTH:
        raise ValueError(_too_short())
    if session.scalar(select(User).where(User.name == name)):
        raise ValueError(_("There is already a user called %(name)s.", name=name))
    with in_transaction(session):
        user = User(name=name, password_hash=_hash(password))
        session.add(user)
    return user


def authenticate(session: DbSession, name: str, password: str) -> User | None:
    """The user with this name and password, or None."""
    # Made before the lookup, so the first sign-in a process answers is as slow for either kind.
    dummy = _dummy_hash(current_app.config["PASSWORD_HASH_METHOD"])
    user = session.scalar(select(User).where(User.name == " ".join(name.split())))
    if user is None:
        # Check a password all the same, so an unknown name takes as long as a known one and the
        # answer's time does not tell which names have accounts.
        check_password_hash(dummy, password)
        return None
    if not check_password_hash(user.password_hash, password):
        return None
    return user


def set_password(session: DbSession, user: User, password: str) -> None:
    """Give `user` a new password and end every session they have signed in."""
    if len(password) < PASSWORD_MIN_LENGTH:
        raise ValueError(_too_short())
    with in_transaction(session):
        user.password_hash = _hash(password)
        user.session_key = new_secret()


def end_sessions(session: DbSession, user: User) -> None:
    """Sign `user` out everywhere: a session cookie made before, even a copied one, is refused."""
    with in_transaction(session):
        user.session_key = new_secret()


def remove_user(session: DbSession, user: User) -> None:
    """Delete an account with its API tokens; the last one gone turns owner mode off."""
    with in_transaction(session):
        session.delete(user)


def issue_token(session: DbSession, user: User, label: str = "") -> str:
    """A new API token for `user`; it is returned once and only its digest is stored."""
    token = secrets.token_urlsafe(32)
    with in_transaction(session):
        session.add(ApiToken(user=user, digest=secret_digest(token), label=label[:NAME_MAX_LENGTH]))
    return token


def user_for_token(session: DbSession, header: str | None) -> User | None:
    """The user an `Authorization: Bearer <token>` header speaks for, or None.

    A token's last use is written down when the one recorded is over a minute old.
    """
    scheme, _, token = (header or "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    found = session.scalar(select(ApiToken).where(ApiToken.digest == secret_digest(token.strip())))
    if found is None:
        return None
    now = utcnow()
    if found.last_used_at is None or now - found.last_used_at >= TOKEN_USE_RESOLUTION:
        with in_transaction(session):
            found.last_used_at = now
    return found.user


def revoke_token(session: DbSession, token_id: int) -> bool:
    """Delete the API token with this id; whether there was one."""
    token = session.get(ApiToken, token_id)
    if token is None:
        return False
    with in_transaction(session):
        session.delete(token)
    return True


def _too_short() -> str:
    return ngettext(
        "A password needs at least %(num)s character.",
        "A password needs at least %(num)s characters.",
        PASSWORD_MIN_LENGTH,
    )


def _hash(password: str) -> str:
    return generate_password_hash(password, method=current_app.config["PASSWORD_HASH_METHOD"])


@cache
def _dummy_hash(method: str) -> str:
    # Made with the same method and cost as real passwords, so checking it takes as long.
    return generate_password_hash(secrets.token_urlsafe(16), method=method)

"""Who may change scores.

By default (a laptop at home) anyone who can reach the server keeps score. Once an owner account
exists (`scorer users add`), the server is in owner mode: changing anything needs a signed-in user,
or for the API a per-user token; visitors, and anyone with a share link, can only read.
"""

from __future__ import annotations

import hashlib
import secrets

from flask import Flask, Response, g, jsonify, redirect, render_template, request, url_for
from flask_login import current_user
from sqlalchemy import exists, select
from werkzeug.security import check_password_hash, generate_password_hash
from werkzeug.wrappers import Response as BaseResponse

from .database import DbSession
from .extensions import db, limiter, login_manager
from .fragments import wants_fragment
from .limits import NAME_MAX_LENGTH, PASSWORD_MIN_LENGTH, USER_NAME
from .models import ApiToken, User
from .services.transactions import in_transaction

WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
# Signing in is a POST that must stay open, or nobody could ever sign in.
OPEN_ENDPOINTS = frozenset({"auth.login"})
# Pages that exist only to change something: a visitor is sent to sign in before filling them in.
WRITE_PAGES = frozenset(
    {"games.new", "hands.edit", "hands.undo", "leagues.new", "players.merge", "players.rename"}
)


def init_app(app: Flask) -> None:
    login_manager.init_app(app)
    login_manager.login_view = "auth.login"
    login_manager.user_loader(_load_user)
    limiter.init_app(app)
    app.before_request(_guard_writes)
    app.context_processor(lambda: {"can_write": can_write(), "owner_mode": owner_mode()})


def owner_mode() -> bool:
    """Whether an owner account exists, so writes need a signed-in user."""
    if "owner_mode" not in g:
        g.owner_mode = db.session.scalar(select(exists().where(User.id.is_not(None))))
    return g.owner_mode


def can_write() -> bool:
    """Whether the current visitor may change scores."""
    return not owner_mode() or current_user.is_authenticated


def add_user(session: DbSession, name: str, password: str) -> User:
    """Create an account; the first one turns on owner mode."""
    name = " ".join(name.split())
    if problem := USER_NAME.problem(name):
        raise ValueError(problem)
    if len(password) < PASSWORD_MIN_LENGTH:
        raise ValueError(f"A password needs at least {PASSWORD_MIN_LENGTH} characters.")
    if session.scalar(select(User).where(User.name == name)):
        raise ValueError(f"There is already a user called {name}.")
    # Werkzeug's default is scrypt: slow to guess, with a salt per password.
    with in_transaction(session):
        user = User(name=name, password_hash=generate_password_hash(password))
        session.add(user)
    return user


def authenticate(session: DbSession, name: str, password: str) -> User | None:
    """The user with this name and password, or None."""
    user = session.scalar(select(User).where(User.name == " ".join(name.split())))
    if user is None or not check_password_hash(user.password_hash, password):
        return None
    return user


def issue_token(session: DbSession, user: User, label: str = "") -> str:
    """A new API token for `user`; it is returned once and only its digest is stored."""
    token = secrets.token_urlsafe(32)
    with in_transaction(session):
        session.add(ApiToken(user=user, digest=_digest(token), label=label[:NAME_MAX_LENGTH]))
    return token


def user_for_token(session: DbSession, header: str | None) -> User | None:
    """The user an `Authorization: Bearer <token>` header speaks for, or None."""
    scheme, _, token = (header or "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    found = session.scalar(select(ApiToken).where(ApiToken.digest == _digest(token.strip())))
    return found.user if found else None


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _load_user(user_id: str) -> User | None:
    return db.session.get(User, int(user_id)) if user_id.isdigit() else None


def _guard_writes() -> BaseResponse | tuple[str, int] | None:
    if request.routing_exception is not None:
        # No such address, or not with this method: nothing to write, so no sign-in to ask for.
        # Its 404 or 405 answers (in JSON under /api/, see api.errors.routing_error).
        return None
    writes = request.method in WRITE_METHODS or request.endpoint in WRITE_PAGES
    if not writes or request.endpoint in OPEN_ENDPOINTS:
        return None
    if not owner_mode():
        return None
    if request.blueprint == "api":
        if user_for_token(db.session, request.headers.get("Authorization")):
            return None
        response = jsonify(message="Writing needs a token: Authorization: Bearer <token>.")
        response.status_code = 401
        response.headers["WWW-Authenticate"] = 'Bearer realm="uno-scorer"'
        return response
    if current_user.is_authenticated:
        return None
    back = request.path if request.method == "GET" else request.referrer
    login = url_for("auth.login", next=back or url_for("home.index"))
    if wants_fragment():
        response = Response("", 401)
        response.headers["HX-Redirect"] = login
        return response
    if request.method == "POST" and request.path == url_for("auth.logout"):
        return redirect(url_for("home.index"), 303)
    message = "Only signed-in users can change scores on this server."
    return render_template("errors/error.html", message=message, status=401, login=login), 401

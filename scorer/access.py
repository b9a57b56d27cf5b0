"""Who may change scores.

By default (a laptop at home) anyone who can reach the server keeps score. Once an owner account
exists (`scorer users add`), the server is in owner mode: changing anything needs a signed-in user,
or for the API a per-user token; visitors, and anyone with a share link, can only read. A scorer
link, handed out by a signed-in user, lets whoever opens it record the hands of one game and
nothing else, until it is revoked or the game ends.
"""

from __future__ import annotations

import hmac

from flask import (
    Flask,
    Response,
    current_app,
    g,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)
from flask import session as flask_session
from flask_babel import gettext as _
from flask_login import current_user
from sqlalchemy import exists, select
from werkzeug.wrappers import Response as BaseResponse

from .database import DbSession
from .extensions import db, login_manager
from .fragments import wants_fragment
from .models import User, secret_digest
from .services.accounts import user_for_token
from .services.scorer_links import scorer_link_holds

WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
# Signing in is a POST that must stay open, or nobody could ever sign in; choosing the language
# changes no score, and a visitor must be able to read the sign-in page.
OPEN_ENDPOINTS = frozenset({"auth.login", "languages.choices", "languages.choose"})
# Pages that exist only to change something: a visitor is sent to sign in before filling them in.
WRITE_PAGES = frozenset(
    {
        "games.new",
        "games.delete",
        "hands.edit",
        "hands.undo",
        "leagues.new",
        "players.merge",
        "players.rename",
    }
)
# What a scorer link opens: recording, editing, undoing and syncing the hands of its game.
SCORER_ENDPOINTS = frozenset({"hands.create", "hands.edit", "hands.undo", "sync.sync"})
# The session key holding the scorer links this browser opened: game id -> the link's digest.
SCORER_LINKS = "scorer_links"
# A phone at a league night opens one table's link; a few spare places are plenty.
SCORER_LINKS_KEPT = 20
# Answers that show a secret whoever asks: a new scorer link's token, and opening one (its token is
# in the address).
SECRET_ENDPOINTS = frozenset({"games.scorer_link", "games.score", "nights.make_sheet"})
# The header naming, on a signed-in user's pages, whose page it is (see account_mark).
ACCOUNT_HEADER = "X-Account"


def init_app(app: Flask) -> None:
    login_manager.init_app(app)
    login_manager.login_view = "auth.login"
    # No view asks for a fresh login, so the "basic" protection's only effect was to mark each new
    # visitor's session not fresh on their second request and send its cookie again (a first visit's
    # worker script or offline page, 190 bytes). A signed-in session is bound to its account's
    # session key instead (models.User.session_key).
    login_manager.session_protection = None
    login_manager.user_loader(_load_user)
    app.before_request(_guard_writes)
    app.after_request(_keep_private)
    # can_score also holds for whoever opened this game's scorer link: the pad, not the menu.
    app.context_processor(
        lambda: {
            "can_write": can_write(),
            "can_score": can_write() or _may_score_here(),
            "owner_mode": owner_mode(),
        }
    )


def owner_mode() -> bool:
    """Whether an owner account exists, so writes need a signed-in user."""
    if "owner_mode" not in g:
        g.owner_mode = db.session.scalar(select(exists().where(User.id.is_not(None))))
    return g.owner_mode


def can_write() -> bool:
    """Whether the current visitor may change scores."""
    return not owner_mode() or current_user.is_authenticated


def open_scorer_link(session: DbSession, game_id: int, token: str) -> bool:
    """Let this browser score the game if `token` is its live scorer link; whether it is."""
    digest = secret_digest(token)
    if not scorer_link_holds(session, game_id, digest):
        return False
    links = dict(session_links())
    links.pop(str(game_id), None)
    links[str(game_id)] = digest
    # Oldest first, as dicts keep their order: the oldest are let go.
    flask_session[SCORER_LINKS] = dict(list(links.items())[-SCORER_LINKS_KEPT:])
    return True


def session_links() -> dict[str, str]:
    """The scorer links this browser opened: game id (as text) -> the link's digest."""
    links = flask_session.get(SCORER_LINKS)
    return links if isinstance(links, dict) else {}


def may_score(session: DbSession, game_id: int) -> bool:
    """Whether this browser holds a scorer link for the game that still works."""
    digest = session_links().get(str(game_id))
    return isinstance(digest, str) and scorer_link_holds(session, game_id, digest)


def _may_score_here() -> bool:
    """Whether the page being shown is of a game this browser may score through a scorer link."""
    if "may_score_here" not in g:
        game_id = (request.view_args or {}).get("game_id")
        g.may_score_here = (
            isinstance(game_id, int)
            and str(game_id) in session_links()
            and owner_mode()
            and may_score(db.session, game_id)
        )
    return g.may_score_here


def _load_user(session_key: str) -> User | None:
    """The signed-in user, unless their sessions were ended since this one began.

    A cookie from before session keys names a user by id (and a count): it names no key, so it
    is signed out once.
    """
    return db.session.scalar(select(User).where(User.session_key == session_key))


def _keep_private(response: BaseResponse) -> BaseResponse:
    """`Cache-Control: no-store` on what no cache may keep: every page or fragment made for a
    session with rights a visitor lacks (a signed-in user, a scorer link's holder), which shows
    their name and carries the CSRF token that lets them write, and whatever shows a secret.

    A visitor's pages hold what any visitor sees and stay cacheable; so do static files. The
    service worker's copies of pages are its own, kept whatever the header says (see pwa/sw.js).
    """
    if request.endpoint in SECRET_ENDPOINTS or (
        response.mimetype == "text/html" and (current_user.is_authenticated or session_links())
    ):
        response.headers["Cache-Control"] = "no-store"
    if response.mimetype == "text/html" and current_user.is_authenticated:
        # Tells the service worker whose page this is: it drops the copies of any other.
        response.headers[ACCOUNT_HEADER] = account_mark(current_user.session_key)
    return response


def account_mark(session_key: str) -> str:
    """Names a signed-in session to the service worker without giving away its key; a new key
    (a sign-out, a new password) gives a new mark."""
    secret = current_app.config["SECRET_KEY"].encode()
    return hmac.new(secret, b"account:" + session_key.encode(), "sha256").hexdigest()[:24]


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
        response = jsonify(message=_("Writing needs a token: Authorization: Bearer <token>."))
        response.status_code = 401
        response.headers["WWW-Authenticate"] = 'Bearer realm="uno-scorer"'
        return response
    if current_user.is_authenticated:
        return None
    game_id = (request.view_args or {}).get("game_id")
    if (
        request.endpoint in SCORER_ENDPOINTS
        and isinstance(game_id, int)
        and may_score(db.session, game_id)
    ):
        return None
    message = _("Only signed-in users can change scores on this server.")
    if request.blueprint == "sync":
        # The phone's queue reads JSON, as every other answer of the sync endpoint.
        response = jsonify(message=message)
        response.status_code = 401
        return response
    back = request.path if request.method == "GET" else request.referrer
    login = url_for("auth.login", next=back or url_for("home.index"))
    if wants_fragment():
        response = Response("", 401)
        response.headers["HX-Redirect"] = login
        return response
    if request.method == "POST" and request.path == url_for("auth.logout"):
        return redirect(url_for("home.index"), 303)
    return render_template("errors/error.html", message=message, status=401, login=login), 401

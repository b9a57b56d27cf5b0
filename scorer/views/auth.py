"""Signing in and out, for servers with an owner (see scorer.access)."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Blueprint, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_limiter.util import get_remote_address
from flask_login import current_user, login_user, logout_user
from werkzeug.wrappers import Response as BaseResponse

from ..extensions import db, rate_limiter
from ..field_rules import NAME_MAX_LENGTH
from ..forms.auth import LoginForm
from ..services.accounts import authenticate, end_sessions

bp = Blueprint("auth", __name__)


def sign_in_key() -> str:
    """Whom the sign-in limit counts: an address and the user name tried from it.

    Behind a proxy many people share an address, and someone guessing one name must not lock
    everyone else out, the owner least of all.
    """
    name = " ".join(request.form.get("name", "").split()).casefold()
    return f"{get_remote_address()}/{name[: NAME_MAX_LENGTH * 2]}"


@bp.route("/login", methods=["GET", "POST"])
@rate_limiter.limit("10 per minute", methods=["POST"], key_func=sign_in_key)
def login() -> BaseResponse | tuple[str, int]:
    form = LoginForm(next=request.args.get("next", ""))
    if form.validate_on_submit():
        user = authenticate(db.session, form.name.data or "", form.password.data or "")
        if user is not None:
            login_user(user)
            return redirect(local_target(form.next.data), 303)
        form.password.errors = [_("That user name and password do not match.")]
    status = 422 if request.method == "POST" else 200
    return render_template("auth/login.html", form=form), status


@bp.post("/logout")
def logout() -> BaseResponse:
    # Ended on the server too, so a copy of this session's cookie no longer signs anyone in.
    if current_user.is_authenticated:
        end_sessions(db.session, current_user._get_current_object())
    logout_user()
    return redirect(url_for("home.index"), 303)


def local_target(target: str | None) -> str:
    """Only follow `next` within this site, so a link cannot bounce a user elsewhere."""
    parts = urlsplit(target or "")
    # A browser reads "/\\host" as "//host", another site.
    if parts.scheme or parts.netloc or not (target or "").startswith("/") or "\\" in (target or ""):
        return url_for("home.index")
    return target or url_for("home.index")

"""Signing in and out, for servers with an owner (see scorer.access)."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Blueprint, redirect, render_template, request, url_for
from flask_login import login_user, logout_user
from werkzeug.wrappers import Response as BaseResponse

from ..access import authenticate
from ..extensions import db, limiter
from ..forms.auth import LoginForm

bp = Blueprint("auth", __name__)


@bp.route("/login", methods=["GET", "POST"])
@limiter.limit("10 per minute", methods=["POST"])
def login() -> BaseResponse | tuple[str, int]:
    form = LoginForm(next=request.args.get("next", ""))
    if form.validate_on_submit():
        user = authenticate(db.session, form.name.data or "", form.password.data or "")
        if user is not None:
            login_user(user)
            return redirect(_local(form.next.data), 303)
        form.password.errors = ["That user name and password do not match."]
    status = 422 if request.method == "POST" else 200
    return render_template("auth/login.html", form=form), status


@bp.post("/logout")
def logout() -> BaseResponse:
    logout_user()
    return redirect(url_for("home.index"), 303)


def _local(target: str | None) -> str:
    """Only follow `next` within this site, so a link cannot bounce a user elsewhere."""
    parts = urlsplit(target or "")
    if parts.scheme or parts.netloc or not (target or "").startswith("/"):
        return url_for("home.index")
    return target or url_for("home.index")

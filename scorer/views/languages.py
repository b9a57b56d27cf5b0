"""The language page the menu leads to: a plain form post, remembered by the phone and account."""

from __future__ import annotations

from flask import Blueprint, Response, make_response, render_template, request
from flask_babel import gettext as _
from flask_login import current_user

from ..extensions import db
from ..forms.languages import LanguageForm
from ..languages import COOKIE, COOKIE_MAX_AGE

# The sign-in's rule for `next`: a path on this site, else home.
from .auth import local_target
from .htmx import see_other

bp = Blueprint("languages", __name__)


@bp.get("/language")
def choices() -> str:
    """Every language, a button each, back to the page the menu was opened on."""
    return render_template("languages/choose.html", next=local_target(request.args.get("next")))


@bp.post("/language")
def choose() -> Response:
    form = LanguageForm()
    if not form.validate_on_submit():
        problems = [error for errors in form.errors.values() for error in errors]
        message = " ".join(str(problem) for problem in problems) or _("Choose a language.")
        page = render_template(
            "languages/choose.html", message=message, next=local_target(form.next.data)
        )
        return make_response(page, 422)
    language = form.language.data or ""
    if current_user.is_authenticated:
        current_user.language = language
        db.session.commit()
    # The whole page changes language, so htmx too is sent to the page, not given a fragment.
    response = see_other(local_target(form.next.data))
    response.set_cookie(
        COOKIE,
        language,
        max_age=COOKIE_MAX_AGE,
        secure=request.is_secure,
        httponly=True,
        samesite="Lax",
    )
    return response

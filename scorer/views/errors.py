"""Error pages: a service's NotFound is a 404 with its message, never a stack trace."""

from flask import Blueprint, render_template
from flask_babel import gettext as _
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import BadRequest

from ..services.errors import Conflict, NotFound

bp = Blueprint("errors", __name__)


@bp.app_errorhandler(NotFound)
def not_found(error: NotFound) -> tuple[str, int]:
    return render_template("errors/error.html", message=error.message, status=404), 404


@bp.app_errorhandler(Conflict)
def conflict(error: Conflict) -> tuple[str, int]:
    return render_template("errors/error.html", message=error.message, status=409), 409


@bp.app_errorhandler(404)
def page_not_found(_error: Exception) -> tuple[str, int]:
    return render_template(
        "errors/error.html", message=_("There is no such page."), status=404
    ), 404


@bp.app_errorhandler(429)
def too_many_requests(_error: Exception) -> tuple[str, int]:
    message = _("Too many tries. Wait a minute, then try again.")
    return render_template("errors/error.html", message=message, status=429), 429


@bp.app_errorhandler(400)
def bad_request(error: Exception) -> tuple[str, int]:
    message = getattr(error, "description", None)
    if isinstance(error, CSRFError):
        message = _("This form is out of date. Reload the page, then try again.")
    elif not message or message == BadRequest.description:
        # Werkzeug's own words are English only; a description of the app's is translated.
        message = _("That request could not be understood.")
    return render_template("errors/error.html", message=message, status=400), 400

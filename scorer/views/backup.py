"""Backups from the browser: everything as JSON, the hands as CSV, and a restore into an empty
database. Who may use them is who may keep score: anyone without an owner, else signed-in users."""

from __future__ import annotations

from flask import (
    Blueprint,
    Response,
    current_app,
    flash,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _
from werkzeug.exceptions import RequestEntityTooLarge

from .. import access
from ..extensions import csrf, db
from ..forms.backup import RestoreForm
from ..models import utcnow
from ..services import backup
from .htmx import see_other

bp = Blueprint("backup", __name__, url_prefix="/backup")

# A backup grows with every hand, past the app's limit for forms (MAX_CONTENT_LENGTH); a restore
# may send this much instead (BACKUP_MAX_CONTENT_LENGTH overrides it). A restore through a request
# holds the whole file in memory and a worker for its length; a bigger one is for `scorer import`,
# which reads the file in batches on the server.
BACKUP_MAX_BYTES = 32 * 1024 * 1024
IMPORT_COMMAND = "scorer import FILE"


@bp.before_request
def _writers_only() -> tuple[str, int] | None:
    # Posts are already refused by scorer.access; a download gives away every score, so it is
    # kept to the same people.
    if access.can_write():
        return None
    message = _("Only signed-in users can download or restore backups on this server.")
    login = url_for("auth.login", next=request.path)
    return render_template("errors/error.html", message=message, status=401, login=login), 401


@bp.get("/")
def index() -> str:
    return _page(RestoreForm(formdata=None))


@bp.get("/export.json")
def export() -> Response:
    data = backup.export_all(db.session)
    return _download(backup.dumps(data), "application/json", "json")


@bp.get("/hands.csv")
def export_hands() -> Response:
    # With a byte order mark, so a spreadsheet opened by double-click reads names as UTF-8.
    return _download("\ufeff" + backup.hands_csv(db.session), "text/csv", "csv", "-hands")


@bp.post("/import")
@csrf.exempt  # checked below, once the larger limit is set: the app's check reads the body first
def restore() -> tuple[str, int] | Response:
    request.max_content_length = current_app.config.get(
        "BACKUP_MAX_CONTENT_LENGTH", BACKUP_MAX_BYTES
    )
    try:
        if current_app.config.get("WTF_CSRF_ENABLED", True):
            csrf.protect()
        form = RestoreForm()
    except RequestEntityTooLarge:
        form = RestoreForm(formdata=None)
        form.file.errors = [
            _(
                "This file is too big to restore here (at most %(limit)s). Restore it on the "
                "server with the command %(command)s.",
                limit=_limit(),
                command=IMPORT_COMMAND,
            )
        ]
        return _page(form), 413
    if form.validate():
        try:
            restored = backup.import_all(db.session, backup.loads(form.file.data.read()))
        except backup.BackupError as error:
            db.session.rollback()
            form.file.errors.append(_("Nothing was restored. %(reason)s", reason=error.message))
        else:
            flash(_("Restored %(counts)s.", counts=backup.describe(restored)))
            return see_other(url_for("backup.index"))
    return _page(form), 422


def _limit() -> str:
    limit = current_app.config.get("BACKUP_MAX_CONTENT_LENGTH", BACKUP_MAX_BYTES)
    if limit >= 2**20:
        return _("%(size)s MB", size=limit // 2**20)
    return _("%(size)s KB", size=limit // 2**10)


def _page(form: RestoreForm) -> str:
    return render_template(
        "backup/index.html",
        form=form,
        limit=_limit(),
        import_command=IMPORT_COMMAND,
        counts=backup.stored_counts(db.session),
        describe=backup.describe,
    )


def _download(body: str, mimetype: str, extension: str, suffix: str = "") -> Response:
    name = f"uno-scorer-{utcnow():%Y-%m-%d}{suffix}.{extension}"
    response = Response(body, mimetype=mimetype)
    response.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    # Every score there is: not for a shared cache, and always as the database holds it now.
    response.headers["Cache-Control"] = "no-store"
    return response

"""A short rules summary for each mode, to settle an argument at the table."""

from flask import Blueprint, abort, render_template

from ..scoring import Mode

bp = Blueprint("rules", __name__, url_prefix="/rules")


@bp.get("/", defaults={"mode": Mode.STANDARD.value})
@bp.get("/<mode>")
def show(mode: str) -> str:
    if mode not in tuple(Mode):
        abort(404)
    return render_template("rules/show.html", mode=Mode(mode), modes=tuple(Mode))

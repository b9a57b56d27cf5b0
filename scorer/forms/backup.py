"""Restoring a backup from a file."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired


class RestoreForm(FlaskForm):
    file = FileField(
        _l("Backup file"),
        validators=[FileRequired(_l("Choose a backup file (.json) made by this scorer."))],
    )

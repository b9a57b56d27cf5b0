"""Restoring a backup from a file."""

from __future__ import annotations

from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired


class RestoreForm(FlaskForm):
    file = FileField(
        "Backup file",
        validators=[FileRequired("Choose a backup file (.json) made by this scorer.")],
    )

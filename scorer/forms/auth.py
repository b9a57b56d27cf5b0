"""Signing in."""

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import HiddenField, PasswordField, StringField
from wtforms.validators import InputRequired, Length

from ..field_rules import NAME_MAX_LENGTH, PASSWORD_MAX_LENGTH


class LoginForm(FlaskForm):
    name = StringField(
        _l("User name"),
        validators=[InputRequired(_l("Type your user name.")), Length(max=NAME_MAX_LENGTH)],
    )
    password = PasswordField(
        _l("Password"),
        validators=[InputRequired(_l("Type your password.")), Length(max=PASSWORD_MAX_LENGTH)],
    )
    next = HiddenField()

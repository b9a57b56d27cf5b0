"""Extensions created unbound; the app factory binds them with init_app."""

from pathlib import Path

from flask_compress import Compress
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_login import LoginManager
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf import CSRFProtect
from sqlalchemy import MetaData
from sqlalchemy.orm import DeclarativeBase


class Base(DeclarativeBase):
    # Stable constraint names, so Alembic can find and alter constraints on every database.
    metadata = MetaData(
        naming_convention={
            "ix": "ix_%(column_0_label)s",
            "uq": "uq_%(table_name)s_%(column_0_N_name)s",
            "ck": "ck_%(table_name)s_%(constraint_name)s",
            "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
            "pk": "pk_%(table_name)s",
        }
    )


db = SQLAlchemy(model_class=Base)
# render_as_batch: SQLite can only alter a table by copying it, which batch mode does for us.
migrate = Migrate(directory=str(Path(__file__).parent / "migrations"), render_as_batch=True)
csrf = CSRFProtect()
compress = Compress()
login_manager = LoginManager()
# Counted per server process; enough to slow down password guessing on a small server.
limiter = Limiter(get_remote_address, storage_uri="memory://", default_limits=[])

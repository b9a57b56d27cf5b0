"""Extensions created unbound; the app factory binds them with init_app."""

from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from flask_compress import Compress
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_login import LoginManager
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf import CSRFProtect
from sqlalchemy import MetaData, Table
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

    if TYPE_CHECKING:
        # Every model names its table, so it is mapped to a Table (SQLAlchemy types __table__ as
        # any FromClause); the services insert into and update some tables directly.
        __table__: ClassVar[Table]


# Record a hand in under 10 ms, BENCHMARKS.md Latency: a save answers from the objects it just
# committed, not loaded again. A change reads its game under its lock (services.hands), never stale.
db = SQLAlchemy(model_class=Base, session_options={"expire_on_commit": False})

# The models' base class. db.Model is made at run time from Base's bases and Flask-SQLAlchemy's
# mixins, and mypy cannot take a base class from an attribute (python/mypy#8603), so for the checker
# Base stands in: it declares every column and relationship the models use.
if TYPE_CHECKING:
    Model = Base
else:
    Model = db.Model
# render_as_batch: SQLite can only alter a table by copying it, which batch mode does for us.
migrate = Migrate(directory=str(Path(__file__).parent / "migrations"), render_as_batch=True)
csrf = CSRFProtect()
compress = Compress()
login_manager = LoginManager()
# Where the counts are kept is the app's RATELIMIT_STORAGE_URI (scorer.rate_limits.configure):
# memory, counted per process, unless a store all processes share is set, such as Redis.
rate_limiter = Limiter(get_remote_address, default_limits=[])

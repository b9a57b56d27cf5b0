"""Rate limits (Flask-Limiter's `rate_limiter`, in scorer.extensions): where they are counted.

The sign-in form is limited per address and name (views/auth.py). The counts are kept in memory,
per process, unless RATELIMIT_STORAGE_URI names a store every server process shares, such as Redis.
"""

from __future__ import annotations

import os

from flask import Flask

from .extensions import rate_limiter

# Settings read from the environment when instance/config.py does not give them (Flask-Limiter's).
ENVIRONMENT_SETTINGS = ("RATELIMIT_STORAGE_URI", "RATELIMIT_KEY_PREFIX")


def init_app(app: Flask) -> None:
    configure(app)
    rate_limiter.init_app(app)


def configure(app: Flask) -> None:
    """Where the rate limits are counted: memory, or a store every server process shares."""
    for name in ENVIRONMENT_SETTINGS:
        if name not in app.config and os.environ.get(name):
            app.config[name] = os.environ[name]
    # In memory, each process counts for itself: enough for one process, too little for several.
    app.config.setdefault("RATELIMIT_STORAGE_URI", "memory://")
    # If the shared store stops answering, count in memory rather than refuse every sign-in.
    app.config.setdefault("RATELIMIT_IN_MEMORY_FALLBACK_ENABLED", True)

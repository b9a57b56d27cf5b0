"""deploy/: the systemd unit and the Caddyfile agree with each other and with the app."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"


def unit_sections() -> dict[str, dict[str, list[str]]]:
    """The unit's settings by section, each a list: systemd lets a key repeat (Environment=)."""
    sections: dict[str, dict[str, list[str]]] = {}
    current: dict[str, list[str]] = {}
    for line in (DEPLOY / "scorer.service").read_text().splitlines():
        if line.startswith("[") and line.endswith("]"):
            current = sections.setdefault(line[1:-1], {})
        elif line and not line.startswith("#"):
            key, value = line.split("=", 1)
            current.setdefault(key, []).append(value)
    return sections


@pytest.fixture(scope="module")
def service() -> dict[str, str]:
    """The [Service] settings, each key's last value."""
    return {key: values[-1] for key, values in unit_sections()["Service"].items()}


@pytest.fixture(scope="module")
def environment() -> dict[str, str]:
    return dict(value.split("=", 1) for value in unit_sections()["Service"]["Environment"])


def caddy_site() -> tuple[str, str]:
    """The Caddyfile's default domain and upstream."""
    text = (DEPLOY / "Caddyfile").read_text()
    domain = re.search(r"^\{\$SCORER_DOMAIN:([^}]+)\} \{$", text, re.MULTILINE)
    upstream = re.search(r"reverse_proxy \{\$SCORER_UPSTREAM:([^}]+)\}", text)
    assert domain and upstream
    return domain.group(1), upstream.group(1)


def test_the_service_serves_where_caddy_sends_and_trusts_one_proxy(service, environment):
    domain, upstream = caddy_site()
    command = shlex.split(service["ExecStart"])
    assert command[0].endswith("/scorer") and command[1] == "serve"
    host = command[command.index("--host") + 1]
    port = command[command.index("--port") + 1]
    assert f"{host}:{port}" == upstream == "127.0.0.1:8000"
    assert environment["TRUSTED_PROXY_HOPS"] == "1"
    assert environment["TRUSTED_HOSTS"] == domain
    assert environment["DATABASE_URL"].startswith("postgresql://")


def test_the_service_runs_as_its_own_user_restarts_and_is_sandboxed(service, environment):
    assert service["User"] not in ("root", "0")
    assert service["Restart"] == "on-failure"
    assert service["NoNewPrivileges"] == "yes"
    assert service["ProtectSystem"] == "strict"
    assert service["ProtectHome"] == "yes"
    assert environment["SCORER_INSTANCE_PATH"] == f"/var/lib/{service['StateDirectory']}"

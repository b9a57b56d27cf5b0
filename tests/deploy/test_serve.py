"""`scorer serve` itself: what it prints, a port already in use, and the same proxy handling
whether waitress (one process) or gunicorn (several) serves."""

from __future__ import annotations

import socket
import urllib.request

import pytest

FROM_PROXY = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "scores.example"}


def fetch(url: str, headers: dict[str, str]):
    with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=10) as r:
        return r.headers, r.read().decode()


@pytest.mark.parametrize("processes", ["1", "2"])
def test_a_port_in_use_is_a_one_line_error(scorer_server, processes):
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        result = scorer_server(("--processes", processes)).run_on(port)
    assert result.returncode != 0
    assert "Traceback" not in result.stdout + result.stderr
    assert "Open this" not in result.stdout
    errors = [line for line in result.stderr.splitlines() if not line.startswith("INFO ")]
    assert len(errors) == 1, result.stderr
    assert errors[0].startswith("Error: ")
    assert f"Port {port} is in use" in errors[0]


def test_serve_prints_the_local_address_and_how_to_stop(scorer_server):
    server = scorer_server()
    server.start()
    lines = server.output().splitlines()
    assert f"Open this on this computer: http://localhost:{server.port}/" in lines
    assert "Press Ctrl+C to stop." in lines
    # Bound to 127.0.0.1, no phone can reach it, so no address is offered for one.
    assert not [line for line in lines if "on a phone" in line]


@pytest.mark.parametrize("processes", ["1", "2"])
def test_forwarded_headers_count_only_with_trusted_hops_under_either_server(
    scorer_server, processes
):
    options = ("--processes", processes, "--threads", "2")
    direct = scorer_server(options)
    proxied = scorer_server(options, TRUSTED_PROXY_HOPS="1")
    direct.start()
    proxied.start()

    headers, _ = fetch(f"{direct.url}/games/new", FROM_PROXY)
    assert "Strict-Transport-Security" not in headers
    assert "Secure" not in headers["Set-Cookie"]

    headers, _ = fetch(f"{proxied.url}/games/new", FROM_PROXY)
    assert "Strict-Transport-Security" in headers
    assert "; Secure" in headers["Set-Cookie"]

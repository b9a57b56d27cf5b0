"""The app installed as a Python package: `pip wheel .`, installed into a virtualenv of its own,
serves a game page with the repository's templates, stylesheet and script.

The wheel is built from a copy of the sources, so the build leaves nothing in the repository. The
new virtualenv has no pip and no dependencies of its own: a .pth file puts this test run's
site-packages after its own, so it borrows both (the editable install's finder there is not
loaded: only a site folder's own .pth files are). The installed copy comes first on its path, and
the server runs outside the repository, so it is the wheel's files that are served.
"""

from __future__ import annotations

import json
import shutil
import site
import subprocess
import sys
import urllib.request
import zipfile
from pathlib import Path

import pytest
from document import parse

from scorer import create_app

ROOT = Path(__file__).resolve().parents[2]
# What the wheel is built from, as an sdist would carry it.
SOURCES = ("pyproject.toml", "README.md", "scorer", "templates", "static")
# The repository's folders of run-time files and where the wheel puts them.
SHIPPED = {"scorer": "scorer", "templates": "scorer/templates", "static": "scorer/static"}


def run(*command: str | Path, cwd: Path) -> str:
    result = subprocess.run(
        [str(part) for part in command], cwd=cwd, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, f"{command}:\n{result.stdout}\n{result.stderr}"
    return result.stdout


def repository_files() -> set[str]:
    """Every file the app may read as it runs, by the name it has inside the wheel."""
    names = set()
    for folder, inside in SHIPPED.items():
        for path in (ROOT / folder).rglob("*"):
            if path.is_file() and "__pycache__" not in path.parts:
                names.add(f"{inside}/{path.relative_to(ROOT / folder).as_posix()}")
    return names


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """`pip wheel` of the project, built from a copy of its sources."""
    work = tmp_path_factory.mktemp("wheel")
    sources = work / "sources"
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(
                ROOT / name, sources / name, ignore=shutil.ignore_patterns("__pycache__")
            )
        else:
            sources.mkdir(exist_ok=True)
            shutil.copy(ROOT / name, sources / name)
    wheel = ["-m", "pip", "wheel", "--no-deps", "-q", "--wheel-dir", work / "dist", sources]
    run(sys.executable, *wheel, cwd=work)
    (built,) = (work / "dist").glob("scorer-*.whl")
    return built


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory) -> Path:
    """A new virtualenv with the wheel installed; its folder."""
    venv = tmp_path_factory.mktemp("venv")
    run(sys.executable, "-m", "venv", "--without-pip", venv, cwd=venv)
    python = venv / "bin" / "python"
    where = "import sysconfig; print(sysconfig.get_path('purelib'))"
    purelib = Path(run(python, "-c", where, cwd=venv).strip())
    borrowed = dict.fromkeys(site.getsitepackages())
    (purelib / "borrowed-site-packages.pth").write_text("\n".join(borrowed) + "\n")
    # --ignore-installed: the editable install's record in the borrowed site-packages names the
    # same version, which pip would otherwise take as installed already.
    install = ["-m", "pip", "install", "-q", "--no-deps", "--no-index", "--ignore-installed"]
    run(python, *install, "--no-compile", wheel, cwd=venv)
    return venv


@pytest.fixture
def installed_server(installed: Path, scorer_server, tmp_path: Path):
    """`scorer serve` from the virtualenv on a new SQLite file, with the default instance folder."""
    server = scorer_server(
        executable=installed / "bin" / "scorer", DATABASE_URL=f"sqlite:///{tmp_path}/new.sqlite"
    )
    # The installed app's own default: it must not be the repository's instance/ folder.
    del server.env["SCORER_INSTANCE_PATH"]
    server.start()
    return server


def test_the_wheel_holds_the_code_templates_static_files_and_migrations(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    missing = repository_files() - names
    assert not missing
    assert {"scorer/templates/base.html", "scorer/static/css/app.css"} <= names
    assert "scorer/migrations/alembic.ini" in names
    assert not [name for name in names if name.startswith(("templates/", "static/", "tests/"))]


def test_the_installed_package_is_the_one_imported(installed):
    python = installed / "bin" / "python"
    found = run(python, "-c", "import scorer; print(scorer.__file__)", cwd=installed).strip()
    assert Path(found).is_relative_to(installed)


def fetch(url: str, body: dict | None = None) -> tuple[int, bytes]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.status, response.read()


def test_an_installed_scorer_serves_a_game_page_with_the_repository_s_files(
    installed, installed_server, tmp_path
):
    status, body = fetch(
        f"{installed_server.url}/api/v1/games", {"mode": "standard", "players": ["Ann", "Bob"]}
    )
    assert status == 201
    game_id = json.loads(body)["id"]

    status, body = fetch(f"{installed_server.url}/games/{game_id}")
    assert status == 200
    page = parse(body.decode())
    assert "Ann" in page.text and "Bob" in page.text
    linked = [link["href"] for link in page.find_all("link", rel="stylesheet")]
    linked += [script["src"] for script in page.find_all("script") if script.get("src")]
    assert any("/css/app.css" in url for url in linked)
    assert any("/js/app.js" in url for url in linked)

    # The same files as this repository's app serves, at the same versioned addresses.
    repository = create_app(
        {"SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path}/unused.sqlite"}
    ).test_client()
    for url in linked:
        status, served = fetch(f"{installed_server.url}{url}")
        with repository.get(url) as expected:
            assert status == expected.status_code == 200, url
            assert served == expected.data, url
            assert expected.headers["Cache-Control"].startswith("public"), f"{url} is not current"

    # Its secret key went to the virtualenv's instance folder, not the repository's or
    # site-packages.
    assert (installed / "var" / "scorer-instance" / "secret_key").is_file()

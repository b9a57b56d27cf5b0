"""What each layer of the game page adds to a reopen, against Chromium's floor: the page taken
apart into static pages, each reopened exactly as the floor is, in alternating rounds beside the
floor and the game itself.

The game page, its stylesheet and its scripts are fetched once from `scorer serve` (a game of 4
players and a few hands, as in reopen_floor.py). From them, each part below is a folder served
like the floor (`benchmarks/floor/`): its page at "/", and the floor's own worker, which keeps
the page, and here its files too, when installed and answers from that copy first. So a part differs
from the floor only in what the page is, and from the next part only in the layer it adds:

- pad: the pad's markup alone (the form "Record hand N", its keys and a row per player), with
  no stylesheet and no script but a few lines that answer the tap as the game does (the summary
  names who went out);
- pad+style: the same with the game page's stylesheet;
- screen+style: the page's first screen (top bar, scoreboard, pad) with the stylesheet;
- page: the whole page as the server sent it, stylesheet and scripts (htmx, app.js) included;
- copy: the same page as the app's worker serves its copy (marked as one), whose script then asks
  for the fresh page and puts it in place; the fresh page is the game one hand further on (another
  phone recorded it), fetched over the throttled network from the part's server;
- game: the game page itself, reopened from the app's own worker and server, which answer the
  copy and the fresh page (reopen_floor.py's game).

Every part, the floor and the game included, rests the same time before its reopen (`--rest`,
as in reopen_floor.py): a part reopened at once would be helped by what the browser still holds
from its visits, and the game, which waits for another phone's hand first, would not. Every part
is tapped and timed as reopen_floor.py does (the first "Who went out?" chip, answered when its
radio is checked and the summary names the player). It prints each part's median, its paired
difference with the floor, and each layer's: the paired difference with the part before.

    .venv/bin/python benchmarks/reopen_parts.py [--pairs 12] [--only pad pad+style ...] [--rest 5]

The floor + 0.15 s budget is reopen_floor.py's; this script says where a page stands against it.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import re
import statistics
import sys
import urllib.request
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bare_chromium import BareChromium  # noqa: E402
from page_weight import CountingProxy  # noqa: E402
from reopen_floor import FLOOR, REST_S, Page, floor_site, game_page, locate, reopen  # noqa: E402
from reopen_pairs import side  # noqa: E402
from support import median_interval, print_machine, scratch_folder  # noqa: E402

PARTS = ("pad", "pad+style", "screen+style", "page", "copy", "game")
# The floor's own worker, but keeping the part's files as well as its page: a part differs from
# the floor only in what it serves.
FLOOR_KEEPS = 'cache.add("/")'
FLOOR_WORKER = (FLOOR / "sw.js").read_text()
assert FLOOR_KEEPS in FLOOR_WORKER, "the floor's worker no longer keeps its page as expected"
# The copy's worker is the floor's, but the request for the fresh page (the app's script marks it
# with this header) goes to the network, for the page one hand further on.
FLOOR_FETCHES = 'self.addEventListener("fetch", (event) => {'
assert FLOOR_FETCHES in FLOOR_WORKER, "the floor's worker no longer answers requests as expected"
FRESH_PAGE = "fresh.html"
ASKS_FRESH = (
    FLOOR_FETCHES
    + '\n  if (event.request.headers.get("X-Fresh-Copy")) {'
    + f'\n    event.respondWith(fetch("/{FRESH_PAGE}"));\n    return;\n  }}'
)
# In the head of a page without the app's script: answers a chip as the pad does, once the
# summary is parsed (a tap may come before it), and installs the part's worker.
ANSWER = """<script>
const answer = () => {
  const chosen = document.querySelector("#hand-form input[name=went_out]:checked");
  const summary = document.querySelector("#hand-form [data-summary]");
  if (!chosen || !summary) return;
  summary.textContent = chosen.closest("label").textContent.trim() + " went out";
};
document.addEventListener("change", answer);
document.addEventListener("DOMContentLoaded", answer);
navigator.serviceWorker.register("/sw.js");
</script>"""
# The page's stylesheets and scripts, by their versioned URLs; in a part, each is a file of the
# part's folder, by its name.
ASSET = re.compile(r"/static/(?:[\w.-]+/)*([\w.-]+\.(?:css|js))\?v=\w+")
STYLESHEETS = re.compile(r'<link rel="stylesheet"[^>]*>')
SCRIPTS = re.compile(r"<script src=[^>]*></script>")


def fetched(url: str) -> str:
    with urllib.request.urlopen(url) as response:
        return response.read().decode()


def between(html: str, start: str, end: str) -> str:
    """From the first `start` up to (not including) the first `end` after it."""
    begin = html.index(start)
    return html[begin : html.index(end, begin)]


def write_part(folder: Path, html: str, files: dict[str, str], fresh: str | None = None) -> Path:
    """A folder the floor's server can serve: the page, its files by name, and the worker; with
    `fresh`, the page the worker fetches when asked for the fresh one."""
    folder.mkdir()
    (folder / "index.html").write_text(html)
    for name, text in files.items():
        (folder / name).write_text(text)
    kept = json.dumps(["/", *(f"/{name}" for name in files)])
    worker = FLOOR_WORKER.replace(FLOOR_KEEPS, f"cache.addAll({kept})")
    if fresh is not None:
        (folder / FRESH_PAGE).write_text(fresh)
        worker = worker.replace(FLOOR_FETCHES, ASKS_FRESH)
    (folder / "sw.js").write_text(worker)
    return folder


def as_copy(html: str, seen: str = "20:41") -> str:
    """The page as the app's worker serves its copy (templates/pwa/sw.js, `marked`): the time it
    was seen on <html data-copy-of>, and in the copy's mark."""
    marked = html.replace("<html ", f'<html data-copy-of="{seen}" ', 1)
    marked, filled = re.subn(
        r'(id="copy-mark"[^>]*>[^<{]*)\{seen\}', rf"\g<1>{seen}", marked, count=1
    )
    # The worker's marking is mimicked here, not called: a page it no longer fits is refused.
    assert "<html " in html and filled == 1, "the copy mark is no longer as the worker fills it"
    return marked


def build_parts(
    origin: str, path: str, into: Path, record_hand: Callable[[], int]
) -> dict[str, Path]:
    """The static parts, from the game page as the server sends it to a first visit, and as it
    is once another phone has recorded a hand (the copy's fresh page)."""
    html = fetched(origin + path)
    record_hand()
    fresh = ASSET.sub(r"/\1", fetched(origin + path))
    files = {match.group(1): fetched(origin + match.group(0)) for match in ASSET.finditer(html)}
    stylesheets = {name: text for name, text in files.items() if name.endswith(".css")}
    local = ASSET.sub(r"/\1", html)
    head = between(local, "<!doctype html>", "</head>")
    bare_head = STYLESHEETS.sub("", SCRIPTS.sub("", head)) + ANSWER + "</head>"
    styled_head = SCRIPTS.sub("", head) + ANSWER + "</head>"
    pad = between(local, '<div id="play"', '<section id="history"')
    screen = between(local, "<body", '<section id="history"')
    end = "</main></body></html>"
    return {
        "pad": write_part(into / "pad", f"{bare_head}<body><main>{pad}{end}", {}),
        "pad+style": write_part(
            into / "pad+style", f"{styled_head}<body><main>{pad}{end}", stylesheets
        ),
        # The first screen leaves the game's <div> open where the history would begin.
        "screen+style": write_part(
            into / "screen+style", f"{styled_head}{screen}</div>{end}", stylesheets
        ),
        "page": write_part(into / "page", local, files),
        "copy": write_part(into / "copy", as_copy(local), files, fresh),
    }


def static_page(name: str) -> Callable[[CountingProxy], Page]:
    """A part's page, tapped and answered as the game's."""

    def page(proxy: CountingProxy) -> Page:
        return game_page(name, proxy, "/", None)

    return page


def paired(ours: list[dict], theirs: list[dict]) -> str:
    differences = [a["answered"] - b["answered"] for a, b in zip(ours, theirs, strict=True)]
    low, high = median_interval(differences)
    return f"{statistics.median(differences):+5.0f} ({low:+.0f} to {high:+.0f})"


def report(results: dict[str, list[dict]]) -> None:
    """Each side's median; each part's paired difference with the floor and, from the second
    part on, with the part before it: what its layer adds."""
    print("\nA reopen to a tap answered, ms from navigation start (medians, 95% intervals):")
    names = list(results)
    for index, name in enumerate(names):
        answered = [notes["answered"] for notes in results[name]]
        low, high = median_interval(answered)
        line = f"  {name:<13} {statistics.median(answered):6.0f} ({low:.0f}-{high:.0f})"
        if index:
            line += f"   - floor: {paired(results[name], results[names[0]])}"
        if index > 1:
            before = names[index - 1]
            line += f"   - {before}: {paired(results[name], results[before])}"
        print(line)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=12)
    parser.add_argument("--only", nargs="+", choices=PARTS, default=list(PARTS))
    parser.add_argument(
        "--rest",
        type=float,
        default=REST_S,
        help="seconds between the last visit and the reopen, for every part (reopen_floor.py)",
    )
    args = parser.parse_args()
    print_machine()
    with contextlib.ExitStack() as stack:
        proxy, path, record_hand = stack.enter_context(
            side(stack.enter_context(scratch_folder("parts-")), None)
        )
        folders = build_parts(
            f"http://127.0.0.1:{proxy.port}",
            path,
            stack.enter_context(scratch_folder("static-")),
            record_hand,
        )
        pages = [stack.enter_context(floor_site())]
        for name in PARTS:
            if name not in args.only:
                continue
            if name == "game":
                pages.append(game_page("game", proxy, path, record_hand))
            else:
                pages.append(stack.enter_context(floor_site(folders[name], static_page(name))))
        chromium = stack.enter_context(BareChromium())
        for page in pages:
            locate(chromium, page)
        results: dict[str, list[dict]] = {page.name: [] for page in pages}
        for round_ in range(args.pairs):
            shift = round_ % len(pages)
            for page in pages[shift:] + pages[:shift]:
                results[page.name].append(reopen(chromium, page, "devtools", rest_s=args.rest))
            line = "  ".join(
                f"{name} {notes[-1]['answered']:.0f}" for name, notes in results.items()
            )
            print(f"round {round_ + 1:3d}: {line}", flush=True)
    report(results)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""One screen checked in both colour schemes, as it stands, without reloading it."""

from __future__ import annotations

from collections.abc import Iterator

from axe_playwright_python.base import AxeResults
from axe_playwright_python.sync_playwright import DEFAULT_OPTIONS, Axe
from playwright.sync_api import Page


class AxeOncePerDocument(Axe):
    """axe-core, sent into a document only when it is not there yet.

    Its script is 570 KB: sent and compiled again for every run, it cost a third of each check
    (0.13 of 0.38 s of CPU), and a screen is checked twice, light and dark. A page that navigated
    is a new document without it, so it is sent again.
    """

    def run(self, page, context=None, options=DEFAULT_OPTIONS):
        if not page.evaluate("typeof window.axe?.run === 'function'"):
            page.evaluate(self.axe_script)
        command = f"axe.run({self._format_script_args(context=context, options=options)})"
        return AxeResults(page.evaluate(command))


AXE = AxeOncePerDocument()
# What a colour scheme changes on a screen is its colours: in dark, after the whole check in light
# on the same screen, only the rules that read colours run (a fifth of the whole check's CPU).
COLOUR_RULES = {
    **DEFAULT_OPTIONS,
    "runOnly": {"type": "rule", "values": ["color-contrast", "link-in-text-block"]},
}


def axe_in(page: Page, scheme: str) -> AxeResults:
    """axe's findings on the screen as it stands in `scheme` (each_scheme's): every rule in light,
    the colours' rules in dark."""
    return AXE.run(page, options=DEFAULT_OPTIONS if scheme == "light" else COLOUR_RULES)


def each_scheme(page: Page) -> Iterator[str]:
    """Shows the page in light, then in dark, yielding each; leaves it light, as phones open."""
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        dark = page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches")
        assert dark == (scheme == "dark"), f"the page did not switch to {scheme}"
        yield scheme
    page.emulate_media(color_scheme="light")


def assert_axe_finds_nothing(page: Page) -> None:
    """axe finds no violation on the page as it stands, in light and in dark."""
    for scheme in each_scheme(page):
        results = axe_in(page, scheme)
        assert not results.violations_count, f"{scheme}:\n{results.generate_report()}"

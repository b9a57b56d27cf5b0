"""One screen checked in both colour schemes, as it stands, without reloading it."""

from __future__ import annotations

from collections.abc import Iterator

from playwright.sync_api import Page


def each_scheme(page: Page) -> Iterator[str]:
    """Shows the page in light, then in dark, yielding each; leaves it light, as phones open."""
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        dark = page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches")
        assert dark == (scheme == "dark"), f"the page did not switch to {scheme}"
        yield scheme
    page.emulate_media(color_scheme="light")

"""How often the browser tests' phones ask whether a game moved on, and a phone asked at once.

The live app polls every second, not every three, so a test that waits for a poll waits a third as
long; a test that need not wait at all installs the phone's clock (Playwright's `clock`) before
the page loads and runs it on to the next poll.
"""

from __future__ import annotations

from playwright.sync_api import Page

LIVE_POLL_SECONDS = 1
POLL_MS = LIVE_POLL_SECONDS * 1000


def poll_now(page: Page) -> None:
    """Runs the phone's clock on to its next poll, which it then sends at once."""
    page.clock.fast_forward(POLL_MS)

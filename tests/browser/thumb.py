"""A thumb that never scrolls: it taps only what is already in view and on top.

Playwright's own tap scrolls an element into view first (even one held in place on the screen by
position: sticky), so a test built on it cannot tell a screen that fits from one that does not.
This taps the middle of the element on the touchscreen, after checking that the element is inside
the viewport and not covered (by the docked keypad, say), and that the page has not moved.
"""

from __future__ import annotations

import re

from playwright.sync_api import Locator, Page, expect

# The element's box, and whether its middle is the topmost thing there.
REACHABLE = """(element) => {
  const box = element.getBoundingClientRect();
  const x = box.left + box.width / 2, y = box.top + box.height / 2;
  const hit = document.elementFromPoint(x, y);
  return {
    top: box.top, bottom: box.bottom, left: box.left, right: box.right, x: x, y: y,
    width: innerWidth, height: innerHeight, scrollY: scrollY,
    onTop: !!hit && (hit === element || element.contains(hit)
                     || (element.tagName === "INPUT" && hit === element.closest("label"))),
  };
}"""


class ThumbTaps:
    """Taps like a thumb that never scrolls, and counts every tap."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.count = 0
        self.scroll_y = page.evaluate("scrollY")

    def reachable(self, locator: Locator) -> dict:
        """Where `locator` is; fails unless it can be tapped where it is, without scrolling."""
        locator.wait_for()
        box = locator.evaluate(REACHABLE)
        assert box["scrollY"] == self.scroll_y, f"the page scrolled to {box['scrollY']}"
        assert box["top"] >= 0 and box["bottom"] <= box["height"], f"out of view: {box}"
        assert box["left"] >= 0 and box["right"] <= box["width"], f"out of view: {box}"
        assert box["onTop"], f"covered by something else: {box}"
        return box

    def __call__(self, locator: Locator) -> None:
        box = self.reachable(locator)
        self.page.touchscreen.tap(box["x"], box["y"])
        self.count += 1


def reference_hand(
    page: Page, taps: ThumbTaps, summary: str | re.Pattern[str] = "Ann scores 101"
) -> None:
    """Ann went out; Bob holds a 3 and a Skip, Cat a Wild and a Draw Two, Dan an 8.

    `summary` is what the pad says before Save, in the page's language.
    """
    pad = page.locator("#hand-form")

    def key(card: str) -> Locator:
        return pad.locator(f'.keys [data-card="{card}"]')

    taps(pad.locator(".went-out .chip", has_text="Ann"))
    taps(key("3"))
    taps(key("20"))
    taps(pad.locator('.tally[data-name="Cat"] .tally-pick'))
    taps(key("50"))
    taps(key("20"))
    taps(pad.locator('.tally[data-name="Dan"] .tally-pick'))
    taps(key("8"))
    expect(pad.locator("[data-summary]")).to_have_text(summary)
    # By its value, not its name: the same button in every language.
    taps(pad.locator("button[value=save]"))


class ScrollingThumb(ThumbTaps):
    """A thumb on a phone too small for the whole pad: where what it must tap is out of view or
    under the keys, it scrolls it to the middle of the screen first, and counts each scroll."""

    def __init__(self, page: Page) -> None:
        super().__init__(page)
        self.scrolls = 0

    def __call__(self, locator: Locator) -> None:
        locator.wait_for()
        # The page may bring a row into view itself: only the thumb's own scrolls are counted.
        self.scroll_y = self.page.evaluate("scrollY")
        try:
            self.reachable(locator)
        except AssertionError:
            locator.evaluate("(element) => element.scrollIntoView({block: 'center'})")
            self.scrolls += 1
            self.scroll_y = self.page.evaluate("scrollY")
        super().__call__(locator)

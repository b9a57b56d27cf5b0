"""Controls a thumb can hit: each at least 44x44 CSS px, and none sticking out of its panel."""

from __future__ import annotations

from playwright.sync_api import Page

MIN_TARGET = 44  # CSS px, WCAG 2.5.5 and Apple's guideline
# Controls too small for a thumb, or sticking out of their panel. An input wrapped in a label (a
# radio chip, a mode choice) is tapped through its label.
OFFENDERS = """(min) => {
  const box = (element) => element.getBoundingClientRect();
  const small = (rect) => rect.width < min || rect.height < min;
  const found = [];
  for (const element of document.querySelectorAll("button, a, input, label.chip")) {
    if (element.type === "hidden") continue;
    if (!element.checkVisibility({ visibilityProperty: true, opacityProperty: false })) continue;
    let rect = box(element);
    const label = element.tagName === "INPUT" && element.closest("label");
    if (small(rect) && label) rect = box(label);
    const panel = element.closest(".panel");
    const edges = panel && box(panel);
    const outside = panel && (rect.left < edges.left - 0.5 || rect.right > edges.right + 0.5);
    if (!small(rect) && !outside) continue;
    const name = element.getAttribute("aria-label") || element.innerText || element.value
      || element.name || element.outerHTML.slice(0, 60);
    const size = `${Math.round(rect.width)}x${Math.round(rect.height)}`;
    const what = outside ? "sticks out of its panel" : `is under ${min}x${min}`;
    found.push(`${element.tagName.toLowerCase()} "${name.trim()}" ${size} ${what}`);
  }
  return found;
}"""


def offenders(page: Page) -> list[str]:
    """Each visible control on the page as it stands that is too small or sticks out, described."""
    return page.evaluate(OFFENDERS, MIN_TARGET)

"""Reading a response's HTML as a browser builds it, for view tests.

lxml (libxml2's HTML parser: implied end tags closed as a browser closes them) builds a
BeautifulSoup tree; `select` and `select_one` take CSS selectors (soupsieve). lxml, not html5lib:
html5lib follows the standard to the letter but takes about three times as long on a game page
(some 20 ms), and view tests parse hundreds of pages.

The elements also answer the questions view tests ask most, in a few words: the element with an
id, the value an input will post, the text a reader hears, and `find`/`find_all` by tag and
attributes, which are CSS attribute selectors underneath.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from bs4 import BeautifulSoup, Tag
from soupsieve import escape
from werkzeug.test import TestResponse

HTMX = {"HX-Request": "true"}
DOCUMENT = re.compile(r"\s*(<!doctype|<html)", re.IGNORECASE)


class Element(Tag):
    """An element of a parsed page; attribute values are plain strings, `class` included."""

    @property
    def tag(self) -> str:
        return self.name

    @property
    def text(self) -> str:
        """Text content with runs of white space made one space, as a reader would hear it."""
        return " ".join(self.get_text().split())

    def iter(self) -> Iterator[Element]:
        """This element and every element inside it, in document order."""
        yield self
        yield from self.select("*")

    def find_all(self, tag: str | None = None, **attrs: str) -> list[Element]:  # type: ignore[override]
        """Elements inside this one (and itself) with this tag and attributes.

        `class_="x"` matches one of the classes; other names have `_` for `-` (`data_card`).
        """
        selector = css_selector(tag, attrs)
        found = self.select(selector)
        if not isinstance(self, BeautifulSoup) and self.css.match(selector):
            return [self, *found]
        return list(found)

    def find(self, tag: str | None = None, **attrs: str) -> Element | None:  # type: ignore[override]
        found = self.find_all(tag, **attrs)
        return found[0] if found else None

    def by_id(self, element_id: str) -> Element | None:
        return self.select_one(f"#{escape(element_id)}")

    def value(self, name: str) -> str | None:
        """The value an input named `name` would post (None when there is no such input)."""
        node = self.find("input", name=name)
        return None if node is None else node.attrs.get("value", "")


class Page(BeautifulSoup, Element):
    """A parsed document: the root of the elements."""


def css_selector(tag: str | None, attrs: dict[str, str]) -> str:
    parts = [tag or "*"]
    for name, value in attrs.items():
        quoted = value.replace("\\", "\\\\").replace('"', '\\"')
        if name == "class_":
            parts.append(f'[class~="{quoted}"]')
        else:
            parts.append(f'[{name.replace("_", "-")}="{quoted}"]')
    return "".join(parts)


def parse(markup: str | TestResponse) -> Page:
    """The tree of some HTML, or of a response's body, as a browser would build it.

    A fragment (what htmx swaps in) stays a fragment: no <html>, <head> or <body> around it.
    """
    if isinstance(markup, TestResponse):
        markup = markup.get_data(as_text=True)
    page = _page(markup, "lxml")
    if DOCUMENT.match(markup):
        return page
    fragment = _page("", "html.parser")
    for wrapper in (page.head, page.body):
        if wrapper is not None:
            fragment.extend(list(wrapper.contents))
    return fragment


def _page(markup: str, parser: str) -> Page:
    return Page(markup, parser, multi_valued_attributes=None, element_classes={Tag: Element})


def error_for(page: Element, field_id: str) -> str:
    """The error message shown next to a field (empty when there is none)."""
    node = page.by_id(f"{field_id}-error")
    return "" if node is None else node.text


def form_errors(page: Element) -> list[str]:
    """Messages shown for a whole form rather than a field."""
    return [node.text for node in page.select(".form-error")]


# The name the view tests use for an element.
Node = Element

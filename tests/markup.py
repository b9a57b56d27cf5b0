"""Reading a response's HTML the way a person (or a screen reader) would, for view tests.

The standard library's HTMLParser builds a small tree, so tests can ask for an element by id, the
error shown next to a field, or the hidden inputs a form will post back, without matching raw
markup.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser

from werkzeug.test import TestResponse

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}
HTMX = {"HX-Request": "true"}


@dataclass
class Node:
    tag: str
    attrs: dict[str, str]
    children: list[Node | str] = field(default_factory=list)

    @property
    def text(self) -> str:
        """Text content with runs of white space made one space, as a reader would hear it."""
        parts: list[str] = []

        def walk(node: Node) -> None:
            for child in node.children:
                if isinstance(child, str):
                    parts.append(child)
                else:
                    walk(child)

        walk(self)
        return " ".join("".join(parts).split())

    def iter(self) -> Iterator[Node]:
        yield self
        for child in self.children:
            if isinstance(child, Node):
                yield from child.iter()

    def find_all(self, tag: str | None = None, **attrs: str) -> list[Node]:
        """Descendants (and self) with this tag and attributes; `class_` matches one class."""
        found = []
        for node in self.iter():
            if tag is not None and node.tag != tag:
                continue
            if all(_matches(node, name, value) for name, value in attrs.items()):
                found.append(node)
        return found

    def find(self, tag: str | None = None, **attrs: str) -> Node | None:
        found = self.find_all(tag, **attrs)
        return found[0] if found else None

    def by_id(self, element_id: str) -> Node | None:
        return self.find(id=element_id)

    def value(self, name: str) -> str | None:
        """The value an input named `name` would post (None when there is no such input)."""
        node = self.find("input", name=name)
        return None if node is None else node.attrs.get("value", "")


def _matches(node: Node, name: str, value: str) -> bool:
    if name == "class_":
        return value in node.attrs.get("class", "").split()
    return node.attrs.get(name.replace("_", "-")) == value


class _TreeBuilder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#document", {})
        self.stack = [self.root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, {name: value or "" for name, value in attrs})
        self.stack[-1].children.append(node)
        if tag not in VOID:
            self.stack.append(node)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.stack[-1].children.append(Node(tag, {name: value or "" for name, value in attrs}))

    def handle_endtag(self, tag: str) -> None:
        for depth in range(len(self.stack) - 1, 0, -1):
            if self.stack[depth].tag == tag:
                del self.stack[depth:]
                return

    def handle_data(self, data: str) -> None:
        self.stack[-1].children.append(data)


def parse(markup: str | TestResponse) -> Node:
    """The document tree of some HTML, or of a response's body."""
    if isinstance(markup, TestResponse):
        markup = markup.get_data(as_text=True)
    builder = _TreeBuilder()
    builder.feed(markup)
    builder.close()
    return builder.root


def error_for(page: Node, field_id: str) -> str:
    """The error message shown next to a field (empty when there is none)."""
    node = page.by_id(f"{field_id}-error")
    return "" if node is None else node.text


def form_errors(page: Node) -> list[str]:
    """Messages shown for a whole form rather than a field."""
    return [node.text for node in page.find_all(class_="form-error")]

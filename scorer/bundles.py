"""The page's script joined from its ES modules into one file, so a visit makes one request.

`join_modules` reads an entry module and, following its imports, every module it needs; each goes
into the joined script once, in its own function scope (its top-level names stay its own, so two
modules' names cannot collide), after the modules it imports (topological order). A module's
function returns its exports as an object; an importing module's function takes those objects as
its parameters, destructured to the names it imports.

Only the forms these modules use are understood, each at the start of a line:

    import { a, b as c } from "./module.js";
    import * as name from "./module.js";
    export function name(...) / export async function name(...) / export class Name
    export const name = ...
    export { a, b as c };

Anything else that imports or exports (a default export, `export let`, `export *`, a bare or
absolute specifier, `import()`, `import.meta`) and any cycle is refused with the module's name and
line, rather than joined into a script that would misbehave. Exports are not live bindings, which
is why `let` and `var` exports are refused: a `const`, function or class cannot change after its
module has run, so the object's value is the binding's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

IDENTIFIER = r"[A-Za-z_$][\w$]*"
SPECIFIER = r"""(["'])(\.{1,2}/[^"'\s]+\.js)\2"""
IMPORT_NAMES = re.compile(r"^import\s*\{([^}]*)\}\s*from\s*" + SPECIFIER + r"\s*;?[ \t]*$", re.M)
IMPORT_ALL = re.compile(
    r"^import\s*\*\s*as\s+(" + IDENTIFIER + r")\s+from\s*" + SPECIFIER + r"\s*;?[ \t]*$", re.M
)
EXPORT_DECLARATION = re.compile(
    r"^export\s+((?:async\s+)?function\s*\*?\s*|class\s+|const\s+)(" + IDENTIFIER + r")", re.M
)
EXPORT_NAMES = re.compile(r"^export\s*\{([^}]*)\}\s*;?[ \t]*$", re.M)
# Every statement that imports or exports starts a line with one of these words.
ANY_IMPORT_OR_EXPORT = re.compile(r"^(?:import|export)\b", re.M)
DYNAMIC = re.compile(r"\bimport\s*(?:\(|\.\s*meta\b)")
NAME_AS = re.compile(r"^(" + IDENTIFIER + r")(?:\s+as\s+(" + IDENTIFIER + r"))?$")


class BundleError(ValueError):
    """A module the joiner cannot join: an import or export form it does not know, a missing
    module or name, or a cycle."""


@dataclass(frozen=True)
class Module:
    """One parsed module: its body with the import and export keywords taken out, what it
    imports (by resolved path, with the local names they bind) and what it exports."""

    path: Path
    body: str
    # (module, "{ a, b: c }" or a namespace name, imported names) in the order written.
    imports: tuple[tuple[Path, str, tuple[str, ...]], ...]
    exports: tuple[tuple[str, str], ...]  # (exported name, local name)


def _where(source: str, offset: int, path: Path) -> str:
    return f"{path.name}, line {source.count(chr(10), 0, offset) + 1}"


def _names(text: str, path: Path, where: str) -> list[tuple[str, str]]:
    """`a, b as c` as [(a, a), (b, c)]."""
    pairs = []
    for part in (piece.strip() for piece in text.split(",")):
        if not part:
            continue
        found = NAME_AS.match(part)
        if found is None:
            raise BundleError(f"{where}: cannot join the name list {{{text.strip()}}}")
        pairs.append((found.group(1), found.group(2) or found.group(1)))
    return pairs


@lru_cache(maxsize=64)
def _parse(path: Path, _mtime_ns: int, _size: int) -> Module:
    source = path.read_text(encoding="utf-8")
    dynamic = DYNAMIC.search(source)
    if dynamic:
        where = _where(source, dynamic.start(), path)
        raise BundleError(f"{where}: import() and import.meta cannot be joined")
    imports: list[tuple[Path, str, tuple[str, ...]]] = []
    exports: list[tuple[str, str]] = []
    understood: set[int] = set()
    spans: list[tuple[int, int, str]] = []  # text to replace: (start, end, replacement)

    def target(specifier: str, where: str) -> Path:
        resolved = (path.parent / specifier).resolve()
        if not resolved.is_file():
            raise BundleError(f"{where}: no module {specifier}")
        return resolved

    for found in IMPORT_NAMES.finditer(source):
        where = _where(source, found.start(), path)
        pairs = _names(found.group(1), path, where)
        binding = "{ " + ", ".join(a if a == b else f"{a}: {b}" for a, b in pairs) + " }"
        names = tuple(a for a, _ in pairs)
        imports.append((target(found.group(3), where), binding, names))
        understood.add(found.start())
        spans.append((found.start(), found.end(), ""))
    for found in IMPORT_ALL.finditer(source):
        where = _where(source, found.start(), path)
        imports.append((target(found.group(3), where), found.group(1), ()))
        understood.add(found.start())
        spans.append((found.start(), found.end(), ""))
    for found in EXPORT_DECLARATION.finditer(source):
        exports.append((found.group(2), found.group(2)))
        understood.add(found.start())
        spans.append((found.start(), found.start(1), ""))
    for found in EXPORT_NAMES.finditer(source):
        where = _where(source, found.start(), path)
        exports.extend((b, a) for a, b in _names(found.group(1), path, where))
        understood.add(found.start())
        spans.append((found.start(), found.end(), ""))
    for found in ANY_IMPORT_OR_EXPORT.finditer(source):
        if found.start() not in understood:
            line = source[found.start() :].split("\n", 1)[0]
            raise BundleError(f"{_where(source, found.start(), path)}: cannot join `{line}`")
    seen: set[str] = set()
    for name, _ in exports:
        if name in seen:
            raise BundleError(f"{path.name} exports {name} twice")
        seen.add(name)
    body = source
    # Import lines become blank lines, so the body keeps its line numbers.
    for start, end, replacement in sorted(spans, reverse=True):
        body = body[:start] + replacement + "\n" * source.count("\n", start, end) + body[end:]
    return Module(path, body, tuple(imports), tuple(exports))


def parse_module(path: Path) -> Module:
    """The module at `path`, parsed once per version of the file."""
    stat = path.stat()
    return _parse(path.resolve(), stat.st_mtime_ns, stat.st_size)


def module_order(entry: Path) -> list[Module]:
    """The entry and every module it needs, each after the modules it imports."""
    order: list[Module] = []
    done: set[Path] = set()
    path_here: list[Path] = []

    def visit(path: Path) -> None:
        if path in done:
            return
        if path in path_here:
            cycle = path_here[path_here.index(path) :] + [path]
            raise BundleError("import cycle: " + " -> ".join(p.name for p in cycle))
        path_here.append(path)
        module = parse_module(path)
        for imported, _, names in module.imports:
            visit(imported)
            exported = {name for name, _ in parse_module(imported).exports}
            for name in names:
                if name not in exported:
                    raise BundleError(f"{path.name} imports {name}, which {imported.name} lacks")
        path_here.pop()
        done.add(path)
        order.append(module)

    if not entry.is_file():
        raise BundleError(f"no module {entry}")
    visit(entry.resolve())
    return order


def join_modules(entry: Path) -> str:
    """One script that runs `entry` and its imports as the browser would run the modules."""
    modules = module_order(entry)
    number = {module.path: index for index, module in enumerate(modules)}
    root = entry.resolve().parent
    parts = ['(() => {\n"use strict";\n']
    for index, module in enumerate(modules):
        parameters = ", ".join(binding for _, binding, _ in module.imports)
        arguments = ", ".join(f"module{number[path]}" for path, _, _ in module.imports)
        exports = ", ".join(
            local if name == local else f"{name}: {local}" for name, local in module.exports
        )
        name = module.path.relative_to(root) if module.path.is_relative_to(root) else module.path
        parts.append(
            f"// {name}\nconst module{index} = (({parameters}) => {{\n{module.body.rstrip()}\n"
            f"return Object.freeze({{ {exports} }});\n}})({arguments});\n"
        )
    parts.append("})();\n")
    return "".join(parts)


def sources(entry: Path) -> list[Path]:
    """The files the joined script is made of, in order."""
    return [module.path for module in module_order(entry)]

"""The joiner that serves the page's ES modules as one script (scorer/bundles.py)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from scorer.bundles import BundleError, join_modules, sources

STATIC = Path(__file__).resolve().parents[1] / "static"
needs_node = pytest.mark.skipif(not shutil.which("node"), reason="needs node to run JavaScript")


def write(folder: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return folder / "main.js"


def run(script: str, tmp_path: Path) -> str:
    """What the joined script prints under node."""
    path = tmp_path / "joined.cjs"
    path.write_text(script)
    result = subprocess.run(["node", str(path)], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    return result.stdout


@needs_node
def test_modules_run_in_order_each_once_with_the_names_they_import(tmp_path):
    entry = write(
        tmp_path,
        {
            "main.js": 'import { a, twice as double } from "./a.js";\n'
            'import * as b from "./sub/b.js";\n'
            'console.log("main", a, double(2), b.b);\n',
            "a.js": 'import { b } from "./sub/b.js";\n'
            'console.log("a");\n'
            "export const a = b + 1;\n"
            "export function twice(n) {\n  return 2 * n;\n}\n",
            "sub/b.js": 'console.log("b");\nexport const b = 1;\n',
        },
    )
    assert run(join_modules(entry), tmp_path).split("\n") == ["b", "a", "main 2 4 1", ""]
    assert sources(entry) == [tmp_path / "sub/b.js", tmp_path / "a.js", entry]


@needs_node
def test_each_module_keeps_its_own_names(tmp_path):
    entry = write(
        tmp_path,
        {
            "main.js": 'import { read } from "./a.js";\nconst name = "main";\n'
            "console.log(name, read(), typeof secret);\n",
            "a.js": 'const name = "a";\nconst secret = 1;\nexport const read = () => name;\n',
        },
    )
    assert run(join_modules(entry), tmp_path) == "main a undefined\n"


@needs_node
def test_a_list_of_exports_and_classes_and_multi_line_imports(tmp_path):
    entry = write(
        tmp_path,
        {
            "main.js": "import {\n  one,\n  Two,\n  three as four,\n} from './a.js';\n"
            "console.log(one, new Two().n, four);\n",
            "a.js": "const inner = 1;\nexport class Two {\n  n = 2;\n}\nconst three = 3;\n"
            "export { inner as one, three };\n",
        },
    )
    assert run(join_modules(entry), tmp_path) == "1 2 3\n"


@needs_node
def test_the_joined_script_is_strict_like_a_module(tmp_path):
    entry = write(
        tmp_path, {"main.js": "try { undeclared = 1; } catch (e) { console.log(e.name); }\n"}
    )
    assert run(join_modules(entry), tmp_path) == "ReferenceError\n"


@pytest.mark.parametrize(
    ("text", "complaint"),
    [
        ("export default 1;\n", "cannot join `export default 1;`"),
        ("export let count = 0;\n", "cannot join `export let count = 0;`"),
        ('export * from "./a.js";\n', "cannot join"),
        ('import a from "./a.js";\n', 'cannot join `import a from "./a.js";`'),
        ('import { a } from "lodash";\n', "cannot join"),
        ('import { a } from "/abs.js";\n', "cannot join"),
        ('const later = import("./a.js");\n', "import() and import.meta cannot be joined"),
        ("console.log(import.meta.url);\n", "import() and import.meta cannot be joined"),
        ('import { missing } from "./a.js";\n', "main.js imports missing, which a.js lacks"),
        ('import { a } from "./nowhere.js";\n', "no module ./nowhere.js"),
        ("export const a = 1;\nexport { a };\n", "main.js exports a twice"),
    ],
)
def test_what_it_cannot_join_is_refused_with_where(tmp_path, text, complaint):
    entry = write(tmp_path, {"main.js": "// first line\n" + text, "a.js": "export const a = 1;\n"})
    with pytest.raises(BundleError, match="main.js") as refused:
        join_modules(entry)
    assert complaint in str(refused.value)
    if "line" in str(refused.value):
        assert "main.js, line 2" in str(refused.value)


def test_a_cycle_is_refused_naming_its_modules(tmp_path):
    entry = write(
        tmp_path,
        {
            "main.js": 'import { a } from "./a.js";\n',
            "a.js": 'import { b } from "./b.js";\nexport const a = 1;\n',
            "b.js": 'import { a } from "./a.js";\nexport const b = 2;\n',
        },
    )
    with pytest.raises(BundleError, match=r"import cycle: a\.js -> b\.js -> a\.js"):
        join_modules(entry)


def test_a_missing_entry_is_refused(tmp_path):
    with pytest.raises(BundleError, match="no module"):
        join_modules(tmp_path / "main.js")


def test_an_edited_module_is_read_again(tmp_path):
    entry = write(
        tmp_path, {"main.js": 'import { a } from "./a.js";\n', "a.js": "export const a = 1;\n"}
    )
    join_modules(entry)
    write(tmp_path, {"a.js": "// now longer\nexport const a = 2;\n"})
    assert "export" not in join_modules(entry) and "now longer" in join_modules(entry)


def test_the_page_script_is_made_of_its_modules():
    names = [path.name for path in sources(STATIC / "js/src/main.js")]
    assert names[-1] == "main.js"
    assert {"tally.js", "queue.js", "copy.js", "words.js", "pad.js", "offline.js"} <= set(names)
    # Each module once, after what it imports.
    assert len(names) == len(set(names))
    assert names.index("words.js") < names.index("tally.js") < names.index("pad.js")

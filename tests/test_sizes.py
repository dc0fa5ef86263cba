"""The plugin's size limits, read from its source (``ast``, nothing imported).

A file over 400 lines or a function over 60 hides a second concept: split by concept, and let the
formatter format (no ``# fmt: skip`` to squeeze code under a limit).
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "flair_qgis"
MAX_FILE_LINES = 400
MAX_FUNCTION_LINES = 60


def _sources() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def long_functions(source: str) -> list[tuple[str, int, int]]:
    """``(name, first line, lines)`` of every function or method of ``source`` over the limit."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            length = node.end_lineno - first + 1
            if length > MAX_FUNCTION_LINES:
                found.append((node.name, node.lineno, length))
    return found


def test_no_file_is_over_the_limit():
    wrong = []
    for path in _sources():
        lines = len(path.read_text().splitlines())
        if lines > MAX_FILE_LINES:
            wrong.append(f"{path.relative_to(PACKAGE)}: {lines} lines")
    assert not wrong, f"files over {MAX_FILE_LINES} lines:\n" + "\n".join(wrong)


def test_no_function_is_over_the_limit():
    wrong = []
    for path in _sources():
        for name, line, length in long_functions(path.read_text()):
            wrong.append(f"{path.relative_to(PACKAGE)}:{line} {name}: {length} lines")
    assert not wrong, f"functions over {MAX_FUNCTION_LINES} lines:\n" + "\n".join(wrong)


def test_the_function_limit_catches_a_long_function():
    body = "".join(f"    x{i} = {i}\n" for i in range(MAX_FUNCTION_LINES))
    assert long_functions(f"def long():\n{body}") == [("long", 1, MAX_FUNCTION_LINES + 1)]
    assert long_functions("def short():\n    return 1\n") == []


def test_no_formatter_escapes():
    wrong = []
    for path in _sources():
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if "fmt: skip" in line or "fmt: off" in line:
                wrong.append(f"{path.relative_to(PACKAGE)}:{number}")
    assert not wrong, "code squeezed past the formatter (split it by concept instead):\n" + "\n".join(wrong)

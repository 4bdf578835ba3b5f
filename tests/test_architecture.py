"""The shape of the code: the seams stay seams.

* no module but the family registry compares a rule family's name;
* the imports of ``mjlog/`` form no cycle, counting imports inside functions;
* no function is longer than 60 lines or of radon complexity grade E or F;
* the core (tiles, events, ruleset, findings, record, replay) imports only the
  standard library and itself.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from radon.complexity import cc_rank, cc_visit

from .conftest import ROOT

MJLOG = ROOT / "mjlog"
MAX_LINES = 60
CORE = ("mjlog.tiles", "mjlog.events", "mjlog.ruleset", "mjlog.diagnostics", "mjlog.record",
        "mjlog.replay", "mjlog.catalogue")
_FAMILY_TEST = re.compile(r"""\.family\s*[!=]=|[!=]=\s*["'](riichi|taiwan16)["']""")


def _modules() -> dict[str, Path]:
    out = {}
    for path in sorted(MJLOG.rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = path
    return out


MODULES = _modules()


def _imports(name: str, path: Path) -> set[str]:
    """The mjlog modules ``name`` imports, anywhere in it."""
    out: set[str] = set()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1]
                                + ([base] if base else []))
            for a in node.names:
                sub = f"{base}.{a.name}"
                out.add(sub if sub in MODULES else base)
    return {m for m in out if m in MODULES and m != name}


def test_no_module_but_the_registry_compares_a_family_name() -> None:
    allowed = {"mjlog.families", "mjlog.ruleset"}
    found = [f"{name}:{i}: {line.strip()}" for name, path in MODULES.items()
             if name not in allowed
             for i, line in enumerate(path.read_text("utf-8").splitlines(), 1)
             if _FAMILY_TEST.search(line)]
    assert found == []


def test_imports_form_no_cycle() -> None:
    graph = {name: _imports(name, path) for name, path in MODULES.items()}
    cycles = []
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    stack: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                cycles.append(" -> ".join([*stack[stack.index(nxt):], nxt]))
            elif nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = 2

    for name in graph:
        if name not in state:
            visit(name)
    assert cycles == []


def test_the_core_imports_only_the_standard_library_and_itself() -> None:
    for name, path in MODULES.items():
        if not name.startswith(CORE):
            continue
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                top = node.module.split(".")[0]
                assert top != "mjlog" or node.module.startswith(CORE), (name, node.module)
                assert top in ("mjlog", "__future__") or top in _STDLIB, (name, node.module)


_STDLIB = {"array", "collections", "dataclasses", "enum", "typing", "functools", "itertools",
           "json", "re", "math", "bisect", "random", "types"}


def test_functions_are_short_and_simple() -> None:
    long, complex_ = [], []
    for name, path in MODULES.items():
        source = path.read_text("utf-8")
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > MAX_LINES:
                    long.append(f"{name}.{node.name}: {lines} lines")
        complex_ += [f"{name}.{b.name}: {cc_rank(b.complexity)} ({b.complexity})"
                     for b in cc_visit(source) if cc_rank(b.complexity) in ("E", "F")]
    assert long == [] and complex_ == []

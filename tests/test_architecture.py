"""The shape of the code: the seams stay seams.

* no module but the family registry compares a rule family's name;
* the imports of ``mjlog/`` form no cycle, counting imports inside functions;
* no function is longer than 60 lines or of radon complexity grade E or F;
* ``mjlog/`` holds one package per layer and only the API, the command line and the
  documented name ``mjlog.audit`` beside them;
* the core (``mjlog.core``: tiles, events, ruleset, findings, catalogue, record; and
  ``mjlog.replay``) imports only the standard library and itself, by any kind of
  import (``import x``, ``import x.y as z``, ``from x import y``, relative, inside
  functions, ``importlib.import_module("x")``).
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

from radon.complexity import cc_rank, cc_visit

from .conftest import ROOT

MJLOG = ROOT / "mjlog"
MAX_LINES = 60
CORE = ("mjlog.core", "mjlog.replay")
"""The core's packages: tiles, events, ruleset, findings, catalogue, record (``mjlog.core``)
and the replay."""
LAYERS = ("core", "formats", "replay", "families", "wall", "reports", "stats", "run")
"""The packages of ``mjlog/``, one per layer of the pipeline (``docs/design.md``)."""
TOP_MODULES = ("__init__", "api", "cli", "audit")
"""The only modules at the top of ``mjlog/``: the package, the Python API, the command line
and ``mjlog.audit``, the documented name of :mod:`mjlog.reports.audit`."""


def _family_test() -> re.Pattern[str]:
    """A line that compares a family's name: ``.family ==`` or ``== "NAME"`` for the
    name of any registered family (from the registry, so a new family is covered)."""
    from mjlog.families.registry import FAMILIES

    names = "|".join(re.escape(name) for name in sorted(FAMILIES))
    return re.compile(rf"""\.family\s*[!=]=|[!=]=\s*["']({names})["']|["']({names})["']\s*[!=]=""")


_FAMILY_TEST = _family_test()


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
    allowed = {"mjlog.families.registry", "mjlog.core.ruleset"}
    found = [f"{name}:{i}: {line.strip()}" for name, path in MODULES.items()
             if name not in allowed
             for i, line in enumerate(path.read_text("utf-8").splitlines(), 1)
             if _FAMILY_TEST.search(line)]
    assert found == []


def test_the_family_name_rule_knows_every_registered_family() -> None:
    from mjlog.families.registry import FAMILIES

    assert {"riichi", "taiwan16", "mcr"} <= set(FAMILIES)
    for name in FAMILIES:
        assert _FAMILY_TEST.search(f'if rules.name == "{name}":'), name
        assert _FAMILY_TEST.search(f"ok = '{name}' != kind"), name
    assert not _FAMILY_TEST.search('if rules.name == "tenhou":')


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


def _imported(tree: ast.AST, package: str) -> list[tuple[str, int]]:
    """Every module a module's syntax tree imports, with its line: ``import x``,
    ``import x.y as z``, ``from x import y`` (``x.y`` when ``y`` is a module of mjlog),
    ``from . import y`` and ``from ..x import y`` (resolved against ``package``), at the
    top or inside a function or class, and ``importlib.import_module("x")`` or
    ``__import__("x")`` with a literal name. Not an import whose name is computed."""
    found: list[tuple[str, int]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(a.name, node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            found += [(f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base,
                       node.lineno) for a in node.names]
        elif isinstance(node, ast.Call) and _dynamic_import(node):
            found.append((node.args[0].value, node.lineno))  # type: ignore[attr-defined]
    return sorted(found, key=lambda m: m[1])


def _dynamic_import(node: ast.Call) -> bool:
    """Whether a call is ``importlib.import_module("x")`` or ``__import__("x")``."""
    func = node.func
    named = ((isinstance(func, ast.Attribute) and func.attr == "import_module")
             or (isinstance(func, ast.Name) and func.id in ("__import__", "import_module")))
    return (named and bool(node.args) and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str))


_LOADED_BY_NAME = {("mjlog.core.ruleset", "mjlog.families.registry"),
                   ("mjlog.core.native", "mjlog._native")}
"""The core's imports outside it, by name at run time: the ruleset loads the registry of
rule families when it meets a family or option it does not know yet
(``mjlog.core.ruleset._load_registry``), so that the families register themselves; and
``mjlog.core.native`` loads mjlog's own compiled extension, where it was built."""


def _outside_the_core(source: str, name: str, package: str) -> list[str]:
    """The imports of a core module's source that leave the standard library and the
    core, as ``name:line: module``."""
    bad = []
    for module, line in _imported(ast.parse(source), package):
        top = module.split(".")[0]
        inside = (_in_core(module) or (name, module) in _LOADED_BY_NAME
                  if top == "mjlog" else top == "__future__" or top in sys.stdlib_module_names)
        if not inside:
            bad.append(f"{name}:{line}: {module}")
    return bad


def _in_core(module: str) -> bool:
    """Whether a module name is one of the core's packages or inside one."""
    return module in CORE or module.startswith(tuple(f"{c}." for c in CORE))


def test_the_top_of_the_package_is_the_pipeline() -> None:
    top = sorted(p.name for p in MJLOG.iterdir() if p.name != "__pycache__"
                 and (p.suffix == ".py" or (p.is_dir() and (p / "__init__.py").is_file())))
    assert top == sorted([*LAYERS, *(f"{m}.py" for m in TOP_MODULES)])


def test_the_core_imports_only_the_standard_library_and_itself() -> None:
    bad = []
    assert {"mjlog.core.tiles", "mjlog.core.ruleset", "mjlog.replay.engine"} <= {
        n for n in MODULES if _in_core(n)}
    for name, path in MODULES.items():
        if _in_core(name):
            package = name if path.name == "__init__.py" else name.rpartition(".")[0]
            bad += _outside_the_core(path.read_text("utf-8"), name, package)
    assert bad == []


_SAMPLE = """\
import json
import lxml
from polars import DataFrame
import mahjong.hand_calculating.hand as hand
import os.path, click
from mjlog.core.tiles import Tile
from mjlog.reports.audit import audit_record
from . import state
from .. import cli


def later():
    import numpy
    from scipy import stats
    return importlib.import_module("jinja2"), __import__("pathlib")


class Lazy:
    def load(self):
        from matplotlib import pyplot
"""
"""A core module's source with every kind of import, each third-party one or outside
the core on its own line."""


def test_the_core_check_catches_every_kind_of_import() -> None:
    bad = _outside_the_core(_SAMPLE, "mjlog.replay.sample", "mjlog.replay")
    assert bad == [f"mjlog.replay.sample:{line}: {module}" for line, module in [
        (2, "lxml"), (3, "polars"), (4, "mahjong.hand_calculating.hand"), (5, "click"),
        (7, "mjlog.reports.audit"), (9, "mjlog.cli"), (13, "numpy"), (14, "scipy"),
        (15, "jinja2"), (20, "matplotlib")]]


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

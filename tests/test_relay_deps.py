"""The relay's dependencies point one way: its modules know the relay through the
protocols of ``bonanza.relay.services``, never through ``bonanza.relay.server``."""
from __future__ import annotations

import ast
from pathlib import Path

import bonanza.relay

PACKAGE = "bonanza.relay"
FOLDER = Path(bonanza.relay.__file__).parent
MAY_IMPORT_SERVER = {"server", "cli"}   # the relay itself, and the command that starts it


def imported(path: Path) -> set[str]:
    """Every module ``path`` imports, relative imports resolved, ``if TYPE_CHECKING`` too."""
    here = PACKAGE.split(".")
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = ".".join(here[:len(here) - node.level + 1]) if node.level else ""
            module = ".".join(p for p in (base, node.module or "") if p)
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)   # from . import x
    return found


def modules() -> dict[str, set[str]]:
    return {p.stem: imported(p) for p in sorted(FOLDER.glob("*.py"))}


def test_only_the_relay_and_its_command_import_the_server():
    mods = modules()
    assert {"server", "tables", "handlers", "connection", "services"} <= set(mods)
    offenders = {name for name, deps in mods.items()
                 if f"{PACKAGE}.server" in deps and name not in MAY_IMPORT_SERVER}
    assert offenders == set(), f"these modules import {PACKAGE}.server: {sorted(offenders)}"


def test_the_relay_modules_import_each_other_without_a_cycle():
    graph = {name: {d.split(".")[2] for d in deps if d.startswith(f"{PACKAGE}.")} - {name}
             for name, deps in modules().items()}
    done: set[str] = set()
    while len(done) < len(graph):
        ready = {m for m, deps in graph.items() if m not in done and deps <= done}
        assert ready, f"an import cycle among {sorted(set(graph) - done)}"
        done |= ready


def test_services_is_a_leaf():
    """The protocols import nothing of the relay but plain data."""
    relay_deps = {d for d in modules()["services"] if d.startswith(f"{PACKAGE}.")}
    assert relay_deps <= {f"{PACKAGE}.limits", f"{PACKAGE}.limits.Limits"}


def test_the_check_sees_every_way_to_import_the_server(tmp_path):
    lines = ["from .server import Relay", "from . import server", "import bonanza.relay.server",
             "from bonanza.relay.server import Relay",
             "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .server import Relay"]
    for i, line in enumerate(lines):
        path = tmp_path / f"m{i}.py"
        path.write_text(line + "\n", encoding="utf-8")
        assert f"{PACKAGE}.server" in imported(path), line

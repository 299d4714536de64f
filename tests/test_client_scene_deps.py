"""Scenes open one another by name (``client/scenes/registry.py``), never by import: a scene
module imports only the base classes (``base``, ``game_base``) and non-scene modules, so the
scenes form no import cycle and each one imports on its own."""
from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

SCENES_DIR = Path(__file__).resolve().parent.parent / "client" / "scenes"
PACKAGE = "bonanza.client.scenes"
BASES = {"base": set(), "game_base": {"base"}}   # a base module -> the bases it may import
NOT_SCENES = {"__init__", "registry"} | set(BASES)
IMPORT_LIMIT = 60.0      # seconds for a fresh interpreter to import one scene module


def module_names() -> list[str]:
    return sorted(p.stem for p in SCENES_DIR.glob("*.py"))


def scene_names() -> list[str]:
    return [m for m in module_names() if m not in NOT_SCENES]


def _resolve(node: ast.ImportFrom, here: str) -> str:
    """The absolute module an ``import from`` names (``here`` is the importing module)."""
    if not node.level:
        return node.module or ""
    parts = here.split(".")[:-node.level]
    return ".".join(parts + ([node.module] if node.module else []))


def imported_scene_modules(name: str, folder: Path = SCENES_DIR) -> set[str]:
    """The modules of ``client/scenes/`` that module ``name`` imports, anywhere in it
    (a function's lazy import counts: it is a cycle waiting for the first call)."""
    here = f"{PACKAGE}.{name}"
    tree = ast.parse((folder / f"{name}.py").read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(node, here)
            # ``from . import lobby`` names a module; ``from .base import Scene`` names a class
            targets = [base] + [f"{base}.{a.name}" for a in node.names]
        else:
            continue
        for target in targets:
            if target.startswith(PACKAGE + "."):
                module = target[len(PACKAGE) + 1:].split(".")[0]
                if (folder / f"{module}.py").exists() and module != name:
                    found.add(module)
    return found


def test_the_checker_sees_every_kind_of_import(tmp_path):
    """The check below would catch each way of importing a scene."""
    (tmp_path / "probe.py").write_text(
        "from .lobby import LobbyScene\n"
        "from . import results\n"
        "import bonanza.client.scenes.replay\n"
        "def later():\n"
        "    from bonanza.client.scenes.table import TableScene\n"
        "from .base import Scene\n"
        "from ..widgets import draw_text\n", encoding="utf-8")
    for m in ("lobby", "results", "replay", "table", "base"):
        (tmp_path / f"{m}.py").write_text("", encoding="utf-8")
    assert imported_scene_modules("probe", tmp_path) == {"lobby", "results", "replay", "table", "base"}


@pytest.mark.parametrize("name", module_names())
def test_a_scene_module_imports_no_other_scene(name):
    allowed = BASES.get(name, set(BASES)) if name != "registry" else set()
    wrong = imported_scene_modules(name) - allowed
    assert not wrong, (f"client/scenes/{name}.py imports the scene module(s) {sorted(wrong)}: "
                       "open a scene by name instead (app.open/switch/make, scenes/registry.py)")


def test_only_the_app_imports_the_scenes():
    """Helpers the scenes share live outside ``client/scenes/`` and never reach back into it:
    only the App (which opens scenes by name) imports from there."""
    client = SCENES_DIR.parent
    for path in sorted(client.rglob("*.py")):
        rel = path.relative_to(client)
        if rel.parts[0] == "scenes" or rel == Path("app.py"):
            continue
        here = "bonanza.client." + ".".join(rel.with_suffix("").parts)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = _resolve(node, here)
                targets = [base] + [f"{base}.{a.name}" for a in node.names]
            else:
                continue
            assert not any(t == PACKAGE or t.startswith(PACKAGE + ".") for t in targets), (str(rel), targets)


def _registry():
    from bonanza.client.scenes.registry import SCENES, scene_factory
    return SCENES, scene_factory


def test_every_registered_name_builds_a_scene_and_every_scene_is_registered():
    scenes, factory = _registry()
    for name in scenes:
        assert callable(factory(name)), name
    registered = {target.split(":")[0] for target in scenes.values()}
    assert registered == set(scene_names())
    with pytest.raises(KeyError):
        factory("no_such_scene")


def _opened_names(name: str) -> set[str]:
    """The names a module opens: the first argument of ``….open/switch/make("<name>", …)``."""
    tree = ast.parse((SCENES_DIR / f"{name}.py").read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr in ("open", "switch", "make") and node.args
                and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            names.add(node.args[0].value)
    return names


def test_scenes_open_only_registered_names():
    scenes, _ = _registry()
    from bonanza.client.scenes.title import MENU_SCENES
    for name in module_names():
        unknown = _opened_names(name) - set(scenes)
        assert not unknown, (name, unknown)
    assert set(MENU_SCENES.values()) <= set(scenes)


@pytest.mark.parametrize("name", module_names())
def test_each_scene_module_imports_on_its_own(name):
    """In a fresh interpreter, first thing: no order of imports is needed to break a cycle."""
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1")
    done = subprocess.run([sys.executable, "-c", f"import {PACKAGE}.{name}"], capture_output=True,
                          text=True, timeout=IMPORT_LIMIT, env=env)
    assert done.returncode == 0, done.stderr[-2000:]

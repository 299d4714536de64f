"""The Windows/macOS build workflow cannot run on this machine, so what can be checked here
is: it builds on both systems, runs the packaging test (the bundle's smoke commands) rather
than a copy of them, names the zips the README's "Download and play" section promises, and the
README says the workflow has not run."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORKFLOW = (ROOT / ".github" / "workflows" / "build.yml").read_text(encoding="utf-8")
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _section(text: str, title: str) -> str:
    m = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", text, re.S | re.M)
    assert m, f"README has no '## {title}' section"
    return m.group(1)


def test_the_workflow_builds_on_windows_and_macos_and_runs_the_bundles_smoke_test():
    assert re.search(r"os:\s*\[windows-latest,\s*macos-latest\]", WORKFLOW)
    assert "python -m pytest" in WORKFLOW and "tests/test_packaging.py" in WORKFLOW
    assert (ROOT / "tests" / "test_packaging.py").is_file() and (ROOT / "packaging" / "build.py").is_file()
    assert "\t" not in WORKFLOW         # YAML refuses tabs


def test_download_and_play_names_the_workflows_zips_and_says_it_has_not_run():
    section = _section(README, "Download and play")
    zips = set(re.findall(r"Bonanza-\w+\.zip", WORKFLOW))
    assert zips == {"Bonanza-windows.zip", "Bonanza-macos.zip"}
    for name in zips:
        assert name in section
    assert ".github/workflows/build.yml" in section and "never run" in section

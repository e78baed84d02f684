"""The documentation site builds with every warning an error: ``mkdocs build --strict`` from
mkdocs.yml, into a temporary folder (a broken link or anchor, a page left out of the nav, an API
page naming a module that is gone all fail). Skipped without the ``docs`` extra."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

pytest.importorskip("mkdocs")
pytest.importorskip("material")
pytest.importorskip("mkdocstrings_handlers.python")


def test_the_site_builds_strict(tmp_path):
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    run = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir",
                          str(tmp_path / "site")], cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-4000:]
    assert (tmp_path / "site" / "index.html").exists()
    assert (tmp_path / "site" / "search" / "search_index.json").exists()
    assert (tmp_path / "site" / "api" / "registry" / "index.html").exists()

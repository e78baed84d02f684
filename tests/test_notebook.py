"""examples/quickstart.ipynb runs from top to bottom in a fresh kernel (nbclient), quickly:
it makes an environment, plays a deal, runs a short tournament with its progress bar and shows
the table and the chart. Skipped without nbclient and ipykernel (the test extra, with ipywidgets for
the bar's widget) or matplotlib (the plot extra)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")
pytest.importorskip("matplotlib")

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK = ROOT / "examples" / "quickstart.ipynb"


def test_the_quickstart_notebook_runs(tmp_path, monkeypatch):
    path = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    monkeypatch.setenv("PYTHONPATH", path)  # the kernel imports this checkout
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    assert not any(cell.get("outputs") for cell in notebook.cells if cell.cell_type == "code"), (
        "the notebook is kept without outputs")
    nbclient.NotebookClient(notebook, timeout=60, kernel_name="python3",
                            resources={"metadata": {"path": str(tmp_path)}}).execute()
    outputs = [o for cell in notebook.cells if cell.cell_type == "code" for o in cell.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    text = "".join(o.get("text", "") for o in outputs)
    assert "Discrete(486)" in text and "Duplicate tournament of agents: 100 deals" in text
    data = [o.get("data", {}) for o in outputs]
    assert any("text/markdown" in d and "| greedy |" in d["text/markdown"] for d in data)
    assert any("image/png" in d for d in data)
    # tqdm.auto's bar: a widget where ipywidgets is installed (the test extra), else text
    widgets = any("application/vnd.jupyter.widget-view+json" in d for d in data)
    assert widgets or "100/100 deals" in "".join(o.get("text", "") for o in outputs
                                                 if o.get("name") == "stderr")

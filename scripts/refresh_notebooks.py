"""Re-execute course notebooks in a fresh kernel and save them with clean outputs.

Run it after a library change that alters what a notebook prints:

    .venv/bin/python scripts/refresh_notebooks.py                 # every notebook
    .venv/bin/python scripts/refresh_notebooks.py notebooks/07_*.ipynb

Each notebook runs from ``notebooks/`` (as nbval runs it), top to bottom. The saved file has
sequential execution counts and stable cell ids, and no widget state (it would change on every
run). The script refuses to save a notebook whose outputs hold an error or a temporary path.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def clean(notebook: nbformat.NotebookNode, name: str) -> None:
    notebook.metadata.pop("widgets", None)
    for index, cell in enumerate(notebook.cells):
        cell["id"] = f"cell-{index:02d}"
        cell.metadata.pop("execution", None)
        if cell.cell_type != "code":
            continue
        for output in cell.outputs:
            if output.get("output_type") == "error":
                raise SystemExit(f"{name}, cell {index}: {output.get('ename')}: {output.get('evalue')}")
            data = output.get("data", {})
            data.pop(WIDGET_VIEW, None)
            texts = [output.get("text", "")] + [v for v in data.values() if isinstance(v, str)]
            if any("/tmp/" in text for text in texts):
                raise SystemExit(f"{name}, cell {index}: an output shows a temporary path")


def refresh(path: Path) -> float:
    notebook = nbformat.read(path, as_version=4)
    for cell in notebook.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    start = time.perf_counter()
    NotebookClient(notebook, timeout=300, kernel_name="python3", record_timing=False,
                   resources={"metadata": {"path": str(NOTEBOOKS)}}).execute()
    clean(notebook, path.name)
    nbformat.write(notebook, path)
    return time.perf_counter() - start


def main(argv: list[str]) -> int:
    paths = [Path(arg).resolve() for arg in argv] or sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))
    for path in paths:
        print(f"{path.name}: executed in {refresh(path):.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

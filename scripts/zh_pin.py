"""Show which prose cells of a notebook need a (new) Chinese translation, and record translations.

The Chinese edition (``scripts/build_zh.py``) refuses a translation whose English cell changed.
After you edit English prose:

    python scripts/zh_pin.py 07                 # each missing or stale cell: id, English now, Chinese before
    python scripts/zh_pin.py 07 --set new.json  # {"cell-id": "中文…", ...}: stored, pinned to the English now

``--set`` pins each given translation to the SHA-256 of the English cell as it is now, so run
it after the English text is final. A cell id that is not a markdown cell is refused.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from build_zh import cell_sha256, cell_text, chosen, load_translation, problems, translation_path  # noqa: E402  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("number", metavar="NN")
    parser.add_argument("--set", dest="updates", type=Path, help="JSON file {cell_id: Chinese text}")
    args = parser.parse_args(argv)
    (notebook,) = chosen([args.number])
    english = json.loads(notebook.read_text(encoding="utf-8"))
    translation = load_translation(notebook)
    translation.pop("missing_file", None)
    markdown = {cell["id"]: cell for cell in english["cells"] if cell["cell_type"] == "markdown"}
    if args.updates is None:
        for line in problems(english, translation, notebook.name):
            cell_id = line.split()[1].rstrip(":") if " " in line else ""
            print("==", line)
            if cell_id in markdown:
                print("-- English now:\n" + cell_text(markdown[cell_id]))
                before = translation["cells"].get(cell_id, {}).get("zh")
                if before:
                    print("-- Chinese before:\n" + before)
        return 0
    updates = json.loads(args.updates.read_text(encoding="utf-8"))
    unknown = sorted(set(updates) - set(markdown))
    if unknown:
        print(f"not markdown cells of {notebook.name}: {unknown}", file=sys.stderr)
        return 2
    for cell_id, text in updates.items():
        translation["cells"][cell_id] = {"en_sha256": cell_sha256(markdown[cell_id]), "zh": text}
    order = [cell_id for cell_id in markdown if cell_id in translation["cells"]]
    translation["cells"] = {cell_id: translation["cells"][cell_id] for cell_id in order}
    text = json.dumps(translation, ensure_ascii=False, indent=1) + "\n"
    translation_path(notebook).write_text(text, encoding="utf-8")
    print(f"{len(updates)} translation(s) pinned in {translation_path(notebook).relative_to(notebook.parents[1])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

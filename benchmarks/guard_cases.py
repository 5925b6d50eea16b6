"""Every development case of the write gate judged one by one, saved, and two saved runs compared.

A round of the write gate (docs/security.md, section 5) may not lose a development case it used to get
right. Totals hide a loss behind a gain, so this script keeps the verdict of every case: run it on the
code before a change and after it, then compare the two files case by case.

    .venv/bin/python benchmarks/guard_cases.py --save /tmp/before.json     # on the old code
    .venv/bin/python benchmarks/guard_cases.py --save /tmp/after.json      # on the new code
    .venv/bin/python benchmarks/guard_cases.py --compare /tmp/before.json /tmp/after.json

It reads the development files only (the corpus, its paraphrase section, the secrets and injections
corpora, and the helper rounds); held-out splits are measured as totals with ``memcourse eval --guards``
and never read here. Extra files (a new blind set under study) can be added with ``--also FILE``.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from memcourse.evaluations.guards import Case, evaluate  # noqa: E402

#: The development files: never a ``*_heldout.json``.
DEVELOPMENT = ("guard_corpus.json", "guard_corpus_paraphrase.json", "guard_corpus_secrets.json",
               "guard_corpus_injections2.json", "guard_corpus_injections3.json", "guard_corpus_round14.json",
               "guard_corpus_round15.json", "guard_corpus_round16.json", "guard_corpus_round17.json",
               "guard_corpus_round18.json")
_FIELDS = {field.name for field in dataclasses.fields(Case)}


def cases_of(path: Path) -> list[Case]:
    """The cases of one file (helper rounds carry a ``round`` key the evaluation does not use)."""
    return [Case(**{k: v for k, v in entry.items() if k in _FIELDS})
            for entry in json.loads(path.read_text(encoding="utf-8"))["cases"]]


def save(out: Path, also: list[Path]) -> None:
    verdicts = {}
    files = [ROOT / "memcourse" / "data" / name for name in DEVELOPMENT]
    for path in [f for f in files if f.exists()] + also:  # (an older checkout may not have the newest round)
        for result in evaluate(cases_of(path), corpus=path.name).results:
            case = result.case
            verdicts[case.id] = {"ok": result.ok, "attack": case.attack, "benign": case.expect == "pass",
                                 "file": path.name, "rule": result.rule, "text": case.text[:200]}
    out.write_text(json.dumps(verdicts, ensure_ascii=False), encoding="utf-8")
    print(f"{len(verdicts)} cases judged, saved to {out}")


def compare(before_path: Path, after_path: Path) -> int:
    """Print per-file totals and every case whose verdict changed; exit status 1 on a loss."""
    before = json.loads(before_path.read_text(encoding="utf-8"))
    after = json.loads(after_path.read_text(encoding="utf-8"))
    totals: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    changed = []
    for key, now in after.items():
        if key not in before:
            continue
        row, then = totals[now["file"]], before[key]
        row[0] += then["ok"] and now["attack"]
        row[1] += now["ok"] and now["attack"]
        row[2] += then["ok"] and now["benign"]
        row[3] += now["ok"] and now["benign"]
        if then["ok"] != now["ok"]:
            changed.append(("gain" if now["ok"] else "LOSS", key, now))
    for name, (a0, a1, b0, b1) in sorted(totals.items()):
        print(f"{name:42} attacks refused {a0} -> {a1}   benign written {b0} -> {b1}")
    for kind, key, now in changed:
        label = "attack" if now["attack"] else "benign"
        print(f"{kind:5} {key} ({label}, now {now['rule']}): {now['text'][:120]!r}")
    return 1 if any(kind == "LOSS" for kind, _, _ in changed) else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--save", type=Path, help="judge every development case and save the verdicts here")
    parser.add_argument("--also", type=Path, action="append", default=[], help="another development file")
    parser.add_argument("--compare", type=Path, nargs=2, metavar=("BEFORE", "AFTER"), help="compare two saved runs")
    args = parser.parse_args(argv)
    if args.save:
        save(args.save, args.also)
        return 0
    if args.compare:
        return compare(*args.compare)
    parser.error("give --save FILE or --compare BEFORE AFTER")
    return 2


if __name__ == "__main__":
    raise SystemExit(main())

"""Conventions every course notebook keeps, checked on the committed files (no kernel needed).

- Test markers are cell tags that nbval reads, not ``# NBVAL_...`` comments in learner code.
- The output answering a "**Predict**" prompt is collapsed until the learner opens it.
- A figure the prose quotes is one the notebook's outputs show (see ``quoted_figures``).
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import nbformat
import pytest

from memcourse.course.timing import LIMIT_MINUTES, measure, stated_minutes

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))


def _refresh_module():
    spec = importlib.util.spec_from_file_location("refresh_notebooks", ROOT / "scripts" / "refresh_notebooks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


refresh = _refresh_module()


@pytest.fixture(params=NOTEBOOKS, ids=lambda path: path.stem)
def notebook(request):
    return request.param.name, nbformat.read(request.param, as_version=4)


def test_there_are_notebooks():
    assert len(NOTEBOOKS) >= 13


def test_no_nbval_comment_markers_in_learner_code(notebook):
    name, nb = notebook
    offenders = [
        index for index, cell in enumerate(nb.cells)
        if cell.cell_type == "code" and re.search(r"^\s*#\s*NBVAL_", cell.source, re.MULTILINE)
    ]
    assert not offenders, (
        f"{name}: cells {offenders} carry a '# NBVAL_...' comment; use the cell tag instead "
        "(scripts/refresh_notebooks.py --markers-only converts them)"
    )


def test_predict_outputs_are_collapsed(notebook):
    name, nb = notebook
    exposed = [
        index for index in range(1, len(nb.cells))
        if nb.cells[index].cell_type == "code" and refresh.is_predict_prompt(nb.cells[index - 1])
        and not (nb.cells[index].metadata.get("jupyter", {}).get("outputs_hidden")
                 and "predict" in nb.cells[index].metadata.get("tags", []))
    ]
    assert not exposed, (
        f"{name}: cells {exposed} answer a **Predict** prompt but show their output; "
        "run scripts/refresh_notebooks.py --markers-only on the notebook"
    )


def test_checked_cells_use_tags_nbval_knows(notebook):
    from nbval.plugin import metadata_tags

    name, nb = notebook
    ours = {"predict"}
    unknown = {
        tag for cell in nb.cells for tag in cell.metadata.get("tags", [])
        if tag.startswith("nbval") and tag not in metadata_tags and tag not in ours
    }
    assert not unknown, f"{name}: tags nbval does not know: {sorted(unknown)}"


def test_apply_markers_converts_comments_and_collapses_predictions():
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_markdown_cell("Some context.\n\n**Predict:** how many?"),
        nbformat.v4.new_code_cell("# NBVAL_CHECK_OUTPUT\nprint(3)"),
        nbformat.v4.new_markdown_cell("**Predict** mentioned early.\n\nThen an ordinary paragraph."),
        nbformat.v4.new_code_cell("#NBVAL_IGNORE_OUTPUT\nx = 1\n# a normal comment"),
    ]
    refresh.apply_markers(nb)
    first, second = nb.cells[1], nb.cells[3]
    assert first.source == "print(3)"
    assert first.metadata["tags"] == ["nbval-check-output", "predict"]
    assert first.metadata["jupyter"]["outputs_hidden"] is True
    assert second.source == "x = 1\n# a normal comment"
    assert second.metadata["tags"] == ["nbval-ignore-output"]
    assert "jupyter" not in second.metadata, "a Predict that is not the last paragraph is not a prompt"
    nb.cells[0].source = "No longer a prompt."
    refresh.apply_markers(nb)
    assert "predict" not in first.metadata["tags"] and "jupyter" not in first.metadata
    assert first.metadata["tags"] == ["nbval-check-output"], "the nbval tag stays when the prompt goes"


# -- figures, counts and references in prose -------------------------------------------------
#: A number in running text: a decimal (0.74), a percentage (22 %), an integer (488), a count
#: (10/10). Not inside a word or an identifier (Phase4, ex03, sk-test-1234, L6).
_FIGURE = re.compile(r"(?<![\w.\-/#§])(\d+\s?/\s?\d+(?![\w.]*\d)|\d+(?:\.\d+)?\s?%|\d+\.\d+|\d+)(?![\w.]*\d)(?![\w])")
#: Number words; "one" is left out (one idea, one number: not a measurement).
NUMBER_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
                "ten": 10, "eleven": 11, "twelve": 12, "twenty": 20}
_NUMBER_WORD = re.compile(r"(?<![\w\-])(" + "|".join(NUMBER_WORDS) + r")(?![\w\-])", re.I)
#: Just before a number, these make it a setting, not a result: "cosine ≥ 0.92", "b = 0.75".
_SETTING = re.compile(r"(?:[=≥≤<>]|threshold|at least|at most|up to|above|below|reach(?:es)?|about|"
                      r"budget(?: of)?|limit(?: of)?|top|every|within|k)\s*\(?$", re.I)
#: Arithmetic the reader can check on the spot: "ln(1 + 4.5/1.5) ≈ 1.39", "1/70 ≈ 0.0143".
_ARITHMETIC_BEFORE = re.compile(r"(?:[\w)]\s*[-+*/×÷^−]\s*|≈\s*|ln\s*\(\s*[\d.\s+\-*/]*)$")
_ARITHMETIC_AFTER = re.compile(r"^\s*(?:[-+*/×÷^]\s*[\d(]|≈)")
#: Section, version, tool, notebook and exercise references: "§5.2", "Python 3.11", "notebook 06".
_REFERENCE_BEFORE = re.compile(r"(?:§|sections?|version|python|v|notebooks?|nb|exercises?|ex|parts?|levels?|"
                               r"cells?|steps?|phase|chapters?|categor(?:y|ies)|seed|and|to|or|[–,]|ipywidgets|"
                               r"jupyterlab|lab|hints?)\s*$", re.I)
_YEAR = re.compile(r"(?:19|20)\d\d$")
#: A line that states the notebook's time (checked by its own test) or is a heading/list number.
_SKIP_LINE = re.compile(r"\*\*Time:\*\*")


def _prose(markdown: str) -> str:
    """The markdown without code (fenced blocks, `spans`, <code>), links' targets, headings'
    and list items' own numbers, and time lines, same length, so positions hold."""
    blank = lambda match: " " * len(match.group())  # noqa: E731
    markdown = re.sub(r"```.*?```", blank, markdown, flags=re.S)
    markdown = re.sub(r"`[^`]*`", blank, markdown)
    markdown = re.sub(r"<code>.*?</code>", blank, markdown, flags=re.S)
    markdown = re.sub(r"\]\([^)]*\)", blank, markdown)
    markdown = re.sub(r'"[^"\n]{1,80}"|“[^”\n]{1,80}”|「[^」\n]{1,80}」', blank, markdown)  # quoted examples
    markdown = re.sub(r"^[ \t]*(?:#+[ \t]*\d+(?:\.\d+)*\.?|\d+\.(?=\s))", blank, markdown, flags=re.M)
    return re.sub(r"^.*\*\*Time:\*\*.*$", blank, markdown, flags=re.M)


def _normal(figure: str) -> str:
    return re.sub(r"\s", "", figure)


def quoted_figures(markdown: str) -> list[tuple[str, str]]:
    """``(figure, context)`` for each number the prose states as a result.

    The rule the notebooks follow: a measured or computed figure in prose, a count included,
    must be visible in an output of the same notebook (print it, or render the sentence with
    ``IPython.display.Markdown`` from the result), so the text cannot drift from the run. Not
    figures: numbers in code (settings belong there: `0.92`), settings marked as such
    ("threshold 0.92", "≥ 0.92"), arithmetic shown in full, references (§5.2, version 0.5,
    notebook 06), years, 0, 1 and 0% / 100% (a goal, not a measurement). Number words ("three
    sentences") are figures too, written out.
    """
    text = _prose(markdown)
    found = []
    for match in sorted([*_FIGURE.finditer(text), *_NUMBER_WORD.finditer(text)], key=lambda m: m.start()):
        figure = match.group(1)
        before, after = text[max(0, match.start() - 40):match.start()], text[match.end():match.end() + 20]
        plain = _normal(figure)
        if plain in ("100%", "0%", "0", "1") or _YEAR.match(plain) or re.match(r"\s*or later", after):
            continue
        if re.fullmatch(r"1/\d+", plain):  # a reciprocal (RRF's 1/61), arithmetic, not a count
            continue
        if _SETTING.search(before) or _REFERENCE_BEFORE.search(before):
            continue
        if _ARITHMETIC_BEFORE.search(before) or _ARITHMETIC_AFTER.search(after):
            continue
        found.append((figure, " ".join((before + "⟦" + figure + "⟧" + after).split())))
    return found


def figure_shown(figure: str, shown: str) -> bool:
    """Whether ``figure`` appears in the outputs as a whole token: 0.7 is not in 0.74, 22 is not
    in 122 or 22.5, 10/10 is 10/10 (spaces aside), "three" is 3 or three."""
    word = NUMBER_WORDS.get(figure.lower())
    if word is not None:
        return bool(re.search(rf"(?<![\w.]){word}(?![\w]|\.\d)|(?<!\w){figure}(?!\w)", shown, re.I))
    plain = _normal(figure).rstrip("%")
    if "/" in plain:
        top, bottom = plain.split("/")
        return bool(re.search(rf"(?<![\d.]){top}\s?/\s?{bottom}(?![\d.])", shown))
    return bool(re.search(rf"(?<![\d.]){re.escape(plain)}(?!\.?\d)", shown))


def _outputs_text(nb) -> str:
    parts = []
    for cell in nb.cells:
        for output in cell.get("outputs", []) if cell.cell_type == "code" else []:
            parts.append(output.get("text", ""))
            parts.extend(value for value in output.get("data", {}).values() if isinstance(value, str))
    return "\n".join(parts)


def test_quoted_figures_rule():
    prose = ("Hybrid has the best MRR (0.74 vs 0.69); at cosine ≥ 0.92 it supersedes; b = 0.75; "
             "ln(1 + 4.5/1.5) ≈ 1.39; see §5.2 and section 3.1; Ollama 0.5 or later; done at 100%; "
             "`0.81` in code; 22 % of its weight; 488 memories; 0/19 passed; after three sentences; "
             "notebook 06; in 2009; Phase4; a two-turn demo; [link](docs/x-2.md); worth 1/61; (df + 0.5); "
             "an example: \"密码是 123456\".")
    assert [figure for figure, _ in quoted_figures(prose)] == ["0.74", "0.69", "22 %", "488", "0/19", "three"]


def test_figures_match_whole_tokens_only():
    shown = "MRR 0.742, recall 37.5 %, 122 hits, 0/19 tests, 3 turns"
    assert not figure_shown("0.74", shown) and figure_shown("0.742", shown)
    assert not figure_shown("22", shown) and not figure_shown("37", shown) and figure_shown("37.5 %", shown)
    assert figure_shown("0/19", shown) and not figure_shown("10/10", shown) and not figure_shown("0/1", shown)
    assert figure_shown("three", shown) and not figure_shown("two", shown)


# -- cross-references ----------------------------------------------------------------------------
_NOTEBOOK_REF = re.compile(r"\b(?:notebooks?|NB)\s*(\d{1,2})(?:\s*(?:,|and|or|–|-|to)\s*(\d{1,2}))*", re.I)
_EXERCISE_REF = re.compile(r"\b(?:exercises?|ex)\s*(\d{2})\b", re.I)
_PATH_REF = re.compile(r"(?<![\w/.])((?:docs|exercises|solutions|memcourse|scripts|benchmarks|tests|notebooks)"
                       r"/[\w./\-]*[\w])")
_SECTION_REF = re.compile(r"\bsection\s+(\d+)(?!\.\d)\b(?!\s*of)", re.I)
_LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def _numbers_in(match: re.Match) -> list[str]:
    return re.findall(r"\d{1,2}", match.group(0))


def broken_references(name: str, nb) -> list[str]:
    """Every reference in the notebook's markdown to a notebook, an exercise, a file of the
    course or a section of this notebook that does not resolve."""
    notebooks = {path.name[:2] for path in NOTEBOOKS}
    exercises = {path.name[2:4] for path in (ROOT / "exercises").glob("ex[0-9][0-9]_*.py")}
    headings = {m.group(1) for cell in nb.cells if cell.cell_type == "markdown"
                for m in re.finditer(r"^#+\s*(\d+)\.", cell.source, re.M)}
    broken = []
    for cell in nb.cells:
        if cell.cell_type != "markdown":
            continue
        text = cell.source
        for match in _NOTEBOOK_REF.finditer(text):
            broken += [f"notebook {n} (“{match.group(0)}”): no such notebook" for n in _numbers_in(match)
                       if n.zfill(2) not in notebooks]
        for match in _EXERCISE_REF.finditer(text):
            if match.group(1) not in exercises:
                broken.append(f"exercise {match.group(1)}: no exercises/ex{match.group(1)}_*.py")
        for match in _PATH_REF.finditer(text):
            path = match.group(1).rstrip(".")
            if "*" in path or "NN" in path or "<" in path:
                continue
            if not (ROOT / path).exists():
                broken.append(f"{path}: no such file or folder")
        for match in _LINK.finditer(text):
            target = match.group(1)
            if re.match(r"[a-z]+:", target):
                continue
            if not (ROOT / "notebooks" / target).resolve().exists():
                broken.append(f"link ({target}): no such file from notebooks/")
        for match in _SECTION_REF.finditer(_prose_keep_numbers(text)):
            before = text[max(0, match.start() - 30):match.start()]
            if re.search(r"(?:§|guide|article|source|Memory|more|《|」|\*)(?:s|'s)?\W*$", before):
                continue  # a section of a source or another document
            if match.group(1) not in headings:
                broken.append(f"section {match.group(1)}: this notebook has no '## {match.group(1)}.' heading")
    return broken


def _prose_keep_numbers(markdown: str) -> str:
    blank = lambda match: " " * len(match.group())  # noqa: E731
    markdown = re.sub(r"```.*?```", blank, markdown, flags=re.S)
    return re.sub(r"`[^`]*`", blank, markdown)


def test_reference_check_catches_what_does_not_resolve():
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell(
        "## 1. One\nSee notebook 42, notebooks 04 and 77, exercise 99, `docs/none.md`, docs/nothing.md, "
        "[x](../docs/missing.md), section 2 below; notebook 03 and exercise 03 and docs/security.md resolve, "
        "as does section 1; the guide's section 6 is the source's.")]
    found = broken_references("x", nb)
    assert found == [
        "notebook 42 (“notebook 42”): no such notebook", "notebook 77 (“notebooks 04 and 77”): no such notebook",
        "exercise 99: no exercises/ex99_*.py", "docs/none.md: no such file or folder",
        "docs/nothing.md: no such file or folder",
        "link (../docs/missing.md): no such file from notebooks/",
        "section 2: this notebook has no '## 2.' heading",
    ], found


# -- "Done when" counts --------------------------------------------------------------------------
_DONE_WHEN = re.compile(r"\*\*Done when:\*\*(.*?)(?:\n\n|\Z)", re.S)


@pytest.fixture(scope="module")
def graded_counts() -> dict[str, int]:
    """Tests per graded file, as pytest collects them (parametrised cases count one each)."""
    import subprocess
    import sys

    result = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
                             "-p", "no:nbval", "--rootdir", str(ROOT / "tests" / "graded"), "-c", "/dev/null",
                             str(ROOT / "tests" / "graded")], cwd=ROOT, capture_output=True, text=True, timeout=300)
    counts: dict[str, int] = {}
    for line in result.stdout.splitlines():
        match = re.match(r"(?:.*/)?test_ex(\d\d)_\w+\.py::", line)
        if match:
            counts[match.group(1)] = counts.get(match.group(1), 0) + 1
    assert counts, result.stdout[-2000:] + result.stderr[-2000:]
    return counts


def done_when_problems(nb, number: str, counts: dict[str, int]) -> list[str]:
    """A "Done when" that states a count must state the graded file's real count, N/N."""
    problems = []
    for cell in nb.cells:
        if cell.cell_type != "markdown":
            continue
        for paragraph in _DONE_WHEN.finditer(cell.source):
            for top, bottom in re.findall(r"(\d+)\s*/\s*(\d+)", paragraph.group(1)):
                expected = counts.get(number)
                if (int(top), int(bottom)) != (expected, expected):
                    problems.append(f"Done when says {top}/{bottom}; tests/graded has {expected} tests for "
                                    f"exercise {number}: write {expected}/{expected} (or only `100%`)")
    return problems


def test_done_when_check_uses_the_graded_count():
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell("**Done when:** exercise 05 shows `10/10` and `100%  done`.")]
    assert done_when_problems(nb, "05", {"05": 19}) == [
        "Done when says 10/10; tests/graded has 19 tests for exercise 05: write 19/19 (or only `100%`)"]
    assert done_when_problems(nb, "05", {"05": 10}) == []


# -- all claims, against the allowlist of known findings ---------------------------------------
ALLOWLIST_PATH = ROOT / "tests" / "notebook_claims_allowlist.json"


def claim_findings(name: str, nb, counts: dict[str, int]) -> list[str]:
    """Every current finding of the three checks above, one line each (no cell numbers, so
    that an edit elsewhere in the notebook does not change them)."""
    shown = _outputs_text(nb)
    findings = [
        f"figure {figure!r} no output shows: “…{context}…”"
        for cell in nb.cells if cell.cell_type == "markdown"
        for figure, context in quoted_figures(cell.source) if not figure_shown(figure, shown)
    ]
    findings += [f"reference: {problem}" for problem in broken_references(name, nb)]
    findings += [f"done when: {problem}" for problem in done_when_problems(nb, name[:2], counts)]
    return list(dict.fromkeys(findings))


def _allowlist() -> dict[str, list[str]]:
    import json

    data = json.loads(ALLOWLIST_PATH.read_text(encoding="utf-8"))
    allowed: dict[str, list[str]] = {}
    for entry in data["findings"]:
        assert entry.get("reason"), f"an allowlisted finding states its reason: {entry}"
        allowed.setdefault(entry["notebook"], []).append(entry["finding"])
    return allowed


def test_prose_claims_match_the_outputs_and_references_resolve(notebook, graded_counts):
    """Figures and counts the prose states are in the outputs, "Done when" counts are the graded
    files' own, and every reference resolves — except the known findings in
    tests/notebook_claims_allowlist.json, which may only shrink: an entry that no longer fails
    must be removed, so a fixed finding cannot come back unnoticed."""
    name, nb = notebook
    stem = name.removesuffix(".ipynb")
    found = claim_findings(name, nb, graded_counts)
    allowed = _allowlist().get(stem, [])
    new = [finding for finding in found if finding not in allowed]
    stale = [finding for finding in allowed if finding not in found]
    assert not new, (
        f"{name}: the prose states what no output shows, or refers to what does not exist; print it from the "
        "result (or render the sentence with IPython.display.Markdown), write a setting as code, or fix the "
        "reference:\n" + "\n".join(new))
    assert not stale, (f"{name}: these allowlisted findings no longer fail; remove them from "
                       f"{ALLOWLIST_PATH.name}:\n" + "\n".join(stale))


#: Notebooks measured over the one-sitting limit, to be split (shrink-only: a notebook that comes
#: under the limit must leave this list, and none may join it).
OVER_THE_LIMIT: set[str] = set()


def test_the_stated_time_is_the_measured_one(notebook):
    """The top cell's time comes from memcourse.course.timing's rule (scripts/notebook_times.py --write)."""
    name, _ = notebook
    path = ROOT / "notebooks" / name
    stated, measured = stated_minutes(path), measure(path)
    assert stated is not None, f"{name}: the first cell states '**Time:** about N minutes, plus M for the exercise.'"
    assert abs(stated - measured.minutes) <= 5, (
        f"{name}: states {stated} minutes, the rule measures {measured.minutes:.0f} "
        "(run scripts/notebook_times.py --write)")
    stem = name.removesuffix(".ipynb")
    if stem in OVER_THE_LIMIT:
        assert measured.minutes > LIMIT_MINUTES, (
            f"{name} is now within {LIMIT_MINUTES} minutes: remove it from OVER_THE_LIMIT")
    else:
        assert measured.minutes <= LIMIT_MINUTES, (
            f"{name}: {measured.minutes:.0f} minutes by the rule, over one sitting ({LIMIT_MINUTES}); "
            "split it or move material")


# -- hint() ------------------------------------------------------------------------------------
_DEFINES_HINT = re.compile(r"^\s*(?:from memcourse\.course(?:\.hints)? import [^\n]*\bhint\b|def hint\b"
                           r"|hint\s*=)", re.M)


def hint_problems(nb) -> list[str]:
    """Why ``hint("NN")`` would raise NameError somewhere in this notebook, if it would.

    ``hint`` must be defined in the setup cell (the first code cell), so that a learner who
    opens a new cell anywhere, or reads "use hint(...)" in any markdown cell, finds it; and no
    cell may mention ``hint(`` before a code cell has defined it.
    """
    code = [index for index, cell in enumerate(nb.cells) if cell.cell_type == "code"]
    defined = [index for index in code if _DEFINES_HINT.search(nb.cells[index].source)]
    problems = []
    if not code or not _DEFINES_HINT.search(nb.cells[code[0]].source):
        problems.append("the setup cell (first code cell) does not import hint: "
                        "add `from memcourse.course import hint`")
    mentions = [index for index, cell in enumerate(nb.cells) if "hint(" in _strip_definitions(cell.source)]
    early = [index for index in mentions if not defined or index < defined[0]
             or (index == defined[0] and nb.cells[index].cell_type == "markdown")]
    if early:
        problems.append(f"cells {early} use hint( before any code cell defines it")
    return problems


def _strip_definitions(source: str) -> str:
    return _DEFINES_HINT.sub("", source)


def test_hint_is_defined_before_first_use(notebook):
    name, nb = notebook
    assert not hint_problems(nb), f"{name}: " + "; ".join(hint_problems(nb))


def test_hint_check_catches_a_late_import():
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("import json"), nbformat.v4.new_markdown_cell('Stuck? `hint("03")`.'),
                nbformat.v4.new_code_cell("from memcourse.course import hint, show_progress\nshow_progress(['03'])")]
    assert len(hint_problems(nb)) == 2
    nb.cells[0].source = "import json\nfrom memcourse.course import hint  # a nudge"
    assert hint_problems(nb) == []
    nb.cells.insert(0, nbformat.v4.new_markdown_cell('Use hint("03") below.'))
    assert hint_problems(nb) == ["cells [0] use hint( before any code cell defines it"]


def test_hint_in_the_setup_cell_runs(capsys):
    """What the setup cell imports is the real thing: a level-1 hint for every notebook's exercise."""
    from memcourse.course import hint

    for path in NOTEBOOKS:
        hint(path.name[:2])
        assert f"ex{path.name[:2]}" in capsys.readouterr().out


def test_stream_outputs_are_merged(notebook):
    """A printed list is one output, not pieces cut wherever the kernel flushed (the refresh
    script merges them): otherwise static renderers show gaps and every re-execution moves the cuts."""
    name, nb = notebook
    split = [index for index, cell in enumerate(nb.cells) if cell.cell_type == "code"
             and any(a.get("output_type") == b.get("output_type") == "stream" and a.get("name") == b.get("name")
                     for a, b in zip(cell.outputs, cell.outputs[1:], strict=False))]
    assert not split, f"{name}: cells {split} hold a cut stream: run scripts/refresh_notebooks.py --markers-only"


def test_merge_streams_joins_only_adjacent_writes_to_one_stream():
    out = [nbformat.v4.new_output("stream", name="stdout", text="a\n"),
           nbformat.v4.new_output("stream", name="stdout", text="b"),
           nbformat.v4.new_output("stream", name="stderr", text="warn\n"),
           nbformat.v4.new_output("display_data", data={"text/plain": "x"}),
           nbformat.v4.new_output("stream", name="stdout", text="c\n")]
    merged = refresh.merge_streams(out)
    assert [(o.output_type, o.get("name"), o.get("text")) for o in merged] == [
        ("stream", "stdout", "a\nb"), ("stream", "stderr", "warn\n"), ("display_data", None, None),
        ("stream", "stdout", "c\n")]

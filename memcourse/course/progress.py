"""The progress view: the same grade report as a terminal table and as an HTML table.

Both name the folder that was graded (a learner with two copies of the course must see which
one counted), show one bar per exercise, and under each unfinished exercise what failed: the
assertion message of each failing test, or the load error, once. Neither shows hints; they
point to ``memcourse hint NN`` / ``hint("NN")`` for the learner who asks.
"""

from __future__ import annotations

import html
import textwrap

from memcourse.course.grading import ExerciseScore, GradeReport
from memcourse.course.layout import display_path

BAR_WIDTH = 12
STATUS_COLOURS = {"done": "#2e7d32", "in progress": "#ef6c00", "not started": "#9e9e9e", "does not load": "#c62828"}


def _bar(percent: int) -> str:
    filled = round(BAR_WIDTH * percent / 100)
    return "█" * filled + "░" * (BAR_WIDTH - filled)


def _tests(exercise: ExerciseScore) -> str:
    return f"{exercise.passed}/{exercise.total}"


def _what_was_graded(report: GradeReport) -> str:
    who = "your work" if report.target == "exercises" else "the reference solutions"
    return f"{who} in {display_path(report.folder)}"


# -- terminal --------------------------------------------------------------------------------
def format_report(report: GradeReport, *, max_failures: int = 3, width: int = 100) -> str:
    """A tidy table: one row per exercise, then indented details for the unfinished ones."""
    title_width = min(max([len(e.title) for e in report.exercises] + [8]), 60)
    lines = [f"memcourse grade · graded: {_what_was_graded(report)}", ""]
    lines.append(f"  {'#':<3} {'exercise':<{title_width}}  {'tests':>7}  {'progress':<{BAR_WIDTH + 5}}  status")
    lines.append("  " + "─" * (3 + 1 + title_width + 2 + 7 + 2 + BAR_WIDTH + 5 + 2 + 13))
    for exercise in report.exercises:
        title = textwrap.shorten(exercise.title, title_width, placeholder="…")
        lines.append(
            f"  {exercise.number:<3} {title:<{title_width}}  {_tests(exercise):>7}  "
            f"{_bar(exercise.percent)} {exercise.percent:>3}%  {exercise.status}"
        )
        lines.extend(_details(exercise, max_failures, width))
    lines.append("")
    lines.append(
        f"  overall: {report.passed}/{report.total} tests passed ({report.percent}%) · "
        f"{report.complete} of {len(report.exercises)} exercises complete"
    )
    if any(not e.complete for e in report.exercises):
        lines.append("  stuck? `memcourse hint NN` gives a nudge; `--level 2` and `--level 3` say more.")
    return "\n".join(lines)


def _details(exercise: ExerciseScore, max_failures: int, width: int) -> list[str]:
    pad = " " * 6
    if exercise.complete:
        return []
    if exercise.load_problem is not None:
        first, *rest = exercise.load_problem.describe().splitlines()
        wrapped = textwrap.wrap(first, width - 10, initial_indent=pad + "    ", subsequent_indent=pad + "    ",
                                break_long_words=False, break_on_hyphens=False)
        return [f"{pad}✗ exercises/{exercise.module}.py does not load; fix this first:", *wrapped,
                *(pad + "  " + line for line in rest)]
    lines = []
    if exercise.unwritten:
        lines.append(f"{pad}still to write: {', '.join(exercise.unwritten)} (exercises/{exercise.module}.py)")
    for outcome in exercise.failures[:max_failures]:
        lines.append(f"{pad}✗ {outcome.name}")
        for line in outcome.message.splitlines():
            lines.extend(textwrap.wrap(line, width - 10, initial_indent=pad + "    ", subsequent_indent=pad + "    ",
                                       break_long_words=False, break_on_hyphens=False) or [pad])
    hidden = len(exercise.failures) - max_failures
    if hidden > 0:
        lines.append(f"{pad}… and {hidden} more failing test(s): memcourse grade {exercise.number} -v")
    if not exercise.not_started or exercise.failures:
        lines.append(f"{pad}hint on request: memcourse hint {exercise.number}")
    return lines


# -- notebook --------------------------------------------------------------------------------


#: Inline styles: JupyterLab's own table rules (right-aligned cells, centred table) would win
#: over a stylesheet in the output, and an untrusted notebook drops <style> blocks anyway.
_CELL = "padding:4px 8px;border-bottom:1px solid #e0e0e0;vertical-align:top;"
_LEFT, _RIGHT = _CELL + "text-align:left;", _CELL + "text-align:right;"


def render_html(report: GradeReport, *, max_failures: int = 10) -> str:
    """The report as an HTML table; failing tests folded in ``<details>`` under each exercise."""
    rows = []
    for exercise in report.exercises:
        colour = STATUS_COLOURS[exercise.status]
        bar = (f'<span class="mc-track" style="display:inline-block;width:120px;height:10px;background:#eee;'
               f'border-radius:3px;vertical-align:middle"><span class="mc-fill" style="display:block;height:10px;'
               f'border-radius:3px;width:{exercise.percent}%;background:{colour}"></span></span> {exercise.percent}%')
        rows.append(
            f'<tr class="mc-row" data-exercise="{exercise.number}">'
            f'<td class="mc-num" style="{_LEFT}width:2.5em">{exercise.number}</td>'
            f'<td class="mc-title" '
            f'style="{_LEFT}">{html.escape(exercise.title)}{_html_details(exercise, max_failures)}</td>'
            f'<td class="mc-tests" style="{_RIGHT}white-space:nowrap;width:4em">{_tests(exercise)}</td>'
            f'<td class="mc-bar" style="{_LEFT}white-space:nowrap;width:170px">{bar}</td>'
            f'<td class="mc-status" '
            f'style="{_LEFT}white-space:nowrap;width:7em;font-weight:600;color:{colour}">{exercise.status}</td></tr>'
        )
    foot = (f"Overall: <b>{report.passed}/{report.total}</b> tests passed ({report.percent}%) · "
            f"{report.complete} of {len(report.exercises)} exercises complete.")
    if any(not e.complete for e in report.exercises):
        foot += ' Stuck? <code>hint("NN")</code> gives a nudge; <code>level=2</code> and <code>level=3</code> say more.'
    widths = {
        "#": "width:2.5em;",
        "exercise": "",
        "tests": "width:4em;",
        "progress": "width:170px;",
        "status": "width:7em;",
    }
    head = "".join(
        f'<th style="{_RIGHT if name == "tests" else _LEFT}{width}font-weight:600">{name}</th>'
        for name, width in widths.items()
    )
    return (
        '<div class="mc-progress" style="font-size:13px;max-width:900px">'
        f'<p class="mc-head" style="margin:0 0 6px 0;text-align:left"><b>Progress</b> · graded: '
        f'<code class="mc-folder">{html.escape(_what_was_graded(report))}</code></p>'
        f'<table style="border-collapse:collapse;width:100%;margin:0"><thead><tr>{head}</tr></thead>'
        f'<tbody>{"".join(rows)}</tbody></table>'
        f'<p class="mc-foot" style="margin-top:6px;color:#555;text-align:left">{foot}</p></div>'
    )


def _html_details(exercise: ExerciseScore, max_failures: int) -> str:
    if exercise.complete:
        return ""
    if exercise.load_problem is not None:
        return (f'<details open style="margin-top:4px"><summary>exercises/{exercise.module}.py does not load</summary>'
                f'<pre style="white-space:pre-wrap;margin:2px '
                f'0">{html.escape(exercise.load_problem.describe())}</pre></details>')
    items = []
    if exercise.unwritten:
        items.append(f"<li>still to write: <code>{'</code>, <code>'.join(map(html.escape, exercise.unwritten))}</code>"
                     f" in <code>exercises/{exercise.module}.py</code></li>")
    for outcome in exercise.failures[:max_failures]:
        items.append(f'<li><code>{html.escape(outcome.name)}</code>'
                     f'<pre style="white-space:pre-wrap;margin:2px 0">{html.escape(outcome.message)}</pre></li>')
    hidden = len(exercise.failures) - max_failures
    if hidden > 0:
        items.append(f"<li>… and {hidden} more: <code>memcourse grade {exercise.number} -v</code></li>")
    label = f"{len(exercise.failures)} failing test(s)" if exercise.failures else "what is left"
    return (f'<details style="margin-top:4px"><summary style="cursor:pointer;color:#555">{label}</summary>'
            f'<ul style="margin:4px 0 0 0;padding-left:18px;text-align:left">{"".join(items)}</ul></details>')


class _HTML:
    """Displays as HTML in Jupyter and as the terminal table anywhere else (e.g. a console)."""

    def __init__(self, report: GradeReport) -> None:
        self.report = report

    def _repr_html_(self) -> str:
        return render_html(self.report)

    def __repr__(self) -> str:
        return format_report(self.report)


def display_report(report: GradeReport) -> None:
    try:
        from IPython import get_ipython
        from IPython.display import display
    except ImportError:
        get_ipython = None
    if get_ipython is not None and get_ipython() is not None:
        display(_HTML(report))
    else:
        print(format_report(report))

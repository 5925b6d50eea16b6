"""The progress view: the same grade report as a terminal table and as an HTML table.

Both name the folder that was graded (a learner with two copies of the course must see which
one counted), show one bar per exercise, and under each unfinished exercise what failed: the
assertion message of each failing test, or the load error, once. Neither shows hints; they
point to ``memcourse hint NN`` / ``hint("NN")`` for the learner who asks.
"""

from __future__ import annotations

import html
import textwrap

from memcourse.course.i18n import display_width, fit, t
from memcourse.course.layout import display_path
from memcourse.course.report import ExerciseScore, GradeReport

BAR_WIDTH = 12
STATUS_COLOURS = {"done": "#2e7d32", "in progress": "#ef6c00", "not started": "#9e9e9e", "does not load": "#c62828"}


def _bar(percent: int) -> str:
    filled = round(BAR_WIDTH * percent / 100)
    return "█" * filled + "░" * (BAR_WIDTH - filled)


def _tests(exercise: ExerciseScore) -> str:
    return f"{exercise.passed}/{exercise.total}"


def status_label(status: str) -> str:
    """The status shown to the learner (``ExerciseScore.status`` itself stays an English key)."""
    return t(status)


def _what_was_graded(report: GradeReport) -> str:
    folder = display_path(report.folder)
    if report.target == "exercises":
        return t("your work in {folder}", folder=folder)
    return t("the reference solutions in {folder}", folder=folder)


# -- terminal --------------------------------------------------------------------------------
def format_report(report: GradeReport, *, max_failures: int = 3, width: int = 100) -> str:
    """A tidy table: one row per exercise, then indented details for the unfinished ones."""
    title_width = min(max([display_width(e.title) for e in report.exercises] + [8]), 60)
    lines = [t("memcourse grade · graded: {what}", what=_what_was_graded(report)), ""]
    tests = t("tests")
    lines.append(f"  {'#':<3} {fit(t('exercise'), title_width)}  {' ' * max(0, 7 - display_width(tests))}{tests}  "
                 f"{fit(t('progress'), BAR_WIDTH + 5)}  {t('status')}")
    lines.append("  " + "─" * (3 + 1 + title_width + 2 + 7 + 2 + BAR_WIDTH + 5 + 2 + 13))
    for exercise in report.exercises:
        lines.append(
            f"  {exercise.number:<3} {fit(exercise.title, title_width)}  {_tests(exercise):>7}  "
            f"{_bar(exercise.percent)} {exercise.percent:>3}%  {status_label(exercise.status)}"
        )
        lines.extend(_details(exercise, max_failures, width))
    lines.append("")
    lines.append("  " + t(
        "overall: {passed}/{total} tests passed ({percent}%) · {complete} of {count} exercises complete",
        passed=report.passed, total=report.total, percent=report.percent, complete=report.complete,
        count=len(report.exercises)))
    if any(not e.complete for e in report.exercises):
        lines.append("  " + t("stuck? `memcourse hint NN` gives a nudge; `--level 2` and `--level 3` say more."))
    return "\n".join(lines)


def _details(exercise: ExerciseScore, max_failures: int, width: int) -> list[str]:
    pad = " " * 6
    if exercise.complete:
        return []
    if exercise.load_problem is not None:
        first, *rest = exercise.load_problem.describe().splitlines()
        wrapped = textwrap.wrap(first, width - 10, initial_indent=pad + "    ", subsequent_indent=pad + "    ",
                                break_long_words=False, break_on_hyphens=False)
        return [pad + t("✗ exercises/{module}.py does not load; fix this first:", module=exercise.module), *wrapped,
                *(pad + "  " + line for line in rest)]
    lines = []
    if exercise.unwritten:
        lines.append(pad + t("still to write: {names} (exercises/{module}.py)",
                             names=", ".join(exercise.unwritten), module=exercise.module))
    for outcome in exercise.failures[:max_failures]:
        lines.append(f"{pad}✗ {outcome.name}")
        for line in outcome.message.splitlines():
            lines.extend(textwrap.wrap(line, width - 10, initial_indent=pad + "    ", subsequent_indent=pad + "    ",
                                       break_long_words=False, break_on_hyphens=False) or [pad])
    hidden = len(exercise.failures) - max_failures
    if hidden > 0:
        lines.append(pad + t("… and {hidden} more failing test(s): memcourse grade {number} -v",
                             hidden=hidden, number=exercise.number))
    if not exercise.not_started or exercise.failures:
        lines.append(pad + t("hint on request: memcourse hint {number}", number=exercise.number))
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
            f'<td class="mc-status" data-status="{exercise.status}" '
            f'style="{_LEFT}white-space:nowrap;width:7em;font-weight:600;'
            f'color:{colour}">{html.escape(status_label(exercise.status))}</td></tr>'
        )
    foot = t("Overall: <b>{passed}/{total}</b> tests passed ({percent}%) · {complete} of {count} exercises complete.",
             passed=report.passed, total=report.total, percent=report.percent, complete=report.complete,
             count=len(report.exercises))
    if any(not e.complete for e in report.exercises):
        foot += " " + t(
            'Stuck? <code>hint("NN")</code> gives a nudge; <code>level=2</code> and <code>level=3</code> say more.'
        )
    widths = {
        "#": "width:2.5em;",
        "exercise": "",
        "tests": "width:4em;",
        "progress": "width:170px;",
        "status": "width:7em;",
    }
    head = "".join(
        f'<th style="{_RIGHT if name == "tests" else _LEFT}{width}font-weight:600">{html.escape(t(name))}</th>'
        for name, width in widths.items()
    )
    return (
        '<div class="mc-progress" style="font-size:13px;max-width:900px">'
        f'<p class="mc-head" style="margin:0 0 6px 0;text-align:left"><b>{t("Progress")}</b> · {t("graded:")} '
        f'<code class="mc-folder">{html.escape(_what_was_graded(report))}</code></p>'
        f'<table style="border-collapse:collapse;width:100%;margin:0"><thead><tr>{head}</tr></thead>'
        f'<tbody>{"".join(rows)}</tbody></table>'
        f'<p class="mc-foot" style="margin-top:6px;color:#555;text-align:left">{foot}</p></div>'
    )


def _html_details(exercise: ExerciseScore, max_failures: int) -> str:
    if exercise.complete:
        return ""
    if exercise.load_problem is not None:
        return (
            f'<details open style="margin-top:4px"><summary>'
            f"{t('exercises/{module}.py does not load', module=exercise.module)}</summary>"
            f'<pre style="white-space:pre-wrap;margin:2px 0">'
            f"{html.escape(exercise.load_problem.describe())}</pre></details>"
        )
    items = []
    if exercise.unwritten:
        items.append("<li>" + t("still to write: <code>{names}</code> in <code>exercises/{module}.py</code>",
                                names="</code>, <code>".join(map(html.escape, exercise.unwritten)),
                                module=exercise.module) + "</li>")
    for outcome in exercise.failures[:max_failures]:
        items.append(f'<li><code>{html.escape(outcome.name)}</code>'
                     f'<pre style="white-space:pre-wrap;margin:2px 0">{html.escape(outcome.message)}</pre></li>')
    hidden = len(exercise.failures) - max_failures
    if hidden > 0:
        items.append("<li>" + t("… and {hidden} more: <code>memcourse grade {number} -v</code>",
                                hidden=hidden, number=exercise.number) + "</li>")
    label = t("{count} failing test(s)", count=len(exercise.failures)) if exercise.failures else t("what is left")
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

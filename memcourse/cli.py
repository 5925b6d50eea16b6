"""The ``memcourse`` command.

- ``memcourse demo``   chat with the memory-aware agent on a JSON store (``--script FILE`` to
  replay a file of messages, one per line, without a keyboard)
- ``memcourse doctor`` check this machine is ready for the course
- ``memcourse grade``  grade your exercises
- ``memcourse hint``   a hint for an exercise, on request (``--level 1|2|3``)
- ``memcourse eval``   run the bilingual recall evaluation (vector vs keyword vs hybrid);
  ``--guards``, ``--extraction`` and ``--e2e`` run the guard, extraction and end-to-end ones

Subcommands import what they need when they run, so ``memcourse --help`` is instant.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TextIO

DEMO_HELP = """Type a message and press Enter. Commands:
  :memories        list what is in long-term memory
  :forget ID       delete one memory for real
  :quit            leave (Ctrl-D works too)"""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="memcourse", description="Long-term memory for LLM agents: the course's "
                                          "tools.")
    sub = parser.add_subparsers(dest="command", required=True)

    demo = sub.add_parser("demo", help="chat with the memory-aware agent")
    demo.add_argument("--store", type=Path, default=None,
                      help="JSON store file (default: $MEMCOURSE_DATA_DIR or ./memcourse-data, file "
                           "demo-memories.json)")
    demo.add_argument("--script", type=Path, default=None,
                      help="replay messages from FILE, one per line ('#' lines are comments; '-' reads stdin)")
    demo.add_argument("--user", default="default", help="whose memories to use (default: %(default)s)")
    demo.add_argument("--reset", action="store_true", help="forget this user's memories before starting")

    doctor = sub.add_parser("doctor", help="check the environment")
    doctor.add_argument("--deep", action="store_true", help="also load the embedding model and embed a sentence")
    doctor.add_argument("--data-dir", type=Path, default=None, help="data directory to check for writing")

    # Listed for --help; their own parsers (memcourse.course.grading, memcourse.course.hints,
    # memcourse.evaluation) take over.
    sub.add_parser("grade", help="grade your exercises (memcourse grade --help)")
    sub.add_parser("hint", help="a hint for an exercise, level 1 to 3 (memcourse hint NN --level 2)")
    sub.add_parser("eval", help="bilingual recall evaluation per search mode (memcourse eval --help)")
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    # grade, hint and eval own their options: hand them everything after the subcommand.
    if argv and argv[0] == "grade":
        from memcourse.course.grading import main as grade_main

        return grade_main(argv[1:])
    if argv and argv[0] == "hint":
        from memcourse.course.hints import main as hint_main

        return hint_main(argv[1:])
    if argv and argv[0] == "eval":
        return _eval(argv[1:])
    args = build_parser().parse_args(argv)
    if args.command == "demo":
        return run_demo(args)
    if args.command == "doctor":
        from memcourse.course.doctor import format_report, run_checks

        checks = run_checks(deep=args.deep, data_dir=args.data_dir)
        print(format_report(checks))
        return 0 if all(check.ok for check in checks) else 1
    raise AssertionError(f"unhandled command {args.command}")


#: ``memcourse eval --KIND``: which evaluation module runs it (each has ``main(argv)``).
EVALUATIONS = {
    "--guards": "memcourse.guard_eval",  # the labelled guard corpus: secrets, injections, benign
    "--extraction": "memcourse.extraction_eval",  # extraction + reconciliation on conversations
    "--e2e": "memcourse.e2e_eval",  # multi-session questions answered end to end
}


def _eval(argv: list[str]) -> int:
    """Recall evaluation by default; ``--guards``, ``--extraction``, ``--e2e`` pick another."""
    from importlib import import_module

    for flag, module in EVALUATIONS.items():
        if flag in argv:
            rest = [arg for arg in argv if arg != flag]
            return import_module(module).main(rest)
    from memcourse.evaluation import main as eval_main

    return eval_main(argv)


def run_demo(args: argparse.Namespace, out: TextIO | None = None) -> int:
    from memcourse.agent import MemoryAwareAgent
    from memcourse.course.doctor import default_data_dir
    from memcourse.stores.base import StoreError
    from memcourse.stores.json_store import JsonMemoryStore

    out = out or sys.stdout
    path = args.store or default_data_dir() / "demo-memories.json"
    try:
        store = JsonMemoryStore(path)
    except StoreError as error:
        print(f"memcourse demo: {error}", file=sys.stderr)
        return 2
    if args.reset:
        store.forget_user(args.user)
    agent = MemoryAwareAgent(store, user_id=args.user)
    print(f"memory store: {path} (user {args.user!r})", file=out)

    if args.script is not None:
        try:
            lines = (
                sys.stdin.read().splitlines()
                if str(args.script) == "-"
                else args.script.read_text(encoding="utf-8").splitlines()
            )
        except OSError as error:
            print(f"memcourse demo: cannot read script: {error}", file=sys.stderr)
            return 2
        for message in (line.strip() for line in lines):
            if message and not message.startswith("#"):
                _turn(agent, message, out, echo=True)
        return 0

    print(DEMO_HELP, file=out)
    while True:
        try:
            message = input("you> ").strip()
        except (EOFError, KeyboardInterrupt):
            print(file=out)
            return 0
        if not message:
            continue
        if message in {":quit", ":exit", ":q"}:
            return 0
        if message == ":memories":
            for record in store.list_all(user_id=args.user):
                print(f"  {record.memory_id}  [{record.memory_type.value}] {record.content}", file=out)
            continue
        if message.startswith(":forget"):
            memory_id = message[len(":forget"):].strip()
            print("  forgotten" if memory_id and store.forget(memory_id) else f"  no memory {memory_id!r}", file=out)
            continue
        _turn(agent, message, out, echo=False)


def _turn(agent, message: str, out: TextIO, *, echo: bool) -> None:
    reply = agent.reply(message)
    if echo:
        print(f"you> {message}", file=out)
    print("agent> " + reply.answer.replace("\n", "\n       "), file=out)
    print(file=out)


if __name__ == "__main__":
    sys.exit(main())

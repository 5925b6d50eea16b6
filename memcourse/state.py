"""Short-term run state: what a checkpoint saves, and why it is not memory.

An agent run has a goal, the steps it took, what it observed and what it still means to do.
That is exactly what a checkpoint (LangGraph's, or this class's snapshot) needs to resume a
run. It is *not* long-term memory: most of it (a failed search, an intermediate rewrite) is
noise the day after. Nothing here is ever written to a memory store; only the policy gate
decides what crosses that line.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

SNAPSHOT_KEYS = ("goal", "steps", "observations", "pending_actions")


@dataclass
class ShortTermState:
    goal: str
    steps: list[str] = field(default_factory=list)
    observations: list[str] = field(default_factory=list)
    pending_actions: list[str] = field(default_factory=list)

    def add_step(self, step: str) -> None:
        self.steps.append(_entry(step, "step"))

    def add_observation(self, observation: str) -> None:
        self.observations.append(_entry(observation, "observation"))

    def add_pending_action(self, action: str) -> None:
        self.pending_actions.append(_entry(action, "pending action"))

    def complete_action(self, action: str) -> None:
        """Mark a pending action done (it moves to the steps)."""
        try:
            self.pending_actions.remove(action)
        except ValueError:
            raise ValueError(f"no pending action {action!r}") from None
        self.steps.append(action)

    def snapshot(self) -> dict[str, Any]:
        """A deep copy of the run state. Changing the snapshot never changes the run, and
        vice versa: a checkpoint that aliases live state is not a checkpoint."""
        return copy.deepcopy({key: getattr(self, key) for key in SNAPSHOT_KEYS})

    @classmethod
    def restore(cls, snapshot: dict[str, Any]) -> "ShortTermState":
        """Resume a run from a snapshot (again a copy, so the snapshot stays reusable)."""
        missing = [key for key in SNAPSHOT_KEYS if key not in snapshot]
        if missing:
            raise ValueError(f"snapshot is missing: {', '.join(missing)}")
        data = copy.deepcopy(snapshot)
        for key in SNAPSHOT_KEYS[1:]:
            if not isinstance(data[key], list):  # a string would restore as one step per character
                raise ValueError(f"snapshot[{key!r}] must be a list, got {type(data[key]).__name__}")
        return cls(
            goal=_entry(data["goal"], "goal"),
            steps=[_entry(s, "step") for s in data["steps"]],
            observations=[_entry(o, "observation") for o in data["observations"]],
            pending_actions=[_entry(a, "pending action") for a in data["pending_actions"]],
        )


def _entry(value: Any, what: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{what} must be a non-empty string, got {value!r}")
    return value

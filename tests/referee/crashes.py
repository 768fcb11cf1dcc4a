"""An engine crash is a bug, never a refusal, and the tests tell the two apart.

The judge turns an exception other than ``IllegalMove`` / ``SetupError`` into an "illegal"
verdict ("log.move_crash", "log.setup_crash"), so that a bug in an engine never crashes the site.
A test that checks only the status would take such a crash for the refusal it expects. So:

- ``engine_crashes_fail`` (autouse, for the whole suite through tests/conftest.py) makes the
  judge re-raise the engine's exception: every public example, property test and fuzz run that
  crashes an engine turns red with the engine's own traceback;
- ``assert_refused`` checks a refusal by its message id (and parameters), the rule that refused;
- ``assert_not_crashed`` is the same check on a judgement, for a run that judges without the
  fixture (or wants to say so).
"""

from __future__ import annotations

import importlib
from typing import Any

import pytest

from referee.messages import Message

JUDGE = importlib.import_module("referee.judge")  # ``referee.judge`` is also the function
#: the verdicts on an engine that raised instead of refusing
CRASHES = ("log.move_crash", "log.setup_crash")
#: the ids that frame a refusal: the problem is their parameter
FRAMES = ("log.move", "log.bad_setup")


def _reraise(exc: Exception) -> str:
    raise exc


@pytest.fixture(autouse=True)
def engine_crashes_fail(monkeypatch):
    """The judge re-raises an engine's crash instead of calling it illegal."""
    monkeypatch.setattr(JUDGE, "crash_name", _reraise)


def problem(judgement) -> Message | None:
    """The rule a judgement refused by: its verdict without the frame ("move 3: ..."), or None
    when it refused nothing."""
    verdict = judgement.verdict
    if verdict is not None and verdict.id in FRAMES:
        return verdict.params["problem"]
    return verdict


def assert_not_crashed(judgement) -> None:
    """The judgement is a ruling: legal, or refused by a rule, never by an engine's crash."""
    refused = problem(judgement)
    assert refused is None or refused.id not in CRASHES, f"an engine crashed: {refused}"


def assert_refused(judgement, message_id: str, /, *, move: Any = ..., **params: Any) -> Message:
    """The judgement refuses by ``message_id``, with ``params`` among its parameters, at ``move``
    (a move's index from 0, None for the envelope or the setup) when given. Returns the refusal,
    for the test to look further."""
    assert judgement.status == "illegal", judgement.as_dict()
    assert_not_crashed(judgement)
    refused = problem(judgement)
    assert refused.id == message_id, str(refused)
    for name, value in params.items():
        assert refused.params[name] == value, (name, str(refused))
    if move is not ...:
        assert judgement.error["move"] == move, judgement.error
    return refused

"""The public example logs (tests/fixtures/examples) and how a judgement is checked against them."""

import json
from pathlib import Path

#: The public example logs and their expected judgements, kept as the project's own fixtures.
EXAMPLES = Path(__file__).resolve().parent / "fixtures" / "examples"
#: The move log of each public example, as players would tell it: ``<example>.<language>.txt``.
MOVE_LOGS = EXAMPLES.parent / "move_logs"


#: Public cases of rules not built yet, each with the open issue that builds it. Their tests are
#: strict expected failures, so they start failing (and must be moved out of here) once it lands.
NOT_YET: dict[str, str] = {}


def example_paths(game: str) -> list[Path]:
    """The public example logs of one game (``""`` for every game), without their expectations."""
    prefix = f"{game}-" if game else ""
    return sorted(
        p for p in EXAMPLES.glob(f"{prefix}*.json") if not p.name.endswith(".expected.json")
    )


def example_cases(game: str) -> list[tuple[dict, dict]]:
    """The public example cases of one game: (log, expected judgement)."""
    cases = []
    for path in example_paths(game):
        expected = path.with_name(path.name.removesuffix(".json") + ".expected.json")
        cases.append((json.loads(path.read_text()), json.loads(expected.read_text())))
    return cases


def illegal_example(game: str) -> tuple[dict, int]:
    """The game's first public example refused at a move, and that move's number (from 0)."""
    for log, expected in example_cases(game):
        if expected["status"] == "illegal" and expected["error"]["move"] is not None:
            return log, expected["error"]["move"]
    raise LookupError(f"{game} has no public example refused at a move")


def example_params(game: str) -> list:
    """``example_cases`` as ``pytest.param``s named after their file, for ``parametrize``; a case
    of ``NOT_YET`` is a strict expected failure."""
    import pytest

    params = []
    for path, case in zip(example_paths(game), example_cases(game), strict=True):
        name = path.name.removesuffix(".json")
        marks = [pytest.mark.xfail(reason=NOT_YET[name], strict=True)] if name in NOT_YET else []
        params.append(pytest.param(*case, id=name, marks=marks))
    return params


def assert_judged_as_expected(result: dict, expected: dict) -> None:
    """A referee output line (``Judgement.as_dict()``, with or without "file") against an
    .expected.json: status, the first illegal move, scores in seat order, winners, and every
    detail the expected file names (a referee may add more). Messages are not compared: the
    examples' wording is not required, but a message must exist and name the move."""
    assert result["status"] == expected["status"]
    if expected["error"] is None:
        assert result["error"] is None
    else:
        move = expected["error"]["move"]
        assert result["error"]["move"] == move
        prefix = "" if move is None else f"move {move}: "
        assert result["error"]["message"].startswith(prefix) and result["error"]["message"]
    assert result["scores"] == expected["scores"]
    assert list(result["scores"]) == list(expected["scores"])  # seat order
    assert result["winners"] == expected["winners"]
    for key, value in expected["details"].items():
        assert result["details"][key] == value, key
    json.dumps(result)  # JSON-serialisable, as the referee command prints it


def json_values(max_leaves: int = 16):
    """Hypothesis: any JSON value (the referee must answer every one without raising)."""
    from hypothesis import strategies as st

    return st.recursive(
        st.none()
        | st.booleans()
        | st.integers()
        | st.floats(allow_nan=False)
        | st.text(max_size=12),
        lambda children: (
            st.lists(children, max_size=4)
            | st.dictionaries(st.text(max_size=8), children, max_size=4)
        ),
        max_leaves=max_leaves,
    )


def canonical_log(log: dict, judgement) -> dict:
    """``log`` as the referee understood it (``judgement`` is its judgement): the canonical setup
    and legal moves, then the moves from the first illegal one on, as written."""
    return {
        "format": log["format"],
        "game": log["game"],
        "players": log["players"],
        "setup": judgement.setup,
        "moves": [*judgement.moves, *log["moves"][len(judgement.moves) :]],
    }


def assert_canonical_round_trip(log) -> dict | None:
    """Judging a log as the referee understood it gives the same judgement as judging it as
    written, and understanding it again changes nothing (the canonical form is a fixed point).
    Returns the canonical log (None when the envelope or the setup is wrong)."""
    from referee import judge

    judgement = judge(log)
    if judgement.setup is None:  # nothing was understood
        assert judgement.moves == [] and judgement.status == "illegal"
        return None
    # plain JSON: no tuples, nothing that would not survive the database or a download
    assert json.loads(json.dumps(judgement.setup)) == judgement.setup
    assert json.loads(json.dumps(judgement.moves)) == judgement.moves
    canonical = canonical_log(log, judgement)
    again = judge(canonical)
    assert again.as_dict() == judgement.as_dict()
    assert again.ranks == judgement.ranks
    assert again.setup == judgement.setup
    assert again.moves == judgement.moves
    return canonical

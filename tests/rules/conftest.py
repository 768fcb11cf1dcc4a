import json
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[2].parent / "shared" / "examples"


def example_cases(game: str) -> list[tuple[dict, dict]]:
    """The public cases of ../shared/examples for one game: (log, expected judgement)."""
    cases = []
    for path in sorted(EXAMPLES.glob(f"{game}-*.json")):
        if path.name.endswith(".expected.json"):
            continue
        expected = path.with_name(path.name.removesuffix(".json") + ".expected.json")
        cases.append((json.loads(path.read_text()), json.loads(expected.read_text())))
    return cases


@pytest.fixture
def examples_dir() -> Path:
    return EXAMPLES


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

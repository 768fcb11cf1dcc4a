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

"""axe-core in the page: the WCAG 2.0–2.2 A and AA rules run on what the browser shows.

axe-core is a test dependency from npm (package.json, pinned in package-lock.json; `make
test-browser` runs `npm ci` when node_modules is missing). Without it a test that checks a page
fails, saying how to install it: it never skips.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from .conftest import RESULTS

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
#: WCAG 2.0, 2.1 and 2.2, levels A and AA (axe's tags)
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]

RUN = """async (tags) => {
  const results = await axe.run(document, {
    runOnly: {type: 'tag', values: tags}, resultTypes: ['violations'],
  });
  return results.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map((n) => ({
      target: n.target.join(' '), summary: (n.failureSummary || '').replace(/\\s+/g, ' '),
    })),
  }));
}"""


def violations(page) -> list[dict]:
    """axe's violations on the page as it stands: ``{id, impact, help, nodes: [{target,
    summary}]}``."""
    if not AXE.exists():
        pytest.fail(
            f"axe-core is missing ({AXE}): run `npm ci` at the repository root "
            "(`make test-browser` does it)",
            pytrace=False,
        )
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        # Evaluated, not added as a <script>: the site's CSP (script-src 'self') refuses an
        # inline script tag, and bypassing it would draw a page the players never see.
        page.evaluate(AXE.read_text())
    return page.evaluate(RUN, TAGS)


def report(found: list[dict], where: str = "") -> str:
    """The violations as lines a person reads: the rule, how many nodes, and each node."""
    lines = []
    for v in found:
        lines.append(f"{where}{v['id']} ({v['impact']}, {len(v['nodes'])} nodes): {v['help']}")
        for node in v["nodes"][:8]:
            lines.append(f"    {node['target']}: {node['summary'][:300]}")
        if len(v["nodes"]) > 8:
            lines.append(f"    … and {len(v['nodes']) - 8} more")
    return "\n".join(lines)


def count(found: list[dict]) -> int:
    """How many nodes fail, over every rule."""
    return sum(len(v["nodes"]) for v in found)


def assert_clean(page, where: str = "") -> None:
    """No axe violation on the page as it stands."""
    found = violations(page)
    assert not found, f"axe on {where or page.url}: {count(found)} nodes\n" + report(found)


class Audit:
    """Violations gathered over many states of a page, asserted once at the end so that one run
    shows every state that fails (``check`` after each state, ``assert_clean`` at the end)."""

    def __init__(self, label: str):
        self.label = label
        self.found: dict[str, list[dict]] = {}
        self.states = 0

    def check(self, page, state: str) -> None:
        self.states += 1
        found = violations(page)
        if found:
            self.found[state] = found

    def counts(self) -> dict[str, int]:
        return {state: count(found) for state, found in self.found.items()}

    def save(self) -> None:
        """The nodes failing per state and rule, under test-results/axe/ (the figures of a run)."""
        folder = RESULTS / "axe"
        folder.mkdir(parents=True, exist_ok=True)
        name = re.sub(r"[^\w.-]+", "_", self.label)
        summary = {
            "states": self.states,
            "nodes": sum(self.counts().values()),
            "found": {
                state: {v["id"]: len(v["nodes"]) for v in found}
                for state, found in self.found.items()
            },
        }
        (folder / f"{name}.json").write_text(json.dumps(summary, indent=1, ensure_ascii=False))

    def assert_clean(self) -> None:
        self.save()
        text = "\n".join(report(found, f"[{state}] ") for state, found in self.found.items())
        total = sum(self.counts().values())
        assert not self.found, (
            f"axe ({self.label}): {total} nodes in {len(self.found)} of {self.states} states\n"
            + text
        )

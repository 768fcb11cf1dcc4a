"""Why it scored: the referee tells which windows made a Thricewise card's points and which suits
and cards made each Forget Venice criterion. Checked against the hand count of the public
examples (tests/fixtures/examples/README.md, worked out from the rules) and against the
referee's own scores on random games."""

from __future__ import annotations

import itertools
import json

import pytest

from referee import judge
from referee.decktet import BASIC_DECK, BY_NAME
from referee.forget_venice import half_breakdown
from referee.thricewise import RANK, explain_window, window_points
from tests.examples import EXAMPLES
from tests.referee.test_thricewise import random_game


def _judged(name: str):
    return judge(json.loads((EXAMPLES / f"{name}.json").read_text()))


def _told(scored) -> list[tuple]:
    """(turn, player, card, points, [(cards, kinds, suits, worth, points)]) per placed card."""
    return [
        (
            s.turn,
            s.player,
            s.card,
            s.points,
            [(w.cards, w.kinds, w.suits, w.worth, w.points) for w in s.windows],
        )
        for s in scored
    ]


# --- Thricewise -----------------------------------------------------------------------------


def test_thricewise_1_as_counted_by_hand():
    """README, thricewise-1: turns 3 to 5 (0-based), card by card."""
    judgement = _judged("thricewise-1")
    assert _told(judgement.state.why()) == [
        # Turn 3: Bard–Sea–Origin is nothing.
        (3, "Eli", "The Origin", 0, []),
        # Turn 4: Huntress–End–Painter shares no suit; Painter–Calamity–Sea is nothing.
        (4, "Dev", "The Painter", 0, []),
        (4, "Dev", "The Battle", 0, []),
        # Painter 3, Battle 4, Discovery 5: a straight with no shared suit, worth 3.
        (
            4,
            "Dev",
            "The Discovery",
            3,
            [(("The Painter", "The Battle", "The Discovery"), ("straight",), (), 3, 3)],
        ),
        # Calamity–Windfall–Merchant is nothing.
        (4, "Chloé", "The Merchant", 0, []),
        # Turn 5: the row Battle 4–Discovery 5–Market 6 is a straight worth 4; the column
        # Origin–Merchant–Market shares Leaves: a flush worth 2. 6 in all.
        (
            5,
            "Dev",
            "The Market",
            6,
            [
                (("The Battle", "The Discovery", "The Market"), ("straight",), (), 4, 4),
                (("The Origin", "The Merchant", "The Market"), ("flush",), ("Leaves",), 2, 2),
            ],
        ),
        # Windfall (Crown), Merchant 9, Betrayal 8: the straight 10-9-8 and a Knots flush, worth
        # 8 (the Crown is no number card), once for each kind: 16.
        (
            5,
            "Eli",
            "The Betrayal",
            16,
            [
                (
                    ("The Windfall", "The Merchant", "The Betrayal"),
                    ("flush", "straight"),
                    ("Knots",),
                    8,
                    16,
                )
            ],
        ),
    ]
    assert judgement.scores == {"Ana": 0, "Ben": 0, "Chloé": 0, "Dev": 9, "Eli": 16}


def test_thricewise_2_as_counted_by_hand():
    """README, thricewise-2: the state before the illegal move."""
    judgement = _judged("thricewise-2")
    assert _told(judgement.state.why()) == [
        # Ace of Suns–Bard–Sailor is nothing.
        (1, "Ana", "The Sailor", 0, []),
        # Author 2–Journey 3–Forest 5: a Moons flush worth 2 (2-3-5 is no straight).
        (
            1,
            "Ana",
            "The Forest",
            2,
            [(("The Author", "The Journey", "The Forest"), ("flush",), ("Moons",), 2, 2)],
        ),
        # Castle–Ace of Suns–Bard: a Suns flush worth 7.
        (
            1,
            "Ben",
            "The Castle",
            7,
            [(("The Castle", "Ace of Suns", "The Bard"), ("flush",), ("Suns",), 7, 7)],
        ),
    ]


def test_every_window_is_told_as_the_referee_scores_it():
    """Every ordered triple of the basic deck: the told window's points are ``window_points``."""
    cells = ((0, 0), (1, 0), (2, 0))
    for a, b, c in itertools.product(range(len(BASIC_DECK)), repeat=3):
        assert explain_window(cells, (a, b, c)).points == window_points(a, b, c), (a, b, c)


def test_a_set_of_crowns_is_told_worth_nothing():
    crowns = [i for i, rank in enumerate(RANK) if rank == 10][:3]
    window = explain_window(((0, 0), (1, 0), (2, 0)), tuple(crowns))
    assert window.kinds == ("set",) and window.worth == 0 and window.points == 0


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_windows_add_up_to_every_cards_points_and_every_score(players):
    for seed in range(15):
        judgement = judge(random_game(seed, players))
        assert judgement.status == "finished"
        scored = judgement.state.why()
        assert [s.points for s in scored] == [p["points"] for p in judgement.details["placements"]]
        for s in scored:
            assert sum(w.points for w in s.windows) == s.points
            assert all(s.cell in w.cells and s.card in w.cards for w in s.windows)
        totals = dict.fromkeys(judgement.scores, 0)
        for s in scored:
            totals[s.player] += s.points
        assert totals == judgement.scores


def test_a_turn_is_told_before_it_is_committed():
    """``why_turn`` tells a planned turn as ``why`` tells it once made."""
    log = json.loads((EXAMPLES / "thricewise-1.json").read_text())
    judgement = judge({**log, "moves": log["moves"][:5]})
    state = judgement.state
    plan = state.check(log["moves"][5])
    before = _told(state.why_turn(plan))
    state.commit(plan)
    assert before == _told(state.why()[-2:])
    assert [s[3] for s in before] == [6, 16]


def test_a_turn_told_on_from_the_turns_before_is_told_as_the_whole_game(monkeypatch):
    """``why`` works out only the last turn's cards when the turns before were worked out
    (issue 32: each move's score sheet told every turn again), and tells the same."""
    import referee.thricewise as thricewise

    monkeypatch.setattr(thricewise, "_TOLD", {})
    worked_out = []
    windows_at = thricewise.windows_at
    monkeypatch.setattr(
        thricewise,
        "windows_at",
        lambda board, cell: worked_out.append(cell) or windows_at(board, cell),
    )
    game = random_game(3, 3)
    for moves in range(1, len(game["moves"]) + 1):
        state = judge({**game, "moves": game["moves"][:moves]}).state
        worked_out.clear()
        told = _told(state.why())
        last_turn = [p for p in state.placements if p[0] == state.placements[-1][0]]
        assert len(worked_out) == (len(last_turn) if moves > 1 else len(state.placements))
        assert _told(state.why()) == told  # kept: nothing worked out again
        assert len(worked_out) == (len(last_turn) if moves > 1 else len(state.placements))
        thricewise._TOLD.clear()  # the whole game worked out anew tells the same
        assert _told(state.why()) == told


# --- Forget Venice --------------------------------------------------------------------------


def _criteria(judgement, player, half) -> list[tuple]:
    """(criterion, points, [(suit, count, run length)]) for each criterion."""
    return [
        (c.criterion, c.points, [(t.suit, t.count, t.run_length) for t in c.suits])
        for c in judgement.state.why(player, half)
    ]


def test_forget_venice_1_as_counted_by_hand():
    """README, forget-venice-1: every criterion of both halves."""
    judgement = _judged("forget-venice-1")
    expected = {
        # Ana, the Aces and Crowns: each suit twice, every run 1.
        ("Ana", 1): [
            ("I", 2, [("Moons", 2, 1), ("Knots", 2, 1)]),
            ("II", 0, [("Suns", 2, 1), ("Wyrms", 2, 1)]),
            ("III", 1, [("Waves", 2, 1), ("Leaves", 2, 1)]),
        ],
        # Ben, ranks 2–5: each suit 4 times, runs 2-3-4-5.
        ("Ben", 1): [
            ("I", 4, [("Waves", 4, 4), ("Knots", 4, 4)]),
            ("II", 0, [("Moons", 4, 4), ("Wyrms", 4, 4)]),
            ("III", 4, [("Leaves", 4, 4), ("Suns", 4, 4)]),
        ],
        # Chloé: Moons 8, Suns 7, Waves 6, Leaves 7, Wyrms 6, Knots 8, every suit runs 6 to Court.
        ("Chloé", 1): [
            ("I", 7, [("Moons", 8, 6), ("Leaves", 7, 6)]),
            ("II", 1, [("Suns", 7, 6), ("Waves", 6, 6)]),
            ("III", 6, [("Wyrms", 6, 6), ("Knots", 8, 6)]),
        ],
        # Ana, second half: 6–9, the Pawns, the Courts and the Ace of Leaves.
        ("Ana", 2): [
            ("I", 6, [("Leaves", 8, 6), ("Wyrms", 6, 6)]),
            ("II", 1, [("Knots", 8, 6), ("Suns", 7, 6)]),
            ("III", 6, [("Moons", 8, 6), ("Waves", 6, 6)]),
        ],
        ("Ben", 2): [
            ("I", 4, [("Moons", 4, 4), ("Suns", 4, 4)]),
            ("II", 0, [("Waves", 4, 4), ("Wyrms", 4, 4)]),
            ("III", 4, [("Leaves", 4, 4), ("Knots", 4, 4)]),
        ],
        # Chloé, second half: five Aces (not Leaves) and the six Crowns.
        ("Chloé", 2): [
            ("I", 1, [("Waves", 2, 1), ("Leaves", 1, 1)]),
            ("II", 0, [("Moons", 2, 1), ("Knots", 2, 1)]),
            ("III", 1, [("Suns", 2, 1), ("Wyrms", 2, 1)]),
        ],
    }
    for (player, half), criteria in expected.items():
        assert _criteria(judgement, player, half) == criteria, (player, half)
    # The runs themselves: Ben's Leaves run 2-3-4-5, Chloé's Moons 6 to Court (two Pawns and two
    # Courts bear Moons: both of each are in the run, one rank each).
    ben = judgement.state.why("Ben", 1)[2].suits[0]
    assert ben.run == ("The Origin", "The Savage", "The Sailor", "The Forest")
    chloe = judgement.state.why("Chloé", 1)[0].suits[0]
    assert chloe.run == (
        "The Lunatic",
        "The Chance Meeting",
        "The Diplomat",
        "The Pact",
        "The Watchman",
        "The Harvest",
        "The Consul",
        "The Rite",
    )
    assert chloe.run_length == 6
    # Chloé's second-half Leaves: only The End (the Ace of Leaves went to Ana).
    assert judgement.state.why("Chloé", 2)[0].suits[1].cards == ("The End",)


def test_forget_venice_2_as_counted_by_hand():
    """README, forget-venice-2: deal 1, before the illegal deal 2."""
    judgement = _judged("forget-venice-2")
    assert _criteria(judgement, "Ana", 1) == [
        ("I", 0, [("Moons", 2, 1), ("Knots", 0, 0)]),
        ("II", 0, [("Suns", 0, 0), ("Wyrms", 0, 0)]),
        ("III", 0, [("Waves", 0, 0), ("Leaves", 0, 0)]),
    ]
    assert _criteria(judgement, "Ben", 1) == [
        ("I", 0, [("Waves", 0, 0), ("Knots", 1, 1)]),
        ("II", 0, [("Moons", 1, 1), ("Wyrms", 1, 1)]),
        ("III", 1, [("Leaves", 0, 0), ("Suns", 1, 1)]),
    ]
    assert _criteria(judgement, "Chloé", 1) == [
        ("I", 1, [("Moons", 1, 1), ("Leaves", 1, 1)]),
        ("II", 0, [("Suns", 1, 1), ("Waves", 1, 1)]),
        ("III", 1, [("Wyrms", 1, 1), ("Knots", 1, 1)]),
    ]


@pytest.mark.parametrize("name", ["forget-venice-1", "forget-venice-2"])
def test_the_criteria_told_are_the_referees(name):
    judgement = _judged(name)
    state = judgement.state
    for half in (1, 2):
        for player in state.players:
            told = {c.criterion: c.points for c in state.why(player, half)}
            assert told == {k: v for k, v in state.criteria(player, half).items() if k != "total"}


def test_a_run_is_the_longest_and_the_lowest_of_two_as_long():
    from referee.decktet import BY_NAME

    cards = [BY_NAME[n] for n in ("The Author", "The Journey", "The Lunatic", "The Chance Meeting")]
    # Moons: 2, 3, then 6, 7: two runs of 2, the lowest is told.
    (_one, _two, three) = half_breakdown(
        cards, (("Suns", "Wyrms"), ("Waves", "Leaves"), ("Moons", "Knots"))
    )
    assert three.suits[0].run == ("The Author", "The Journey") and three.points == 2


def test_a_half_is_told_once_for_its_cards_and_sheet():
    """Every move's score sheet tells each half of each player again (issue 32): a half over
    is told from the same cards and pairs as the move before, so it is worked out once, and
    the very same telling comes back, later moves included."""
    log = json.loads((EXAMPLES / "forget-venice-1.json").read_text())
    first_half_over = judge({**log, "moves": log["moves"][:7]}).state
    later = judge(log).state
    for player in later.players:
        told = first_half_over.why(player, 1)
        assert later.why(player, 1) is told
        assert first_half_over.why(player, 1) is told
        cards = [BY_NAME[name] for name in later.collection(player, 1)]
        assert told == half_breakdown(cards, later.sheets[player]["1"])

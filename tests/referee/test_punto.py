"""Punto (gamelog.md §5): one test per rule and ruling, the public cases, and property tests."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee import IllegalMove, SetupError, judge
from referee.punto import DIRECTIONS, GAME, Punto
from tests.examples import (
    assert_canonical_round_trip,
    assert_judged_as_expected,
    example_cases,
    example_params,
)
from tests.referee.crashes import assert_not_crashed, assert_refused

TWO = ["Ana", "Ben"]
THREE = ["Ana", "Ben", "Chloé"]
FOUR = ["Ana", "Ben", "Chloé", "Dev"]
COLOURS_2 = {"Ana": ["red", "blue"], "Ben": ["orange", "green"]}
COLOURS_3 = {"Ana": ["red"], "Ben": ["blue"], "Chloé": ["green"]}  # orange is neutral
COLOURS_4 = {"Ana": ["red"], "Ben": ["blue"], "Chloé": ["green"], "Dev": ["orange"]}
LETTERS = {"r": "red", "o": "orange", "b": "blue", "g": "green"}


def make_log(players, colours, moves):
    return {
        "format": "gamelog/1",
        "game": "punto",
        "players": list(players),
        "setup": {"colours": colours},
        "moves": list(moves),
    }


def mv(player, card, x, y):
    return {"player": player, "card": card, "at": [x, y]}


def blocked(player, card):
    return {"player": player, "card": card, "blocked": True}


def judge2(moves):
    return judge(make_log(TWO, COLOURS_2, moves))


def judge3(moves):
    return judge(make_log(THREE, COLOURS_3, moves))


def interleave(players, *sequences):
    """Moves taking turns in seat order: sequences[i] are (card, x, y) for players[i]."""
    moves = []
    for i in range(max(len(s) for s in sequences)):
        for player, seq in zip(players, sequences, strict=False):
            if i < len(seq):
                moves.append(mv(player, *seq[i]))
    return moves


def grid_moves(players, colours, rows, starter=0, teams=None):
    """Moves that fill a 6 × 6 table exactly as ``rows`` shows it ("r2 o9 ..." per row, row 0
    first), taking turns in seat order from ``starter`` and always touching a card (with
    ``teams``, a partner plays any card of the team's colours)."""
    side = {p: tuple(t) for t in teams for p in t} if teams else {p: p for p in players}
    owner = {c: side[p] for p, cs in colours.items() for c in cs}
    cells = {}
    for y, row in enumerate(rows):
        for x, token in enumerate(row.split()):
            cells[(x, y)] = f"{LETTERS[token[0]]}-{token[1:]}"
    remaining = {s: set() for s in side.values()}
    for cell, card in cells.items():
        remaining[owner[card.split("-")[0]]].add(cell)
    order: list = []
    placed: set = set()

    def touches(cell):
        return any((cell[0] + dx, cell[1] + dy) in placed for dx in (-1, 0, 1) for dy in (-1, 0, 1))

    def search(k):
        if not any(remaining.values()):
            return True
        mine = remaining[side[players[(starter + k) % len(players)]]]
        for cell in sorted(mine, key=lambda c: (c[1], c[0])):
            if placed and not touches(cell):
                continue
            mine.discard(cell)
            placed.add(cell)
            order.append(cell)
            if search(k + 1):
                return True
            order.pop()
            placed.discard(cell)
            mine.add(cell)
        return False

    assert search(0), "no order of turns fills this grid"
    return [mv(players[(starter + k) % len(players)], cells[c], *c) for k, c in enumerate(order)]


# A full table: Ana has two series (red row 0: 2+3+4+5 = 14; blue column 0: 6+6+5+5 = 22),
# Ben one (green column 5: 8+7+6+5 = 26). No line of 5 anywhere.
GRID_MOST_SERIES = [
    "r2 r3 r4 r5 o9 o9",
    "b6 g9 b9 g8 b8 g8",
    "b6 o8 r9 o7 r8 g7",
    "b5 g6 b7 g7 b9 g6",
    "b5 o6 o3 o5 r8 g5",
    "r7 g4 b8 g4 b7 o4",
]
# One series each: Ana red row 0 (14), Ben green column 5 (1+2+3+4 = 10).
GRID_LOWEST_SERIES = [
    "r2 r3 r4 r5 o9 o9",
    "b6 g9 b9 g8 b8 g1",
    "b7 o8 r9 o7 r8 g2",
    "r6 g6 b7 g7 b6 g3",
    "b9 o6 o3 o5 r8 g4",
    "r7 g5 b5 g9 b5 o4",
]
# One series each, both worth 14: Ana red row 0 (2+3+4+5), Ben green column 5 (2+3+4+5).
GRID_STILL_TIED = [
    "r2 r3 r4 r5 o9 o9",
    "b6 g9 b9 g8 b8 g2",
    "b7 o8 r9 o7 r8 g3",
    "r6 g6 b7 g7 b6 g4",
    "b9 o6 o3 o5 r8 g5",
    "r7 g6 b5 g9 b5 o4",
]
# No two neighbours share a colour: nobody has a series.
GRID_NO_SERIES = [
    "r2 o2 r3 o3 r4 o4",
    "b2 g2 b3 g3 b4 g4",
    "r5 o5 r6 o6 r7 o7",
    "b5 g5 b6 g6 b7 g7",
    "r8 o8 r9 o9 r2 o2",
    "b8 g8 b9 g9 b8 g8",
]


def grid_with(top_row, left_column):
    """GRID_MOST_SERIES with Ana's red row 0 (x 0–3) and blue column 0 (y 1–4) replaced."""
    rows = [row.split() for row in GRID_MOST_SERIES]
    rows[0][:4] = [f"r{v}" for v in top_row]
    for y, v in enumerate(left_column, start=1):
        rows[y][0] = f"b{v}"
    return [" ".join(row) for row in rows]


def sides_of(players, setup):
    """Independent of the engine: each player's side (who wins rounds with them), each colour's
    side, and the cards in a row that win."""
    teams = setup.get("teams")
    side = (
        {p: frozenset(t) for t in teams for p in t}
        if teams
        else {p: frozenset([p]) for p in players}
    )
    owner = {c: side[p] for p, cs in setup["colours"].items() for c in cs}
    line = 5 if len(players) == 2 or teams else 4
    return side, owner, line


def line_count(board, owner, line):
    """Independent check: whose ``line`` own-coloured visible cards are in a row (``owner``:
    colour → side)."""
    cells = {tuple(map(int, k.split(","))): v.split("-")[0] for k, v in board.items()}
    found = set()
    for (x, y), colour in cells.items():
        if colour not in owner:
            continue
        for dx, dy in DIRECTIONS:
            if all(cells.get((x + i * dx, y + i * dy)) == colour for i in range(line)):
                found.add(owner[colour])
    return found


# ---------------------------------------------------------------- the public cases


@pytest.mark.parametrize(("log", "expected"), example_params("punto"))
def test_public_examples(log, expected):
    assert_judged_as_expected(judge(log).as_dict(), expected)


# ---------------------------------------------------------------- setup


def test_two_players_hold_two_colours_each():
    assert judge(make_log(TWO, COLOURS_2, [])).status == "in_progress"
    result = judge(make_log(TWO, {"Ana": ["red"], "Ben": ["orange", "green"]}, []))
    assert_refused(result, "punto.setup_two_colours_1", move=None, player="Ana", count=2)


def test_three_or_four_players_hold_one_colour_each():
    assert judge(make_log(FOUR, COLOURS_4, [])).status == "in_progress"
    bad = dict(COLOURS_3, Ana=["red", "orange"])
    result = judge(make_log(THREE, bad, []))
    assert_refused(result, "punto.setup_one_colour_n", move=None, player="Ana", number=2)
    result = judge(make_log(THREE, dict(COLOURS_3, Ben="blue"), []))
    assert_refused(
        result, "punto.setup_one_colour_value", move=None, count=3, player="Ben", value="blue"
    )


def test_colours_are_all_distinct():
    result = judge(make_log(TWO, {"Ana": ["red", "blue"], "Ben": ["blue", "green"]}, []))
    assert_refused(result, "punto.setup_colour_twice", colour="blue", player_first="Ana")
    result = judge(make_log(TWO, {"Ana": ["red", "red"], "Ben": ["blue", "green"]}, []))
    assert_refused(result, "punto.setup_own_colour_twice", player="Ana", colour="red")


def test_colour_keys_are_exactly_the_players():
    result = judge(make_log(TWO, {"Ana": ["red", "blue"], "ben": ["orange", "green"]}, []))
    assert_refused(result, "punto.setup_not_player", move=None, value="ben")
    result = judge(make_log(TWO, {"Ana": ["red", "blue"]}, []))
    assert_refused(result, "punto.setup_colours_missing", move=None, player="Ben")


def test_colour_names_are_case_insensitive():
    colours = {"Ana": [" Red ", "BLUE"], "Ben": ["Orange", "green"]}
    result = judge(make_log(TWO, colours, [mv("Ana", "RED-7", 0, 0)]))
    assert result.status == "in_progress"
    assert result.details["colours"] == COLOURS_2


def test_unknown_colour_or_missing_setup_is_a_setup_error():
    pink = judge(make_log(TWO, {"Ana": ["red", "pink"], "Ben": ["orange", "green"]}, []))
    assert_refused(pink, "punto.setup_not_colour", move=None, value="pink")
    for setup, message_id in (
        (None, "json.object"),
        ([], "json.object"),
        ({"colours": None}, "punto.setup_no_colours"),
        ({"colours": ["red"]}, "punto.setup_no_colours"),
    ):
        log = make_log(TWO, COLOURS_2, [])
        log["setup"] = setup
        assert_refused(judge(log), message_id, move=None)
    with pytest.raises(SetupError):
        Punto.start(TWO, {})


def test_punto_is_for_two_to_four_players():
    five = ["A", "B", "C", "D", "E"]
    colours = {p: ["red"] for p in five}
    for players in (five, ["A"]):
        result = judge(make_log(players, colours, []))
        assert_refused(result, "game.player_count", count=2, count_max=4, number=len(players))
        assert "2 to 4 players" in result.message


def test_neutral_colour_is_the_fourth_colour_with_three_players():
    assert judge(make_log(THREE, COLOURS_3, [])).details["neutral"] == "orange"
    assert judge(make_log(FOUR, COLOURS_4, [])).details["neutral"] is None
    assert judge(make_log(TWO, COLOURS_2, [])).details["neutral"] is None


# ---------------------------------------------------------------- turns and cards


def test_players_play_in_seat_order():
    result = judge2([mv("Ana", "red-1", 0, 0), mv("Ana", "red-2", 1, 0)])
    assert_refused(result, "punto.not_your_turn", move=1, player_turn="Ben", player="Ana")
    result = judge2([mv("Ben", "green-1", 0, 0)])
    assert_refused(result, "punto.not_your_turn", move=0, player_turn="Ana", player="Ben")


def test_round_one_starts_with_the_first_seat():
    assert judge3([mv("Ana", "red-1", 0, 0)]).status == "in_progress"
    result = judge3([mv("Ben", "blue-1", 0, 0)])
    assert_refused(result, "punto.not_your_turn", move=0, player_turn="Ana")


def test_player_names_are_matched_exactly():
    result = judge2([mv("ana", "red-1", 0, 0)])
    assert_refused(result, "json.player", move=0, value="ana")


def test_wrong_colour_is_illegal():
    result = judge2([mv("Ana", "green-3", 0, 0)])
    assert_refused(result, "punto.not_own_colour", move=0, colour="green")
    assert result.message == "move 0: Ana plays red and blue, not green: green-3 is not theirs"
    result = judge(make_log(FOUR, COLOURS_4, [mv("Ana", "orange-3", 0, 0)]))
    assert_refused(result, "punto.not_own_colour", move=0, colours=["red"], colour="orange")


def test_with_three_players_a_colour_neither_own_nor_neutral_is_illegal():
    result = judge3([mv("Ana", "blue-3", 0, 0)])
    assert_refused(
        result, "punto.not_own_colour_neutral", move=0, player="Ana", colours=["red"],
        colour_neutral="orange", colour="blue", card="blue-3",
    )  # fmt: skip
    assert result.message == (
        "move 0: Ana plays red (or the neutral orange), not blue: blue-3 is not theirs"
    )


def test_anyone_may_play_the_neutral_colour():
    moves = [
        mv("Ana", "orange-3", 0, 0),
        mv("Ben", "orange-4", 1, 0),
        mv("Chloé", "orange-5", 2, 0),
    ]
    assert judge3(moves).status == "in_progress"


def test_card_names_are_case_insensitive():
    assert judge2([mv("Ana", "  Red-7 ", 0, 0), mv("Ben", "GREEN-1", 1, 0)]).status == "in_progress"


@pytest.mark.parametrize("card", ["red-0", "red-10", "red", "7", "purple-3", "red-3-4", 7, None])
def test_a_card_is_a_colour_and_a_value_from_1_to_9(card):
    result = judge2([mv("Ana", card, 0, 0)])
    assert_refused(result, "punto.not_card", move=0, value=card)


def test_a_card_is_played_at_most_twice_per_round():
    moves = [
        mv("Ana", "red-5", 0, 0), mv("Ben", "green-1", 1, 0),
        mv("Ana", "red-5", 2, 0), mv("Ben", "green-2", 3, 0),
        mv("Ana", "red-5", 0, 1),
    ]  # fmt: skip
    result = judge2(moves)
    assert_refused(result, "punto.copies_played", move=4, card="red-5")


def test_covered_cards_count_as_played():
    moves = [
        mv("Ana", "red-2", 0, 0), mv("Ben", "green-5", 0, 0),
        mv("Ana", "red-2", 1, 0), mv("Ben", "green-6", 1, 0),
        mv("Ana", "red-2", 2, 0),
    ]  # fmt: skip
    assert_refused(judge2(moves), "punto.copies_played", move=4, card="red-2")


# ---------------------------------------------------------------- placement


def test_first_card_goes_anywhere():
    assert judge2([mv("Ana", "red-1", -40, 17)]).status == "in_progress"


def test_card_must_touch_a_card():
    result = judge2([mv("Ana", "red-1", 0, 0), mv("Ben", "green-1", 2, 0)])
    assert_refused(result, "punto.not_touching", move=1, card="green-1", cell=(2, 0))


def test_diagonal_touch_is_enough():
    assert judge2([mv("Ana", "red-1", 0, 0), mv("Ben", "green-1", 1, -1)]).status == "in_progress"


def test_covering_a_lower_value_is_legal_whatever_its_colour():
    moves = [mv("Ana", "red-1", 0, 0), mv("Ben", "green-2", 0, 0), mv("Ana", "red-3", 0, 0)]
    result = judge2(moves)
    assert result.status == "in_progress"
    assert result.details["board"] == {"0,0": "red-3"}


def test_details_board_lists_the_cells_by_row_then_column():
    moves = [mv("Ana", "red-1", 0, 0), mv("Ben", "green-2", -1, 1), mv("Ana", "red-3", 1, 0)]
    moves += [mv("Ben", "green-4", 0, -1)]
    board = judge2(moves).details["board"]
    assert list(board) == ["0,-1", "0,0", "1,0", "-1,1"]


def test_covering_an_equal_value_is_illegal():
    result = judge2([mv("Ana", "red-4", 0, 0), mv("Ben", "green-4", 0, 0)])
    assert_refused(result, "punto.cannot_cover", move=1, card_below="red-4")
    assert result.message == (
        "move 1: green-4 cannot cover red-4 at (0, 0): a card covers only a card of strictly "
        "lower value"
    )


def test_covering_a_higher_value_is_illegal():
    result = judge2([mv("Ana", "red-4", 0, 0), mv("Ben", "green-3", 0, 0)])
    assert_refused(result, "punto.cannot_cover", move=1, card="green-3", card_below="red-4")


def test_six_by_six_box_blocks_a_line():
    ana = [("red-1", 0, 0), ("red-2", 1, 0), ("red-3", 2, 0), ("red-4", 3, 0), ("red-5", 4, 0)]
    ben = [("orange-1", -1, 1), ("orange-2", -2, 1), ("green-1", -2, 2), ("green-2", -2, 3)]
    result = judge2(interleave(TWO, ana, ben))
    assert_refused(result, "punto.too_wide", move=8, count=7, count_max=6)
    assert result.details["rounds"] == []
    # the same line grown on the other side stays inside the box, and wins
    ana[-1] = ("red-5", -1, 0)
    assert judge2(interleave(TWO, ana, ben)).details["rounds"] == [
        {"winner": "Ana", "how": "line", "removed": "red-5"}
    ]


def test_six_by_six_box_counts_rows_too():
    ana = [("red-1", 0, 0), ("red-2", 0, 1), ("red-3", 0, 2), ("blue-1", 0, 3)]
    ben = [("green-1", 1, -1), ("green-2", 1, -2), ("green-3", 1, -3)]
    result = judge2(interleave(TWO, ana, ben))
    assert_refused(result, "punto.too_high", move=6, count=7, count_max=6)


def test_the_box_does_not_stop_covering():
    ana = [("red-1", 0, 0), ("red-2", 2, 0), ("red-3", 4, 0)]
    ben = [("green-1", 1, 0), ("green-2", 3, 0), ("green-3", 5, 0)]
    moves = interleave(TWO, ana, ben) + [mv("Ana", "blue-9", 5, 0)]
    assert judge2(moves).status == "in_progress"


def test_a_move_needs_a_cell_of_two_integers():
    for at in (None, [0], [0, "1"], [0.5, 1], [True, 0], "0,0"):
        move = {"player": "Ana", "card": "red-1", "at": at}
        assert_refused(judge2([move]), "json.cell", move=0)
    assert_refused(judge2([{"player": "Ana", "card": "red-1"}]), "punto.no_cell", move=0)


# ---------------------------------------------------------------- rounds won by a line


def test_five_in_a_column_wins_with_two_players_and_four_do_not():
    ana = [(f"red-{v}", 0, v) for v in range(1, 6)]
    ben = [(f"green-{v}", 1, v) for v in range(1, 5)]
    result = judge2(interleave(TWO, ana, ben))
    assert result.details["rounds"] == [{"winner": "Ana", "how": "line", "removed": "red-5"}]
    assert result.scores == {"Ana": 1, "Ben": 0}
    assert result.details["board"] == {}  # the next round starts on an empty table


def test_anti_diagonal_line_wins():
    ana = [("red-9", 0, 4), ("red-2", 1, 3), ("red-3", 2, 2), ("red-4", 3, 1), ("red-5", 4, 0)]
    ben = [("green-1", 0, 3), ("green-2", 1, 2), ("green-3", 2, 1), ("green-4", 3, 0)]
    assert judge2(interleave(TWO, ana, ben)).details["rounds"] == [
        {"winner": "Ana", "how": "line", "removed": "red-9"}
    ]


def test_two_player_lines_are_single_coloured():
    ana = [("red-1", 0, 0), ("red-2", 1, 0), ("blue-3", 2, 0), ("red-4", 3, 0), ("red-5", 4, 0)]
    ben = [("green-1", 0, 1), ("green-2", 1, 1), ("orange-3", 2, 1), ("green-4", 3, 1)]
    result = judge2(interleave(TWO, ana, ben))
    assert result.status == "in_progress" and result.details["rounds"] == []


def test_four_in_a_row_wins_with_three_players_and_neutral_line_never_wins():
    # Ana lays four neutral oranges in row 0, Ben three blues, Chloé four greens in row 2.
    ana = [(f"orange-{v}", v - 1, 0) for v in range(1, 5)]
    ben = [("blue-1", 0, 1), ("blue-2", 1, 1), ("blue-3", 2, 1), ("blue-4", 4, 1)]
    chloe = [(f"green-{v}", v - 1, 2) for v in range(1, 5)]
    result = judge3(interleave(THREE, ana, ben, chloe))
    assert result.status == "in_progress"
    assert result.details["rounds"] == [{"winner": "Chloé", "how": "line", "removed": "green-4"}]


def test_neutral_line_never_wins():
    ana = [(f"orange-{v}", v - 1, 0) for v in range(1, 5)]
    ben = [(f"blue-{v}", v - 1, 1) for v in range(1, 4)]
    chloe = [(f"green-{v}", v - 1, 2) for v in range(1, 4)]
    result = judge3(interleave(THREE, ana, ben, chloe))
    assert result.status == "in_progress" and result.details["rounds"] == []
    assert result.details["board"]["3,0"] == "orange-4"


def test_winner_removes_highest_card_among_all_winning_segments():
    moves = [
        mv("Ana", "red-1", 0, 0), mv("Ben", "blue-1", 0, 1), mv("Chloé", "green-1", 1, 1),
        mv("Ana", "red-2", 1, 0), mv("Ben", "blue-2", 0, 2), mv("Chloé", "green-2", 1, 2),
        mv("Ana", "red-3", 2, 0), mv("Ben", "blue-3", 2, 1), mv("Chloé", "green-3", 2, 2),
        mv("Ana", "red-7", 3, 1), mv("Ben", "blue-4", 2, 3), mv("Chloé", "green-4", 1, 3),
        mv("Ana", "red-8", 3, 2), mv("Ben", "blue-5", 0, 3), mv("Chloé", "green-5", 2, 4),
        mv("Ana", "red-9", 3, 3), mv("Ben", "blue-6", 4, 4), mv("Chloé", "green-6", 4, 3),
        mv("Ana", "red-4", 3, 0),  # row 1-2-3-4 and column 4-7-8-9 at once
    ]  # fmt: skip
    result = judge3(moves)
    assert result.details["rounds"] == [{"winner": "Ana", "how": "line", "removed": "red-9"}]


def test_winning_segment_is_the_maximal_run():
    # the fifth red fills the gap: the segment is 9-2-6-3-1, so red-9 goes even though the
    # four cards ending on the played one (2-6-3-1) do not hold it
    moves = [
        mv("Ana", "red-9", 0, 0), mv("Ben", "blue-1", 0, 1), mv("Chloé", "green-1", 1, 1),
        mv("Ana", "red-2", 1, 0), mv("Ben", "blue-2", 2, 1), mv("Chloé", "green-2", 3, 1),
        mv("Ana", "red-3", 3, 0), mv("Ben", "blue-3", 4, 1), mv("Chloé", "green-3", 5, 1),
        mv("Ana", "red-1", 4, 0), mv("Ben", "blue-4", 0, 2), mv("Chloé", "green-4", 1, 2),
        mv("Ana", "red-6", 2, 0),
    ]  # fmt: skip
    result = judge3(moves)
    assert result.details["rounds"] == [{"winner": "Ana", "how": "line", "removed": "red-9"}]


def test_removed_card_cannot_come_back():
    round_1 = interleave(
        TWO,
        [(f"red-{v}", 0, y) for y, v in enumerate((1, 2, 3, 4, 9))],
        [(f"green-{v}", 1, v) for v in range(1, 5)],
    )  # Ana wins, red-9 leaves the game: one copy is left
    round_2 = [
        mv("Ben", "green-1", 0, 0), mv("Ana", "red-9", 1, 0),
        mv("Ben", "green-2", 2, 0), mv("Ana", "red-9", 3, 0),
    ]  # fmt: skip
    result = judge2(round_1 + round_2)
    assert_refused(result, "punto.copy_removed", move=len(round_1) + 3, card="red-9")
    assert result.details["removed"] == ["red-9"]
    assert result.state.cards_left("red", 9) == 0
    assert result.state.cards_left("red", 8) == 2


def test_copies_come_back_each_round():
    round_1 = interleave(
        TWO,
        [("red-1", 0, 0), ("red-2", 0, 1), ("red-3", 0, 2), ("red-4", 0, 3), ("red-5", 0, 4)],
        [("green-1", 1, 0), ("green-1", 1, 1), ("green-3", 1, 2), ("green-4", 1, 3)],
    )
    round_2 = [mv("Ben", "green-1", 0, 0), mv("Ana", "red-1", 1, 0), mv("Ben", "green-1", 2, 0)]
    assert judge2(round_1 + round_2).status == "in_progress"


def test_next_round_starts_left_of_winner():
    ana = [(f"orange-{v}", v - 1, 0) for v in range(1, 5)]
    ben = [("blue-1", 0, 1), ("blue-2", 1, 1), ("blue-3", 2, 1), ("blue-4", 4, 1)]
    chloe = [(f"green-{v}", v - 1, 2) for v in range(1, 5)]
    round_1 = interleave(THREE, ana, ben, chloe)  # Chloé wins: Ana, on her left, starts
    result = judge3(round_1 + [mv("Ben", "blue-5", 0, 0)])
    assert_refused(result, "punto.not_your_turn", move=len(round_1), player_turn="Ana")
    result = judge3(round_1 + [mv("Ana", "red-5", 0, 0)])
    assert result.status == "in_progress" and result.details["round"] == 2
    # in punto-1 Ana wins round 1 and Ben starts round 2
    assert (
        judge2(
            interleave(
                TWO,
                [(f"red-{v}", 0, v) for v in range(1, 6)],
                [(f"green-{v}", 1, v) for v in range(1, 5)],
            )
        ).details["to_play"]
        == "Ben"
    )


def test_match_ends_when_a_player_has_won_two_rounds():
    log = example_cases("punto")[0][0]
    result = judge(log)
    assert result.status == "finished" and result.winners == ["Ana"]
    assert result.details["to_play"] is None
    longer = copy.deepcopy(log)
    longer["moves"].append(mv("Ben", "green-1", 0, 0))
    result = judge(longer)
    assert result.error == {"move": 21, "message": "move 21: the game has already ended"}
    assert result.scores == {"Ana": 2, "Ben": 0}
    one_round = copy.deepcopy(log)
    del one_round["moves"][-1]
    assert judge(one_round).status == "in_progress" and judge(one_round).winners == []


# ---------------------------------------------------------------- blocked rounds


def test_false_blocked_is_illegal():
    moves = [mv("Ana", "red-5", 0, 0), mv("Ben", "green-1", 1, 0), blocked("Ana", "red-1")]
    result = judge2(moves)
    assert_refused(result, "punto.not_blocked", move=2, card="red-1")
    assert result.details["rounds"] == []


def test_blocked_on_an_empty_table_is_illegal():
    result = judge2([blocked("Ana", "red-1")])
    assert_refused(result, "punto.not_blocked_first", move=0, card="red-1")


def test_blocked_card_is_blocked_when_only_covering_is_out_of_reach():
    # a full 6 × 6 table where every card is at least 2: a 1 has nowhere to go, a 3 has
    moves = grid_moves(TWO, COLOURS_2, GRID_NO_SERIES)
    result = judge2([*moves, blocked("Ana", "blue-3")])
    assert_refused(result, "punto.not_blocked", move=36, card="blue-3")
    assert judge2([*moves, blocked("Ana", "blue-1")]).details["rounds"] == [
        {"winner": None, "how": "blocked", "removed": None}
    ]


def test_blocked_card_must_be_one_the_player_could_draw():
    moves = grid_moves(TWO, COLOURS_2, GRID_NO_SERIES)
    result = judge2([*moves, blocked("Ana", "green-1")])
    assert_refused(result, "punto.not_own_colour", move=36, colour="green")
    result = judge2([*moves, blocked("Ben", "green-1")])
    assert_refused(result, "punto.not_your_turn", move=36, player_turn="Ana")


def test_blocked_card_needs_a_copy_left_this_round():
    moves = grid_moves(TWO, COLOURS_2, GRID_NO_SERIES)  # blue-8 is twice on the table
    result = judge2([*moves, blocked("Ana", "blue-8")])
    assert_refused(result, "punto.copies_played", move=36, card="blue-8")


def test_blocked_move_names_no_cell():
    moves = grid_moves(TWO, COLOURS_2, GRID_NO_SERIES)
    move = dict(blocked("Ana", "blue-1"), at=[0, 0])
    assert_refused(judge2([*moves, move]), "punto.blocked_with_cell", move=36)
    result = judge2([*moves, dict(blocked("Ana", "blue-1"), blocked="yes")])
    assert_refused(result, "punto.blocked_value", move=36, value="yes")


def test_blocked_round_most_series_wins():
    moves = grid_moves(TWO, COLOURS_2, GRID_MOST_SERIES)
    result = judge2([*moves, blocked("Ana", "red-1")])
    assert result.status == "in_progress"
    # Ana 2 series, Ben 1; Ana's lowest-valued series is red 2-3-4-5: she removes red-5
    assert result.details["rounds"] == [{"winner": "Ana", "how": "blocked", "removed": "red-5"}]
    assert result.scores == {"Ana": 1, "Ben": 0}
    assert result.details["last_round_board"]["0,0"] == "red-2"


def test_blocked_round_tie_break_lowest_series():
    moves = grid_moves(TWO, COLOURS_2, GRID_LOWEST_SERIES)
    result = judge2([*moves, blocked("Ana", "red-1")])
    # one series each: Ben's green 1-2-3-4 (10) is lower than Ana's red 2-3-4-5 (14)
    assert result.details["rounds"] == [{"winner": "Ben", "how": "blocked", "removed": "green-4"}]


def test_blocked_round_still_tied_has_no_winner():
    moves = grid_moves(TWO, COLOURS_2, GRID_STILL_TIED)
    result = judge2([*moves, blocked("Ana", "red-1")])
    assert result.details["rounds"] == [{"winner": None, "how": "blocked", "removed": None}]
    assert result.scores == {"Ana": 0, "Ben": 0}


def test_blocked_round_nobody_with_a_series_has_no_winner():
    moves = grid_moves(TWO, COLOURS_2, GRID_NO_SERIES)
    result = judge2([*moves, blocked("Ana", "red-1")])
    assert result.details["rounds"] == [{"winner": None, "how": "blocked", "removed": None}]


def test_blocked_round_removal_takes_highest_card_among_lowest_series():
    # red 2-3-4-5 and blue 1-3-4-6 both sum to 14: the highest card among them is blue-6
    moves = grid_moves(TWO, COLOURS_2, grid_with((2, 3, 4, 5), (1, 3, 4, 6)))
    result = judge2([*moves, blocked("Ana", "red-1")])
    assert result.details["rounds"] == [{"winner": "Ana", "how": "blocked", "removed": "blue-6"}]


@pytest.mark.parametrize(
    ("ana_colours", "removed"), [(["red", "blue"], "red-5"), (["blue", "red"], "blue-5")]
)
def test_blocked_round_removal_equal_values_take_colour_listed_first(ana_colours, removed):
    colours = {"Ana": ana_colours, "Ben": ["orange", "green"]}
    moves = grid_moves(TWO, colours, grid_with((2, 3, 4, 5), (2, 3, 4, 5)))
    result = judge(make_log(TWO, colours, [*moves, blocked("Ana", "red-1")]))
    assert result.details["rounds"] == [{"winner": "Ana", "how": "blocked", "removed": removed}]


def test_round_without_winner_next_starts_left_of_starter():
    round_1 = [*grid_moves(TWO, COLOURS_2, GRID_NO_SERIES), blocked("Ana", "red-1")]
    result = judge2([*round_1, mv("Ana", "red-1", 0, 0)])
    assert_refused(result, "punto.not_your_turn", move=37, player_turn="Ben", player="Ana")
    round_2 = [*grid_moves(TWO, COLOURS_2, GRID_NO_SERIES, starter=1), blocked("Ben", "green-1")]
    result = judge2(round_1 + round_2)
    assert [r["winner"] for r in result.details["rounds"]] == [None, None]
    assert result.details["to_play"] == "Ana" and result.details["round"] == 3


def test_round_without_winner_three_players_passes_the_start_left():
    state = GAME.start(THREE, {"colours": COLOURS_3})
    state._end_round(None, "blocked", None)
    assert state.to_play == "Ben"
    state._end_round(None, "blocked", None)
    assert state.to_play == "Chloé"
    state._end_round("Chloé", "blocked", None)
    assert state.to_play == "Ana"


def test_series_are_maximal_single_coloured_segments_per_direction():
    # Ana: red row 0 x0-x3 and red column 0 y0-y3 share red-1 at (0, 0): two series. Ben's
    # green anti-diagonal of 3 is no series with two players (a series is 4 long); his orange
    # column is one.
    ana = [("red-1", 0, 0), ("red-2", 1, 0), ("red-3", 2, 0), ("red-4", 3, 0),
           ("red-5", 0, 1), ("red-6", 0, 2), ("red-7", 0, 3), ("blue-9", 2, 4)]  # fmt: skip
    ben = [("orange-5", 1, 1), ("green-2", 2, 2), ("green-3", 3, 1), ("green-1", 1, 3),
           ("orange-1", 4, 1), ("orange-2", 4, 2), ("orange-3", 4, 3),
           ("orange-4", 4, 4)]  # fmt: skip
    state = judge2(interleave(TWO, ana, ben)).state
    series = state.series()
    assert sorted(sum(v for _, v in s) for s in series["Ana"]) == [10, 19]
    assert [[f"{c}-{v}" for c, v in s] for s in series["Ben"]] == [
        ["orange-1", "orange-2", "orange-3", "orange-4"]
    ]


def test_series_ignore_the_neutral_colour_and_mixed_colours():
    ana = [("red-1", 0, 0), ("red-2", 1, 0), ("red-3", 2, 0), ("orange-4", 0, 2)]
    ben = [("orange-1", 0, 1), ("orange-2", 1, 1), ("orange-3", 2, 1), ("blue-4", 1, 2)]
    chloe = [("green-1", 1, -1), ("green-2", 2, -1), ("orange-5", 3, -1), ("green-3", 4, -1)]
    series = judge3(interleave(THREE, ana, ben, chloe)).state.series()
    assert [len(series[p]) for p in THREE] == [1, 0, 0]


# ---------------------------------------------------------------- variant: rounds to win


def test_rounds_to_win_defaults_to_two_and_is_only_kept_when_given():
    log = example_cases("punto")[0][0]  # Ana wins rounds 1 and 2
    assert judge(log).status == "finished"
    assert "rounds_to_win" not in judge(log).setup
    assert "rounds_to_win" not in judge(log).details
    agreed = {**log, "setup": {**log["setup"], "rounds_to_win": 2}}
    assert judge(agreed).setup["rounds_to_win"] == 2
    assert judge(agreed).as_dict() | {"details": None} == judge(log).as_dict() | {"details": None}


def test_rounds_to_win_ends_the_match_at_that_many_round_wins():
    log = example_cases("punto")[0][0]  # Ana wins round 1 at move 8, round 2 at the last move
    one = judge({**log, "setup": {**log["setup"], "rounds_to_win": 1}})
    assert_refused(one, "game.over", move=9)
    assert one.message == "move 9: the game has already ended"
    assert one.scores == {"Ana": 1, "Ben": 0} and one.winners == []
    one = judge({**log, "setup": {**log["setup"], "rounds_to_win": 1}, "moves": log["moves"][:9]})
    assert one.status == "finished" and one.winners == ["Ana"]
    three = judge({**log, "setup": {**log["setup"], "rounds_to_win": 3}})
    assert three.status == "in_progress" and three.winners == []
    assert three.scores == {"Ana": 2, "Ben": 0} and three.details["to_play"] == "Ben"


@pytest.mark.parametrize("value", [None, "3", 3.0, True, False, 0, 6, -1, [3], {"n": 3}])
def test_rounds_to_win_is_a_json_integer_from_1_to_5(value):
    setup = {"colours": COLOURS_2, "rounds_to_win": value}
    result = judge({**make_log(TWO, COLOURS_2, []), "setup": setup})
    refused = assert_refused(result, "punto.rounds_to_win", move=None, count_max=5)
    assert refused.params["value"] is value  # 3.0 and True are not 3 nor 1
    for good in (1, 5):
        setup = {"colours": COLOURS_2, "rounds_to_win": good}
        assert judge({**make_log(TWO, COLOURS_2, []), "setup": setup}).status == "in_progress"


# ---------------------------------------------------------------- variant: team play

TEAMS = [["Ana", "Chloé"], ["Ben", "Dev"]]
# Both partners list the team's two colours, in any order: Ana's order is the team's.
COLOURS_TEAMS = {
    "Ana": ["red", "blue"],
    "Ben": ["orange", "green"],
    "Chloé": ["blue", "red"],
    "Dev": ["green", "orange"],
}


def team_log(moves, teams=TEAMS, colours=COLOURS_TEAMS, **variants):
    log = make_log(FOUR, colours, moves)
    log["setup"] |= {"teams": teams, **variants}
    return log


def judge_teams(moves, **kwargs):
    return judge(team_log(moves, **kwargs))


# Four reds in row 0, played by Ana and Chloé in turn; Ben and Dev fill row 1.
FOUR_REDS = [
    mv("Ana", "red-1", 0, 0), mv("Ben", "orange-1", 0, 1),
    mv("Chloé", "red-2", 1, 0), mv("Dev", "green-1", 1, 1),
    mv("Ana", "red-3", 2, 0), mv("Ben", "orange-2", 2, 1),
    mv("Chloé", "red-4", 3, 0), mv("Dev", "green-2", 3, 1),
]  # fmt: skip
# Then Ana plays elsewhere and Chloé lays the fifth red: her line.
CHLOE_LINE = [
    *FOUR_REDS,
    mv("Ana", "blue-5", 0, 2), mv("Ben", "orange-3", 1, 2), mv("Chloé", "red-9", 4, 0),
]  # fmt: skip


def test_teams_are_for_four_players_only():
    assert judge_teams([]).status == "in_progress"
    for players, colours in ((TWO, COLOURS_2), (THREE, COLOURS_3)):
        log = make_log(players, colours, [])
        log["setup"]["teams"] = [players[:1], players[1:2]]
        result = judge(log)
        assert_refused(result, "punto.teams_for_four", move=None, number=len(players))


SHAPE = '"teams" must be two teams of two players, like [["Ana", "Chloé"], ["Ben", "Dev"]]'


@pytest.mark.parametrize(
    ("teams", "message"),
    [
        (None, SHAPE), ([], SHAPE), ("Ana & Chloé", SHAPE), ([["Ana", "Chloé"]], SHAPE),
        ([["Ana", "Chloé"], ["Ben"]], SHAPE), ([["Ana", "Chloé", "Ben"], ["Dev"]], SHAPE),
        ([["Ana", "Chloé"], ["Ben", "dev"]], 'the team member "dev" is not one of the players'),
        ([["Ana", "Chloé"], ["Ben", 3]], "the team member 3 is not one of the players"),
        ([["Ana", "Chloé"], ["Ana", "Chloé"]], "each player must be in exactly one team"),
        ([["Ana", "Ana"], ["Ben", "Dev"]], "each player must be in exactly one team"),
    ],
)  # fmt: skip
def test_teams_are_two_teams_of_two_of_the_players(teams, message):
    result = judge_teams([], teams=teams)
    assert result.status == "illegal" and result.error["move"] is None
    assert result.message.startswith(f"bad setup: {message}")


def test_partners_sit_opposite_in_any_order():
    seats = {"player_seat1": "Ana", "player_seat2": "Ben", "player_seat3": "Chloé"}
    for teams in ([["Ana", "Ben"], ["Chloé", "Dev"]], [["Ana", "Dev"], ["Ben", "Chloé"]]):
        result = judge_teams([], teams=teams)
        first, other = teams[0]
        assert_refused(
            result, "punto.teams_opposite", move=None, player=first, player_other=other,
            player_seat4="Dev", **seats,
        )  # fmt: skip
    for teams in ([["Dev", "Ben"], ["Chloé", "Ana"]], [["Ben", "Dev"], ["Ana", "Chloé"]]):
        assert judge_teams([], teams=teams).status == "in_progress"


def test_partners_list_the_same_two_colours_in_any_order():
    for chloe, message_id in (
        (["red"], "punto.setup_team_colours_1"),
        (["red", "blue", "green"], "punto.setup_team_colours_n"),
    ):
        result = judge_teams([], colours=COLOURS_TEAMS | {"Chloé": chloe})
        assert_refused(result, message_id, move=None, player="Chloé")
    result = judge_teams([], colours=COLOURS_TEAMS | {"Chloé": ["red", "orange"]})
    assert_refused(result, "punto.setup_partners_colours", player_mate="Ana", player="Chloé")
    # one colour each, as four players without teams hold, is not a team's
    result = judge_teams([], colours=COLOURS_4)
    assert_refused(result, "punto.setup_team_colours_1", move=None, player="Ana")
    assert judge_teams([], colours=COLOURS_TEAMS | {"Chloé": ["Red ", "BLUE"]}).status == (
        "in_progress"
    )


def test_partners_colours_that_are_not_a_list_are_refused_with_what_was_given():
    result = judge_teams([], colours=COLOURS_TEAMS | {"Chloé": "red"})
    assert_refused(result, "punto.setup_team_colours_value", move=None, player="Chloé", value="red")


def test_the_teams_colours_are_distinct():
    colours = {"Ana": ["red", "blue"], "Ben": ["red", "green"],
               "Chloé": ["red", "blue"], "Dev": ["red", "green"]}  # fmt: skip
    result = judge_teams([], colours=colours)
    assert_refused(result, "punto.setup_colour_twice_team", move=None, colour="red")
    assert "red is given twice (Ana and Ben): every colour belongs to one team at most" in (
        result.message
    )


def test_details_teams_echo_the_teams_as_the_setup_names_them():
    teams = [["Dev", "Ben"], ["Chloé", "Ana"]]
    result = judge_teams([], teams=teams)
    assert result.details["teams"] == teams
    assert result.setup["teams"] == teams
    assert "teams" not in judge(make_log(FOUR, COLOURS_4, [])).details
    assert "teams" not in judge(make_log(FOUR, COLOURS_4, [])).setup


def test_a_partner_plays_any_card_of_the_teams_colours():
    moves = [
        mv("Ana", "blue-5", 0, 0), mv("Ben", "green-1", 1, 0),
        mv("Chloé", "red-7", 2, 0), mv("Dev", "orange-1", 3, 0),
        mv("Ana", "red-3", 0, 1), mv("Ben", "orange-2", 1, 1),
        mv("Chloé", "blue-2", 2, 1),
    ]  # fmt: skip
    assert judge_teams(moves).status == "in_progress"
    result = judge_teams([*moves[:2], mv("Chloé", "green-3", 2, 0)])
    assert_refused(result, "punto.not_own_colour_team", move=2, colour="green")
    assert "Chloé plays blue and red (their team's colours), not green" in result.message


def test_partners_share_the_per_round_copy_limit():
    moves = [
        mv("Ana", "red-5", 0, 0), mv("Ben", "green-1", 1, 0),
        mv("Chloé", "red-5", 2, 0), mv("Dev", "orange-1", 3, 0),
        mv("Ana", "red-5", 0, 1),
    ]  # fmt: skip
    result = judge_teams(moves)
    assert result.error["move"] == 4 and "both copies are already played" in result.message


def test_team_line_needs_five_cards_four_are_not_enough():
    result = judge_teams(FOUR_REDS)
    assert result.status == "in_progress" and result.details["rounds"] == []
    assert result.details["line"] == 5
    # the fifth red wins it
    won = judge_teams([*FOUR_REDS, mv("Ana", "red-5", 4, 0)])
    assert won.details["rounds"] == [{"winner": "Ana", "how": "line", "removed": "red-5"}]


def test_team_line_counts_either_partners_cards_and_goes_to_who_played_the_fifth():
    result = judge_teams(CHLOE_LINE)
    assert result.details["rounds"] == [{"winner": "Chloé", "how": "line", "removed": "red-9"}]
    assert result.scores == {"Ana": 1, "Ben": 0, "Chloé": 1, "Dev": 0}


def test_team_line_is_single_coloured():
    mixed = copy.deepcopy(CHLOE_LINE)
    mixed[4] = mv("Ana", "blue-3", 2, 0)  # red red blue red red
    result = judge_teams(mixed)
    assert result.status == "in_progress" and result.details["rounds"] == []


def test_team_next_round_starts_left_of_the_rounds_winner():
    result = judge_teams(CHLOE_LINE)
    assert result.details["to_play"] == "Dev"  # left of Chloé, not of Ana
    assert judge_teams([*CHLOE_LINE, mv("Dev", "green-1", 0, 0)]).status == "in_progress"
    result = judge_teams([*CHLOE_LINE, mv("Ben", "green-1", 0, 0)])
    assert_refused(result, "punto.not_your_turn", move=11, player_turn="Dev", player="Ben")


def test_team_scores_are_the_teams_rounds_and_both_partners_win():
    result = judge_teams(CHLOE_LINE, rounds_to_win=1)
    assert result.status == "finished"
    assert result.scores == {"Ana": 1, "Ben": 0, "Chloé": 1, "Dev": 0}
    assert result.winners == ["Ana", "Chloé"]
    assert result.ranks == {"Ana": 1, "Ben": 3, "Chloé": 1, "Dev": 3}
    # by default the team needs a second round
    assert judge_teams(CHLOE_LINE).status == "in_progress"


def team_grid(rows, teams=TEAMS, colours=COLOURS_TEAMS):
    return grid_moves(FOUR, colours, rows, teams=teams)


def test_team_blocked_round_counts_series_of_four_per_team():
    # Ana and Chloé: red row 0 and blue column 0; Ben and Dev: green column 5 and the three
    # oranges of row 4 (a series for four players without teams, not for a team)
    moves = [*team_grid(GRID_MOST_SERIES), blocked("Ana", "red-1")]
    result = judge_teams(moves)
    assert result.details["rounds"] == [{"winner": "Ana", "how": "blocked", "removed": "red-5"}]
    assert result.scores == {"Ana": 1, "Ben": 0, "Chloé": 1, "Dev": 0}
    series = judge_teams(moves[:-1]).state.series()  # the full table, partners' shared
    assert [len(series[p]) for p in FOUR] == [2, 1, 2, 1]


def test_team_blocked_round_goes_to_the_blocked_player_when_their_team_wins():
    # Chloé and Ana both laid the red row; Ana, blocked, is the team's last to play
    moves = [*team_grid(GRID_MOST_SERIES), blocked("Ana", "red-1")]
    assert judge_teams(moves).details["rounds"][0]["winner"] == "Ana"


def test_team_blocked_round_otherwise_goes_to_who_played_just_before():
    # Ben and Dev's green 1-2-3-4 is lower than the red 2-3-4-5: Ana is blocked, Dev played
    # just before her; the next round starts left of Dev
    moves = [*team_grid(GRID_LOWEST_SERIES), blocked("Ana", "red-1")]
    result = judge_teams(moves)
    assert result.details["rounds"] == [{"winner": "Dev", "how": "blocked", "removed": "green-4"}]
    assert result.scores == {"Ana": 0, "Ben": 1, "Chloé": 0, "Dev": 1}
    assert result.details["to_play"] == "Ana"


def test_team_blocked_round_still_tied_has_no_winner():
    moves = [*team_grid(GRID_STILL_TIED), blocked("Ana", "red-1")]
    result = judge_teams(moves)
    assert result.details["rounds"] == [{"winner": None, "how": "blocked", "removed": None}]
    assert result.details["to_play"] == "Ben"  # left of the round's starter


@pytest.mark.parametrize(
    ("teams", "removed"),
    [(TEAMS, "red-5"), ([["Chloé", "Ana"], ["Ben", "Dev"]], "blue-5")],
)
def test_team_blocked_removal_takes_the_colour_of_the_partner_named_first(teams, removed):
    # the team's red and blue series are both 2-3-4-5: Ana lists red first, Chloé blue
    moves = [*team_grid(grid_with((2, 3, 4, 5), (2, 3, 4, 5)), teams), blocked("Ana", "red-1")]
    result = judge_teams(moves, teams=teams)
    assert result.details["rounds"] == [{"winner": "Ana", "how": "blocked", "removed": removed}]


# ---------------------------------------------------------------- reading any JSON


@pytest.mark.parametrize(
    ("move", "message_id"),
    [(None, "json.object"), (3, "json.object"), ("red-1", "json.object"), ([], "json.object"),
     (["Ana", "red-1", [0, 0]], "json.object"), ({}, "json.player"),
     ({"player": "Ana"}, "punto.no_card"),
     ({"player": ["Ana"], "card": "red-1", "at": [0, 0]}, "json.player"),
     ({"player": "Ana", "card": {}, "at": [0, 0]}, "punto.not_card")],
)  # fmt: skip
def test_malformed_moves_are_illegal(move, message_id):
    assert_refused(judge2([move]), message_id, move=0)


def test_illegal_move_leaves_the_state_untouched():
    log = copy.deepcopy(example_cases("punto")[0][0])
    before = judge({**log, "moves": log["moves"][:14]})
    log["moves"][14] = mv("Ana", "blue-3", 9, 9)
    after = judge({**log, "moves": log["moves"][:15]})
    assert_refused(after, "punto.not_touching", move=14, cell=(9, 9))
    assert (after.scores, after.details) == (before.scores, before.details)


# ---------------------------------------------------------------- queries for the UI


def test_queries_to_play_legal_cells_cards_left_and_grid():
    state = judge2([mv("Ana", "red-5", 0, 0), mv("Ben", "green-1", 1, 0)]).state
    assert state.to_play == "Ana"
    assert state.playable_colours("Ana") == ("red", "blue")
    cells = state.legal_cells("red-2")
    assert (1, 0) in cells and (0, 0) not in cells and len(cells) == 11
    assert (0, 0) in state.legal_cells(("red", 6))
    assert state.cards_left("red", 5) == 1 and state.cards_left("green", 1) == 1
    assert state.grid() == ((0, 0), [["red-5", "green-1"]])
    empty = GAME.start(TWO, {"colours": COLOURS_2})
    assert empty.legal_cells("red-1") is None and empty.grid() == (None, [])
    with pytest.raises(IllegalMove):
        empty.legal_cells("pink-1")


def test_legal_cells_respect_the_box():
    state = judge2(
        interleave(
            TWO,
            [("red-1", 0, 0), ("red-2", 2, 0), ("red-3", 4, 0)],
            [("green-1", 1, 0), ("green-2", 3, 0), ("green-3", 5, 0)],
        )
    ).state
    cells = state.legal_cells("blue-1")
    assert cells and all(0 <= x <= 5 for x, _ in cells)


# ---------------------------------------------------------------- property tests


def random_match(rng: random.Random, players, setup, max_moves=400):
    """A random legal match, played through the engine; checks invariants as it goes."""
    state = GAME.start(players, setup)
    moves = []
    side, owner, line = sides_of(players, setup)
    while not state.finished and len(moves) < max_moves:
        player = state.to_play
        cards = [
            (c, v) for c in state.playable_colours(player) for v in range(1, 10)
            if state.cards_left(c, v) > 0
        ]  # fmt: skip
        if not cards:
            break
        card = rng.choice(cards)
        name = f"{card[0]}-{card[1]}"
        cells = state.legal_cells(card)
        if cells is None:
            move = mv(player, name, rng.randint(-3, 3), rng.randint(-3, 3))
        elif not cells:
            move = blocked(player, name)
        else:
            move = mv(player, name, *rng.choice(cells))
        rounds_before = len(state.rounds)
        state.play(move)
        moves.append(move)
        board = state.details()["board"]
        xs = [int(k.split(",")[0]) for k in board]
        ys = [int(k.split(",")[1]) for k in board]
        if board:
            assert max(xs) - min(xs) < 6 and max(ys) - min(ys) < 6
        if len(state.rounds) > rounds_before:
            last = state.rounds[-1]
            lines = line_count(state.details()["last_round_board"], owner, line)
            if last["how"] == "line":
                assert lines == {side[last["winner"]]}
            else:
                assert lines == set()
    return moves


SEATINGS = [
    (TWO, {"colours": COLOURS_2}),
    (THREE, {"colours": COLOURS_3}),
    (FOUR, {"colours": COLOURS_4}),
    (FOUR, {"colours": COLOURS_TEAMS, "teams": TEAMS}),
    (FOUR, {"colours": COLOURS_TEAMS, "teams": [["Dev", "Ben"], ["Chloé", "Ana"]]}),
]


def setup_log(players, setup, moves):
    return {**make_log(players, setup["colours"], moves), "setup": setup}


def test_ranks_put_the_winner_first_then_the_others_by_rounds_won():
    (log, _), *_ = example_cases("punto")  # Ana 2 rounds, Ben 0
    assert judge(log).ranks == {"Ana": 1, "Ben": 2}
    # four players: Chloé and Dev won a round each and share second place; Ana comes fourth
    moves = random_match(random.Random(1), FOUR, {"colours": COLOURS_4})
    result = judge(make_log(FOUR, COLOURS_4, moves))
    assert result.status == "finished"
    assert result.scores == {"Ana": 0, "Ben": 2, "Chloé": 1, "Dev": 1}
    assert result.ranks == {"Ana": 4, "Ben": 1, "Chloé": 2, "Dev": 2}
    assert judge(make_log(THREE, COLOURS_3, [])).ranks == {}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    seating=st.sampled_from(SEATINGS),
    rounds_to_win=st.sampled_from([None, 1, 2, 3, 5]),
)
def test_random_legal_matches_keep_the_rules(seed, seating, rounds_to_win):
    players, setup = seating
    if rounds_to_win is not None:
        setup = {**setup, "rounds_to_win": rounds_to_win}
    target = rounds_to_win or 2
    moves = random_match(random.Random(seed), players, setup)
    result = judge(setup_log(players, setup, moves))
    assert result.status in ("finished", "in_progress")
    side, _, _ = sides_of(players, setup)
    rounds = result.details["rounds"]
    assert all(r["winner"] in (None, *players) for r in rounds)
    # a round won counts for every member of the winner's side: partners have equal scores
    won = sum(len(side[r["winner"]]) for r in rounds if r["winner"] is not None)
    assert sum(result.scores.values()) == won
    assert all(result.scores[p] == result.scores[q] for p in players for q in side[p])
    # the match ends exactly when a side has ``target`` wins; its members are the winners
    reached = [p for p, s in result.scores.items() if s == target]
    assert max(result.scores.values()) <= target
    assert (result.status == "finished") == bool(reached)
    assert result.winners == (reached if result.status == "finished" else [])
    if result.status == "finished":
        assert set(reached) == side[rounds[-1]["winner"]]
        extra = judge(setup_log(players, setup, [*moves, mv(players[0], "red-1", 0, 0)]))
        assert_refused(extra, "game.over", move=len(moves))


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10, 10) | st.floats(allow_nan=False)
    | st.text(max_size=8) | st.sampled_from(["Ana", "Ben", "red-1", "blue-9", "punto"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["player", "card", "at", "blocked", "colours", "teams", "rounds_to_win"])
        | st.text(max_size=4),
        inner, max_size=4),
    max_leaves=12,
)  # fmt: skip


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    seating=st.sampled_from(SEATINGS),
    rounds_to_win=st.sampled_from([None, 1, 3]),
)
def test_random_matches_judge_the_same_from_what_the_referee_understood(
    seed, seating, rounds_to_win
):
    players, setup = seating
    if rounds_to_win is not None:
        setup = {**setup, "rounds_to_win": rounds_to_win}
    log = setup_log(players, setup, random_match(random.Random(seed), players, setup))
    canonical = assert_canonical_round_trip(log)
    assert canonical["moves"] == log["moves"]
    assert canonical["setup"] == setup  # the variants kept exactly when given


@settings(max_examples=100, deadline=None)
@given(value=json_values)
def test_judge_never_raises_on_arbitrary_json(value):
    for log in (
        value,
        make_log(TWO, COLOURS_2, [value]),
        {**make_log(TWO, COLOURS_2, []), "setup": value},
        team_log([value]),
        team_log([], teams=value),
        team_log([], rounds_to_win=value),
        team_log([], colours=value),
    ):
        result = judge(log)
        assert result.status in ("finished", "in_progress", "illegal")
        assert_not_crashed(result)


@settings(max_examples=60, deadline=None)
@given(data=st.data(), value=json_values)
def test_mutated_valid_logs_are_judged_without_crashing(data, value):
    log = copy.deepcopy(example_cases("punto")[0][0])
    index = data.draw(st.integers(0, len(log["moves"]) - 1))
    key = data.draw(st.sampled_from(["player", "card", "at", "blocked", None]))
    if key is None:
        log["moves"][index] = value
    else:
        log["moves"][index][key] = value
    result = judge(log)
    assert result.status in ("finished", "in_progress", "illegal")
    assert_not_crashed(result)
    if result.status == "illegal":
        assert result.error["move"] is not None
    json.dumps(result.as_dict())


# ---------------------------------------------------------------- the benchmark log


def test_benchmark_log_is_a_finished_three_round_match():
    path = Path(__file__).resolve().parents[2] / "benchmarks" / "logs" / "punto-bench.json"
    result = judge(json.loads(path.read_text()))
    assert result.status == "finished"
    assert len(result.details["rounds"]) == 3

"""Forget Venice (gamelog.md §4): one test per rule and ruling, tested through ``judge``."""

from __future__ import annotations

import copy

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee import IllegalMove, judge
from referee.decktet import ALL_CARDS
from referee.forget_venice import DECK, GAME, half_criteria, longest_run
from tests.examples import (
    assert_canonical_round_trip,
    assert_judged_as_expected,
    example_cases,
    example_params,
    json_values,
)
from tests.referee.crashes import assert_refused

JSON_VALUES = json_values(12)

PLAYERS = ["Ana", "Ben", "Chloé"]
LEFT_OUT = ("The Excuse", "The Island", "The Borderland")
# The test's own view of the deck and the rules, independent of the engine's.
CARDS = [card for card in ALL_CARDS if card.name not in LEFT_OUT]
NAMES = [card.name for card in CARDS]
BY_NAME = {card.name: card for card in CARDS}
RUN_RANK = {"Ace": 1, **{str(n): n for n in range(2, 10)}, "Pawn": 10, "Court": 11, "Crown": 12}

#: docs/gamelog.md §4, the default sheet table, transcribed.
DEFAULT_TABLE = {
    "Ana": {
        "1": {"I": ["Moons", "Knots"], "II": ["Suns", "Wyrms"], "III": ["Waves", "Leaves"]},
        "2": {"I": ["Leaves", "Wyrms"], "II": ["Knots", "Suns"], "III": ["Moons", "Waves"]},
    },
    "Ben": {
        "1": {"I": ["Waves", "Knots"], "II": ["Moons", "Wyrms"], "III": ["Leaves", "Suns"]},
        "2": {"I": ["Moons", "Suns"], "II": ["Waves", "Wyrms"], "III": ["Leaves", "Knots"]},
    },
    "Chloé": {
        "1": {"I": ["Moons", "Leaves"], "II": ["Suns", "Waves"], "III": ["Wyrms", "Knots"]},
        "2": {"I": ["Waves", "Leaves"], "II": ["Moons", "Knots"], "III": ["Suns", "Wyrms"]},
    },
}
CRITERIA = ("I", "II", "III")


def pairs_of(sheets, player, half):
    """The suit pairs of criteria I, II, III on a sheet."""
    return [sheets[player][str(half)][criterion] for criterion in CRITERIA]


# --- Helpers ------------------------------------------------------------------------------


def make_log(moves, setup=None, players=PLAYERS):
    return {
        "format": "gamelog/1",
        "game": "forget-venice",
        "players": list(players),
        "setup": {} if setup is None else setup,
        "moves": moves,
    }


def deal(dealer, ana, ben, chloe):
    """A deal whose piles are listed [Ana's, Ben's, Chloé's], as in the public examples."""
    seat = PLAYERS.index(dealer)
    return {
        "dealer": dealer,
        "piles": [list(ana), list(ben), list(chloe)],
        "first": (seat + 1) % 3,
        "second": (seat + 2) % 3,
    }


def filler(used, n):
    """``n`` cards of the deck not in ``used``."""
    return [name for name in NAMES if name not in used][:n]


def one_deal(ana=(), ben=(), chloe=()):
    """Deal 1 (Ana deals) giving these cards, topped up with unused cards to 7 in 3 piles."""
    piles = [list(ana), list(ben), list(chloe)]
    used = {card for card in (*ana, *ben, *chloe) if isinstance(card, str)}
    spare = filler(used, 7)
    for pile in piles:
        if not pile:
            pile.append(spare.pop(0))
    while sum(map(len, piles)) < 7:
        piles[1].append(spare.pop(0))
    return deal("Ana", *piles)


def run_length(cards, suit):
    ranks = {RUN_RANK[c.rank] for c in cards if suit in c.suits}
    best = 0
    for rank in ranks:
        if rank - 1 not in ranks:
            length = 1
            while rank + length in ranks:
                length += 1
            best = max(best, length)
    return best


def recompute(card_names, pairs):
    """The three criteria, recomputed by the test from the collected cards."""
    cards = [BY_NAME[name] for name in card_names]

    def count(suit):
        return sum(suit in card.suits for card in cards)

    (a, b), (c, d), (e, f) = pairs
    one, two = min(count(a), count(b)), abs(count(c) - count(d))
    three = max(run_length(cards, e), run_length(cards, f))
    return {"I": one, "II": two, "III": three, "total": one + two + three}


def game_from_owners(first_half, second_half, setup=None, deal7_dealer=None):
    """A 12-deal log from two strings of 42 seats ("0", "1", "2"): who collects each card of the
    deck (in deck order) in each half. Each player must collect 6 cards or more per half."""
    sheets = (setup or {}).get("sheets") or DEFAULT_TABLE
    moves = []
    dealer = None
    taken = [[], [], []]  # each seat's piles this half
    for half, seats in enumerate((first_half, second_half)):
        hands = [[NAMES[i] for i, o in enumerate(seats) if o == str(seat)] for seat in range(3)]
        assert all(len(hand) >= 6 for hand in hands)
        extra = [(seat, name) for seat in range(3) for name in hands[seat][6:]]
        if half == 1:
            totals = [
                recompute(sum(piles, []), pairs_of(sheets, p, 1))["total"]
                for p, piles in zip(PLAYERS, taken, strict=True)
            ]
            leaders = [p for p, t in zip(PLAYERS, totals, strict=True) if t == max(totals)]
            dealer = deal7_dealer or leaders[0]
        taken = [[], [], []]
        for d in range(6):
            if half == 0 or d > 0:
                dealer = PLAYERS[0] if dealer is None else PLAYERS[(PLAYERS.index(dealer) + 1) % 3]
            piles = [[hands[seat][d]] for seat in range(3)]
            for seat, name in extra[4 * d : 4 * d + 4]:
                piles[seat].append(name)
            for seat in range(3):
                taken[seat].append(piles[seat])
            moves.append(deal(dealer, *piles))
    return make_log(moves, setup)


def halves_of(log):
    return judge(log).details["halves"]


# --- The public examples --------------------------------------------------------------------


@pytest.mark.parametrize(("log", "expected"), example_params("forget-venice"))
def test_public_examples(log, expected):
    assert_judged_as_expected(judge(log).as_dict(), expected)


# --- The deck -------------------------------------------------------------------------------


def test_the_deck_is_42_cards():
    assert len(DECK) == 42
    assert [card.name for card in DECK] == NAMES


@pytest.mark.parametrize("card", ["The Excuse", "The Island", "The Borderland", "island"])
def test_excuse_island_borderland_are_not_in_the_deck(card):
    result = judge(make_log([one_deal(ana=[card])]))
    assert_refused(result, "forget-venice.not_in_deck", move=0)
    assert "not in the Forget Venice deck" in result.message


@pytest.mark.parametrize("card", ["The Joker", "", 7, None, ["The Author"], {"card": "Author"}])
def test_a_card_must_be_a_decktet_card(card):
    result = judge(make_log([one_deal(ana=[card])]))
    assert_refused(result, "forget-venice.not_card", move=0, value=card)


def test_card_names_accept_the_decktet_spellings():
    result = judge(make_log([one_deal(ana=["author", "  THE   sailor ", "Lightkeeper"])]))
    assert result.status == "in_progress"
    assert result.details["collections"][0]["Ana"] == [
        "The Author",
        "The Sailor",
        "The Light Keeper",
    ]


# --- A deal ---------------------------------------------------------------------------------


def test_empty_pile_is_illegal():
    move = deal("Ana", NAMES[0:4], NAMES[4:7], [])
    result = judge(make_log([move]))
    assert_refused(result, "forget-venice.pile_empty", move=0, pile=2)
    assert "empty" in result.message


@pytest.mark.parametrize("size", [6, 8])
def test_a_deal_is_exactly_seven_cards(size):
    result = judge(make_log([deal("Ana", NAMES[0:2], NAMES[2:4], NAMES[4:size])]))
    assert_refused(result, "forget-venice.seven_cards", move=0, number=size)


@pytest.mark.parametrize(
    "piles", [[NAMES[0:3], NAMES[3:7]], [[n] for n in NAMES[0:4]] + [NAMES[4:7]]]
)
def test_a_deal_is_exactly_three_piles(piles):
    move = {"dealer": "Ana", "piles": piles, "first": 1, "second": 2}
    result = judge(make_log([move]))
    assert_refused(result, "forget-venice.three_piles", move=0, number=len(piles))


@pytest.mark.parametrize(
    ("piles", "message_id", "params"),
    [
        (None, "forget-venice.piles_not_list", {"value": None}),
        ("The Author", "forget-venice.piles_not_list", {"value": "The Author"}),
        ({"0": ["The Author"]}, "forget-venice.piles_not_list", {}),
        ([NAMES[0:5], "x", []], "forget-venice.pile_not_list", {"pile": 1}),
    ],
)
def test_piles_must_be_lists_of_cards(piles, message_id, params):
    result = judge(make_log([{"dealer": "Ana", "piles": piles, "first": 1, "second": 2}]))
    assert_refused(result, message_id, move=0, **params)


def test_choosers_take_different_piles():
    move = one_deal()
    move["second"] = move["first"]
    result = judge(make_log([move]))
    assert_refused(result, "forget-venice.same_pile", move=0, pile=move["first"])


@pytest.mark.parametrize("key", ["first", "second"])
@pytest.mark.parametrize("value", [3, -1, "1", 1.0, True, None, [1]])
def test_pile_index_is_an_integer_from_0_to_2(key, value):
    move = one_deal()
    move[key] = value
    result = judge(make_log([move]))
    refused = assert_refused(result, f"forget-venice.{key}_not_pile", move=0)
    assert refused.params["value"] is value  # 1.0 and True are not 1


@pytest.mark.parametrize("move", [None, 7, "deal", [], ["Ana", [], 1, 2], True])
def test_a_move_must_be_a_deal_object(move):
    result = judge(make_log([move]))
    assert_refused(result, "forget-venice.deal_shape", move=0, value=move)


def test_first_chooser_is_left_of_dealer_second_chooser_next_dealer_last():
    move = {"dealer": "Ana", "piles": [NAMES[0:1], NAMES[1:3], NAMES[3:7]], "first": 2, "second": 0}
    collections = judge(make_log([move])).details["collections"][0]
    assert collections == {"Ben": NAMES[3:7], "Chloé": NAMES[0:1], "Ana": NAMES[1:3]}


def test_unknown_move_fields_are_ignored():
    move = one_deal()
    move["comment"] = "a good deal"
    assert judge(make_log([move])).status == "in_progress"


# --- Dealers --------------------------------------------------------------------------------


def owners(seat_of):
    """The owner string giving each card of the deck to ``seat_of(card)``."""
    return "".join(str(seat_of(card)) for card in CARDS)


LOW, MIDDLE = ("Ace", "Crown"), ("2", "3", "4", "5")
#: The public example's split: Aces and Crowns, 2–5, and 6–9 with the Pawns and Courts.
EXAMPLE_SPLIT = owners(lambda c: 0 if c.rank in LOW else 1 if c.rank in MIDDLE else 2)
#: Ana 3, Ben 8, Chloé 14 in the first half; Ana 13, Ben 8, Chloé 3 in the second.
FULL_GAME = game_from_owners(
    EXAMPLE_SPLIT, owners(lambda c: 2 if c.rank in LOW else 1 if c.rank in MIDDLE else 0)
)


def test_first_dealer_is_player_one():
    move = one_deal()
    move["dealer"] = "Ben"
    result = judge(make_log([move]))
    assert_refused(result, "forget-venice.dealer_first", player="Ben", player_first="Ana")
    assert result.error == {
        "move": 0,
        "message": "move 0: Ben cannot be the dealer of deal 1: Player 1, Ana, deals first",
    }


def test_the_deal_passes_left_and_wraps_around():
    moves = FULL_GAME["moves"][:4]
    assert [m["dealer"] for m in moves] == ["Ana", "Ben", "Chloé", "Ana"]
    assert judge(make_log(moves)).status == "in_progress"
    wrong = copy.deepcopy(moves)
    wrong[3]["dealer"] = "Chloé"
    result = judge(make_log(wrong))
    assert_refused(
        result, "forget-venice.dealer_left", move=3, player="Chloé", player_next="Ana", deal=4
    )
    assert result.scores == judge(make_log(moves[:3])).scores


def test_dealer_name_is_matched_exactly():
    move = one_deal()
    move["dealer"] = "ana"
    assert_refused(judge(make_log([move])), "json.player", move=0, value="ana")


def test_half_time_dealer_is_a_first_half_leader():
    # First half: Ana 3, Ben 8, Chloé 14 (the example's split): Chloé deals deal 7, although
    # the plain rotation (Ana, Ben, Chloé, Ana, Ben, Chloé) would give it to Ana.
    assert [m["dealer"] for m in FULL_GAME["moves"]][5:9] == ["Chloé", "Chloé", "Ana", "Ben"]
    assert judge(FULL_GAME).status == "finished"
    wrong = copy.deepcopy(FULL_GAME)
    wrong["moves"][6] = deal("Ana", *[m for m in (wrong["moves"][6]["piles"])])
    result = judge(wrong)
    assert_refused(
        result, "forget-venice.dealer_half_time", move=6, either=["Chloé"], points=14, deal=7
    )
    assert "most first-half points" in result.message


def test_rotation_continues_from_whoever_dealt_deal_seven():
    wrong = copy.deepcopy(FULL_GAME)
    wrong["moves"][7]["dealer"] = "Ben"
    assert_refused(
        judge(wrong), "forget-venice.dealer_left", move=7, player_last="Chloé", player_next="Ana"
    )


TIED_FIRST_HALF = "212002122020121110002100222020200202221110"  # Ana 6, Ben 9, Chloé 9


@pytest.mark.parametrize("leader", ["Ben", "Chloé"])
def test_half_time_tie_lets_any_tied_leader_deal(leader):
    log = game_from_owners(TIED_FIRST_HALF, "0" * 12 + "1" * 12 + "2" * 18, deal7_dealer=leader)
    assert [h[p]["total"] for h in halves_of(log)[:1] for p in PLAYERS] == [6, 9, 9]
    result = judge(log)
    assert result.status == "finished"
    left = PLAYERS[(PLAYERS.index(leader) + 1) % 3]
    assert log["moves"][7]["dealer"] == left
    state = judge(make_log(log["moves"][:6])).state
    assert state.next_dealers() == ["Ben", "Chloé"]


# --- Halves and cards -------------------------------------------------------------------------


def test_card_twice_in_a_half_is_illegal():
    first = one_deal(ana=["The Author"])
    second = deal("Ben", ["The Author"], NAMES[20:22], NAMES[22:26])
    result = judge(make_log([first, second]))
    assert_refused(result, "forget-venice.already_dealt", move=1, card="The Author", deal=1)
    assert result.details == judge(make_log([first])).details


def test_card_twice_in_one_deal_is_illegal_whatever_the_spelling():
    move = deal("Ana", ["The Author", "author"], NAMES[20:22], NAMES[22:25])
    result = judge(make_log([move]))
    assert_refused(result, "forget-venice.card_twice", move=0, card="The Author")


def test_same_card_in_both_halves_is_legal():
    result = judge(FULL_GAME)
    assert result.status == "finished"
    first, second = result.details["collections"]
    assert sorted(sum(first.values(), [])) == sorted(NAMES) == sorted(sum(second.values(), []))


def test_collections_start_empty_at_half_time():
    moves = FULL_GAME["moves"][:7]
    details = judge(make_log(moves)).details
    assert sum(len(cards) for cards in details["collections"][1].values()) == 7
    assert details["collections"][1]["Chloé"] == moves[6]["piles"][2]


def test_halves_show_the_second_half_once_deal_seven_is_played():
    assert len(judge(make_log(FULL_GAME["moves"][:6])).details["halves"]) == 1
    assert len(judge(make_log(FULL_GAME["moves"][:7])).details["halves"]) == 2
    assert len(judge(make_log([])).details["halves"]) == 1


def test_finished_after_deal_twelve():
    assert judge(make_log(FULL_GAME["moves"][:11])).status == "in_progress"
    assert judge(FULL_GAME).status == "finished"


def test_thirteenth_deal_is_illegal():
    log = copy.deepcopy(FULL_GAME)
    log["moves"].append(deal("Ana", NAMES[0:1], NAMES[1:2], NAMES[2:7]))
    result = judge(log)
    assert_refused(result, "game.over", move=12)
    assert result.scores == judge(FULL_GAME).scores
    assert result.winners == []
    state = judge(FULL_GAME).state
    with pytest.raises(IllegalMove, match="ended"):
        state.play(log["moves"][12])


# --- The criteria -----------------------------------------------------------------------------
# Ana's first-half sheet: I Moons/Knots, II Suns/Wyrms, III Waves/Leaves.


def test_criterion_one_is_the_smaller_count():
    ana = halves_of(make_log([one_deal(ana=["The Author", "Ace of Moons", "The Huntress"])]))
    assert ana[0]["Ana"]["I"] == 1  # Moons 3, Knots 1


@pytest.mark.parametrize(
    "cards",
    [["Ace of Wyrms", "The Calamity", "The Darkness"], ["Ace of Suns", "The Bard", "The Pact"]],
)
def test_criterion_two_is_absolute(cards):
    assert halves_of(make_log([one_deal(ana=cards)]))[0]["Ana"]["II"] == 3


def test_a_card_counts_for_every_suit_it_bears():
    # The Consul (Court: Moons, Waves, Knots) counts for Moons and Knots (I) and Waves (III).
    ana = halves_of(make_log([one_deal(ana=["The Consul"])]))[0]["Ana"]
    assert ana == {"I": 1, "II": 0, "III": 1, "total": 2}


def test_run_through_pawn_and_court():
    # Waves: The Darkness 9, The Light Keeper (Pawn) 10, The Consul (Court) 11, The Sea (Crown) 12.
    cards = ["The Darkness", "The Light Keeper", "The Consul", "The Sea"]
    assert halves_of(make_log([one_deal(ana=cards)]))[0]["Ana"]["III"] == 4


def test_two_pawns_bearing_the_suit_count_once_in_a_run():
    # Chloé's III is Wyrms/Knots: The Merchant 9, then two Knots Pawns: the run is 9-Pawn = 2.
    cards = ["The Merchant", "The Watchman", "The Light Keeper"]
    assert halves_of(make_log([one_deal(chloe=cards)]))[0]["Chloé"]["III"] == 2


def test_run_takes_the_better_of_the_two_suits():
    # Leaves 3-4-5 (Savage, Sailor, Forest); Waves 3-4 then 6 (Journey, Sailor, Lunatic).
    cards = ["The Savage", "The Sailor", "The Forest", "The Journey", "The Lunatic"]
    assert halves_of(make_log([one_deal(ana=cards)]))[0]["Ana"]["III"] == 3


@pytest.mark.parametrize(
    "cards, run",
    [
        (["Ace of Waves"], 1),  # one card is a run of 1
        (["Ace of Moons"], 0),  # no card bearing Waves or Leaves: 0
        (["Ace of Waves", "The Origin", "The Sailor"], 2),  # 1-2, then a gap to 4
        (["Ace of Waves", "The Sea"], 1),  # no wrap-around from Crown to Ace
        (["The Discovery", "The Market"], 1),  # Waves 5 and Leaves 6: a run stays in one suit
    ],
)
def test_run_counts_consecutive_ranks_of_one_suit(cards, run):
    assert halves_of(make_log([one_deal(ana=cards)]))[0]["Ana"]["III"] == run


def test_half_score_is_the_sum_of_the_criteria_and_scores_sum_both_halves():
    result = judge(FULL_GAME)
    halves = result.details["halves"]
    for half in halves:
        for value in half.values():
            assert value["total"] == value["I"] + value["II"] + value["III"]
    assert result.scores == {p: halves[0][p]["total"] + halves[1][p]["total"] for p in PLAYERS}


def test_a_half_in_progress_counts_what_has_been_collected():
    result = judge(make_log(FULL_GAME["moves"][:8]))
    halves = result.details["halves"]
    assert result.scores == {p: halves[0][p]["total"] + halves[1][p]["total"] for p in PLAYERS}
    collections = result.details["collections"][1]
    for player in PLAYERS:
        assert halves[1][player] == recompute(
            collections[player], pairs_of(DEFAULT_TABLE, player, 2)
        )


# --- Winners ----------------------------------------------------------------------------------


def test_highest_total_wins():
    result = judge(FULL_GAME)  # Ana 3 + 13, Ben 8 + 8, Chloé 14 + 3
    assert result.scores == {"Ana": 16, "Ben": 16, "Chloé": 17}
    assert result.winners == ["Chloé"]
    assert result.details["tie_break"] is None


def test_tie_break_second_half_points():
    log, _ = example_cases("forget-venice")[0]
    result = judge(log)  # 16 each; second half Ana 13, Ben 8, Chloé 2
    assert result.winners == ["Ana"]
    assert result.details["tie_break"] == "second_half"


def test_tie_break_second_half_run():
    log = game_from_owners(
        "112022200120202221120201012012000112021211", "122201112021100011002001122100201011222022"
    )
    result = judge(log)
    halves = result.details["halves"]
    assert result.scores == {"Ana": 17, "Ben": 14, "Chloé": 17}
    assert halves[1]["Ana"]["total"] == halves[1]["Chloé"]["total"] == 8
    assert (halves[1]["Ana"]["III"], halves[1]["Chloé"]["III"]) == (3, 2)
    assert result.winners == ["Ana"]
    assert result.details["tie_break"] == "second_half_run"


def test_still_tied_shares_the_win():
    log = game_from_owners(
        "101001012012100011210002210010001211001121", "022011122021110201000100022020021021211001"
    )
    result = judge(log)
    halves = result.details["halves"]
    assert result.scores == {"Ana": 19, "Ben": 19, "Chloé": 13}
    assert halves[1]["Ana"] == halves[1]["Ben"] == {"I": 4, "II": 0, "III": 3, "total": 7}
    assert result.winners == ["Ana", "Ben"]
    assert result.details["tie_break"] == "shared"


def test_no_winner_until_the_game_is_finished():
    result = judge(make_log(FULL_GAME["moves"][:11]))
    assert result.winners == []
    assert result.details["tie_break"] is None


def test_ranks_put_a_tie_break_winner_before_the_players_level_with_them():
    # 16 points each: Ana wins on second-half points, Ben and Chloé share the next rank
    log, _ = example_cases("forget-venice")[0]
    assert judge(log).ranks == {"Ana": 1, "Ben": 2, "Chloé": 2}
    # Ana 16, Ben 16, Chloé 17: Chloé wins, Ana and Ben share second place
    assert judge(FULL_GAME).ranks == {"Ana": 2, "Ben": 2, "Chloé": 1}
    # still tied after the tie-breaks: Ana and Ben share the win, Chloé comes third
    shared = game_from_owners(
        "101001012012100011210002210010001211001121", "022011122021110201000100022020021021211001"
    )
    assert judge(shared).ranks == {"Ana": 1, "Ben": 1, "Chloé": 3}
    assert judge(make_log(FULL_GAME["moves"][:11])).ranks == {}


# --- Sheets and setup -------------------------------------------------------------------------


def test_default_sheet_table_values():
    assert judge(make_log([])).details["sheets"] == DEFAULT_TABLE


def test_default_sheet_player_two_first_half_criterion_two_is_moons_against_wyrms():
    assert DEFAULT_TABLE["Ben"]["1"]["II"] == ["Moons", "Wyrms"]
    assert judge(make_log([])).details["sheets"]["Ben"]["1"]["II"] == ["Moons", "Wyrms"]


def test_default_sheets_use_six_suits_per_half_and_pairs_differ():
    sheets = judge(make_log([])).details["sheets"]
    for player in PLAYERS:
        for half in "12":
            assert sorted(sum(sheets[player][half].values(), [])) == sorted(
                ["Moons", "Suns", "Waves", "Leaves", "Wyrms", "Knots"]
            )
        own = [frozenset(pair) for half in "12" for pair in sheets[player][half].values()]
        assert len(set(own)) == 6  # a player's pairs differ per half and per criterion
    for half in "12":
        for criterion in CRITERIA:
            pairs = {frozenset(sheets[p][half][criterion]) for p in PLAYERS}
            assert len(pairs) == 3  # and per player


@pytest.mark.parametrize("setup", ["absent", None, {}, {"sheets": None}, {"notes": "x"}])
def test_missing_setup_or_null_sheets_mean_default_sheets(setup):
    log = make_log([one_deal()])
    if setup == "absent":
        del log["setup"]
    else:
        log["setup"] = setup
    result = judge(log)
    assert result.status == "in_progress"
    assert result.details["sheets"] == DEFAULT_TABLE


def swapped_sheets():
    """The default table with Ana's and Chloé's sheets swapped, suits in any case."""
    sheets = copy.deepcopy(DEFAULT_TABLE)
    sheets["Ana"], sheets["Chloé"] = sheets["Chloé"], sheets["Ana"]
    sheets["Ana"]["1"]["I"] = [" moons ", "LEAVES"]
    return sheets


def test_explicit_sheets_are_used_with_suit_names_case_insensitive():
    log = make_log([one_deal(ana=["The Forest"])], setup={"sheets": swapped_sheets()})
    result = judge(log)
    assert result.status == "in_progress"
    assert result.details["sheets"]["Ana"]["1"]["I"] == ["Moons", "Leaves"]
    assert result.details["halves"][0]["Ana"]["I"] == 1  # The Forest: Moons and Leaves


def bad_setup(change, message_id, **params):
    """The message of a setup ``change`` makes wrong, refused by ``message_id``."""
    sheets = swapped_sheets()
    change(sheets)
    result = judge(make_log([one_deal()], setup={"sheets": sheets}))
    assert_refused(result, message_id, move=None, **params)
    assert result.message.startswith("bad setup: ")
    assert (result.scores, result.winners, result.details) == ({}, [], {})
    return result.message


def test_sheet_must_use_all_six_suits():
    def moons_twice(sheets):
        sheets["Ben"]["2"]["III"] = ["Moons", "Knots"]

    message = bad_setup(moons_twice, "forget-venice.suit_twice", player="Ben", half="2")
    assert "six suits" in message


def test_sheet_pair_must_be_two_suits():
    def set_pair(value):
        return lambda sheets: sheets["Ben"]["1"].__setitem__("I", value)

    for value in (["Waves"], ["Waves", "Knots", "Moons"], "Waves, Knots", None):
        bad_setup(set_pair(value), "forget-venice.criterion_not_pair", criterion="I")
    bad_setup(set_pair(["Waves", "Stars"]), "forget-venice.not_suit", value="Stars")


def test_sheets_must_cover_all_three_players():
    bad_setup(lambda sheets: sheets.pop("Chloé"), "forget-venice.sheet_missing", player="Chloé")


def test_sheet_keys_are_players_matched_exactly():
    def rename(sheets):
        sheets["chloé"] = sheets.pop("Chloé")

    bad_setup(rename, "forget-venice.sheets_not_player", value="chloé")

    def add_dev(sheets):
        sheets["Dev"] = DEFAULT_TABLE["Ana"]

    bad_setup(add_dev, "forget-venice.sheets_not_player", value="Dev", players=PLAYERS)


def test_sheet_needs_both_halves_1_and_2():
    bad_setup(lambda sheets: sheets["Ana"].pop("2"), "forget-venice.sheet_missing_half", half="2")
    bad_setup(
        lambda sheets: sheets["Ana"].__setitem__("3", DEFAULT_TABLE["Ana"]["1"]),
        "forget-venice.sheet_unknown_half",
        value="3",
    )


def test_sheet_needs_criteria_one_two_three():
    def rename(new):
        return lambda sheets: sheets["Ben"]["1"].__setitem__(new, sheets["Ben"]["1"].pop("III"))

    bad_setup(
        lambda sheets: sheets["Ben"]["1"].pop("II"),
        "forget-venice.half_missing_criterion",
        criterion="II",
    )
    bad_setup(rename("iii"), "forget-venice.half_unknown_criterion", value="iii")
    bad_setup(rename("IV"), "forget-venice.half_unknown_criterion", value="IV")
    bad_setup(
        lambda sheets: sheets["Ben"]["1"].__setitem__("IV", ["Moons", "Suns"]),
        "forget-venice.half_unknown_criterion",
        value="IV",
    )
    bad_setup(
        lambda sheets: sheets["Ben"].__setitem__("1", [["Moons", "Suns"]] * 3),
        "forget-venice.half_not_object",
        player="Ben",
        half="1",
    )


@pytest.mark.parametrize("setup", [[], "default", 3, True, {"sheets": []}, {"sheets": "default"}])
def test_setup_and_sheets_must_be_objects(setup):
    result = judge(make_log([], setup=setup))
    if isinstance(setup, dict):
        assert_refused(result, "forget-venice.sheets_not_object", move=None, value=setup["sheets"])
    else:
        assert_refused(result, "forget-venice.setup_not_object", move=None, value=setup)


@pytest.mark.parametrize("players", [["Ana", "Ben"], ["Ana", "Ben", "Chloé", "Dev"]])
def test_exactly_three_players(players):
    result = judge(make_log([], players=players))
    assert_refused(result, "game.player_count_exact", move=None, count=3, number=len(players))
    assert (
        result.message
        == f"bad setup: Forget Venice is played by exactly 3 players, not {len(players)}"
    )


def test_explicit_sheet_objects_equal_to_the_table_are_accepted():
    result = judge(make_log(FULL_GAME["moves"], setup={"sheets": copy.deepcopy(DEFAULT_TABLE)}))
    assert result.status == "finished"
    assert result.as_dict() == judge(FULL_GAME).as_dict()


# --- The state is untouched by an illegal move ------------------------------------------------


@pytest.mark.parametrize(
    ("bad", "message_id"),
    [
        (
            {"dealer": "Ben", "piles": [NAMES[30:32], NAMES[32:34], NAMES[34:36] + ["The Author"]]},
            "forget-venice.already_dealt",
        ),
        (
            {"dealer": "Ben", "piles": [NAMES[30:32], NAMES[32:34], NAMES[34:37]], "first": 0},
            "forget-venice.same_pile",
        ),
        (
            {"dealer": "Ben", "piles": [NAMES[30:32], NAMES[32:34], NAMES[34:36] + ["The Excuse"]]},
            "forget-venice.not_in_deck",
        ),
    ],
)
def test_an_illegal_deal_leaves_the_state_untouched(bad, message_id):
    state = judge(make_log([one_deal(ana=["The Author"])])).state
    before = (state.scores(), state.details(), state.undealt())
    move = {"first": 2, "second": 0, **bad}
    with pytest.raises(IllegalMove) as refused:
        state.play(move)
    assert refused.value.verdict.id == message_id
    assert (state.scores(), state.details(), state.undealt()) == before


# --- Queries for the score sheet ------------------------------------------------------------


def test_queries_next_dealer_choosers_and_half():
    state = GAME.start(PLAYERS, None)
    assert (state.deal, state.half, state.next_dealers()) == (1, 1, ["Ana"])
    assert state.choosers("Ana") == ("Ben", "Chloé")
    assert state.choosers("Chloé") == ("Ana", "Ben")
    assert state.left_of("Chloé") == "Ana"
    for move in FULL_GAME["moves"][:6]:
        state.play(move)
    assert (state.deal, state.half, state.next_dealers()) == (7, 2, ["Chloé"])
    assert state.first_half_leaders() == ["Chloé"]
    for move in FULL_GAME["moves"][6:]:
        state.play(move)
    assert (state.deal, state.half, state.next_dealers()) == (None, 2, [])


def test_queries_undealt_cards_this_half():
    state = GAME.start(PLAYERS, None)
    assert state.undealt() == NAMES
    state.play(FULL_GAME["moves"][0])
    dealt = set(sum(FULL_GAME["moves"][0]["piles"], []))
    assert state.undealt() == [n for n in NAMES if n not in dealt]
    for move in FULL_GAME["moves"][1:6]:
        state.play(move)
    assert state.undealt() == NAMES  # reshuffled at half-time


def test_queries_a_players_criteria_and_collection_now():
    state = judge(make_log([one_deal(ana=["The Consul"])])).state
    assert state.criteria("Ana") == {"I": 1, "II": 0, "III": 1, "total": 2}
    assert state.criteria("Ana", 2) == {"I": 0, "II": 0, "III": 0, "total": 0}
    assert state.collection("Ana") == ["The Consul"]


def test_queries_a_players_collection_and_criteria_default_to_the_half_in_play():
    # "a half in progress counts what has been collected": after deal 7, the second half's
    moves = FULL_GAME["moves"][:7]
    state = judge(make_log(moves)).state
    assert state.half == 2
    chloe = moves[6]["piles"][2]
    assert state.collection("Chloé") == state.collection("Chloé", 2) == chloe
    assert state.collection("Chloé") != state.collection("Chloé", 1)
    assert state.criteria("Chloé") == state.criteria("Chloé", 2) != state.criteria("Chloé", 1)


def test_longest_run_and_half_criteria_helpers():
    assert longest_run(0) == 0
    assert longest_run(0b1110110) == 3
    cards = [BY_NAME[n] for n in ("The Darkness", "The Light Keeper", "The Consul", "The Sea")]
    pairs = pairs_of(DEFAULT_TABLE, "Ana", 1)
    assert half_criteria(cards, pairs) == recompute([c.name for c in cards], pairs)


# --- Properties -------------------------------------------------------------------------------


@st.composite
def legal_games(draw):
    """A random legal 12-deal game, and who collected what in each half (tracked by the test)."""
    moves, collected = [], []
    dealer = None
    for half in range(2):
        order = draw(st.permutations(NAMES))
        taken = {p: [] for p in PLAYERS}
        if half == 1:
            totals = {
                p: recompute(collected[0][p], pairs_of(DEFAULT_TABLE, p, 1))["total"]
                for p in PLAYERS
            }
            leaders = [p for p in PLAYERS if totals[p] == max(totals.values())]
            dealer = draw(st.sampled_from(leaders))
        for d in range(6):
            if half == 0 and d == 0:
                dealer = "Ana"
            elif not (half == 1 and d == 0):
                dealer = PLAYERS[(PLAYERS.index(dealer) + 1) % 3]
            cards = order[7 * d : 7 * d + 7]
            cut1 = draw(st.integers(1, 5))
            cut2 = draw(st.integers(cut1 + 1, 6))
            piles = [cards[:cut1], cards[cut1:cut2], cards[cut2:]]
            first, second = draw(st.permutations([0, 1, 2]))[:2]
            seat = PLAYERS.index(dealer)
            taken[PLAYERS[(seat + 1) % 3]] += piles[first]
            taken[PLAYERS[(seat + 2) % 3]] += piles[second]
            taken[dealer] += piles[3 - first - second]
            moves.append({"dealer": dealer, "piles": piles, "first": first, "second": second})
        collected.append(taken)
    return make_log(moves), collected


FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(legal_games())
def test_random_legal_games_finish_with_recomputable_criteria(game):
    log, collected = game
    result = judge(log)
    assert result.status == "finished"
    halves = result.details["halves"]
    for h in range(2):
        for player in PLAYERS:
            expected = recompute(collected[h][player], pairs_of(DEFAULT_TABLE, player, h + 1))
            assert halves[h][player] == expected
    totals = {p: halves[0][p]["total"] + halves[1][p]["total"] for p in PLAYERS}
    assert result.scores == totals
    tied = [p for p in PLAYERS if totals[p] == max(totals.values())]
    for key in ("total", "III"):
        if len(tied) > 1:
            best = max(halves[1][p][key] for p in tied)
            tied = [p for p in tied if halves[1][p][key] == best]
    assert result.winners == tied


@FAST
@given(legal_games())
def test_every_card_dealt_lands_in_exactly_one_collection(game):
    log, collected = game
    result = judge(log)
    for h, half_moves in enumerate((log["moves"][:6], log["moves"][6:])):
        dealt = sorted(name for move in half_moves for pile in move["piles"] for name in pile)
        collections = result.details["collections"][h]
        assert sorted(sum(collections.values(), [])) == dealt == sorted(NAMES)
        assert collections == collected[h]


@FAST
@given(legal_games())
def test_random_games_judge_the_same_from_what_the_referee_understood(game):
    log, _ = game
    assert assert_canonical_round_trip(log)["moves"] == log["moves"]


@FAST
@given(JSON_VALUES, JSON_VALUES)
def test_judge_never_raises_on_arbitrary_json(value, other):
    judge(value)
    judge(make_log(value))
    judge(make_log([], setup=value))
    prefix = FULL_GAME["moves"][:3]
    result = judge(make_log([*prefix, value]))
    assert result.status == "illegal"
    assert result.error["move"] == 3
    assert result.scores == judge(make_log(prefix)).scores
    judge(make_log([{"dealer": "Ana", "piles": value, "first": other, "second": 1}]))


@FAST
@given(legal_games(), st.data())
def test_mutated_logs_are_judged_as_far_as_they_are_legal(game, data):
    log, _ = game
    moves = copy.deepcopy(log["moves"])
    index = data.draw(st.integers(0, 11))
    move = moves[index]
    mutation = data.draw(st.sampled_from(["field", "drop", "card", "pile", "swap", "repeat"]))
    if mutation == "field":
        move[data.draw(st.sampled_from(sorted(move)))] = data.draw(JSON_VALUES)
    elif mutation == "drop":
        del move[data.draw(st.sampled_from(sorted(move)))]
    elif mutation == "card":
        pile = data.draw(st.sampled_from(move["piles"]))
        pile[data.draw(st.integers(0, len(pile) - 1))] = data.draw(
            st.sampled_from([*NAMES, *LEFT_OUT, "The Joker"])
        )
    elif mutation == "pile":
        move["piles"].append(data.draw(st.lists(st.sampled_from(NAMES), max_size=2)))
    elif mutation == "swap":
        move["dealer"] = data.draw(st.sampled_from(PLAYERS))
    else:
        moves.insert(index, copy.deepcopy(move))
    result = judge(make_log(moves))
    if result.status == "illegal":
        bad = result.error["move"]
        assert result.message.startswith(f"move {bad}: ")
        before = judge(make_log(moves[:bad]))
        assert before.legal
        assert (result.scores, result.details) == (before.scores, before.details)
        assert result.winners == []

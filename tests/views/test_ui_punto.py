"""Punto at the table: colours at setup, then each move as two taps (the card, then a cell)."""

import json

import pytest
from django.template.loader import render_to_string
from django.urls import reverse

from games import services
from games.models import Move, Play, Seat
from games.ui import cell_label, ui_for
from games.ui.punto.board import _board, _card, _hand_card, _span
from games.ui.punto.words import label_origin
from referee import judge
from tests.dom import ANY, attr, dom, find, find_all, text
from tests.examples import EXAMPLES

PUNTO = json.loads((EXAMPLES / "punto-1.json").read_text())

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


def db_state():
    return (
        list(Move.objects.values_list("play_id", "seq", "undone_at")),
        list(Seat.objects.values_list("score", "rank", "is_winner")),
        list(Play.objects.values_list("status", "details")),
    )


def tap(client, play, data, *, draft=None, htmx=True):
    seq = play.moves.count()
    return client.post(
        reverse("play-move", args=[play.pk]),
        {"version": seq, "draft": json.dumps(draft) if draft else "", **data},
        headers=HTMX if htmx else {},
    )


def enter(client, play, move):
    """The taps a player makes for one logged move: the card, then the cell (or blocked)."""
    response = tap(client, play, {"card": move["card"]})
    assert response.status_code == 200, response.content.decode()
    draft = {"player": move["player"], "card": move["card"]}
    if move.get("blocked"):
        return tap(client, play, {"blocked": "1"}, draft=draft)
    x, y = move["at"]
    return tap(client, play, {"at": f"{x},{y}"}, draft=draft)


# Setup ----------------------------------------------------------------------------------------


def setup_url(night, seats):
    query = "&".join(f"seat={p.pk}" for p in seats)
    return f"{reverse('play-setup', args=[night.pk])}?game=punto&{query}"


def post_setup(client, night, seats, data):
    return client.post(
        reverse("play-setup", args=[night.pk]),
        {"game": "punto", "seat": [p.pk for p in seats], **data},
    )


def test_setup_prefills_red_blue_against_orange_green_for_two(member_client, night, players):
    body = member_client.get(setup_url(night, players[:2])).content.decode()
    assert (
        '<option value="red" selected>' in body.split('name="colour-0-0"')[1].split("</select>")[0]
    )
    assert (
        '<option value="blue" selected>' in body.split('name="colour-0-1"')[1].split("</select>")[0]
    )
    assert (
        '<option value="orange" selected>'
        in body.split('name="colour-1-0"')[1].split("</select>")[0]
    )
    assert (
        '<option value="green" selected>'
        in body.split('name="colour-1-1"')[1].split("</select>")[0]
    )


def test_default_colours_for_three_and_four_players_are_one_each():
    from games.ui import ui_for

    assert ui_for("punto").default_setup(["A", "B", "C"]) == {
        "colours": {"A": ["red"], "B": ["orange"], "C": ["blue"]}
    }
    four = ui_for("punto").default_setup(["A", "B", "C", "D"])["colours"]
    assert list(four.values()) == [["red"], ["orange"], ["blue"], ["green"]]


def test_setup_for_three_gives_one_colour_each_and_names_the_neutral(member_client, night, players):
    body = member_client.get(setup_url(night, players)).content.decode()
    assert 'name="colour-2-0"' in body and 'name="colour-0-1"' not in body
    assert "the fourth colour is neutral" in body


def test_setup_form_starts_the_play_with_the_chosen_colours(member_client, night, players):
    ana, ben, chloe = players
    response = post_setup(
        member_client,
        night,
        players,
        {"colour-0-0": "green", "colour-1-0": "red", "colour-2-0": "blue"},
    )
    play = Play.objects.get()
    assert response["Location"] == reverse("play", args=[play.pk])
    assert play.setup == {"colours": {"Ana": ["green"], "Ben": ["red"], "Chloé": ["blue"]}}


def test_setup_with_a_colour_given_twice_shows_the_referees_message(member_client, night, players):
    response = post_setup(
        member_client,
        night,
        players[:2],
        {"colour-0-0": "red", "colour-0-1": "blue", "colour-1-0": "red", "colour-1-1": "green"},
    )
    assert response.status_code == 422
    assert "Red is given twice" in response.content.decode()
    assert Play.objects.count() == 0


@pytest.mark.parametrize("value", ["", "purple"])
def test_setup_with_a_missing_or_tampered_colour_says_so(member_client, night, players, value):
    response = post_setup(
        member_client,
        night,
        players[:2],
        {"colour-0-0": "red", "colour-0-1": value, "colour-1-0": "orange", "colour-1-1": "green"},
    )
    assert response.status_code == 422
    assert "Choose Ana&#x27;s colours." in response.content.decode()
    assert Play.objects.count() == 0


# Move entry -----------------------------------------------------------------------------------


def test_the_card_picker_offers_the_players_colours_with_copies_left(member_client, punto):
    body = member_client.get(reverse("play", args=[punto.pk])).content.decode()
    assert "Ana drew:" in body
    assert 'name="card" value="red-1"' in body and 'name="card" value="blue-9"' in body
    assert 'value="orange-1"' not in body
    assert "Round 1" in body and "The table is empty" in body


@pytest.mark.parametrize("htmx", [True, False])
def test_first_card_of_a_round_offers_the_centre_cell(member_client, punto, htmx):
    response = tap(member_client, punto, {"card": "red-1"}, htmx=htmx)
    body = response.content.decode()
    assert response.status_code == 200
    assert ("<html" in body) is not htmx
    assert 'name="at" value="0,0"' in body and body.count('name="at"') == 1
    assert "&quot;card&quot;: &quot;red-1&quot;" in body  # the draft, in its hidden field
    assert punto.moves.count() == 0


def test_the_cell_tap_stores_the_complete_move(member_client, punto):
    response = tap(member_client, punto, {"at": "0,0"}, draft={"player": "Ana", "card": "red-1"})
    assert response.status_code == 200
    assert punto.moves.get().data == {"player": "Ana", "card": "red-1", "at": [0, 0]}
    assert "Ben drew:" in response.content.decode()


def test_without_javascript_the_cell_tap_redirects_to_the_play(member_client, punto):
    response = tap(
        member_client, punto, {"at": "0,0"}, draft={"player": "Ana", "card": "red-1"}, htmx=False
    )
    assert response.status_code == 302
    assert punto.moves.count() == 1


def test_only_legal_cells_are_offered_and_covering_shows_the_card_under(member_client, punto):
    for move in PUNTO["moves"][:2]:  # red-1 at (0,0), orange-1 at (0,1)
        enter(member_client, punto, move)
    body = tap(member_client, punto, {"card": "red-2"}).content.decode()
    cells = {part.split('"')[0] for part in body.split('name="at" value="')[1:]}
    # the 8 + 8 neighbours minus the 2 cards, and both cards (lower than 2) to cover
    assert len(cells) == 12 and {"0,0", "0,1", "-1,-1", "1,2"} <= cells
    # the board labels the cells: the round's first card is F6
    assert "Cover the orange 1 at F7 with the red 2" in body


def test_a_card_that_cannot_cover_is_not_offered_on_that_cell(member_client, punto):
    enter(member_client, punto, PUNTO["moves"][0])
    body = tap(member_client, punto, {"card": "orange-1"}).content.decode()
    assert 'name="at" value="0,0"' not in body


def test_copies_left_this_round_are_shown_and_none_left_is_disabled(member_client, punto):
    enter(member_client, punto, {"player": "Ana", "card": "red-5", "at": [0, 0]})
    enter(member_client, punto, {"player": "Ben", "card": "orange-1", "at": [1, 0]})
    enter(member_client, punto, {"player": "Ana", "card": "red-5", "at": [2, 0]})
    enter(member_client, punto, {"player": "Ben", "card": "orange-1", "at": [3, 0]})
    body = member_client.get(reverse("play", args=[punto.pk])).content.decode()
    assert 'value="red-5" class="punto-pick punto-red" disabled' in body
    assert "red 5, 0 copies left" in body and "red 4, 2 copies left" in body


def test_the_drawn_span_is_the_cards_plus_one_each_side_up_to_the_full_box():
    assert list(_span(0, 0)) == [-1, 0, 1]  # one card: room on both sides
    assert list(_span(0, 4)) == [-1, 0, 1, 2, 3, 4, 5]  # 5 wide: either side may still grow
    assert list(_span(0, 5)) == [0, 1, 2, 3, 4, 5]  # 6 wide: the full box, nothing beyond
    assert list(_span(-3, 2)) == [-3, -2, -1, 0, 1, 2]  # wherever the box stands


def test_a_full_box_draws_exactly_its_six_by_six_cells():
    cells = {(x, y): "red-1" for x in range(-2, 4) for y in range(6)}
    board = _board(cells, legal=set())
    assert [[cell["at"] for cell in row["cells"]] for row in board["rows"]] == [
        [f"{x},{y}" for x in range(-2, 4)] for y in range(6)
    ]
    assert board["full_width"] and board["full_height"]
    assert all(cell["in_box"] for row in board["rows"] for cell in row["cells"])


def test_a_full_width_strip_still_draws_a_row_above_and_below():
    board = _board({(x, 0): "red-1" for x in range(6)}, legal=set())
    assert [len(row["cells"]) for row in board["rows"]] == [6, 6, 6]
    assert [row["cells"][0]["y"] for row in board["rows"]] == [-1, 0, 1]
    assert board["full_width"] and not board["full_height"]


def full_table_moves():
    """36 cards filling the 6 × 6 box row by row, colours cycling so that no two of a colour
    touch in a line (no round is won); Ana plays red and blue, Ben orange and green, in turn."""
    colours = ["red", "orange", "blue", "green"]
    used = dict.fromkeys(colours, 0)
    moves = []
    for y in range(6):
        for x in range(6):
            colour = colours[(x + 2 * y) % 4]
            value = min(2 + used[colour], 9)
            used[colour] += 1
            player = "Ana" if colour in ("red", "blue") else "Ben"
            moves.append({"player": player, "card": f"{colour}-{value}", "at": [x, y]})
    return moves


@pytest.fixture
def full_table(punto):
    for move in full_table_moves():
        services.record_move(play=punto, move=move)
    return punto


def test_a_full_table_shows_that_no_row_or_column_can_be_added(member_client, full_table):
    body = member_client.get(reverse("play", args=[full_table.pk])).content.decode()
    assert "The cards span 6 × 6 of at most 6 × 6." in body
    assert "No more columns or rows can be added." in body
    assert "punto-grid limit-x limit-y" in body


def test_a_blocked_card_offers_the_blocked_button_and_ends_the_round(member_client, full_table):
    body = tap(member_client, full_table, {"card": "red-1"}).content.decode()
    assert 'id="punto-blocked"' in body and 'name="at"' not in body
    response = tap(
        member_client, full_table, {"blocked": "1"}, draft={"player": "Ana", "card": "red-1"}
    )
    assert full_table.moves.last().data == {"player": "Ana", "card": "red-1", "blocked": True}
    body = response.content.decode()
    assert "blocked: series counted" in body and "Round 2" in body


def test_no_blocked_button_when_the_card_has_a_cell(member_client, punto):
    enter(member_client, punto, PUNTO["moves"][0])
    body = tap(member_client, punto, {"card": "orange-5"}).content.decode()
    assert 'id="punto-blocked"' not in body


def test_an_illegal_move_shows_the_referees_message_and_stores_nothing(member_client, punto):
    enter(member_client, punto, PUNTO["moves"][0])
    before = db_state()
    # a tampered cell: (5, 5) does not touch the red 1
    response = tap(member_client, punto, {"at": "5,5"}, draft={"player": "Ben", "card": "orange-1"})
    body = response.content.decode()
    assert 'id="move-error"' in body and "Round 1, card 2: the orange 1 cannot go at K11" in body
    assert db_state() == before


def test_a_card_of_another_players_colour_is_refused_by_the_referee(member_client, punto):
    response = tap(member_client, punto, {"at": "0,0"}, draft={"player": "Ana", "card": "green-3"})
    assert "Ana plays red and blue, not green" in response.content.decode()
    assert punto.moves.count() == 0


@pytest.mark.parametrize(
    "data, draft",
    [
        ({"card": "purple-3"}, None),
        ({"card": "red-10"}, None),
        ({"at": "0,0"}, None),
        ({"at": "zero"}, {"player": "Ana", "card": "red-1"}),
        ({"at": "0,0"}, {"player": "Zoé", "card": "red-1"}),
        ({}, {"player": "Ana", "card": "red-1"}),
    ],
)
def test_tampered_or_missing_input_gets_a_message_and_stores_nothing(
    member_client, punto, data, draft
):
    response = tap(member_client, punto, data, draft=draft)
    assert response.status_code == 200 and 'id="move-error"' in response.content.decode()
    assert punto.moves.count() == 0


def test_a_damaged_draft_gets_a_message(member_client, punto):
    response = member_client.post(
        reverse("play-move", args=[punto.pk]),
        {"version": 0, "draft": "{nope", "at": "0,0"},
        headers=HTMX,
    )
    assert "The form was damaged" in response.content.decode()


def test_change_the_card_drops_the_draft(member_client, punto):
    response = tap(member_client, punto, {"reset": "1"}, draft={"player": "Ana", "card": "red-1"})
    page = dom(response.content.decode())
    assert text(find(page, "p", id="punto-turn")) == "Ana drew:"
    # no cell offered: on an empty table only the centre, for the phone once a card is tapped
    (centre,) = find_all(page, "button", name="at")
    assert attr(centre, "value") == "0,0" and find_all(page, "button", name="at", disabled=ANY)


def test_the_json_fallback_still_enters_a_move(member_client, punto):
    move = PUNTO["moves"][0]
    tap(member_client, punto, {"move_json": json.dumps(move)})
    assert punto.moves.get().data == move


# The whole match and the sheet ------------------------------------------------------------------


def test_a_whole_match_tapped_in_ends_with_the_winner_and_the_rounds(member_client, punto):
    for move in PUNTO["moves"]:
        assert enter(member_client, punto, move).status_code == 200
    punto.refresh_from_db()
    assert punto.status == "finished"
    body = member_client.get(reverse("play", args=[punto.pk])).content.decode()
    assert 'id="move-form"' not in body and "The match is over." in body
    assert "The table as the last round ended" in body
    sheet = member_client.get(reverse("play-sheet", args=[punto.pk])).content.decode()
    rounds = sheet.split('id="punto-rounds"')[1].split("</table>")[0]
    assert rounds.count('data-round="') == 2 and rounds.count(">Ana</td>") == 2
    assert "red 9" in rounds and "blue 8" in rounds and "a line" in rounds
    won = sheet.split('id="punto-won"')[1].split("</table>")[0]
    assert '<td class="punto-wins">2</td>' in won and '<td class="punto-wins">0</td>' in won


def test_the_board_shows_the_round_and_the_standing(member_client, punto):
    for move in PUNTO["moves"][:10]:  # round 1 won by Ana, then Ben's first card of round 2
        enter(member_client, punto, move)
    response = member_client.get(reverse("play", args=[punto.pk]))
    body = response.content.decode()
    assert "Round 2" in body and "Ana to play" in body
    assert text(find(dom(response), "span", class_="punto-wins", data_wins="1")) == "1 round won"
    assert 'data-card="orange-6"' in body


def test_the_six_by_six_limit_is_shown(member_client, punto):
    for move in PUNTO["moves"][:5]:  # red 1, 2, 3 and orange 1, 2 on two rows, 3 wide
        enter(member_client, punto, move)
    body = member_client.get(reverse("play", args=[punto.pk])).content.decode()
    assert "The cards span 3 × 2 of at most 6 × 6." in body


# Team play and rounds to win (issue 18) --------------------------------------------------------

TEAMS = [["Ana", "Chloé"], ["Ben", "Dev"]]
#: Chloé lays the fifth red of her team's line; one round wins the match.
TEAM_MATCH = [
    {"player": p, "card": c, "at": [x, y]}
    for p, c, x, y in [
        ("Ana", "red-1", 0, 0), ("Ben", "orange-1", 0, 1), ("Chloé", "red-2", 1, 0),
        ("Dev", "green-1", 1, 1), ("Ana", "blue-5", 0, 2), ("Ben", "orange-2", 2, 1),
        ("Chloé", "red-3", 2, 0), ("Dev", "green-2", 3, 1), ("Ana", "red-4", 3, 0),
        ("Ben", "orange-3", 1, 2), ("Chloé", "red-5", 4, 0),
    ]
]  # fmt: skip


@pytest.fixture
def four(players):
    return [*players, services.add_player(club=players[0].club, name="Dev")]


def team_defaults(**changes):
    """What the setup form posts for four players when "Teams" is tapped and nothing else."""
    data = {
        "mode": "teams", "rounds_to_win": "2",
        "team-0-0": "red", "team-0-1": "blue", "team-1-0": "orange", "team-1-1": "green",
        "colour-0-0": "red", "colour-1-0": "orange", "colour-2-0": "blue", "colour-3-0": "green",
    }  # fmt: skip
    return data | changes


def test_setup_for_four_proposes_opposite_teams_and_their_colours(member_client, night, four):
    body = member_client.get(setup_url(night, four)).content.decode()
    assert "Teams: Ana & Chloé against Ben & Dev" in body
    assert 'value="solo" id="punto-mode-solo" checked' in body
    for field, colour in [("team-0-0", "red"), ("team-0-1", "blue"),
                          ("team-1-0", "orange"), ("team-1-1", "green")]:  # fmt: skip
        select = body.split(f'name="{field}"')[1].split("</select>")[0]
        assert f'<option value="{colour}" selected>' in select
    # two or three players: no teams
    assert 'name="mode"' not in member_client.get(setup_url(night, four[:3])).content.decode()


def test_setup_offers_one_to_five_rounds_to_win_two_chosen(member_client, night, players):
    body = member_client.get(setup_url(night, players[:2])).content.decode()
    assert body.count('name="rounds_to_win"') == 5
    assert 'name="rounds_to_win" value="2" checked' in body
    assert 'name="rounds_to_win" value="3" checked' not in body


def test_setup_starts_a_team_play_with_the_teams_colours(member_client, night, four):
    response = post_setup(
        member_client, night, four, team_defaults(**{"team-1-0": "green", "team-1-1": "orange"})
    )
    play = Play.objects.get()
    assert response["Location"] == reverse("play", args=[play.pk])
    assert play.setup == {
        "colours": {"Ana": ["red", "blue"], "Ben": ["green", "orange"],
                    "Chloé": ["red", "blue"], "Dev": ["green", "orange"]},
        "teams": TEAMS,
    }  # fmt: skip
    seats = {seat.player.name: seat.team for seat in play.seats.all()}
    assert seats["Ana"] == seats["Chloé"] != seats["Ben"] == seats["Dev"]


def test_setup_each_for_themselves_ignores_the_team_fields(member_client, night, four):
    post_setup(member_client, night, four, team_defaults(mode="solo"))
    assert Play.objects.get().setup == {
        "colours": {"Ana": ["red"], "Ben": ["orange"], "Chloé": ["blue"], "Dev": ["green"]}
    }


@pytest.mark.parametrize(("tapped", "kept"), [("1", 1), ("2", None), ("5", 5)])
def test_setup_keeps_rounds_to_win_unless_it_is_the_default(
    member_client, night, players, tapped, kept
):
    data = {"colour-0-0": "red", "colour-0-1": "blue", "colour-1-0": "orange",
            "colour-1-1": "green", "rounds_to_win": tapped}  # fmt: skip
    post_setup(member_client, night, players[:2], data)
    assert Play.objects.get().setup.get("rounds_to_win") == kept


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"rounds_to_win": "6"}, "Choose how many rounds win the match."),
        ({"rounds_to_win": "two"}, "Choose how many rounds win the match."),
        ({"mode": "pairs"}, "The form was damaged"),
        ({"team-1-1": "pink"}, "Choose the colours of Ben and Dev&#x27;s team."),
        ({"team-1-0": "red"}, "Red is given twice (Ana and Ben)"),
    ],
)
def test_a_wrong_team_setup_says_why_and_starts_nothing(member_client, night, four, data, message):
    response = post_setup(member_client, night, four, team_defaults(**data))
    assert response.status_code == 422
    assert message in response.content.decode()
    assert Play.objects.count() == 0
    # the form comes back as it was posted (a tampered choice as "each for themselves")
    mode = "teams" if "mode" not in data else "solo"
    assert f'value="{mode}" id="punto-mode-{mode}" checked' in response.content.decode()


def test_teams_for_three_players_are_refused(member_client, night, four):
    response = post_setup(member_client, night, four[:3], team_defaults())
    assert response.status_code == 422 and Play.objects.count() == 0


@pytest.fixture
def team_punto(night, four):
    setup = {
        "colours": {"Ana": ["red", "blue"], "Ben": ["orange", "green"],
                    "Chloé": ["blue", "red"], "Dev": ["green", "orange"]},
        "teams": TEAMS,
        "rounds_to_win": 1,
    }  # fmt: skip
    return services.start_play(night=night, game="punto", players=four, setup=setup)


def test_a_partner_picks_any_card_of_the_teams_colours(member_client, team_punto):
    for move in TEAM_MATCH[:2]:
        enter(member_client, team_punto, move)
    body = member_client.get(reverse("play", args=[team_punto.pk])).content.decode()
    assert "Chloé drew:" in body
    hand = body.split('id="punto-turn"')[1].split("</fieldset>\n  <p")[0]
    assert 'value="blue-1"' in hand and 'value="red-1"' in hand and 'value="green-1"' not in hand
    assert "With Ana: either partner may play any card of the team's colours." in body
    # red-1 is down once (Ana's): Chloé, her partner, has one copy left
    assert 'value="red-1" class="punto-pick punto-red" aria-label="red 1, 1 copy left"' in body


def test_a_team_match_tapped_in_counts_rounds_per_team(member_client, team_punto):
    body = member_client.get(reverse("play", args=[team_punto.pk])).content.decode()
    standing = body.split('id="punto-standing"')[1].split("</ul>")[0]
    assert standing.count('class="punto-team') == 2 and "data-player=" in standing
    assert "5 in a row of a team's colour, laid by either partner, wins the round; " in body
    assert "1 round wins the match." in body
    for move in TEAM_MATCH:
        assert enter(member_client, team_punto, move).status_code == 200
    team_punto.refresh_from_db()
    assert team_punto.status == "finished"
    body = member_client.get(reverse("play", args=[team_punto.pk])).content.decode()
    assert "Winners: Ana, Chloé" in body
    standing = body.split('id="punto-standing"')[1].split("</ul>")[0]
    assert '<li class="punto-team" data-team="0">' in standing
    assert standing.count('data-wins="1"') == 1 and standing.count('data-wins="0"') == 1
    sheet = member_client.get(reverse("play-sheet", args=[team_punto.pk])).content.decode()
    rounds = sheet.split('id="punto-rounds"')[1].split("</table>")[0]
    assert "Chloé <small>(with Ana)</small>" in rounds
    won = sheet.split('id="punto-won"')[1].split("</table>")[0]
    assert '<td>Ana &amp; Chloé</td><td>red, blue</td><td class="punto-wins">1</td>' in won
    assert '<td>Ben &amp; Dev</td><td>orange, green</td><td class="punto-wins">0</td>' in won
    assert "Played to 1 round won." in sheet


def test_the_board_labels_its_cells_from_the_rounds_first_card(member_client, punto):
    """The cards of a round stay within 5 columns and rows of its first card: it is F6, and a
    cell keeps its name for the whole round."""
    body = tap(member_client, punto, {"card": "red-1"}).content.decode()
    assert 'aria-label="Play the red 1 at F6"' in body  # the empty table: the centre cell
    enter(member_client, punto, PUNTO["moves"][0])  # red-1 at (0, 0)
    response = tap(member_client, punto, {"card": "orange-1"})
    board = response.context["punto"]["board"]
    assert board["column_labels"] == ["E", "F", "G"]
    assert [row["label"] for row in board["rows"]] == [5, 6, 7]
    body = response.content.decode()
    assert 'data-at="0,0" data-cell="F6" data-card="red-1"' in body
    assert 'aria-label="Play the orange 1 at G7"' in body


def test_the_box_around_the_first_card_is_labelled_from_a1_to_k11():
    """The first card is F6: the box reaches 5 columns and 5 rows either side of it, so its
    top left corner is A1; a cell beyond it has no label."""
    origin = label_origin((0, 0))
    assert cell_label((0, 0), origin) == "F6"
    assert cell_label((-5, -5), origin) == "A1" and cell_label((5, 5), origin) == "K11"
    assert cell_label((-5, -6), origin) is None and cell_label((-6, -5), origin) is None


def grid_html(board, drafted=None, *, past=False):
    """The table as board.html draws it (templates/plays/games/punto/_grid.html)."""
    context = {"board": board, "drafted": drafted, "past": past}
    return render_to_string("plays/games/punto/_grid.html", context)


def test_the_grid_offers_only_the_legal_cells_as_buttons():
    """A drafted card: its legal cells are buttons (an empty one, or a lower card to cover),
    the other cells are drawn, not tapped; the ring is told from the box."""
    cells = {(0, 0): "red-7", (1, 0): "blue-2"}
    board = _board(cells, {(1, 0), (2, 0)}, last=(0, 0), origin=(-5, -5))
    html = grid_html(board, _card("green-5"))
    assert html.count("<button") == 2
    assert (
        '<button type="submit" form="move-form" name="at" value="1,0" role="gridcell" '
        'class="punto-cell punto-card punto-blue legal cover" aria-label="Cover the blue 2 at '
        'G6 with the green 5">' in html
    )
    assert (
        'value="2,0" role="gridcell" class="punto-cell legal" aria-label="Play the green 5 at H6"'
        in html
    )
    assert (
        '<span role="gridcell" class="punto-cell punto-card punto-red last-move" data-at="0,0" '
        'data-cell="F6" data-card="red-7" title="red 7"><span class="punto-value">7</span>'
        '<span class="punto-sr">red, the last card played</span></span>' in html
    )
    assert 'class="punto-cell ring" data-at="-1,-1" data-cell="E5"></span>' in html
    assert 'class="punto-grid" role="grid"' in html
    assert "The cards span 2 × 1 of at most 6 × 6." in html


def test_the_grid_holds_only_rows_and_says_the_limit_beside_it():
    board = _board({(0, 0): "red-7", (1, 0): "blue-2"}, {(2, 0)}, origin=(-5, -5))
    page = dom(grid_html(board, _card("green-5")))
    grid = find(page, "div", class_="punto-grid")
    # the letters' row, then one row a line of cells: nothing else inside the grid
    assert grid.children == find_all(grid, "div", class_="punto-row")
    assert len(grid.children) == 1 + len(board["rows"])
    assert page.children[-1] == find(page, "p", id="punto-limit")


def test_the_grid_says_when_the_box_is_full():
    """Six columns: no more can be added, said beside the grid and marked on its sides."""
    board = _board({(x, 0): f"red-{x + 1}" for x in range(6)}, set())
    page = dom(grid_html(board))
    grid = find(page, "div", class_="punto-grid")
    assert sorted(attr(grid, "class").split()) == ["limit-x", "punto-grid"]
    assert text(find(page, "p", id="punto-limit")) == (
        "The cards span 6 × 1 of at most 6 × 6. No more columns can be added."
    )


def test_the_grid_marks_the_winning_line_on_the_last_rounds_table():
    """The table as a round ended: no buttons, the winning line told to the eye and the ear."""
    board = _board({(0, 0): "red-7", (0, 1): "red-8"}, set(), (0, 1), frozenset({(0, 0), (0, 1)}))
    html = grid_html(board, past=True)
    assert "<button" not in html and 'class="punto-grid punto-past"' in html
    assert html.count("win-line") == 2
    assert (
        'class="punto-cell punto-card punto-red last-move win-line" data-at="0,1" '
        'data-card="red-8"' in html
    )
    assert "red, the last card played, in the winning line</span>" in html


def test_the_grid_escapes_what_it_says():
    """Its words go into attributes: a cell's name with a quote must not end one."""
    board = _board({(0, 0): "red-7"}, {(1, 0)}, origin=(-5, -5))
    (cell,) = [cell for row in board["rows"] for cell in row["cells"] if cell["at"] == "1,0"]
    cell["label"] = 'G"6'
    html = grid_html(board, _card("green-5"))
    assert 'aria-label="Play the green 5 at G&quot;6"' in html


def names_context(players: list[str], setup: dict) -> dict:
    """move_context's ``p`` at the start of a match of ``players``."""
    log = {"format": "gamelog/1", "game": "punto", "players": players, "setup": setup}
    return ui_for("punto").move_context(judge({**log, "moves": []}), players, None)["punto"]


def drawn(name: str, p: dict) -> str:
    """board.html, move_form.html or sheet.html drawn from move_context's ``p``."""
    return render_to_string(f"plays/games/punto/{name}.html", {"punto": p, "play": None})


THREE = {"Ana": ["red"], "Ben": ["blue"], "Chloé": ["green"]}


def test_the_hand_names_the_neutral_colour_and_escapes_its_labels():
    card = _hand_card("green", 3, 0) | {"label": 'green "3"'}
    p = names_context(["Ana", "Ben", "Chloé"], {"colours": THREE})
    p["hand"] = [{"colour": "green", "label": "green", "neutral": True, "cards": [card]}]
    html = drawn("move_form", p)
    assert "<legend>Green (neutral)</legend>" in html
    assert (
        '<button type="submit" name="card" value="green-3" class="punto-pick punto-green" '
        'disabled aria-label="green &quot;3&quot;" data-set="card" data-string '
        'data-value="green-3" data-offered="cards" data-label="green &quot;3&quot;">'
        '<span class="punto-value">3</span><small aria-hidden="true">×0</small></button>' in html
    )


ODD = ["A<b>'", 'B&"x', "C>", "D'"]
ODD_TEAMS = {
    "teams": [[ODD[0], ODD[2]], [ODD[1], ODD[3]]],
    "rounds_to_win": 3,
    "colours": {
        ODD[0]: ["red", "blue"],
        ODD[1]: ["orange", "green"],
        ODD[2]: ["blue", "red"],
        ODD[3]: ["green", "orange"],
    },
}


def test_the_standing_escapes_the_names_and_counts_rounds_per_team():
    html = drawn("board", names_context(ODD, ODD_TEAMS))
    assert "Round 1 · A&lt;b&gt;&#x27; to play" in html
    assert (
        '<span class="punto-member-to-play" data-player="A&lt;b&gt;&#x27;">A&lt;b&gt;&#x27;'
        '</span> &amp; <span data-player="C&gt;">C&gt;</span>' in html
    )
    assert html.count('class="punto-team') == 2 and "<b>" not in html
    assert '<span class="punto-wins" data-wins="0">0 rounds won</span>' in html
    assert "3 rounds win the match." in html


def test_the_standing_names_the_neutral_colour_for_three():
    html = drawn("board", names_context(["Ana", "Ben", "Chloé"], {"colours": THREE}))
    assert (
        '<li class="punto-neutral"><span class="punto-chip punto-orange"></span> orange is ' in html
    )
    assert html.count('<li class="') == 4 and "in a row wins the round; 2 rounds win" in html


def test_the_sheet_escapes_the_names_and_says_each_round():
    p = names_context(ODD, ODD_TEAMS)
    p["rounds"] = [
        {
            "number": 1,
            "winner": ODD[2],
            "partner": ODD[0],
            "how": "line",
            "removed": _card("red-9"),
        },
        {"number": 2, "winner": None, "partner": None, "how": "blocked", "removed": None},
    ]
    html = drawn("sheet", p)
    rounds, won = html.split('id="punto-won"')
    assert (
        '<td class="punto-round-winner">C&gt; <small>(with A&lt;b&gt;&#x27;)</small></td>' in rounds
    )
    assert "<td>nobody</td>" not in rounds and ">nobody</td>" in rounds and "—" in rounds
    assert "red 9" in rounds and "a line" in rounds and "blocked: series counted" in rounds
    assert "<td>B&amp;&quot;x &amp; D&#x27;</td><td>orange, green</td>" in won


# What the tests over every game ask of this one (tests/per_game.py) ---------------------------

REFUSED_MOVE = {
    "en": "Round 1, card 3: the green 3 cannot cover the orange 3 at G6: a card covers only a card "
    "of strictly lower value.",
    "fr": "Manche 1, carte 3 : le 3 vert ne peut pas recouvrir le 3 orange en G6 : une carte ne "
    "recouvre qu'une carte de valeur strictement inférieure.",
}
REFUSED_SETUP = (
    {"colours": {"Ana": ["red"], "Ben": ["red"], "Chloé": ["blue"]}},
    "Le rouge est donné deux fois (Ana et Ben) : chaque couleur appartient à un joueur au plus.",
)
SAMPLES = {"card": "red-7", "cell": (1, 0), "colour": "orange", "colours": ["red", "blue"]}
SAYS = [
    ("card", "red-7", "the red 7", "7 rouge"),
    ("cell", (0, 0), "F6", "F6"),  # the round's first card
    ("cell", (-5, 5), "A11", "A11"),
]

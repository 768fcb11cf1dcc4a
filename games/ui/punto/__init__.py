"""Punto at the table: colours per player (or, for four, per team of partners seated opposite)
and the rounds that win the match, then each move in two taps — the card drawn, then a cell on
the board (or "blocked" when the card has no legal cell). A partner's hand is the team's colours.

The board shows the visible top cards inside the floating 6 × 6 box: the cards' bounding box and
the ring of cells around it where the box may still grow. Only the engine's legal cells are
offered as buttons; the referee judges the move.
"""

from __future__ import annotations

from typing import Any

from django.http import QueryDict
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from referee import Game, Judgement
from referee.punto import (
    COLOURS,
    MAX_ROUNDS_TO_WIN,
    ROUNDS_TO_WIN,
    VALUES,
    CardPlay,
    Punto,
    parse_card,
)

from .. import (
    Builder,
    Draft,
    FormError,
    GameUI,
    and_list,
    damaged_form,
    is_cell,
    read_cell,
    read_draft,
)
from .board import board_context
from .words import COLOUR_LABELS, card_words, cell_name, round_ended

#: the setup's choice of "each for themselves" or teams (four players only)
SOLO, TEAMS = "solo", "teams"
#: the colours each team is offered first: red and blue against orange and green, as two players
TEAM_COLOURS = (("red", "blue"), ("orange", "green"))


def opposite_teams(players: list[str]) -> list[list[str]]:
    """The only pairing the rules allow: partners seated opposite each other."""
    return [[players[0], players[2]], [players[1], players[3]]]


def _read_card(value: Any) -> str:
    """A card name from the form ("red-7"), or FormError for anything the form never offers."""
    text = value.strip().lower() if isinstance(value, str) else ""
    colour, _sep, number = text.partition("-")
    if colour not in COLOURS or number not in {str(v) for v in VALUES}:
        raise FormError(_("Choose the card drawn from the cards shown."))
    return f"{colour}-{number}"


class PuntoUI(GameUI):
    # On the phone: the card drawn, then one of its cells (or "blocked"), sent at once.
    builder = Builder(complete="card at|card blocked", base={"player": "player"})

    # The referee's words ----------------------------------------------------------------------

    def word(self, kind: str, value: Any, state: Game | None) -> str | None:
        if kind == "card" and (card := parse_card(value)) is not None:
            return card_words(card)
        if kind == "colour" and isinstance(value, str) and value in COLOUR_LABELS:
            return str(COLOUR_LABELS[value])
        if kind == "cell" and isinstance(state, Punto) and is_cell(value):
            return cell_name(value, state)
        return None

    def move_name(self, state: Game | None, number: int) -> str:
        if not isinstance(state, Punto) or state.finished:
            return super().move_name(state, number)
        return _("Round %(round)s, card %(number)s") % {
            "round": state.round,
            "number": state.cards_played() + 1,
        }

    def describe_move(self, state: Game, plan: CardPlay) -> str:
        """ "Ana plays the red 7 at F6", "… on the blue 3", "Ben is blocked with the green 9"."""
        assert isinstance(state, Punto)
        values = {"player": plan.player, "card": card_words(plan.card)}
        if plan.cell is None:
            return _("%(player)s draws %(card)s and is blocked: no cell for it") % values
        values["cell"] = cell_name(plan.cell, state)
        below = state.board.get(plan.cell)
        if below is not None:
            values["card_below"] = card_words(below)
            return _("%(player)s plays %(card)s at %(cell)s, on %(card_below)s") % values
        return _("%(player)s plays %(card)s at %(cell)s") % values

    def move_outcome(self, state: Game, plan: CardPlay) -> str | None:
        """The end of a round (the table is cleared) and of the match."""
        assert isinstance(state, Punto)
        if state.board or not state.rounds:  # the round goes on
            return None
        ended = state.rounds[-1]
        # Said as the page says it next to the controls (PuntoUI.events).
        said = [round_ended(ended, len(state.rounds))]
        if ended["removed"]:
            card = card_words(ended["removed"])
            said.append(capfirst(_("%(card)s leaves the game.") % {"card": card}))
        if state.finished:
            winners = state.winners()
            said.append(
                ngettext("%(names)s wins the match.", "%(names)s win the match.", len(winners))
                % {"names": and_list(winners)}
            )
        return " ".join(said)

    # Setup --------------------------------------------------------------------------------------

    def default_setup(self, players: list[str]) -> dict[str, Any]:
        """Two players: red + blue against orange + green (as in the rules' example); three or
        four: one colour each in the order red, orange, blue, green (with three, green is
        neutral)."""
        if len(players) == 2:
            return {"colours": {players[0]: ["red", "blue"], players[1]: ["orange", "green"]}}
        return {"colours": {name: [COLOURS[i]] for i, name in enumerate(players[: len(COLOURS)])}}

    def setup_context(self, players: list[str], post: QueryDict | None) -> dict[str, Any]:
        default = self.default_setup(players)["colours"]
        each = 2 if len(players) == 2 else 1

        def chosen(field: str, default: str) -> str:
            return post.get(field, "") if post is not None else default

        rows = []
        for index, name in enumerate(players):
            picks = []
            for k in range(each):
                field = f"colour-{index}-{k}"
                picks.append({"field": field, "chosen": chosen(field, default[name][k])})
            rows.append({"name": name, "picks": picks})
        team_rows = []
        if len(players) == 4:
            for index, members in enumerate(opposite_teams(players)):
                picks = []
                for k in range(2):
                    field = f"team-{index}-{k}"
                    picks.append({"field": field, "chosen": chosen(field, TEAM_COLOURS[index][k])})
                team_rows.append({"index": index, "members": members, "picks": picks})
        options = [(colour, COLOUR_LABELS[colour]) for colour in COLOURS]
        return {
            "colour_rows": rows,
            "colour_options": options,
            "two_each": each == 2,
            "has_neutral": len(players) == 3,
            "team_rows": team_rows,
            "mode": chosen("mode", SOLO),
            "rounds_options": range(1, MAX_ROUNDS_TO_WIN + 1),
            "rounds_chosen": chosen("rounds_to_win", str(ROUNDS_TO_WIN)),
        }

    def parse_setup(self, post: QueryDict, players: list[str]) -> Any:
        rounds = post.get("rounds_to_win", str(ROUNDS_TO_WIN))
        if rounds not in {str(n) for n in range(1, MAX_ROUNDS_TO_WIN + 1)}:
            raise FormError(_("Choose how many rounds win the match."))
        mode = post.get("mode", SOLO)
        if mode not in (SOLO, TEAMS) or (mode == TEAMS and len(players) != 4):
            raise FormError(_("The form was damaged: choose the setup again."))
        setup: dict[str, Any] = {}
        if mode == TEAMS:
            teams = opposite_teams(players)
            colours = {}
            for index, members in enumerate(teams):
                picked = [post.get(f"team-{index}-{k}", "") for k in range(2)]
                if any(colour not in COLOURS for colour in picked):
                    raise FormError(
                        _("Choose the colours of %(first)s and %(second)s's team.")
                        % {"first": members[0], "second": members[1]}
                    )
                for name in members:
                    colours[name] = picked
            setup = {"colours": {name: colours[name] for name in players}, "teams": teams}
        else:
            each = 2 if len(players) == 2 else 1
            colours = {}
            for index, name in enumerate(players):
                picked = [post.get(f"colour-{index}-{k}", "") for k in range(each)]
                if any(colour not in COLOURS for colour in picked):
                    raise FormError(_("Choose %(player)s's colours.") % {"player": name})
                colours[name] = picked
            setup = {"colours": colours}
        # The default number of rounds stays out of the log, as a log without the variant.
        if rounds != str(ROUNDS_TO_WIN):
            setup["rounds_to_win"] = int(rounds)
        # Whether each colour belongs to one player (or team) at most is the referee's to judge.
        return setup

    # Moves --------------------------------------------------------------------------------------

    def move_context(self, judgement: Judgement, players: list[str], draft: Draft | None) -> dict:
        return board_context(judgement, draft)

    def events(self, before: Judgement, after: Judgement, players: list[str]) -> list[str]:
        """A round that just ended: who won it and how."""
        rounds = after.details.get("rounds", [])
        if len(rounds) <= len(before.details.get("rounds", [])):
            return []
        return [round_ended(rounds[-1], len(rounds))]

    def parse_move(self, post: QueryDict, judgement: Judgement, players: list[str]) -> Any:
        state = judgement.state
        if state is None or state.to_play is None:
            raise FormError(_("No move can be entered now."))
        if "card" in post:
            return Draft({"player": state.to_play, "card": _read_card(post["card"])})
        draft = read_draft(post)
        if not draft.get("card"):
            raise FormError(_("Choose the card drawn first."))
        card = _read_card(draft["card"])
        player = draft.get("player")
        if player not in players:
            raise damaged_form()
        if post.get("blocked"):
            return {"player": player, "card": card, "blocked": True}
        if post.get("at"):
            return {
                "player": player,
                "card": card,
                "at": list(
                    read_cell(post["at"], _("Tap one of the highlighted cells on the board."))
                ),
            }
        raise FormError(_("Tap a highlighted cell on the board, or say the card is blocked."))


UI = PuntoUI

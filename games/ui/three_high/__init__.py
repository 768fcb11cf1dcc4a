"""3-High at the table: the pieces' squares (or the red/black card helper), then each move as
a card, a side and a piece tapped on the board, with where it would land shown before confirming.

docs/gamelog.md §7. The referee judges every move; the form only offers sensible choices (cards not
played yet, top pieces) and shows the engine's ``destination`` of the chosen piece.
"""

from __future__ import annotations

from typing import Any

from django.http import QueryDict
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from referee import Game, Judgement
from referee.three_high import (
    BLACK_SUITS,
    CARDS,
    FILES,
    PIECES,
    RED_SUITS,
    SIDES,
    SQUARE_NAMES,
    SQUARES,
    ThreeHigh,
    Turn,
    parse_card,
    square_from_cards,
)

from .. import BadNews, Builder, Draft, FormError, GameUI, damaged_form, read_draft, turn_name
from .board import ASKED, board_context
from .words import (
    card_info,
    cards_of,
    piece_info,
    piece_name,
    reason_text,
    side_name,
    tree_name,
)

#: A spread-out default setup: 15 distinct squares, no stacks, no tree standing yet.
DEFAULT_SQUARES: dict[str, str] = {
    "red-3": "b2",
    "yellow-3": "d7",
    "green-3": "f3",
    "blue-3": "c5",
    "black-3": "g6",
    "red-2": "e2",
    "yellow-2": "b6",
    "green-2": "h4",
    "blue-2": "a4",
    "black-2": "d4",
    "red-1": "g1",
    "yellow-1": "f7",
    "green-1": "c3",
    "blue-1": "e5",
    "black-1": "h8",
}


class ThreeHighUI(GameUI):
    # On the phone: the card, the side, the piece (each offered from the referee's options, with
    # where the piece would land), then "Enter the move"; or "cannot play", sent at once.
    builder = Builder(complete="cannot_play", base={"player": "player"})

    # The referee's words ----------------------------------------------------------------------

    def word(self, kind: str, value: Any, state: Game | None) -> str | None:
        if not isinstance(value, str):  # every thing 3-High names is a code
            return None
        if kind == "piece" and value in PIECES:
            return piece_name(value)
        if kind == "card" and isinstance(value, str) and value.lower() in CARDS:
            return card_info(value)["text"]
        if kind == "side" and value in SIDES:
            return side_name(value)
        return None

    def move_name(self, state: Game | None, number: int) -> str:
        return turn_name(number)

    def describe_move(self, state: Game, plan: Turn) -> str:
        """ "Ana plays 5♦ by the north side: the small blue piece goes from c3 to c8"."""
        if plan.card is None or plan.piece is None or plan.origin is None:
            return _("%(player)s cannot play a card") % {"player": plan.player}
        values = {
            "player": plan.player,
            "card": card_info(plan.card)["text"],
            "side": side_name(plan.side or ""),
            "piece": piece_name(plan.piece),
            "from": SQUARE_NAMES[plan.origin],
            "to": SQUARE_NAMES[plan.target] if plan.target is not None else "",
        }
        if plan.target is None:
            text = _("%(player)s plays %(card)s by the %(side)s side: %(piece)s leaves the board")
        elif plan.target == plan.origin:
            text = _("%(player)s plays %(card)s by the %(side)s side: %(piece)s stays on %(from)s")
        else:
            text = _(
                "%(player)s plays %(card)s by the %(side)s side: %(piece)s goes from %(from)s "
                "to %(to)s"
            )
        return text % values

    def move_outcome(self, state: Game, plan: Turn) -> str | None:
        """A tree completed, and the end of the game."""
        assert isinstance(state, ThreeHigh)
        said = []
        if plan.completes_tree and plan.piece:
            tree = tree_name(PIECES[plan.piece][0])
            said.append(capfirst(_("%(tree)s stands.") % {"tree": tree}))
        if state.outcome == "won":
            said += [pgettext("3-High", "Won."), reason_text(state, {})]
        elif state.outcome == "lost":
            said += [pgettext("3-High", "Lost."), reason_text(state, {})]
        return " ".join(said) or None

    # Setup ------------------------------------------------------------------------------------

    def default_setup(self, players: list[str]) -> Any:
        return {"pieces": [{"piece": p, "square": DEFAULT_SQUARES[p]} for p in PIECES]}

    def setup_context(self, players: list[str], post: QueryDict | None) -> dict[str, Any]:
        """A fresh form starts with no square chosen: the squares come from the cards drawn at
        the table, so any square shown before they are tapped would be one to undo. A form
        shown again keeps what was sent."""
        rows = []
        for piece in PIECES:
            row = piece_info(piece)
            if post is not None:
                row["square"] = post.get(f"square-{piece}", "")
                row["red_card"] = post.get(f"red-{piece}", "")
                row["black_card"] = post.get(f"black-{piece}", "")
            else:
                row.update(square="", red_card="", black_card="")
            rows.append(row)
        board = [
            [
                {
                    "name": f"{file}{rank}",
                    "dark": (f + rank) % 2 == 1,
                    "file_label": file if rank == 1 else "",
                    "rank_label": str(rank) if file == "a" else "",
                }
                for f, file in enumerate(FILES)
            ]
            for rank in range(8, 0, -1)
        ]
        return {
            "pieces": rows,
            "setup_board": board,
            "squares": sorted(SQUARES, key=lambda name: (name[0], int(name[1:]))),
            "red_cards": cards_of(RED_SUITS),
            "black_cards": cards_of(BLACK_SUITS),
            "setup_json": post.get("setup_json", "") if post is not None else "",
        }

    def parse_setup(self, post: QueryDict, players: list[str]) -> Any:
        entries = []
        for piece in PIECES:
            name = piece_name(piece)
            red = (post.get(f"red-{piece}") or "").strip()
            black = (post.get(f"black-{piece}") or "").strip()
            if red or black:
                entries.append({"piece": piece, "square": self._square_from(name, red, black)})
                continue
            square = (post.get(f"square-{piece}") or "").strip().lower()
            if square not in SQUARES:
                raise FormError(_("Choose a square from a1 to h8 for %(piece)s.") % {"piece": name})
            entries.append({"piece": piece, "square": square})
        return {"pieces": entries}

    @staticmethod
    def _square_from(name: str, red: str, black: str) -> str:
        if not (red and black):
            raise FormError(
                _("For %(piece)s, choose both a red and a black card, or neither.")
                % {"piece": name}
            )
        red_card, black_card = parse_card(red), parse_card(black)
        if red_card is None or red_card[2] not in RED_SUITS:
            raise FormError(
                _("For %(piece)s, the red card must be a heart or a diamond, A to 8.")
                % {"piece": name}
            )
        if black_card is None or black_card[2] not in BLACK_SUITS:
            raise FormError(
                _("For %(piece)s, the black card must be a spade or a club, A to 8.")
                % {"piece": name}
            )
        return square_from_cards(red_card[0], black_card[0])

    # Moves ------------------------------------------------------------------------------------

    def move_context(self, judgement: Judgement, players: list[str], draft: Draft | None) -> dict:
        return board_context(judgement, players, draft)

    def events(self, before: Judgement, after: Judgement, players: list[str]) -> list[str]:
        """A tree that now stands, or the end of the game."""
        said = []
        new = [
            c for c in after.details.get("trees", []) if c not in before.details.get("trees", [])
        ]
        for colour in new:
            # "the green tree": a tree's colour agrees with "tree" ("l'arbre vert", not "verte")
            said.append(capfirst(_("%(tree)s stands.") % {"tree": tree_name(colour)}))
        if after.details.get("outcome") == "won":
            said.append(_("Every tree stands: the table wins!"))
        elif after.details.get("outcome") == "lost":
            said.append(BadNews(_("The game is lost.")))
        return said

    def parse_move(self, post: QueryDict, judgement: Judgement, players: list[str]) -> Any:
        state = judgement.state if isinstance(judgement.state, ThreeHigh) else None
        if state is None or state.to_play is None:
            raise FormError(_("No move can be entered: the game is over."))
        player = state.to_play
        # One tap cannot lose the game by mistake (issue 30): the first asks for a second.
        if post.get("cannot_play") == "confirm":
            return {"player": player, "cannot_play": True}
        if "cannot_play" in post:
            return Draft({"cannot_play": ASKED})
        draft = read_draft(post)
        move = {
            "card": self._read(draft.get("card"), "card", damaged=True),
            "side": self._read(draft.get("side"), "side", damaged=True),
            "piece": self._read(draft.get("piece"), "piece", damaged=True),
        }
        for key in ("card", "side", "piece"):
            if post.get(key):
                move[key] = self._read(post.get(key), key, damaged=False)
        if post.get("clear") in move:  # "Change the card": its picker opens again
            move[post["clear"]] = None
        chosen = {key: value for key, value in move.items() if value}
        if "confirm" in post:
            missing = [key for key in ("card", "side", "piece") if key not in chosen]
            if missing:
                raise FormError(_("Choose a card, a side and a piece before entering the move."))
            return {"player": player, **chosen}
        return Draft(chosen)

    @staticmethod
    def _read(value: Any, key: str, *, damaged: bool) -> str | None:
        """One draft field, checked against the names of cards, sides and pieces."""
        if value in (None, ""):
            return None
        if isinstance(value, str):
            if key == "card" and (parsed := parse_card(value)) is not None:
                return parsed[0]
            if key == "side" and value.lower() in SIDES:
                return value.lower()
            if key == "piece" and value.lower() in PIECES:
                return value.lower()
        if damaged:
            raise damaged_form()
        messages = {
            "card": _("That is not a card of the 32-card deck."),
            "side": _("That is not a side of the board."),
            "piece": _("That is not a piece."),
        }
        raise FormError(messages[key])


UI = ThreeHighUI

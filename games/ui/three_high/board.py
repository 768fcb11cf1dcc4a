"""3-High drawn: the board rank by rank with its stacks and standing trees, where the chosen
piece would land, the cards played and in hand, the pickers of the move being entered."""

from __future__ import annotations

from referee import IllegalMove, Judgement
from referee.three_high import CARDS, COLOURS, FILES, SQUARE_NAMES, ThreeHigh

from .. import Draft
from .drawn import draw_board, draw_cards, draw_tops
from .sheet import draw_sheet
from .words import SIDE_ORDER, reason_text, words


def board_context(judgement: Judgement, players: list[str], draft: Draft | None) -> dict:
    """What board.html, move_form.html and sheet.html draw of the game and the move being
    entered."""
    said = words()  # the language looked up once for the whole board
    card_info, piece_info, piece_label = said.card_info, said.piece_info, said.piece_label
    state = judgement.state if isinstance(judgement.state, ThreeHigh) else None
    details = judgement.details or {}
    data = draft.data if draft else {}
    card, side, piece = data.get("card"), data.get("side"), data.get("piece")
    if state is not None:
        board = {SQUARE_NAMES[cell]: list(stack) for cell, stack in state.stacks.items()}
        trees = state.trees()
        hands = dict(zip(state.players, state.hands, strict=True))
        pile, played, to_play = state.pile, list(state.played), state.to_play
        outcome = state.outcome
        tops = state.top_pieces()
    else:
        board = details.get("board") or {}
        trees = list(details.get("trees") or [])
        hands = details.get("hands") or {}
        pile, played = details.get("pile"), list(details.get("played") or [])
        to_play, outcome = details.get("to_play"), details.get("outcome")
        tops = {square: stack[-1] for square, stack in board.items() if stack}
    if piece and piece not in tops.values():
        piece = None
    # The piece the last move moved, marked where it stands now (nowhere if it left).
    last = judgement.plans[-1].canonical() if judgement.plans else {}
    last_piece = last.get("piece")

    landing: str | None = None
    off_board = False
    illegal = ""  # why the referee would refuse the move chosen, said in the preview
    if state is not None and card and side and piece:
        try:
            landing = state.destination(card, side, piece)
        except IllegalMove:
            landing = None
        else:
            off_board = landing is None
        if to_play is not None:
            illegal = _refusal(
                state, {"player": to_play, "card": card, "side": side, "piece": piece}
            )

    top_choices = []
    for square, top in tops.items():
        choice = {"square": square, **piece_info(top), "selected": top == piece}
        if state is not None and card and side:
            try:
                choice["destination"] = state.destination(card, side, top) or "off"
            except IllegalMove:
                choice["destination"] = ""
        top_choices.append(choice)

    # Once the card and the side are chosen, each top piece shows on the board where it
    # would land: the board is the piece picker, on a phone the only one on the screen.
    destinations = {c["piece"]: c.get("destination") for c in top_choices}

    ranks = []
    for squares in _RANKS:
        cells = []
        for name, dark, file_label, rank_label in squares:
            stack = board.get(name)
            if not stack:  # most squares: nothing on them to say
                cells.append(
                    {
                        "name": name,
                        "dark": dark,
                        "stack": [],
                        "codes": "",
                        "top": None,
                        "tree": False,
                        "selected": False,
                        "landing": name == landing,
                        "last": False,
                        "file_label": file_label,
                        "rank_label": rank_label,
                        "description": "",
                        "destination": None,
                    }
                )
                continue
            top = stack[-1]
            cells.append(
                {
                    "name": name,
                    "dark": dark,
                    "stack": [piece_info(p) for p in stack],
                    "codes": ",".join(stack),
                    "top": top,
                    # a tree is three pieces, standing
                    "tree": bool(trees) and len(stack) >= 3 and _tree_in(stack, trees),
                    "selected": top == piece,  # piece: a top piece or nothing
                    "landing": name == landing,
                    "last": top == last_piece,
                    "file_label": file_label,
                    "rank_label": rank_label,
                    "description": ", ".join(piece_label(p) for p in stack),
                    "destination": destinations.get(top),
                }
            )
        ranks.append(cells)

    played_set = set(played)
    card_columns = [
        {
            "suit": suit,
            "red": red,
            "cards": [{**card, "played": card["code"] in played_set} for card in cards],
        }
        for suit, red, cards in said.deck()
    ]
    return {
        "th_ranks": ranks,
        "th_trees": [
            {"colour": c, "name": said.colour_name(c), "standing": c in trees} for c in COLOURS
        ],
        "th_tree_count": len(trees),
        "th_hands": [{"player": p, "cards": hands.get(p)} for p in players],
        "th_pile": pile,
        "th_played": [card_info(c) for c in played if c.lower() in CARDS],
        "th_to_play": to_play,
        "th_outcome": outcome,
        "th_reason": reason_text(state, details) if outcome else "",
        "th_card_columns": card_columns,
        "th_card": card_info(card) if card else None,
        "th_side": side,
        "th_side_name": said.side_name(side) if side else "",
        "th_sides": [{"side": s, "name": said.side_name(s)} for s in SIDE_ORDER],
        "th_piece": piece_info(piece) if piece else None,
        "th_piece_square": next((sq for sq, top in tops.items() if top == piece), None),
        "th_tops": top_choices,
        "th_landing": landing,
        "th_off_board": off_board,
        "th_illegal": illegal,
        # "cannot play" tapped once: the button asks for a second tap (issue 30)
        "th_giving_up": data.get("cannot_play") == ASKED,
        "th_ready": bool(card and side and piece),
        "th_empty_hand": bool(to_play) and hands.get(to_play) == 0,
        # the squares, the cards and the top pieces drawn in Python, each kept once drawn
        # (games.ui._drawing, issue 32)
        "th_draw_board": draw_board,
        "th_draw_cards": draw_cards,
        "th_draw_tops": draw_tops,
        "th_draw_sheet": draw_sheet,  # and the score sheet
    }


#: The board's squares rank by rank, north first: (name, dark, file label, rank label).
_RANKS = tuple(
    tuple(
        (
            f"{file}{rank}",
            (f + rank) % 2 == 1,
            file if rank == 1 else "",
            str(rank) if file == "a" else "",
        )
        for f, file in enumerate(FILES)
    )
    for rank in range(8, 0, -1)
)

#: A draft's "cannot_play" after the first tap: the second confirms it.
ASKED = "asked"


def _refusal(state: ThreeHigh, move: dict) -> str:
    """Why the referee would refuse ``move`` here, in the reader's words ("" if it would not)."""
    from ... import verdicts  # the words of the referee, which themselves read the game UIs

    try:
        state.check(move)
    except IllegalMove as exc:
        return verdicts.say(exc.verdict, state.name, state)
    return ""


def _tree_in(stack: list[str], trees: list[str]) -> bool:
    """Whether a standing tree is in this stack (large, medium, small of one colour, directly)."""
    for colour in trees:
        triple = [f"{colour}-3", f"{colour}-2", f"{colour}-1"]
        if any(stack[i : i + 3] == triple for i in range(len(stack) - 2)):
            return True
    return False

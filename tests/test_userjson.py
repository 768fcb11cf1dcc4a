"""games.userjson: JSON people send is read within a size cap and a depth cap, and holds only
values every database stores (I-JSON, RFC 7493)."""

import json

import pytest

from games import userjson
from games.userjson import MAX_DEPTH, MAX_INTEGER, UserJSONError


def nested(levels: int, inner: str = "0") -> str:
    return "[" * levels + inner + "]" * levels


def test_a_move_as_the_games_write_them_is_read():
    move = {"card": "green-die", "call": {"player": "Chloé", "series": 3}, "at": [0, -1.5]}
    assert userjson.parse(json.dumps(move)) == move


@pytest.mark.parametrize("levels", [MAX_DEPTH + 1, 9_000, 100_000])
def test_nesting_deeper_than_the_cap_is_refused_with_a_message(levels):
    with pytest.raises(UserJSONError, match="nested too deeply"):
        userjson.parse(nested(levels), max_chars=1_000_000)


def test_nesting_up_to_the_cap_is_read():
    assert userjson.parse(nested(MAX_DEPTH)) is not None
    assert userjson.parse('{"a":' * MAX_DEPTH + "1" + "}" * MAX_DEPTH) is not None


def test_brackets_inside_text_are_not_nesting():
    text = '["' + "[{" * 100 + '\\"[[[", "\\\\", "]]"]'
    assert userjson.parse(text)[0].startswith("[{[{")


def test_an_escaped_quote_does_not_end_a_text():
    # Were \" taken for the end of the text, the brackets after it would count as nesting.
    raw = '["\\"' + "[" * (MAX_DEPTH + 5) + '"]'
    assert userjson.parse(raw) == ['"' + "[" * (MAX_DEPTH + 5)]


def test_more_than_the_size_cap_is_refused():
    with pytest.raises(UserJSONError, match="far too long"):
        userjson.parse(json.dumps("x" * 100), max_chars=50)


@pytest.mark.parametrize("raw", ["NaN", "[Infinity]", '{"a": -Infinity}'])
def test_nan_and_infinity_are_refused(raw):
    with pytest.raises(UserJSONError, match="not a number JSON allows"):
        userjson.parse(raw)


@pytest.mark.parametrize("raw", ["1e400", "-1e400", str(MAX_INTEGER + 1), "-" + "9" * 5000])
def test_numbers_no_reader_agrees_on_are_refused(raw):
    with pytest.raises(UserJSONError, match="too big"):
        userjson.parse(raw)


def test_the_largest_exact_integer_is_read():
    assert userjson.parse(str(-MAX_INTEGER)) == -MAX_INTEGER


@pytest.mark.parametrize("raw", ['"a\\u0000b"', '{"\\u0000": 1}', '["\\u0000"]'])
def test_a_null_character_is_refused(raw):
    with pytest.raises(UserJSONError, match="null character"):
        userjson.parse(raw)


@pytest.mark.parametrize("raw", ['"\\ud800"', '{"x\\udfff": 1}', '["ok", "\\udc00\\ud800"]'])
def test_a_lone_surrogate_is_refused(raw):
    with pytest.raises(UserJSONError, match="lone surrogate"):
        userjson.parse(raw)


def test_a_surrogate_pair_is_one_character_and_read():
    assert userjson.parse('"\\ud83c\\udccf"') == "🃏"


@pytest.mark.parametrize("raw", ["{oops", "", "[1,]", "'single'", '"raw\ncontrol"'])
def test_what_is_not_json_is_refused_with_the_parsers_words(raw):
    with pytest.raises(UserJSONError, match="not valid JSON"):
        userjson.parse(raw)


def test_check_refuses_a_value_too_deep_without_recursing():
    value: list = []
    for _ in range(200_000):
        value = [value]
    with pytest.raises(UserJSONError, match="nested too deeply"):
        userjson.check(value)


@pytest.mark.parametrize(
    "value",
    [float("nan"), [float("inf")], {"a": "\x00"}, {"\ud800": 1}, 2**60, {1: "a"}, {"a": {1, 2}}],
)
def test_check_refuses_what_cannot_be_stored(value):
    with pytest.raises(UserJSONError):
        userjson.check(value)


def test_check_accepts_every_game_log_in_use():
    from tests.examples import EXAMPLES

    for path in EXAMPLES.glob("*.json"):
        userjson.check(json.loads(path.read_text()))


# Issue 29: the cost of a parse is bounded by the text, whatever its shape --------------------


def test_too_many_lists_and_objects_are_refused_before_the_parser_builds_them(monkeypatch):
    built = []
    monkeypatch.setattr(userjson.json, "loads", lambda *a, **k: built.append(1))
    many = "[" + ",".join(["[]"] * (userjson.MAX_CONTAINERS + 1)) + "]"
    with pytest.raises(userjson.UserJSONError, match="far too many lists and objects"):
        userjson.parse(many, max_chars=len(many))
    assert built == []


def test_a_parse_never_walks_the_value(monkeypatch):
    monkeypatch.setattr(userjson, "check", lambda value: pytest.fail("walked"))
    text = '{"a": [[[1, 2.5, "x\\u00e9"]]], "b": "\\ud83c\\udfb2", "c": "\\\\u0000"}'
    assert userjson.parse(text)["c"] == "\\u0000"


@pytest.mark.parametrize(
    ("number", "refused"),
    [("9007199254740991", False), ("-9007199254740991", False), ("9007199254740992", True),
     ("1234567890123456", False), ("12345678901234567", True)],
)  # fmt: skip
def test_integers_past_the_limit_are_refused_when_read_natively_otherwise(number, refused):
    text = f'{{"n": [1, 2, {number}]}}'
    if refused:
        with pytest.raises(userjson.UserJSONError, match="too big"):
            userjson.parse(text)
    else:
        assert userjson.parse(text)["n"][2] == int(number)


@pytest.mark.parametrize("depth", [20, 21])
def test_depth_is_counted_outside_strings_at_any_size(depth):
    text = '{"s": "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[", "v": ' + "[" * (depth - 1)
    text += "]" * (depth - 1) + "}"
    if depth > userjson.MAX_DEPTH:
        with pytest.raises(userjson.UserJSONError, match="nested too deeply"):
            userjson.parse(text)
    else:
        assert userjson.parse(text)["s"].startswith("[[[")

"""Saved games and moves from untrusted sources: a tampered save raises GameStateError
and nothing else; any move text or value is legal or raises IllegalMoveError, changing
nothing. Hand-written cases first, then property tests that mutate valid saves."""

import copy
import json
import random
import re
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from cribbage import Game, GameStateError, IllegalMoveError, Move, Rules
from cribbage.cards import full_deck
from cribbage.game import MOVE_KINDS


def example_save():
    game = Game.scripted(dealer=0, hands=["5S 4S 2S 8D 6H 8C", "TS 6D JH 4H KC 7C"],
                         starter="5H")
    game.apply("discard TS KC")
    return json.loads(game.to_json())


@pytest.mark.parametrize("starter", [["5H"], 5, None, True, "5h", "", {"code": "5H"}])
def test_tampered_script_starter_is_a_game_state_error(starter):
    data = example_save()
    data["setup"]["script"]["starter"] = starter
    with pytest.raises(GameStateError, match="starter"):
        Game.from_json(json.dumps(data))


def full_deck_codes():
    return [card.code for card in full_deck()]


@pytest.mark.parametrize("where, value", [
    (("version",), True), (("version",), 1.0), (("version",), "1"),
    (("setup", "script", "scores"), None), (("setup", "script", "scores"), [0]),
    (("setup", "script", "scores"), [0, True]), (("setup", "script", "scores"), [0, 121]),
    (("setup", "script", "scores"), [0, -1]), (("setup", "script", "scores"), [0, 1.5]),
    (("setup", "first_dealer"), 1), (("setup", "first_dealer"), None),
    (("setup", "script", "dealer"), 1), (("setup", "script", "dealer"), True),
    (("setup", "script", "hands"), "5S 4S"), (("setup", "script", "hands"), [[], []]),
    (("setup", "script", "crib"), None), (("setup", "script", "crib"), ["5H"]),
    (("setup", "seed"), -1), (("setup", "seed"), 2**64), (("setup", "seed"), "1"),
    (("setup", "deck"), full_deck_codes()), (("rules", "manual_pegging"), True),
    (("rules", "players"), 2.0), (("moves",), ["discard ts kc"]), (("moves",), "cut"),
    (("moves",), ["discard TS KC", "discard TS KC"]), (("extra",), 1),
    (("setup", "script", "extra"), 1), (("format",), ["cribbage-game"]),
])
def test_loose_saves_are_refused(where, value):
    data = example_save()
    target = data
    for key in where[:-1]:
        target = target[key]
    target[where[-1]] = value
    with pytest.raises(GameStateError):
        Game.from_json(json.dumps(data))


@pytest.mark.parametrize("text", ["[" * 100_000, '{"a":' * 50_000, b"\xff", None, 5])
def test_unreadable_saves_are_game_state_errors(text):
    with pytest.raises(GameStateError):
        Game.from_json(text)


def test_a_scripted_save_and_its_first_dealer_agree():
    data = example_save()
    assert Game.from_json(json.dumps(data)).to_dict() == data
    data["setup"]["first_dealer"] = 1
    with pytest.raises(GameStateError, match="first dealer must be the scripted deal's"):
        Game.from_json(json.dumps(data))


# --- property tests ----------------------------------------------------------------------

VARIANTS = [
    Rules(), Rules(players=3, target=61, skunk="lurch"), Rules(players=4, skunk="none"),
    Rules(manual_counting=True), Rules(players=3, manual_counting=True, muggins=True),
    Rules(manual_counting=True, muggins=True, manual_pegging=True, exact_finish=True),
    Rules(players=4, target=61, manual_counting=True, manual_pegging=True),
    Rules(exact_finish=True, target=61),
]
CODES = [card.code for card in full_deck()]


def build_game(rules, seed, moves, how):
    rng = random.Random(seed)
    if how == "scripted":
        deck = rng.sample(CODES, 52)
        n = rules.cards_dealt
        hands = [deck[i * n:(i + 1) * n] for i in range(rules.players)]
        crib = deck[rules.players * n:rules.players * n + (rules.players == 3)]
        scores = [rng.randrange(rules.target) for _ in range(rules.teams)]
        game = Game.scripted(rules, dealer=rng.randrange(rules.players), hands=hands,
                             crib=crib, starter=deck[-1], scores=scores, seed=seed)
    elif how == "deck":
        game = Game.new(rules, seed=seed, first_dealer=seed % rules.players,
                        deck=rng.sample(CODES, 52))
    else:
        game = Game.new(rules, seed=seed, first_dealer=None if seed % 2 else 0)
    for _ in range(moves):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_moves()))
    return game


SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 130), st.integers(), st.floats(allow_nan=False),
    st.text(max_size=6), st.sampled_from(CODES + ["5s", "10H", "5♠", "cut", "go", "pass",
                                                  "muggins", "count 3", "play 5S"]))
JSON = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=3)
                    | st.dictionaries(st.text(max_size=6), inner, max_size=3), max_leaves=5)


def paths(node, prefix=()):
    """Every place in a JSON tree (as key/index paths), the root's children first."""
    found = []
    items = node.items() if isinstance(node, dict) else enumerate(node)
    for key, child in items:
        found.append(prefix + (key,))
        if isinstance(child, dict | list):
            found.extend(paths(child, prefix + (key,)))
    return found


NEAR = "<near>"  # a Tamper value: something close to the value it replaces
NEAR_TEXT = CODES + ["cut", "go", "pass", "muggins", "count 0", "count 2", "play 5S",
                     "discard 5S 6H"]
LIST_OPS = ("drop", "duplicate", "swap", "truncate")


@dataclass(frozen=True)
class Tamper:
    """One change to a save, as plain data, so that an ``@example`` can name it.

    ``place``: ``"moves"`` (the move list, where a near miss is likeliest to
    replay) or ``"tree"`` (anywhere in the JSON: ``at`` picks the place, in
    :func:`paths` order). ``op``: replace, remove or add a value, or drop,
    duplicate, swap or truncate a list's items (else it replaces). ``item``
    and ``to`` pick a list's item and the second index or where to insert.
    All three are taken modulo what there is. ``value`` is what a replace or
    an add puts in; :data:`NEAR` asks for a value close to the one replaced.
    """

    place: str
    op: str
    at: int = 0
    item: int = 0
    to: int = 0
    value: object = NEAR
    key: str = "extra"


def near(value, pick):
    """A value close to ``value`` (``pick`` chooses which), often still a loadable save:
    a number off by one or two, a card code or a move's text, the text in capitals."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + pick % 5 - 2
    if isinstance(value, str):
        options = NEAR_TEXT + [value.upper()]
        return options[pick % len(options)]
    return None


def tamper(data, change):
    """Apply one :class:`Tamper` to the save ``data`` (a dict), in place."""
    if change.place == "moves" and isinstance(data.get("moves"), list) and data["moves"]:
        path = ("moves",)
    else:
        places = paths(data)
        path = places[change.at % len(places)]
    parent = data
    for step in path[:-1]:
        parent = parent[step]
    key = path[-1]
    items = parent[key]
    if isinstance(items, list) and items and change.op not in ("remove", "add"):
        i, j = change.item % len(items), change.to % len(items)
        if change.op == "drop":
            del items[i]
        elif change.op == "duplicate":
            items.insert(j, copy.deepcopy(items[i]))
        elif change.op == "swap":
            items[i], items[j] = items[j], items[i]
        elif change.op == "truncate":
            del items[i:]
        else:
            items[i] = near(items[i], change.item) if change.value == NEAR else change.value
        return
    value = near(items, change.item) if change.value == NEAR else change.value
    if change.op == "remove":
        del parent[key]
    elif change.op == "add" and isinstance(parent, dict):
        parent[change.key] = value
    elif change.op == "add":
        parent.insert(change.to % (len(parent) + 1), value)
    else:
        parent[key] = value


TAMPERS = st.builds(
    Tamper, place=st.sampled_from(["moves", "tree"]),
    op=st.sampled_from(["replace", "remove", "add", "drop", "duplicate", "swap", "truncate"]),
    at=st.integers(0, 10**6), item=st.integers(0, 10**6), to=st.integers(0, 10**6),
    value=st.one_of(st.just(NEAR), JSON), key=st.text(max_size=8))
HOWS = ("scripted", "deck", "seeded")


def tampered(rules, seed, moves, how, changes):
    """A valid save of ``rules`` (``moves`` random moves in), changed by ``changes``."""
    save = json.loads(build_game(rules, seed, moves, how).to_json())
    for change in changes:
        if isinstance(save, dict) and save:
            tamper(save, change)
    return save


def tampered_saves(moves=120):
    """Saves of every variant, up to ``moves`` moves in, changed one to three times."""
    return st.builds(tampered, st.sampled_from(VARIANTS), st.integers(0, 2**40),
                     st.integers(0, moves), st.sampled_from(HOWS),
                     st.lists(TAMPERS, min_size=1, max_size=3))


# Each kind of tampering once, on a scripted 2-player deal 40 moves in, with what
# loading it must do: load exactly (None) or refuse it with a message that says why.
# The deal's moves begin "discard 6C TH", "discard 3H 7H", "cut", "play 9D".
EXAMPLE_GAME = (Rules(), 7, 40, "scripted")
EXAMPLE_PLACES = paths(json.loads(build_game(*EXAMPLE_GAME).to_json()))


def place(*path):
    """The ``at`` of a place in the example save."""
    return EXAMPLE_PLACES.index(path)


HANDS = ("setup", "script", "hands")
TAMPER_EXAMPLES = [
    (Tamper("moves", "drop", item=0), "3♥ is not in your hand"),  # seat 1's discard gone
    (Tamper("moves", "duplicate", item=3, to=4), "9♦ is not in your hand"),
    (Tamper("moves", "swap", item=0, to=1), "3♥ is not in your hand"),  # out of turn
    (Tamper("moves", "truncate", item=20), None),  # the same game 20 moves in
    (Tamper("moves", "replace", item=3, value="go"), "cannot say go"),
    (Tamper("moves", "replace", item=2, value=NEAR), "not a move"),  # a card code
    (Tamper("tree", "replace", at=place("format"), value="cribbage-gam"), "not a saved"),
    (Tamper("tree", "replace", at=place("version"), item=1), "version 0"),  # 1 + 1 % 5 - 2
    (Tamper("tree", "remove", at=place("rules")), "missing rules"),
    (Tamper("tree", "add", at=place("format"), key="comment", value="hi"), "'comment'"),
    (Tamper("tree", "add", at=place(*HANDS, 0, 0), value="KS"), "6 cards"),  # 7 dealt
    (Tamper("tree", "drop", at=place(*HANDS, 1), item=2), "6 cards"),  # 5 dealt
    (Tamper("tree", "swap", at=place(*HANDS), item=0, to=1), "6♣ is not in your hand"),
    (Tamper("tree", "duplicate", at=place("setup", "script", "scores")), "list of 2"),
    (Tamper("tree", "truncate", at=place("moves"), item=36), None),
]


def with_tamper_examples(test):
    """Give a property test over tampered saves each of :data:`TAMPER_EXAMPLES` first."""
    for change, _ in TAMPER_EXAMPLES:
        test = example(save=tampered(*EXAMPLE_GAME, [change]))(test)
    return test


@pytest.mark.parametrize("change, why", TAMPER_EXAMPLES)
def test_each_kind_of_tampering_loads_exactly_or_is_refused_with_its_reason(change, why):
    save = tampered(*EXAMPLE_GAME, [change])
    assert save != json.loads(build_game(*EXAMPLE_GAME).to_json())  # it did change
    if why is None:
        assert Game.from_json(json.dumps(save)).to_dict() == save
    else:
        with pytest.raises(GameStateError, match=re.escape(why)):
            Game.from_json(json.dumps(save))


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(save=tampered_saves())
@with_tamper_examples
def test_mutated_saves_load_exactly_or_raise_game_state_error(save):
    text = json.dumps(save)
    try:
        loaded = Game.from_json(text)
    except GameStateError:
        return
    expected = dict(save, rules=Rules.from_dict(save["rules"]).to_dict())
    assert loaded.to_dict() == expected  # nothing silently dropped or changed
    assert Game.from_json(loaded.to_json()).to_json() == loaded.to_json()


MOVE_WORDS = st.sampled_from(
    list(MOVE_KINDS) + ["PLAY", "Go", "count", "discard", "muggins"])
TOKENS = st.sampled_from(CODES + ["5s", "10H", "5♠", "1S", "ZZ", "", "0", "29", "30", "99",
                                  "-1", "007", "٣", "²", "3.0", "play", "count"])
SEPARATORS = st.sampled_from([" ", "  ", "\t", ",", "\n", ", "])


@st.composite
def near_moves(draw):
    words = [draw(MOVE_WORDS)] + draw(st.lists(TOKENS, max_size=3))
    return draw(SEPARATORS).join(words)


NON_TEXT = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.binary(max_size=8),
                     st.lists(st.text(max_size=4), max_size=3),
                     st.dictionaries(st.text(max_size=4), st.integers(), max_size=2),
                     st.builds(lambda s: s.encode(), near_moves()))


def snapshot(game):
    return game.to_json(), [game.view(seat).to_dict() for seat in range(game.players)]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_any_move_is_legal_or_an_illegal_move_error_that_changes_nothing(data):
    rules = data.draw(st.sampled_from(VARIANTS))
    game = build_game(rules, data.draw(st.integers(0, 2**40)), data.draw(st.integers(0, 150)),
                      data.draw(st.sampled_from(["scripted", "seeded"])))
    move = data.draw(st.one_of(st.text(max_size=12), near_moves(), NON_TEXT,
                               st.sampled_from([str(m) for m in game.legal_moves()] or ["go"])))
    legal = [str(m) for m in game.legal_moves()]
    before = snapshot(game)
    try:
        game.apply(move)
    except IllegalMoveError:
        assert snapshot(game) == before
        return
    assert isinstance(move, str) and str(Move.parse(move)) in legal
    assert game.moves[-1] == str(Move.parse(move))

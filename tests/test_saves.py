"""Saved games and moves from untrusted sources: a tampered save raises GameStateError
and nothing else; any move text or value is legal or raises IllegalMoveError, changing
nothing. Hand-written cases first, then property tests that mutate valid saves."""

import copy
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
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


def nearby(value):
    """Values close to ``value``, which often still make a loadable save."""
    if isinstance(value, bool):
        return st.just(not value)
    if isinstance(value, int):
        return st.integers(value - 2, value + 2)
    if isinstance(value, str):
        return st.sampled_from(CODES + ["cut", "go", "pass", "muggins", "count 0", "count 2",
                                        "play 5S", "discard 5S 6H", value.upper()])
    return JSON


def mutate(data, draw):
    """One change: a value replaced, a key removed or added, a list reordered/cut/grown.

    Half the changes go to the moves, where a near miss is likeliest to replay.
    """
    if data.get("moves") and isinstance(data["moves"], list) and draw(st.booleans()):
        moves = data["moves"]
        i, j = draw(st.integers(0, len(moves) - 1)), draw(st.integers(0, len(moves) - 1))
        op = draw(st.sampled_from(["drop", "duplicate", "swap", "truncate", "replace"]))
        if op == "drop":
            del moves[i]
        elif op == "duplicate":
            moves.insert(j, moves[i])
        elif op == "swap":
            moves[i], moves[j] = moves[j], moves[i]
        elif op == "truncate":
            del moves[i:]
        else:
            moves[i] = draw(nearby(moves[i]))
        return
    path = draw(st.sampled_from(paths(data)))
    parent = data
    for key in path[:-1]:
        parent = parent[key]
    key = path[-1]
    ops = ["replace", "remove", "add"]
    if isinstance(parent[key], list) and parent[key]:
        ops += ["drop", "duplicate", "swap", "truncate"]
    op = draw(st.sampled_from(ops))
    if op == "replace":
        parent[key] = draw(st.one_of(JSON, nearby(parent[key])))
    elif op == "remove":
        del parent[key]
    elif op == "add":
        if isinstance(parent, dict):
            parent[draw(st.text(max_size=8))] = draw(JSON)
        else:
            parent.insert(draw(st.integers(0, len(parent))), draw(JSON))
    else:
        items = parent[key]
        i = draw(st.integers(0, len(items) - 1))
        j = draw(st.integers(0, len(items) - 1))
        if op == "drop":
            del items[i]
        elif op == "duplicate":
            items.insert(j, copy.deepcopy(items[i]))
        elif op == "swap":
            items[i], items[j] = items[j], items[i]
        else:
            del items[i:]


def mutated_save(data, moves=120):
    """A valid save of some variant (up to ``moves`` moves in), changed one to three times."""
    rules = data.draw(st.sampled_from(VARIANTS))
    game = build_game(rules, data.draw(st.integers(0, 2**40)), data.draw(st.integers(0, moves)),
                      data.draw(st.sampled_from(["scripted", "deck", "seeded"])))
    save = json.loads(game.to_json())
    for _ in range(data.draw(st.integers(1, 3))):
        if isinstance(save, dict) and save:
            mutate(save, data.draw)
    return save


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_mutated_saves_load_exactly_or_raise_game_state_error(data):
    save = mutated_save(data)
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

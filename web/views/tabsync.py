"""Pure logic of one game shared by several tabs: which save may replace which (no browser).

Every tab of the site reads and writes the same saved game (localStorage
``cribbage.save``). A tab whose table is out of date must never overwrite a
newer save: its line would drop the other tab's moves. So a tab writes only
over the save it last wrote or loaded itself, or over a save its own extends
(the same game, every stored move kept, in order). The engine owns the save's
content; this compares its moves as data (who made them and whether they are
legal is the engine's). Runs under MicroPython on the page (web/table/tabs.py)
and under CPython in the tests.

>>> old = envelope(5, ["cut", "discard 5S 5H"])
>>> may_replace(old, None, envelope(5, ["cut", "discard 5S 5H", "discard KC QC"]))
True
>>> may_replace(old, None, envelope(5, ["cut"]))  # fewer moves: one would be lost
False
>>> may_replace(old, old, envelope(5, ["cut"]))  # unless it is this tab's own save
True
"""

import json

# Setup keys that change while a game goes on (a take-back, a resignation): not the game's identity.
CHANGING = ("undos", "resigned")
GAMES_KEPT = 200  # ids of counted games remembered beside the match tally


def envelope(seed, moves, undos=None):
    """A stored save as the table writes it (for the examples and the tests).

    >>> json.loads(json.loads(envelope(1, ["cut"]))["game"])["moves"]
    ['cut']
    """
    setup = {"seed": seed, "first_dealer": None}
    if undos is not None:
        setup["undos"] = undos
    game = {"format": "cribbage-game", "version": 1, "rules": {"players": 2, "target": 121},
            "setup": setup, "moves": moves}
    return json.dumps({"format": "cribbage-table", "version": 1, "settings": {},
                       "game": json.dumps(game)})


def game_of(text):
    """``(identity, moves)`` of a stored save: the rules and setup that name the game,
    and its moves; None when ``text`` is not a save this can read (a newer format, junk).

    >>> game_of(envelope(7, ["cut"], undos=2))
    ([{'players': 2, 'target': 121}, {'seed': 7, 'first_dealer': None}], ['cut'])
    >>> game_of("junk"), game_of('{"game": 3}'), game_of(None)
    (None, None, None)
    """
    try:
        game = json.loads(json.loads(text)["game"])
        rules, setup, moves = game["rules"], game["setup"], game["moves"]
    except Exception:  # not JSON, not a dict, a key missing: not a save this reads
        return None
    if not isinstance(setup, dict) or not isinstance(moves, list):
        return None
    identity = {}
    for key in setup:
        if key not in CHANGING:
            identity[key] = setup[key]
    return [rules, identity], moves


def extends(old_text, new_text):
    """Whether the save ``new_text`` keeps every move of ``old_text``: the same game,
    the old moves first and in order, perhaps more after them.

    >>> extends(envelope(1, ["cut"]), envelope(1, ["cut", "discard 5S 5H"]))
    True
    >>> extends(envelope(1, ["cut"]), envelope(2, ["cut", "discard 5S 5H"]))  # another game
    False
    >>> extends(envelope(1, ["cut", "discard 5S 5H"]), envelope(1, ["cut", "discard 4S 5H"]))
    False
    >>> extends("junk", envelope(1, []))  # what cannot be read is never replaced
    False
    """
    old, new = game_of(old_text), game_of(new_text)
    if old is None or new is None or old[0] != new[0]:
        return False
    return new[1][:len(old[1])] == old[1]


def may_replace(stored, base, new):
    """Whether a tab may write the save ``new`` over the ``stored`` one, ``base`` being
    the save this tab last wrote or loaded (None if none): yes over nothing, over its own
    save (a take-back or a new game is this tab's choice), or when nothing is lost.

    >>> mine = envelope(3, ["cut", "discard 5S 5H"])
    >>> theirs = envelope(3, ["cut", "discard 5S 5H", "discard KC QC"])
    >>> may_replace(None, mine, envelope(4, []))
    True
    >>> may_replace(theirs, mine, envelope(3, ["cut", "discard 5S 5H", "discard KC JC"]))
    False
    >>> may_replace(theirs, mine, envelope(9, []))  # a new game over another tab's
    False
    """
    return stored is None or stored == base or extends(stored, new)


def tally_games(text):
    """The ids of the games the match tally has counted (kept beside its totals in
    ``cribbage.tally``); [] when there are none or they are malformed.

    >>> tally_games('{"won": 2, "lost": 0, "games": ["a1", "b2"]}')
    ['a1', 'b2']
    >>> tally_games('{"won": 2, "lost": 0}'), tally_games('{"games": ["a", 3]}'), tally_games("x")
    ([], [], [])
    """
    try:
        games = json.loads(text or "{}").get("games", [])
    except Exception:
        return []
    if not isinstance(games, list) or not all(isinstance(game, str) for game in games):
        return []
    return games[-GAMES_KEPT:]


def tally_json(tally, games, game):
    """The match tally to store, with ``game`` among the counted ones (the latest
    GAMES_KEPT).

    >>> json.loads(tally_json({"won": 1, "lost": 0}, ["a"], "b"))
    {'won': 1, 'lost': 0, 'games': ['a', 'b']}
    """
    kept = (games + ([game] if game else []))[-GAMES_KEPT:]
    return json.dumps({"won": tally["won"], "lost": tally["lost"], "games": kept})

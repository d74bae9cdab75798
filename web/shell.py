"""Pure parts of the page's UI: settings, replies, phases and status text.

Runs under MicroPython in the browser (loaded through ui.json's ``files``) and
under CPython in the tests, so it uses only what both have: no dataclasses,
typing, enum or f-string ``=`` tricks, and ``json`` without indent/sort_keys.

>>> settings_from_form({"players": "2", "target": "61", "level": "easy"})["rules"]["target"]
61
>>> table_phase("starter")
'cut'
"""

import json

LEVELS = ("beginner", "easy", "standard", "expert")
SKUNK_RULES = ("acc", "lurch", "none")

# Engine phases -> the table's data-phase (the automation contract of issue 5).
TABLE_PHASES = {
    "cut": "cut",
    "discard": "discard",
    "starter": "cut",
    "play": "play",
    "count": "show",
    "muggins": "show",
    "over": "over",
}


def _choice(value, allowed, default):
    """``value`` if it is one of ``allowed``, else ``default``."""
    return value if value in allowed else default


def settings_from_form(values):
    """New-game settings from the dialog's raw string values.

    Unknown or missing values fall back to the defaults (2 players against
    ``standard``, 121 points, automatic counting, ACC skunks).

    >>> s = settings_from_form({})
    >>> s["rules"]["players"], s["rules"]["target"], s["level"], s["speed"]
    (2, 121, 'standard', 1.0)
    >>> settings_from_form({"counting": "manual"})["rules"]["muggins"]
    True
    """
    players = int(_choice(values.get("players"), ("2", "3", "4"), "2"))
    target = int(_choice(values.get("target"), ("121", "61"), "121"))
    manual = values.get("counting") == "manual"
    exact = values.get("exact_finish") in (True, "on", "true", "1")
    try:
        speed = float(values.get("speed", "1"))
    except (TypeError, ValueError):
        speed = 1.0
    rules = {
        "players": players,
        "target": target,
        "skunk": _choice(values.get("skunk"), SKUNK_RULES, "acc"),
        "manual_counting": manual,
        "muggins": manual,
        "exact_finish": exact,
    }
    level = _choice(values.get("level"), LEVELS, "standard")
    levels = [level] + [_choice(values.get(name), LEVELS, level) for name in ("level2", "level3")]
    return {
        "rules": rules,
        "level": level,
        "levels": levels[: players - 1],
        "speed": max(0.0, min(speed, 4.0)),
    }


def settings_from_saved(saved):
    """Settings kept with a saved game, checked; raises ValueError if they are not ours.

    >>> settings_from_saved(settings_from_form({"players": "3"}))["levels"]
    ['standard', 'standard']
    >>> settings_from_saved({"rules": "x"})
    Traceback (most recent call last):
    ...
    ValueError: the saved settings are damaged
    """
    try:
        rules = saved["rules"]
        values = {
            "players": str(rules["players"]), "target": str(rules["target"]),
            "skunk": rules["skunk"], "exact_finish": rules["exact_finish"] is True,
            "counting": "manual" if rules["manual_counting"] is True else "automatic",
            "level": saved["level"], "speed": str(saved["speed"]),
        }
        levels = saved["levels"]
        for index, name in enumerate(("level2", "level3")):
            if index + 1 < len(levels):
                values[name] = levels[index + 1]
        settings = settings_from_form(values)
    except (KeyError, TypeError, AttributeError, IndexError):
        raise ValueError("the saved settings are damaged") from None
    if settings["rules"] != rules or settings["levels"] != levels:
        raise ValueError("the saved settings are damaged")
    return settings


def request(payload=None):
    """The JSON text sent to an engine function.

    >>> request({"seat": 0})
    '{"seat": 0}'
    """
    return json.dumps(payload if payload is not None else {})


def parse_reply(text):
    """``(True, result)`` or ``(False, error_dict)`` from an engine reply.

    A reply that is not the protocol's JSON becomes an ``internal`` error,
    so the UI always has something to show.

    >>> parse_reply('{"ok": true, "result": 3}')
    (True, 3)
    >>> parse_reply("oops")[1]["kind"]
    'internal'
    """
    try:
        reply = json.loads(text)
        if reply["ok"]:
            return True, reply.get("result")
        return False, reply["error"]
    except (ValueError, KeyError, TypeError):
        return False, {
            "kind": "internal",
            "type": "BadReply",
            "message": "The engine sent a reply the page cannot read.",
        }


def error_text(error):
    """One line for the player about an engine error.

    >>> error_text({"kind": "illegal-move", "message": "You cannot play 5S now."})
    'You cannot play 5S now.'
    """
    message = error.get("message") or "Something went wrong."
    if error.get("kind") == "internal":
        return "The engine had a problem and nothing was changed. " + message
    return message


def table_phase(engine_phase):
    """The table's ``data-phase`` for an engine phase (``setup`` before a game)."""
    return TABLE_PHASES.get(engine_phase, "setup")


def status_text(state, human_seat=0):
    """A short status line for the table from a protocol state.

    >>> status_text({"phase": "discard", "current_player": 0, "scores": [0, 0], "outcome": None})
    'Choose your cards for the crib.'
    >>> status_text({"phase": "over", "current_player": None, "scores": [121, 80], "outcome": {}})
    'Game over.'
    """
    phase = state.get("phase")
    if phase == "over":
        return "Game over."
    if state.get("current_player") != human_seat:
        return "The computer is thinking…"
    prompts = {
        "cut": "Cut the cards for the deal.",
        "discard": "Choose your cards for the crib.",
        "starter": "Cut for the starter.",
        "play": "Your turn to play.",
        "count": "Count your points.",
        "muggins": "Call muggins or pass.",
    }
    return prompts.get(phase, "")

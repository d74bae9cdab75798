"""Pure parts of the page's UI: the page's language, settings, replies, phases and status text.

Runs under MicroPython in the browser (one of the ``files`` of the pages' PyScript config) and
under CPython in the tests, so it uses only what both have: no dataclasses,
typing, enum or f-string ``=`` tricks, and ``json`` without indent/sort_keys.

Every word the page shows comes from the catalogue of its language through
:class:`Words` (``ui.<key>`` templates in ``web/lang/table.<code>.json``, merged by
build.py into ``dist/lang/<code>.json``, which main.py installs on the page).

>>> settings_from_form({"players": "2", "target": "61", "level": "easy"},
...                    EXAMPLE_OFFER)["rules"]["target"]
61
>>> table_phase("starter")
'cut'
"""

import json

try:
    import i18n  # the page: dist/i18n.py, beside the UI's modules
except ImportError:  # CPython (the tests): the engine's own copy
    from cribbage import i18n

DEFAULT_LEVEL = "standard"  # the dialog's default opponent, when the engine offers it

# The engine's offer as its hello states it (the tests and doctests use this one;
# the page uses the engine's own reply).
EXAMPLE_OFFER = {"levels": ["beginner", "easy", "standard", "expert", "master"],
                 "options": {"players": [2, 3, 4], "target": [121, 61, 181],
                             "skunk": ["acc", "lurch", "none"], "cards": [6, 5, 7],
                             "variants": {"6": {"players": [2, 3, 4], "target": [121, 61]},
                                          "5": {"players": [2], "target": [61]},
                                          "7": {"players": [2], "target": [181]}}}}

# Engine phases -> the table's data-phase (the automation contract: docs/accessibility.md).
TABLE_PHASES = {
    "cut": "cut",
    "discard": "discard",
    "starter": "cut",
    "play": "play",
    "peg_count": "play",
    "count": "show",
    "muggins": "show",
    "over": "over",
}


class Words:
    """The page's words in one language: the ``ui.<key>`` templates of its catalogue.

    The table keeps one in its state and passes it to whatever draws text;
    a language switch replaces it.

    >>> Words("ja").t("button.go"), Words("xx").t("button.go"), Words("xx").lang
    ('ゴー', 'Go', 'en')
    >>> Words().t("status.play", {"count": 12})
    'Your turn: play a card (count 12).'
    """

    def __init__(self, lang="en"):
        self.lang = i18n.language(lang)  # one of ours, else English

    def t(self, key, values=None):
        """The text ``ui.<key>``, with ``{names}`` filled in."""
        return i18n.text("ui." + key, self.lang, values)

    def markup(self, key, values):
        """Like :meth:`t` for HTML: the template is escaped, ``values`` are markup already.

        >>> Words().markup("fair.sealed", {"deal": 2, "seal": "<code>ab</code>"})
        'Deal 2 sealed <code>ab</code>'
        """
        return i18n.fill(escape(self.t(key)), values)

    def joined(self, items):
        """Items joined as a list is in this language: ``'a, b'``."""
        return i18n.text("list.join", self.lang).join(items)


def escape(text):
    """Text made safe inside HTML.

    >>> escape('<b>"x" & y</b>')
    '&lt;b&gt;&quot;x&quot; &amp; y&lt;/b&gt;'
    """
    return (str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;"))


def _install_source_catalogues():
    """In the source tree (CPython, the tests) install ``web/lang/table.<code>.json``:
    on the page main.py installs the merged ``dist/lang/<code>.json`` instead."""
    import os

    folder = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lang")
    for code in i18n.LANGUAGES:
        with open(os.path.join(folder, "table." + code + ".json"), encoding="utf-8") as file:
            i18n.install(code, json.loads(file.read()))


if i18n.__name__ == "cribbage.i18n":
    _install_source_catalogues()


def _choice(value, allowed, default):
    """``value`` if it is one of ``allowed``, else ``default``."""
    return value if value in allowed else default


def _number(value, allowed):
    """``value`` (text) as one of the numbers ``allowed``, else the first of them."""
    return _choice(value, [str(number) for number in allowed], str(allowed[0]))


def settings_from_form(values, offer):
    """New-game settings from the dialog's raw string values.

    ``offer`` is the engine's hello: the levels and rule options on offer.
    Unknown or missing values fall back to the first option (2 players, 121
    points, ACC skunks), automatic counting and the standard computer.

    >>> s = settings_from_form({}, EXAMPLE_OFFER)
    >>> s["rules"]["players"], s["rules"]["target"], s["level"], s["speed"]
    (2, 121, 'standard', 1.0)
    >>> settings_from_form({"counting": "manual"}, EXAMPLE_OFFER)["rules"]["muggins"]
    True
    >>> settings_from_form({"counting": "pegging"}, EXAMPLE_OFFER)["rules"]["manual_pegging"]
    True
    >>> five = settings_from_form({"cards": "5", "target": "121"}, EXAMPLE_OFFER)["rules"]
    >>> five["cards"], five["target"]   # the variant's own target when the one chosen is not
    (5, 61)
    """
    options, levels = offer["options"], offer["levels"]
    players = int(_number(values.get("players"), options["players"]))
    cards = int(_number(values.get("cards"), options["cards"]))
    variant = options["variants"][str(cards)]
    counting = values.get("counting")
    manual = counting in ("manual", "pegging")
    try:
        speed = float(values.get("speed", "1"))
    except (TypeError, ValueError):
        speed = 1.0
    rules = {
        "players": players,
        "target": int(_number(values.get("target"), variant["target"])),
        "skunk": _choice(values.get("skunk"), options["skunk"], options["skunk"][0]),
        "manual_counting": manual,
        "muggins": manual,
        "manual_pegging": counting == "pegging",
        "exact_finish": values.get("exact_finish") in (True, "on", "true", "1"),
        "cards": cards,
    }
    level = _choice(values.get("level"), levels, _choice(DEFAULT_LEVEL, levels, levels[0]))
    others = [_choice(values.get(name), levels, level) for name in ("level2", "level3")]
    return {
        "rules": rules,
        "level": level,
        "levels": ([level] + others)[: players - 1],
        "speed": max(0.0, min(speed, 4.0)),
    }


def variant_notice(settings, offer):
    """The dialog's notice (key and values) when the variant chosen does not allow
    the number of players chosen, as the engine's offer says; else None.

    >>> variant_notice(settings_from_form({"cards": "7", "players": "3"}, EXAMPLE_OFFER),
    ...                EXAMPLE_OFFER)
    ('notice.variant_players', {'cards': 7, 'players': 2})
    >>> variant_notice(settings_from_form({"cards": "7"}, EXAMPLE_OFFER), EXAMPLE_OFFER)
    """
    rules = settings["rules"]
    allowed = offer["options"]["variants"][str(rules["cards"])]["players"]
    if rules["players"] in allowed:
        return None
    return ("notice.variant_players", {"cards": rules["cards"], "players": allowed[0]})


def settings_from_saved(saved, offer):
    """Settings kept with a saved game, checked; raises ValueError if they are not ours.

    >>> settings_from_saved(settings_from_form({"players": "3"}, EXAMPLE_OFFER),
    ...                     EXAMPLE_OFFER)["levels"]
    ['standard', 'standard']
    >>> settings_from_saved({"rules": "x"}, EXAMPLE_OFFER)
    Traceback (most recent call last):
    ...
    ValueError: the saved settings are damaged

    A value the engine does not offer is refused, never put right:

    >>> seven = settings_from_form({"cards": "7"}, EXAMPLE_OFFER)
    >>> seven["rules"]["players"], seven["levels"] = 3, ["easy", "easy"]
    >>> settings_from_saved(seven, EXAMPLE_OFFER)
    Traceback (most recent call last):
    ...
    ValueError: the saved settings are damaged
    """
    try:
        # Games saved before manual pegging existed have no such key: it was off.
        rules = dict(saved["rules"])
        rules.setdefault("manual_pegging", False)
        rules.setdefault("cards", 6)  # saved before five- and seven-card existed
        counting = "automatic"
        if rules["manual_counting"] is True:
            counting = "pegging" if rules["manual_pegging"] is True else "manual"
        values = {
            "players": str(rules["players"]), "target": str(rules["target"]),
            "cards": str(rules["cards"]), "skunk": rules["skunk"],
            "exact_finish": rules["exact_finish"] is True,
            "counting": counting,
            "level": saved["level"], "speed": str(saved["speed"]),
        }
        levels = saved["levels"]
        for index, name in enumerate(("level2", "level3")):
            if index + 1 < len(levels):
                values[name] = levels[index + 1]
        settings = settings_from_form(values, offer)
    except (KeyError, TypeError, AttributeError, IndexError, ValueError, RuntimeError):
        # RuntimeError: str() of a value nested too deeply (MicroPython's json reads it)
        raise ValueError("the saved settings are damaged") from None
    # The dialog starts no game its notice stops (seven-card for three): neither does a save.
    if (settings["rules"] != rules or settings["levels"] != levels
            or variant_notice(settings, offer) is not None):
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


ERROR_KINDS = ("bad-request", "illegal-move", "bad-card", "bad-save", "no-game", "internal")


def error_text(words, error):
    """One line for the player about an engine error, by its kind (the engine's
    own message is English: the English templates show it, the others say it in
    their own words).

    >>> error_text(Words(), {"kind": "illegal-move", "message": "You cannot play 5S now."})
    'You cannot play 5S now.'
    >>> error_text(Words("es"), {"kind": "illegal-move", "message": "x"})
    'Esa jugada no está permitida ahora; no ha cambiado nada.'
    """
    kind = error.get("kind")
    if kind not in ERROR_KINDS:
        kind = "internal"
    return words.t("error." + kind, {"message": error.get("message") or words.t("error.unknown")})


def table_phase(engine_phase, claim=None):
    """The table's ``data-phase`` for an engine phase (``setup`` before a game);
    ``claim`` (the view's) tells a muggins call in the play from one in the show.

    >>> table_phase("peg_count"), table_phase("muggins", {"what": "play"})
    ('play', 'play')
    """
    if engine_phase == "muggins" and claim and claim.get("what") == "play":
        return "play"
    return TABLE_PHASES.get(engine_phase, "setup")


def status_text(words, view, names, cuts_fresh=False, claims=(), viewer=0):
    """The table's status line for the person at the device (``viewer``) from its view.

    ``cuts_fresh``: the cut has just decided the dealer; ``claims``: the
    claim events of manual counting (for muggins).

    >>> view = {"phase": "discard", "current_player": 0, "dealer": 1,
    ...         "discards_each": 2, "legal_moves": [], "count": 0}
    >>> status_text(Words(), view, ["You", "Computer"])
    "Choose 2 cards for Computer's crib."
    >>> status_text(Words(), dict(view, current_player=1, discards=["5H", "KS"]),
    ...             ["You", "Computer"])
    'Computer is thinking…'

    Everyone chooses their discards at once (the engine takes them in turn), so a viewer
    whose discards are still to choose (``discards`` empty) is asked for them:

    >>> status_text(Words(), dict(view, current_player=1, discards=[]), ["You", "Computer"])
    "Choose 2 cards for Computer's crib."
    >>> status_text(Words(), dict(view, phase="over"), ["You", "Computer"])
    'Game over.'
    """
    phase, seat, dealer = view.get("phase"), view.get("current_player"), view.get("dealer")
    if phase == "over":
        return words.t("status.over")
    if phase == "discard" and not view.get("discards"):
        seat = viewer  # the viewer's own choice, whoever the engine takes first
    if seat != viewer:
        who = names[seat] if seat is not None else ""
        return words.t("status.thinking" if phase in ("discard", "play") else "status.waiting",
                 {"who": who})
    if phase == "cut":
        return words.t("status.cut")
    if phase == "discard":
        first = ""
        if cuts_fresh:
            first = words.t("status.cut_lowest.mine") if dealer == viewer else words.t(
                "status.cut_lowest", {"who": names[dealer]})
        need = str(view["discards_each"])
        key = "status.discard." + ("mine" if dealer == viewer else "theirs") + "." + need
        return first + words.t(key, {"who": names[dealer]})
    if phase == "starter":
        return words.t("status.starter")
    if phase == "play":
        if view["legal_moves"] == ["go"]:
            return words.t("status.go")
        return words.t("status.play", {"count": view["count"]})
    if phase == "count":
        crib = "crib" in view.get("shown", ()) and dealer == viewer
        return words.t("status.count.crib" if crib else "status.count.hand")
    if phase == "peg_count":
        return words.t("status.peg_count", {"count": view["count"]})
    if phase == "muggins":
        said = ""
        theirs = [claim for claim in claims if claim["seat"] != viewer]
        if theirs:
            said = words.t("status.claimed", {"who": names[theirs[-1]["seat"]],
                                        "count": theirs[-1]["count"]})
        return said + words.t("status.muggins")
    return ""

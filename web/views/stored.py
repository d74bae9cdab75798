"""Every value the site keeps in the browser's localStorage, and one loader for each.

The page is the player's database, so no stored value may stop it: each key is
read through its loader here, which checks the text and returns the value with
defaults filled in, or the default when the text is absent or bad. A loader
never raises: it returns ``(value, problem)``, ``problem`` being None or why
(part of) the stored value was dropped, which the page writes to the console
(``dom.load``). Pure: runs under MicroPython on the page and under CPython in
the tests (tests/test_web_stored.py), keeping to the subset both share.

Loaders of the heavier values live beside their drawing: ``statsview.load_stats``
(statistics), ``tableview.read_envelope`` (the save's envelope, its settings
through ``shell.settings_from_saved``). ``backup.py`` reads and writes them all
as one file.

>>> load_settings('{"players": "9", "sounds": true, "level": 3}')
({'players': '9', 'sounds': True}, 'dropped settings: level')
>>> load_seat("2"), load_seat("<b>")
((2, None), (None, 'not a seat: <b>'))
"""

import json

SETTINGS_KEY = "cribbage.settings"  # the new-game dialog's values, as the form holds them
SAVE_KEY = "cribbage.save"  # the game in progress (tableview.save_envelope)
FINISHED_KEY = "cribbage.finished"  # the last game finished at the table (for its replay)
TALLY_KEY = "cribbage.tally"  # the match tally: game points won and lost against computers
STATS_KEY = "cribbage.stats"  # the solo player's statistics; a name's: STATS_KEY + ":" + name
STATS_BOOKS_KEY = "cribbage.stats.books"  # names with statistics of their own (pass-and-play)
VIEWER_KEY = "cribbage.viewer"  # pass-and-play: the seat whose person last had the device
SHOW_KEY = "cribbage.showing"  # the deal whose show waits for Continue (a reload shows it again)
ASIDE_PREFIX = "cribbage.aside:"  # saves the page could not load, kept aside (ASIDE_KEPT)
LANGUAGE_KEY = "cribbage-lang"  # the language chosen (web/boot/lang.mjs reads it)
PUZZLES_KEY = "cribbage-puzzles"  # the daily puzzles' answers (web/widgets/puzzles.mjs)
DRILLS_KEY = "cribbage-drills"  # the counting drill's progress (web/widgets/drill.mjs)

ASIDE_KEPT = 3  # saves set aside: the oldest is dropped past this many
ASIDE_FORMAT = "cribbage-aside"
NAME_LIMIT = 40  # a setting's name, in characters
VALUE_LIMIT = 200  # a setting's value, in characters
MAX_SEAT = 3  # seats are 0..3 (four players at most)
MAX_DEAL = 999  # a deal's number, far above any game's


def parse(text):
    """The JSON value stored as ``text``; ValueError if it is not JSON.

    >>> parse("[1]"), parse("{oops")
    Traceback (most recent call last):
    ...
    ValueError: not JSON
    """
    if not isinstance(text, str):
        raise ValueError("not text")
    try:
        return json.loads(text)
    except Exception:  # ValueError; RecursionError or RuntimeError for deep nesting
        raise ValueError("not JSON") from None


def load_settings(text):
    """The dialog's values: ``{name: text or true/false}``; entries of any other kind
    are dropped (the page then offers only values its dialog has: main.restore_form).

    >>> load_settings(None), load_settings("[]")
    (({}, None), ({}, 'settings: not an object'))
    """
    if text is None:
        return {}, None
    try:
        data = parse(text)
    except ValueError as error:
        return {}, "settings: " + str(error)
    if not isinstance(data, dict):
        return {}, "settings: not an object"
    kept, dropped = {}, []
    for name in data:
        value = data[name]
        if (isinstance(name, str) and 0 < len(name) <= NAME_LIMIT
                and (value is True or value is False
                     or (isinstance(value, str) and len(value) <= VALUE_LIMIT))):
            kept[name] = value
        else:
            dropped.append(str(name)[:NAME_LIMIT])
    return kept, ("dropped settings: " + ", ".join(sorted(dropped)) if dropped else None)


def check_tally(data):
    """The match tally from its JSON value; ValueError if it is not one. ``games`` (the
    ids of the games counted, read by tabsync.tally_games) may stand beside the totals.

    >>> check_tally({"won": 3, "lost": 1}), check_tally({"won": 3, "games": ["a"]})
    ({'won': 3, 'lost': 1}, {'won': 3, 'lost': 0})
    """
    if not isinstance(data, dict) or sorted(key for key in data if key not in
                                            ("won", "lost", "games")):
        raise ValueError("not a match tally")
    tally = {}
    for side in ("won", "lost"):
        value = data.get(side, 0)
        if type(value) is not int or not 0 <= value <= 10 ** 6:
            raise ValueError("a match tally counts whole game points")
        tally[side] = value
    return tally


def load_tally(text):
    """The match tally (game points won and lost); zeros when absent or bad.

    >>> load_tally('{"won": 3, "lost": 1}'), load_tally('{"won": -1}')[1]
    (({'won': 3, 'lost': 1}, None), 'tally: a match tally counts whole game points')
    """
    if text is None:
        return {"won": 0, "lost": 0}, None
    try:
        return check_tally(parse(text)), None
    except ValueError as error:
        return {"won": 0, "lost": 0}, "tally: " + str(error)


def _whole(text, low, high):
    """``text`` as a whole number low..high (digits only), else None."""
    if (not isinstance(text, str) or not 0 < len(text) <= 4
            or not all(char in "0123456789" for char in text)):  # ASCII digits only
        return None
    value = int(text)
    return value if low <= value <= high else None


def load_seat(text):
    """A seat kept as text (the viewer): 0..3, or None.

    >>> load_seat(None), load_seat("7")
    ((None, None), (None, 'not a seat: 7'))
    """
    if text is None:
        return None, None
    seat = _whole(text, 0, MAX_SEAT)
    return seat, (None if seat is not None else "not a seat: " + text[:20])


def load_deal(text):
    """A deal's number kept as text (the show waiting for Continue), or None.

    >>> load_deal("3"), load_deal("0")
    ((3, None), (None, 'not a deal: 0'))
    """
    if text is None:
        return None, None
    deal = _whole(text, 1, MAX_DEAL)
    return deal, (None if deal is not None else "not a deal: " + text[:20])


def check_books(data):
    """The names with statistics of their own; ValueError if the list is not ours."""
    from handoffview import clean_name  # only where books are read (not at the page's start)

    if not isinstance(data, list) or len(data) > 100:
        raise ValueError("not a list of names")
    books = []
    for book in data:
        if not isinstance(book, str) or not book or clean_name(book) != book:
            raise ValueError("not a name: " + (book[:40] if isinstance(book, str)
                                               else type(book).__name__))
        if book not in books:
            books.append(book)
    return books


def load_books(text):
    """The names with statistics of their own (pass-and-play); [] when absent or bad.

    >>> load_books('["Ana", "Bo"]'), load_books('["Ana", 3]')[1]
    ((['Ana', 'Bo'], None), 'books: not a name: int')
    """
    if text is None:
        return [], None
    try:
        return check_books(parse(text)), None
    except ValueError as error:
        return [], "books: " + str(error)


# --- saves set aside -----------------------------------------------------------------


def aside_numbers(keys):
    """The numbers of the saves set aside among the stored ``keys``, oldest first.

    >>> aside_numbers(["cribbage.aside:3", "cribbage.save", "cribbage.aside:10",
    ...                "cribbage.aside:x"])
    [3, 10]
    """
    numbers = []
    for key in keys:
        if isinstance(key, str) and key.startswith(ASIDE_PREFIX):
            number = _whole(key[len(ASIDE_PREFIX):], 1, 9999)
            if number is not None:
                numbers.append(number)
    return sorted(numbers)


def aside_plan(keys):
    """Where the next save set aside goes and which older ones to drop after it, so
    that ASIDE_KEPT are kept: ``(key, [keys to drop])``.

    >>> aside_plan([])
    ('cribbage.aside:1', [])
    >>> aside_plan(["cribbage.aside:1", "cribbage.aside:2", "cribbage.aside:4"])
    ('cribbage.aside:5', ['cribbage.aside:1'])
    """
    numbers = aside_numbers(keys)
    after = (numbers[-1] if numbers else 0) + 1
    if after > 9999:  # the numbers ran out (never in practice): start again after the drop
        after = 1
    kept = numbers[-(ASIDE_KEPT - 1):] if ASIDE_KEPT > 1 else []
    return (ASIDE_PREFIX + str(after),
            [ASIDE_PREFIX + str(number) for number in numbers if number not in kept])


def aside_record(text, reason, newer, when):
    """What is stored for a save set aside: the save's text as it was, unchanged.

    >>> record = aside_record('{"v": 9}', "newer", True, 1700000000000)
    >>> read_aside(record)["text"], read_aside(record)["newer"]
    ('{"v": 9}', True)
    """
    return json.dumps({"format": ASIDE_FORMAT, "reason": str(reason)[:300],
                       "newer": newer is True, "when": when, "text": text})


def read_aside(text):
    """A save set aside, ``{"text", "reason", "newer", "when"}``, or None if unreadable.

    >>> read_aside("junk") is None
    True
    """
    try:
        data = parse(text)
    except ValueError:
        return None
    if (not isinstance(data, dict) or data.get("format") != ASIDE_FORMAT
            or not isinstance(data.get("text"), str)):
        return None
    when = data.get("when")
    reason = data.get("reason")
    return {"text": data["text"], "reason": reason[:300] if isinstance(reason, str) else "",
            "newer": data.get("newer") is True,
            "when": when if type(when) in (int, float) and when >= 0 else None}

"""One file with everything the site keeps for the player, to move to another device
or browser: the game in progress, the last finished game, the statistics (every
book), the settings, the match tally, the puzzles' answers and streaks, the
drill's progress, the language and the saves set aside (pure).

Writing reads every value through its loader (stored.py, statsview.load_stats,
tableview.read_envelope), so a backup holds only values the page accepts.
Reading checks the whole file first and refuses it if any part is not ours: a
bad file changes nothing. The game in it is then checked by the engine (the
protocol's ``load``) before anything is written (web/table/tablesaves.py).
:func:`read_backup` also takes a save set aside (the table's envelope) and a
game file (the replay page's, the engine's own save), as a backup holding just
that game. Runs under MicroPython on the page and CPython in the tests
(tests/test_web_stored.py).

>>> plan = read_backup(make_backup(EXAMPLE.get, list(EXAMPLE)), shell.EXAMPLE_OFFER)
>>> plan["parts"], plan["games"]
(['settings', 'tally', 'stats'], 2)
"""

import json

import handoffview
import shell
import statsview
import stored
import tableview

BACKUP_FORMAT = "cribbage-backup"
BACKUP_VERSION = 1
MAX_BACKUP = 4000000  # characters: a backup is a few tens of kilobytes
GAME_FORMAT = "cribbage-game"  # the engine's save (cribbage.game.SAVE_FORMAT)
PARTS = ("game", "viewer", "showing", "finished", "settings", "tally", "stats", "aside",
         "puzzles", "drills", "language")
TOP = ("format", "version", "made") + PARTS


class BackupError(ValueError):
    """A file that cannot be restored; ``newer``: it looks made by a newer version."""

    def __init__(self, message, newer=False):
        super().__init__(message)
        self.newer = newer


class _Example:
    """A stored example for the doctests: one finished game counted, a tally."""

    def __init__(self):
        stats = statsview.new_stats()
        stats["levels"]["easy"] = [1, 1]
        self.values = {stored.STATS_KEY: json.dumps(stats),
                       stored.TALLY_KEY: '{"won": 2, "lost": 1}',
                       stored.SETTINGS_KEY: '{"players": "2", "sounds": true}'}

    def __iter__(self):
        return iter(self.values)

    def get(self, key):
        return self.values.get(key)


EXAMPLE = _Example()


# --- writing ----------------------------------------------------------------------


def _object(text):
    """A stored JSON object as a value, or None if the text is not one."""
    try:
        value = stored.parse(text)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _game(text):
    """A stored save envelope as a value, if its envelope can be read."""
    if text is None:
        return None
    try:
        tableview.read_envelope(text)
    except ValueError:
        return None
    return json.loads(text)


def make_backup(get, keys, made=None):
    """The backup's text: ``get(key)`` gives a stored text or None, ``keys`` are every
    stored key (for the saves set aside), ``made`` says when (ISO text).

    >>> data = json.loads(make_backup(EXAMPLE.get, list(EXAMPLE), "2026-12-07"))
    >>> data["format"], data["tally"], data["stats"][""]["levels"]["easy"]
    ('cribbage-backup', {'won': 2, 'lost': 1}, [1, 1])
    """
    data = {"format": BACKUP_FORMAT, "version": BACKUP_VERSION}
    if made:
        data["made"] = str(made)
    game = _game(get(stored.SAVE_KEY))
    if game is not None:
        data["game"] = game
        data["viewer"] = stored.load_seat(get(stored.VIEWER_KEY))[0]
        data["showing"] = stored.load_deal(get(stored.SHOW_KEY))[0]
    finished = _game(get(stored.FINISHED_KEY))
    if finished is not None:
        data["finished"] = finished
    for part, key, loader in (("settings", stored.SETTINGS_KEY, stored.load_settings),
                              ("tally", stored.TALLY_KEY, stored.load_tally)):
        text = get(key)
        value, problem = loader(text)
        if text is not None and problem is None:
            data[part] = value
    books = {}
    for book in [""] + stored.load_books(get(stored.STATS_BOOKS_KEY))[0]:
        text = get(handoffview.stats_key(stored.STATS_KEY, book))
        stats, problem = statsview.load_stats(text)
        if text is not None and problem is None:
            books[book] = stats
    if books:
        data["stats"] = books
    aside = []
    for number in stored.aside_numbers(keys):
        record = stored.read_aside(get(stored.ASIDE_PREFIX + str(number)))
        if record is not None:
            aside.append(record)
    if aside:
        data["aside"] = aside
    for part, key in (("puzzles", stored.PUZZLES_KEY), ("drills", stored.DRILLS_KEY)):
        value = _object(get(key))
        if value is not None:
            data[part] = value
    language = get(stored.LANGUAGE_KEY)
    if language in shell.i18n.LANGUAGES:
        data["language"] = language
    return json.dumps(data)


# --- reading ----------------------------------------------------------------------


def read_backup(text, offer):
    """A file chosen to restore, checked whole against ``offer`` (the engine's hello);
    raises :class:`BackupError` naming the first part that is not ours. Returns the
    plan: ``{"game": the game's save text or None, "viewer", "parts": [what it
    holds], "made", "games": games counted in its statistics, "books": the names,
    "writes": [(key, text)]}`` (the statistics' list of names is merged with the
    device's by :func:`restore_writes`).

    >>> read_backup("{}", shell.EXAMPLE_OFFER)
    Traceback (most recent call last):
    ...
    backup.BackupError: this file is not a backup, a saved game or a game file
    """
    if not isinstance(text, str) or len(text) > MAX_BACKUP:
        raise BackupError("this file is too large to be a backup")
    try:
        data = stored.parse(text)
    except ValueError:
        raise BackupError("this file is not JSON") from None
    kind = data.get("format") if isinstance(data, dict) else None
    if kind == tableview.SAVE_FORMAT:  # a save set aside, downloaded
        return _plan_of_game(text, offer)
    if kind == GAME_FORMAT:  # the replay page's game file
        return _plan_of_game(_envelope_for(data, text, offer), offer)
    if kind != BACKUP_FORMAT:
        raise BackupError("this file is not a backup, a saved game or a game file")
    version = data.get("version")
    if type(version) is int and version > BACKUP_VERSION:
        raise BackupError("this backup was made by a newer version of the site", True)
    if version != BACKUP_VERSION or type(version) is not int:
        raise BackupError("this backup's version is damaged")
    unknown = sorted(str(key)[:40] for key in data if key not in TOP)
    if unknown:
        raise BackupError("this backup has parts this version does not know: "
                          + ", ".join(unknown), True)
    plan = _empty_plan(data.get("made"))
    for part in PARTS:
        if part in data and data[part] is not None:
            _read_part(plan, part, data[part], offer)
    return plan


def _empty_plan(made):
    return {"game": None, "viewer": None, "parts": [], "games": 0, "books": [],
            "made": made if isinstance(made, str) and len(made) <= 40 else None,
            "writes": []}


def _read_part(plan, part, value, offer):
    """Check one part of a backup and add what it writes to ``plan``."""
    writes = plan["writes"]
    if part in ("game", "finished"):
        if not isinstance(value, dict):
            raise BackupError("the backup's " + part + " is not a saved game")
        envelope = json.dumps(value)
        game, viewer = _check_game(envelope, offer, part)
        if part == "game":
            plan["game"], plan["viewer"] = game, viewer
        writes.append((stored.SAVE_KEY if part == "game" else stored.FINISHED_KEY, envelope))
    elif part in ("viewer", "showing"):
        if type(value) is not int:
            raise BackupError("the backup's " + part + " is damaged")
        if plan["game"] is None:  # it would be taken for the device's own game's
            raise BackupError("the backup's " + part + " belongs to no game")
        loader = stored.load_seat if part == "viewer" else stored.load_deal
        number, problem = loader(str(value))
        if problem is not None:
            raise BackupError("the backup's " + part + " is damaged")
        if part == "viewer":
            plan["viewer"] = number
        writes.append((stored.VIEWER_KEY if part == "viewer" else stored.SHOW_KEY,
                       str(number)))
        return  # part of the game, not a part of its own
    elif part == "settings":
        settings, problem = stored.load_settings(json.dumps(value))
        if problem is not None:
            raise BackupError("the backup's settings are damaged")
        writes.append((stored.SETTINGS_KEY, json.dumps(settings)))
    elif part == "tally":
        try:
            writes.append((stored.TALLY_KEY, json.dumps(stored.check_tally(value))))
        except ValueError:
            raise BackupError("the backup's match tally is damaged") from None
    elif part == "stats":
        _read_stats(plan, value)
    elif part == "aside":
        _read_aside(plan, value)
        if not value:
            return  # an empty list sets nothing aside: no part to restore (make_backup omits it)
    elif part in ("puzzles", "drills"):
        if not isinstance(value, dict):
            raise BackupError("the backup's " + part + " are damaged")
        # Their own pages check every entry when they read them (puzzles.mjs, drill.mjs).
        writes.append((stored.PUZZLES_KEY if part == "puzzles" else stored.DRILLS_KEY,
                       json.dumps(value)))
    elif part == "language":
        if value not in shell.i18n.LANGUAGES:
            raise BackupError("the backup's language is not one of the site's")
        writes.append((stored.LANGUAGE_KEY, value))
    plan["parts"].append(part)


def _read_stats(plan, value):
    if not isinstance(value, dict):
        raise BackupError("the backup's statistics are damaged")
    for book in sorted(value):  # in order of their names (the page's dicts keep no order)
        if book != "" and handoffview.clean_name(book) != book:
            raise BackupError("the backup's statistics have a damaged name")
        try:
            stats = statsview.check_stats(value[book])
        except ValueError:
            raise BackupError("the backup's statistics are damaged") from None
        plan["games"] += sum(won + lost for won, lost in stats["levels"].values())
        if book:
            plan["books"].append(book)
        plan["writes"].append((handoffview.stats_key(stored.STATS_KEY, book),
                               json.dumps(stats)))


def _read_aside(plan, value):
    if not isinstance(value, list) or len(value) > stored.ASIDE_KEPT:
        raise BackupError("the backup's saves set aside are damaged")
    for record in value:
        checked = stored.read_aside(json.dumps(dict(record, format=stored.ASIDE_FORMAT))
                                    if isinstance(record, dict) else "")
        if checked is None:
            raise BackupError("the backup's saves set aside are damaged")
        plan.setdefault("aside", []).append(checked)


def _check_game(envelope, offer, part="game"):
    """The game's save text and viewer of a stored envelope, its settings checked."""
    try:
        saved, game = tableview.read_envelope(envelope)
        settings = shell.settings_from_saved(saved, offer)
        handoffview.saved_seats(saved, settings["rules"]["players"])
    except tableview.SaveError as error:
        raise BackupError("the backup's " + part + ": " + str(error), error.newer) from None
    except ValueError as error:
        raise BackupError("the backup's " + part + ": " + str(error)) from None
    return game, None


def _plan_of_game(envelope, offer):
    plan = _empty_plan(None)
    plan["game"], plan["viewer"] = _check_game(envelope, offer)
    plan["parts"].append("game")
    plan["writes"].append((stored.SAVE_KEY, envelope))
    return plan


def _envelope_for(data, text, offer):
    """A game file (the engine's save alone) in the table's envelope, with the settings
    its rules imply (the computers at the dialog's default level)."""
    rules = data.get("rules")
    if not isinstance(rules, dict) or type(rules.get("players")) is not int:
        raise BackupError("this game file is damaged")
    levels = offer["levels"]
    level = shell.DEFAULT_LEVEL if shell.DEFAULT_LEVEL in levels else levels[0]
    saved = {"rules": rules, "level": level, "levels": [level] * (rules["players"] - 1),
             "speed": 1.0}
    try:
        settings = shell.settings_from_saved(saved, offer)
    except ValueError:
        raise BackupError("this game file's rules are not the site's") from None
    settings["seats"] = handoffview.seats_from_form({}, rules["players"])
    return tableview.save_envelope(settings, text)


def restore_writes(plan, books, keys):
    """Everything a restore writes, in order: the plan's values, the statistics'
    list of names (the device's and the backup's), the saves set aside after the
    device's own (``keys``: every stored key). The game goes last: a restore that
    could not store everything leaves the device's game in place.

    >>> plan = read_backup(make_backup(EXAMPLE.get, list(EXAMPLE)), shell.EXAMPLE_OFFER)
    >>> [key for key, text in restore_writes(plan, ["Ana"], [])]
    ['cribbage.settings', 'cribbage.tally', 'cribbage.stats', 'cribbage.stats.books']
    """
    writes = [item for item in plan["writes"] if item[0] != stored.SAVE_KEY]
    names = list(books) + [book for book in plan["books"] if book not in books]
    if names:
        writes.append((stored.STATS_BOOKS_KEY, json.dumps(names)))
    for record in plan.get("aside", []):
        key, drop = stored.aside_plan(keys + [key for key, text in writes])
        writes.append((key, stored.aside_record(record["text"], record["reason"],
                                                record["newer"], record["when"])))
        writes += [(old, None) for old in drop]
    game = [item for item in plan["writes"] if item[0] == stored.SAVE_KEY]
    if game:  # the viewer and the show waiting belong to the game they came with
        for key in (stored.VIEWER_KEY, stored.SHOW_KEY):
            if not any(item[0] == key for item in writes):
                writes.append((key, None))
    return writes + game

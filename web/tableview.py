"""Pure parts of the game table: names, card markup, texts, saved-data checks.

No DOM and no engine here: main.py feeds these functions the engine's JSON
(a seat's view and its events) and puts the returned markup on the page.
Runs under MicroPython in the browser and under CPython in the tests, so it
keeps to what both have (no dataclasses, typing, enum; ``json`` without
indent or sort_keys).

>>> card_words("TH"), card_words("5S")
('ten of hearts', 'five of spades')
>>> seat_names(4)
['You', 'Left', 'Partner', 'Right']
"""

import json

from pegboard import escape

RANKS = "A23456789TJQK"
RANK_WORDS = ("ace", "two", "three", "four", "five", "six", "seven", "eight", "nine",
              "ten", "jack", "queen", "king")
SUITS = {"S": ("spades", "♠", "black"), "H": ("hearts", "♥", "red"),
         "D": ("diamonds", "♦", "red"), "C": ("clubs", "♣", "black")}
HUMAN = 0
SAVE_FORMAT = "cribbage-table"
SAVE_VERSION = 1


# --- cards -------------------------------------------------------------------


def card_words(code):
    """A card code (``5S``) in words, as a screen reader says it."""
    return RANK_WORDS[RANKS.index(code[0])] + " of " + SUITS[code[1]][0]


def card_label(code):
    """The short face of a card: ``10♥``."""
    rank = "10" if code[0] == "T" else code[0]
    return rank + SUITS[code[1]][1]


def card_face(code):
    """Inner markup of a face-up card: rank and suit in the corners, a big pip.

    >>> 'class="pip"' in card_face("QD")
    True
    """
    rank = "10" if code[0] == "T" else code[0]
    suit = SUITS[code[1]][1]
    corner = '<span class="corner">' + rank + "<br>" + suit + "</span>"
    return (corner + '<span class="pip" aria-hidden="true">' + suit + "</span>"
            + corner.replace('"corner"', '"corner corner-end"'))


def card_html(code, action=None, enabled=True, selected=False, extra=""):
    """A face-up card; a ``<button>`` named in words when the human can act on it.

    >>> html = card_html("5S", action="pick", enabled=False)
    >>> 'aria-label="five of spades"' in html and "disabled" in html
    True
    >>> card_html("KH").startswith('<span class="card red"')
    True
    """
    classes = "card " + SUITS[code[1]][2] + (" selected" if selected else "") + extra
    label = ' aria-label="' + card_words(code) + '"'
    if action is None:
        return ('<span class="' + classes + '" role="img"' + label + ' data-card="' + code
                + '">' + card_face(code) + "</span>")
    state = (' aria-pressed="true"' if selected else "") + ("" if enabled else " disabled")
    return ('<button type="button" class="' + classes + '"' + label + ' data-card="' + code
            + '" data-action="' + action + '"' + state + ">" + card_face(code) + "</button>")


def backs_html(count):
    """``count`` face-down cards.

    >>> backs_html(2).count("card back")
    2
    """
    return "".join('<span class="card back" aria-hidden="true"></span>' for _ in range(count))


# --- players -------------------------------------------------------------------


def seat_names(players):
    """Names of the seats, clockwise from the human."""
    if players == 2:
        return ["You", "Computer"]
    if players == 3:
        return ["You", "Left", "Right"]
    return ["You", "Left", "Partner", "Right"]


def score_names(players):
    """Names of the scores (players, or the two teams of a 4-player game)."""
    if players == 4:
        return ["You & Partner", "Opponents"]
    return seat_names(players)


def team_of(seat, players):
    return seat % 2 if players == 4 else seat


def computer_level(settings, seat):
    """The level of the computer in ``seat`` (the dialog sets one per computer)."""
    levels = settings.get("levels") or []
    if seat - 1 < len(levels):
        return levels[seat - 1]
    return settings.get("level", "standard")


# --- texts -----------------------------------------------------------------------


def peg_reasons(items):
    """The reasons for pegging points, e.g. ``'fifteen 2, pair 2'``."""
    return ", ".join(item["kind"] + " " + str(item["points"]) for item in items)


def event_text(event, names):
    """One line of the game log for an engine event (seat numbers become names).

    >>> event_text({"kind": "play", "seat": 1, "cards": ["5S"], "count": 15, "points": 2,
    ...             "items": [{"kind": "fifteen", "points": 2, "cards": []}]},
    ...            ["You", "Computer"])
    'Computer plays 5♠ — 15 — fifteen 2'
    """
    kind = event["kind"]
    who = names[event["seat"]] if event.get("seat") is not None else ""
    cards = " ".join(card_label(code) for code in event.get("cards") or [])
    points = event.get("points", 0)
    if kind == "play":
        text = who + " plays " + cards + " — " + str(event.get("count"))
        if points:
            text += " — " + peg_reasons(event["items"])
    elif kind in ("hand", "crib"):
        whose = "crib" if kind == "crib" else "hand"
        text = who + " " + ("count" if who == "You" else "counts") + " " + whose + " " + cards
        text += ": " + str(points + event.get("refused", 0))
    else:
        text = {
            "cut": who + " cut" + ("" if who == "You" else "s") + " " + cards,
            "dealer": who + " deal" + ("" if who == "You" else "s") + " first",
            "deal": "Deal " + str(event.get("deal")) + ": " + who + " deal"
                    + ("" if who == "You" else "s"),
            "discard": who + " laid away to the crib",
            "starter": "The starter is " + cards,
            "heels": "His heels: 2 for " + who,
            "go_said": who + " said go",
            "go": "1 for the go to " + who,
            "last card": "1 for last card to " + who,
            "claim": who + " claimed " + str(event.get("count")),
            "muggins": "Muggins! " + who + " took " + str(points),
            "over": "Game over",
        }.get(kind, kind)
    if event.get("refused"):
        text += " (" + str(event["refused"]) + " not pegged: exact finish)"
    return text


def outcome_text(outcome, players):
    """The game-over headline.

    >>> outcome_text({"winner": 0, "kind": "skunk", "game_points": 2, "scores": [121, 80]}, 2)
    'You win with a skunk! (2 game points)'
    """
    names = score_names(players)
    winner = names[outcome["winner"]]
    verb = "win" if winner in ("You", "You & Partner") else "wins"
    kind = outcome["kind"]
    extra = "" if kind == "win" else " with a " + kind
    points = outcome["game_points"]
    return (winner + " " + verb + extra + "! (" + str(points) + " game point"
            + ("" if points == 1 else "s") + ")")


# --- saved data --------------------------------------------------------------------


def save_envelope(settings, game_text):
    """What the page keeps in localStorage after every move."""
    return json.dumps({"format": SAVE_FORMAT, "version": SAVE_VERSION,
                       "settings": settings, "game": game_text})


def read_envelope(text):
    """``(settings, game_text)`` from a stored envelope; raises ValueError if unusable.

    >>> read_envelope(save_envelope({"level": "easy"}, "{}"))
    ({'level': 'easy'}, '{}')
    >>> read_envelope("{oops")
    Traceback (most recent call last):
    ...
    ValueError: the saved game is not readable
    """
    try:
        data = json.loads(text)
    except Exception:  # MicroPython raises ValueError, CPython JSONDecodeError
        raise ValueError("the saved game is not readable") from None
    if (not isinstance(data, dict) or data.get("format") != SAVE_FORMAT
            or data.get("version") != SAVE_VERSION or not isinstance(data.get("game"), str)
            or not isinstance(data.get("settings"), dict)):
        raise ValueError("the saved game is not one of ours")
    return data["settings"], data["game"]


def read_tally(text):
    """The match tally (game points won by each side) from storage; bad data -> zeros.

    >>> read_tally('{"won": 3, "lost": 1}'), read_tally("junk")
    ({'won': 3, 'lost': 1}, {'won': 0, 'lost': 0})
    """
    try:
        data = json.loads(text or "{}")
        won, lost = int(data.get("won", 0)), int(data.get("lost", 0))
        if won < 0 or lost < 0 or won > 10 ** 6 or lost > 10 ** 6:
            raise ValueError
        return {"won": won, "lost": lost}
    except Exception:
        return {"won": 0, "lost": 0}


def html(text):
    """Escape text for HTML (re-exported from pegboard for main.py)."""
    return escape(text)

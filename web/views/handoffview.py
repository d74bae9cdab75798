"""Pass-and-play, the pure part: who sits where, their names, and when the device passes.

Each seat is a person at this device or a computer (the new-game dialog's
``who<N>`` and ``name<N>`` fields). With one person nothing changes: the
table is theirs and speaks to them as "you". With two or more, the table
shows only the view of the person at the device (the *viewer*), and before a
different person must decide, it hides every hand behind a hand-off screen.
Names are the players' own text: cleaned here, escaped wherever drawn.

Runs under MicroPython on the page and under CPython in the tests (the subset
both share, see docs/architecture.md).

>>> seats = seats_from_form({"who1": "person", "name0": " Ana ", "name1": "<b>Bo</b>"}, 2)
>>> seats
[{'person': True, 'name': 'Ana'}, {'person': True, 'name': '<b>Bo</b>'}]
>>> people({"seats": seats}), you({"seats": seats})
([0, 1], None)
>>> table_names(words, {"seats": seats}, [0, 1])
['Ana', '<b>Bo</b>']
"""

from shell import escape

NAME_LENGTH = 20  # characters kept of a typed name
KINDS = ("person", "computer")
MUGGINS_SECONDS = 30  # the time a person has to call muggins on another person's claim


def clean_name(text):
    """A typed name as the table keeps it: no control characters, spaces collapsed,
    at most NAME_LENGTH characters ('' if nothing is left).

    >>> clean_name("  Ana\\n  María\\t"), clean_name(None), len(clean_name("x" * 99))
    ('Ana María', '', 20)
    """
    if not isinstance(text, str):
        return ""
    kept = "".join(char if ord(char) >= 32 and ord(char) != 127 else " " for char in text)
    return " ".join(kept.split())[:NAME_LENGTH].strip()


def seats_from_form(values, players):
    """Each seat's kind and typed name from the dialog's values (seat 0 is a person and
    the others computers unless the dialog says otherwise).

    >>> seats_from_form({}, 2)
    [{'person': True, 'name': ''}, {'person': False, 'name': ''}]
    >>> [seat["person"] for seat in seats_from_form({"who0": "computer", "who2": "person"}, 3)]
    [False, False, True]
    """
    seats = []
    for seat in range(players):
        default = "person" if seat == 0 else "computer"
        kind = values.get("who" + str(seat))
        kind = kind if kind in KINDS else default
        name = clean_name(values.get("name" + str(seat)))
        seats.append({"person": kind == "person", "name": name})
    return seats


def seats_valid(seats, players):
    """Whether saved seats are ours: one per player, at least one person, clean names.

    >>> seats_valid([{"person": True, "name": "Ana"}, {"person": False, "name": ""}], 2)
    True
    >>> seats_valid([{"person": False, "name": ""}] * 2, 2), seats_valid("x", 2)
    (False, False)
    """
    if not isinstance(seats, list) or len(seats) != players:
        return False
    for seat in seats:
        if not isinstance(seat, dict) or sorted(seat) != ["name", "person"]:
            return False
        if type(seat["person"]) is not bool or clean_name(seat["name"]) != seat["name"]:
            return False
    return any(seat["person"] for seat in seats)


def saved_seats(saved, players):
    """The seats kept with a saved game's settings (none: a solo game saved before
    pass-and-play); raises ValueError if they are not ours.

    >>> saved_seats({}, 2)[1]
    {'person': False, 'name': ''}
    >>> saved_seats({"seats": [{"person": True, "name": "<" * 40}]}, 1)
    Traceback (most recent call last):
    ...
    ValueError: the saved seats are damaged
    """
    seats = saved.get("seats") if isinstance(saved, dict) else None
    if seats is None:
        return seats_from_form({}, players)
    if not seats_valid(seats, players):
        raise ValueError("the saved seats are damaged")
    return seats


def game_seats(settings):
    """The seats of a game's settings (settings saved before pass-and-play: you alone)."""
    seats = settings.get("seats") if settings else None
    if seats:
        return seats
    players = settings["rules"]["players"] if settings else 2
    return seats_from_form({}, players)


def people(settings):
    """The seats played by people at this device.

    >>> people({"rules": {"players": 3}})
    [0]
    """
    return [seat for seat, place in enumerate(game_seats(settings)) if place["person"]]


def pass_and_play(settings):
    """Whether more than one person plays at this device."""
    return len(people(settings)) > 1


def only_person(settings):
    """The one person's seat, or None when several share the device."""
    persons = people(settings)
    return persons[0] if len(persons) == 1 else None


def you(settings):
    """The seat the table calls "you": the one person, unless they typed a name (then
    the table says their name, as it does when several people share the device).

    >>> you({"rules": {"players": 2}}), you({"seats": seats_from_form({"name0": "Ana"}, 2)})
    (0, None)
    """
    seat = only_person(settings)
    return seat if seat is not None and not game_seats(settings)[seat]["name"] else None


def first_viewer(settings):
    """The seat whose view the table shows first."""
    return people(settings)[0]


def table_names(words, settings, team_of):
    """Every seat's name: the typed one, else a default in the page's language (alone:
    You, Computer, Left, Partner, Right; sharing: Player N, Computer N).

    >>> table_names(words, {"rules": {"players": 4}}, [0, 1, 0, 1])
    ['You', 'Left', 'Partner', 'Right']
    >>> table_names(words, {"seats": seats_from_form({"who2": "person"}, 4)}, [0, 1, 0, 1])
    ['Player 1', 'Computer 2', 'Player 3', 'Computer 4']
    >>> table_names(words, {"seats": seats_from_form({"who0": "computer", "who1": "person"}, 3)},
    ...             [0, 1, 2])
    ['Right', 'You', 'Left']
    """
    seats = game_seats(settings)
    alone = only_person(settings)
    names = []
    for seat, place in enumerate(seats):
        if place["name"]:
            names.append(place["name"])
        elif alone is not None:
            names.append(relative_name(words, seat, alone, team_of))
        else:
            key = "seat.player" if place["person"] else "seat.computer_n"
            names.append(words.t(key, {"n": seat + 1}))
    return names


def relative_name(words, seat, viewer, team_of):
    """The solo table's name of ``seat`` seen from ``viewer`` (You, Computer, Left...)."""
    players = len(team_of)
    if seat == viewer:
        return words.t("seat.human")
    if players == 2:
        return words.t("seat.computer")
    if team_of[seat] == team_of[viewer]:
        return words.t("seat.partner")
    return words.t("seat.left") if (seat - viewer) % players == 1 else words.t("seat.right")


def score_names(words, settings, names, team_of):
    """The scores' names: each player's, or each team's when partners share a score
    (alone: You & Partner and Opponents; sharing: both names).

    >>> score_names(words, {"seats": seats_from_form({"who1": "person"}, 4)},
    ...             ["Ana", "Bo", "Cy", "Di"], [0, 1, 0, 1])
    ['Ana & Cy', 'Bo & Di']
    """
    teams = max(team_of) + 1
    if teams == len(names):
        return names
    if not pass_and_play(settings):
        return [words.t("team.us"), words.t("team.them")]
    return [" & ".join(names[seat] for seat in range(len(names)) if team_of[seat] == team)
            for team in range(teams)]


def stats_books(settings):
    """Whose statistics a game counts in, as (book, seat): the book ``""`` is the solo
    player's (no name typed); a named person, or each person sharing the
    device, has a book under their name.

    >>> stats_books({"rules": {"players": 2}})
    [('', 0)]
    >>> stats_books({"seats": seats_from_form({"who1": "person", "name1": "Bo"}, 2)})
    [('Player 1', 0), ('Bo', 1)]
    """
    alone = you(settings)
    if alone is not None:
        return [("", alone)]
    seats = game_seats(settings)
    books = []
    for seat, place in enumerate(seats):
        if place["person"]:
            books.append((place["name"] or "Player " + str(seat + 1), seat))
    return books


def stats_key(base, book):
    """The storage key of a book of statistics (the solo player's is ``base`` itself).

    >>> stats_key("cribbage.stats", ""), stats_key("cribbage.stats", "Ana")
    ('cribbage.stats', 'cribbage.stats:Ana')
    """
    return base if book == "" else base + ":" + book


def book_choice_html(words, books, chosen):
    """The choice of whose statistics to show (the solo player first, then the names).

    >>> html = book_choice_html(words, ["<b>"], "<b>")
    >>> '<option value="&lt;b&gt;" selected>&lt;b&gt;</option>' in html
    True
    """
    options = [("", words.t("seat.human"))] + [(book, book) for book in books]
    choices = "".join('<option value="' + escape(value) + '"'
                      + (" selected" if value == chosen else "") + ">" + escape(label)
                      + "</option>" for value, label in options)
    return ('<label class="stats-book">' + escape(words.t("stats.whose"))
            + ' <select name="stats-book">' + choices + "</select></label>")


def seat_order(viewer, players):
    """The other seats clockwise from the viewer, as the table seats them around it.

    >>> seat_order(0, 4), seat_order(2, 4), seat_order(1, 2)
    ([1, 2, 3], [3, 0, 1], [0])
    """
    return [(viewer + step) % players for step in range(1, players)]


def hand_off_to(view, settings, viewer):
    """The person the device must pass to before the next decision, or None (the
    viewer decides, a computer does, or the game is over).

    >>> settings = {"seats": seats_from_form({"who1": "person"}, 2)}
    >>> hand_off_to({"phase": "play", "current_player": 1}, settings, 0)
    1
    >>> hand_off_to({"phase": "play", "current_player": 0}, settings, 0) is None
    True
    """
    seat = view["current_player"]
    if view["phase"] == "over" or seat is None or seat == viewer:
        return None
    return seat if seat in people(settings) else None


def muggins_offer(view, settings, viewer):
    """Whether the viewer is offered a call on another person's claim (a time to decide):
    a person at this device, or the friend on another device (``settings["peer"]``).

    >>> settings = {"seats": seats_from_form({"who1": "person"}, 2)}
    >>> view = {"phase": "muggins", "current_player": 1, "claim": {"seat": 0}}
    >>> muggins_offer(view, settings, 1), muggins_offer(view, {"rules": {"players": 2}}, 1)
    (True, False)
    >>> muggins_offer(view, {"rules": {"players": 2}, "peer": "guest"}, 1)
    True
    """
    claim = view.get("claim")
    if view["phase"] != "muggins" or view["current_player"] != viewer or claim is None:
        return False
    if settings.get("peer"):
        return claim["seat"] != viewer
    return pass_and_play(settings) and claim["seat"] in people(settings)


def handoff_html(words, name):
    """The hand-off screen: whom to pass to, and the button that shows their cards.

    >>> html = handoff_html(words, '<img src=x onerror="alert(1)">')
    >>> "<img" in html, "&lt;img" in html
    (False, True)
    """
    return ('<h2 id="handoff-title">' + escape(words.t("handoff.title", {"who": name}))
            + '</h2><p>' + escape(words.t("handoff.body", {"who": name})) + "</p>"
            + '<button type="button" data-action="show-cards">'
            + escape(words.t("handoff.show")) + "</button>")


"""Pure parts of the replay viewer: one step of a replay as markup, no DOM, no rules.

The engine's ``replay`` endpoint (cribbage/replay.py) sends every step of a
game as one seat may see it: that seat's view after the move, the events
the move caused, and once the game is over every hand and the crib
(``revealed``). This module draws a step with the table's own drawing
(``tableview`` cards, ``pegboard`` board): it shows what the step holds and
decides nothing about what may be seen. Runs under MicroPython (replay.py)
and CPython (tests), in the same subset as the rest of web/views/.

>>> step = {"move": "play 5S", "mover": 1, "view": dict(EXAMPLE_VIEW)}
>>> replay = dict(EXAMPLE_REPLAY, steps=[step])
>>> names = seat_names(words, replay, own=True)
>>> names
['You', 'Computer']
>>> events_lines(words, replay, 0, names)
['Computer plays 5♠ — 5']
>>> "card back" in felt_html(words, replay, 0, names)  # the other hand, face down
True
"""

from pegboard import board_svg, escape, leapfrog
from shell import i18n
from tableview import backs_html, card_html, score_names
from tableview import seat_names as table_seat_names

# A small replay as the engine sends it (for the doctests and the tests).
EXAMPLE_VIEW = {
    "phase": "play", "dealer": 0, "current_player": 0, "deal_number": 1,
    "hand": ["2S", "4S", "6H"], "kept": ["2S", "4S", "6H", "5H"], "discards": ["8D", "8C"],
    "starter": "5D", "crib_size": 4, "hand_sizes": [3, 3], "pile": ["5S"], "count": 5,
    "played": [[1, "5S"]], "said_go": [], "scores": [0, 0], "shown": {},
    "events": [{"kind": "play", "seat": 1, "cards": ["5S"], "count": 5, "points": 0,
                "items": [], "deal": 1}],
    "events_total": 5, "outcome": None, "claim": None}
EXAMPLE_REPLAY = {"over": False, "players": 2, "seat": 0, "teams": 2, "team_of": [0, 1],
                  "rules": {"players": 2, "target": 121}, "skunk_lines": [91, 61]}


def seat_names(words, replay, own):
    """The seats' names: the table's (You, Computer…) for the page's own game, else
    ``Seat 1``, ``Seat 2``… (a shared or imported game is someone else's)."""
    if own:
        return table_seat_names(words, replay["team_of"])
    return [i18n.seat_name(seat + 1, words.lang) for seat in range(replay["players"])]


def you(replay, own):
    """The seat spoken to in the second person (the page's own game only)."""
    return replay["seat"] if own else None


def opening(replay):
    """The step the viewer opens on: the first deal, dealt (after the cut for it, if
    the game began with one), so the first thing seen is cards on the felt.

    >>> cut = {"view": {"phase": "cut"}}
    >>> deal = {"view": {"phase": "discard"}}
    >>> [opening({"steps": steps}) for steps in ([cut, cut, deal, deal], [deal], [cut])]
    [2, 0, 0]
    """
    for index, step in enumerate(replay["steps"]):
        if step["view"]["phase"] != "cut":
            return index
    return 0


CAPTIONS = {"peg_count": "count", "muggins": "count"}  # phases said alike


def caption_text(words, replay, index, names, own=True):
    """What is happening at step ``index``, in a sentence: the deal and who deals,
    the starter, the play, the count, the end.

    >>> step = {"move": None, "mover": None, "view": dict(EXAMPLE_VIEW, phase="discard")}
    >>> replay = dict(EXAMPLE_REPLAY, steps=[step])
    >>> caption_text(words, replay, 0, ["You", "Computer"])
    'Deal 1: you deal. Each player keeps the best cards and lays the rest away to your crib.'
    >>> caption_text(words, replay, 0, ["Seat 1", "Seat 2"], own=False)[:26]
    'Deal 1: Seat 1 deals. Each'
    """
    view = replay["steps"][index]["view"]
    phase = view["phase"]
    key = "replay.caption." + CAPTIONS.get(phase, phase)
    if phase == "discard" and view["dealer"] == you(replay, own):
        key += ".mine"
    return words.t(key, {"deal": view["deal_number"], "who": names[view["dealer"]]})


def position_text(words, replay, index):
    """``Move 3 of 40`` (the start is move 0)."""
    return words.t("replay.position", {"step": index, "total": len(replay["steps"]) - 1})


def events_lines(words, replay, index, names, own=True):
    """The step's events in words (the start: the deal, or the cut for it)."""
    step = replay["steps"][index]
    return [i18n.event_text(event, words.lang, names, you(replay, own))
            for event in step["view"]["events"]]


def events_html(words, replay, index, names, own=True):
    """The step's events as list items (text escaped)."""
    lines = events_lines(words, replay, index, names, own) or [words.t("replay.nothing")]
    return "".join("<li>" + escape(line) + "</li>" for line in lines)


def hand_cards(replay, index, seat):
    """The cards of ``seat`` the step lets the viewer see, or None (face down).

    The viewer's own hand is in its view; another's only in ``revealed``
    (sent by the engine once the game is over); a hand laid face up in the
    show is in ``shown``.
    """
    step = replay["steps"][index]
    view = step["view"]
    shown = view["shown"].get("hand:" + str(seat))
    if shown:
        return shown
    if seat == replay["seat"]:
        return view["hand"]
    revealed = step.get("revealed")
    if revealed is not None:
        return revealed["hands"][seat]
    return None


def _cards(words, codes):
    return "".join(card_html(words, code) for code in codes)


def seat_html(words, replay, index, seat, names):
    """One seat: its name (and the dealer's mark), its cards face up or face down."""
    view = replay["steps"][index]["view"]
    cards = hand_cards(replay, index, seat)
    faces = _cards(words, cards) if cards is not None else backs_html(view["hand_sizes"][seat])
    marks = ""
    if view["dealer"] == seat and view["phase"] != "cut":
        marks += (' <span class="dealer-mark" title="' + escape(words.t("dealer.title")) + '">'
                  + escape(words.t("dealer.mark")) + "</span>")
    if seat in view["said_go"]:
        marks += ' <span class="bubble">' + escape(words.t("bubble.go")) + "</span>"
    turn = " turn" if view["current_player"] == seat else ""
    return ('<div class="replay-seat' + turn + '" role="group" aria-label="' + escape(names[seat])
            + '" data-seat="' + str(seat) + '"><div class="seat-name">' + escape(names[seat])
            + marks + '</div><div class="hand small">' + faces + "</div></div>")


def centre_html(words, replay, index, names):
    """The starter, the pile with its count, and the crib (face down until revealed)."""
    step = replay["steps"][index]
    view = step["view"]
    starter = card_html(words, view["starter"]) if view["starter"] else ""
    played, pile = view["played"], view["pile"]
    pile_seats = [seat for seat, _ in played[len(played) - len(pile):]]
    laid = "".join('<span class="played" title="' + escape(names[seat]) + '">'
                   + card_html(words, code) + "</span>" for seat, code in zip(pile_seats, pile))
    count = words.t("count", {"count": view["count"]}) if pile else ""
    crib = view["shown"].get("crib")
    if not crib and step.get("revealed") is not None:
        crib = step["revealed"]["crib"]
    crib_cards = _cards(words, crib) if crib else backs_html(min(view["crib_size"], 4))
    return ('<div class="stock" role="group" aria-label="' + escape(words.t("area.stock"))
            + '"><div class="starter">' + starter + "</div></div>"
            + '<div class="play-area"><div class="count">' + escape(count) + "</div>"
            + '<div class="pile" role="group" aria-label="' + escape(words.t("area.pile"))
            + '">' + laid + "</div></div>"
            + '<div class="crib-spot" role="group" aria-label="' + escape(words.t("area.crib"))
            + '"><div class="crib-cards">' + crib_cards + "</div></div>")


def felt_html(words, replay, index, names):
    """The whole felt of one step: every seat, then the centre."""
    seats = "".join(seat_html(words, replay, index, seat, names)
                    for seat in range(replay["players"]))
    return ('<div class="replay-seats">' + seats + '</div><div class="centre">'
            + centre_html(words, replay, index, names) + "</div>")


def pegs_at(replay, index):
    """Where each side's two pegs stand after step ``index`` (front, back): the back peg
    leapfrogs whenever the engine's score moves.

    >>> steps = [{"view": {"scores": s}} for s in ([0, 0], [2, 0], [2, 3], [6, 3])]
    >>> pegs_at({"steps": steps}, 3)
    [(6, 2), (3, 0)]
    """
    steps = replay["steps"]
    pegs = [(0, -1) for _ in steps[0]["view"]["scores"]]
    for step in steps[:index + 1]:
        pegs = [leapfrog(front, back, score)
                for (front, back), score in zip(pegs, step["view"]["scores"])]
    return pegs


def trades(old, new):
    """Whether a lane's two pegs trade places going from ``old`` to ``new`` (front, back):
    the back peg leapfrogs the front one (forward) or the front one jumps back behind
    it (stepping back), so one peg moves and the other stays in its hole.

    >>> trades((5, 0), (8, 5)), trades((8, 5), (5, 0)), trades((8, 5), (8, 5))
    (True, True, False)
    >>> trades((5, 0), (9, 0))  # the front peg pushed further (a show's later points)
    False
    """
    return old != new and (new[1] == old[0] or new[0] == old[1])


def scores_text(words, replay, index, names):
    """``You 12, Computer 9``."""
    sides = score_names(words, names, replay["teams"])
    scores = replay["steps"][index]["view"]["scores"]
    return words.joined([words.t("final.score", {"name": name, "score": score})
                         for name, score in zip(sides, scores)])


def board_html(words, replay, index, names):
    """The peg board with the pegs after step ``index``."""
    target = replay["rules"]["target"]
    return board_svg(target, score_names(words, names, replay["teams"]),
                     words.t("board", {"target": target}), replay["skunk_lines"],
                     lambda line: words.t("board.skunk", {"score": line}),
                     pegs_at(replay, index))


def step_from_key(key, index, total):
    """The step a key goes to (arrows, Home, End), or None for other keys.

    >>> step_from_key("ArrowRight", 3, 10), step_from_key("Home", 3, 10)
    (4, 0)
    >>> step_from_key("ArrowRight", 9, 10), step_from_key("End", 3, 10), step_from_key("x", 3, 10)
    (9, 9, None)
    """
    moves = {"ArrowRight": index + 1, "ArrowLeft": index - 1, "Home": 0, "End": total - 1}
    if key not in moves:
        return None
    return max(0, min(total - 1, moves[key]))

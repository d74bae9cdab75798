"""Pure parts of the replay viewer: a replay as frames drawn with the table's markup.

The engine's ``replay`` endpoint (cribbage/replay.py) sends every step of a
game as one seat may see it: that seat's view after the move, the events
the move caused, and once the game is over every hand and the crib
(``revealed``). A *frame* is what the viewer shows at one position: each
step, and before a step whose move counted hands (the show) one frame per
hand or crib counted, drawn from that count's event (its cards, items and
points are the engine's). :class:`Replayed` draws a frame with the table's
own parts (``tableview`` cards and players' panels, the board of ``pegboard.mjs``) into
the table's felt: it shows what the steps hold and decides nothing about what
may be seen. Runs under MicroPython (replay.py) and CPython (tests), in the
same subset as the rest of web/views/.

>>> shown = Replayed(words, EXAMPLE_REPLAY)
>>> shown.names, shown.frames
(['You', 'Computer'], [(0, None), (1, 1), (1, 2), (1, None)])
>>> shown.events(0)
['Computer plays 5♠ — 5']
>>> "card back" in shown.parts(0)[".opponents"]  # the other hand, face down
True
>>> shown.caption(1)
"Computer's hand: fifteen two (2)"
>>> shown.marks  # the deal each step starts, and the frame it starts on
[(2, 3)]
"""

import handoffview
from shell import escape, i18n
from tableview import (
    backs_html,
    board_options,
    card_html,
    computer_level,
    level_name,
    player_html,
    score_names,
)
from tableview import seat_names as table_seat_names

SHOWN = ("hand", "crib")  # the events of the show: one frame each
PACE = 1.4  # seconds a move stays on screen while playing, at 1x
SHOW_PACE = 3.0  # seconds a count of the show stays (more to read)
SPEEDS = ("0.5", "1", "2")  # the speeds offered, as the page's select writes them

# A small replay as the engine sends it (for the doctests and the tests): the pone's
# card laid, then the last card, the show and the next deal.
EXAMPLE_VIEW = {
    "phase": "play", "dealer": 0, "current_player": 0, "deal_number": 1,
    "hand": ["2S", "4S", "6H"], "kept": ["2S", "4S", "6H", "5H"], "discards": ["8D", "8C"],
    "starter": "5D", "crib_size": 4, "hand_sizes": [3, 3], "pile": ["5S"], "count": 5,
    "played": [[1, "5S"]], "said_go": [], "scores": [0, 0], "shown": {},
    "events": [{"kind": "play", "seat": 1, "team": 1, "cards": ["5S"], "count": 5, "points": 0,
                "items": [], "deal": 1}],
    "events_total": 5, "outcome": None, "claim": None}
EXAMPLE_SHOW = [
    {"kind": "last card", "seat": 0, "team": 0, "cards": [], "points": 1, "items": [],
     "deal": 1},
    {"kind": "hand", "seat": 1, "team": 1, "cards": ["5S", "TH", "KC", "3C"], "points": 2,
     "worth": 2, "items": [{"kind": "fifteen", "cards": ["5S", "TH"], "points": 2}], "deal": 1},
    {"kind": "crib", "seat": 0, "team": 0, "cards": ["8D", "8C", "AS", "9H"], "points": 2,
     "worth": 2, "items": [{"kind": "pair", "cards": ["8D", "8C"], "points": 2}], "deal": 1},
    {"kind": "deal", "seat": 1, "team": 1, "cards": [], "points": 0, "items": [], "deal": 2}]
EXAMPLE_NEXT = dict(EXAMPLE_VIEW, phase="discard", dealer=1, current_player=0, deal_number=2,
                    hand=["2C", "3C", "4C", "5C", "6C", "7C"], kept=[], discards=[],
                    starter=None, crib_size=0, hand_sizes=[6, 6], pile=[], count=0, played=[],
                    scores=[3, 2], events=EXAMPLE_SHOW)
EXAMPLE_REPLAY = {"over": False, "players": 2, "seat": 0, "teams": 2, "team_of": [0, 1],
                  "rules": {"players": 2, "target": 121}, "skunk_lines": [91, 61],
                  "steps": [{"move": "play 5S", "mover": 1, "view": EXAMPLE_VIEW},
                            {"move": "go", "mover": 0, "view": EXAMPLE_NEXT}]}


# --- frames -----------------------------------------------------------------------


def frames(replay):
    """Every position the viewer shows, in order, as ``(step, show)``: ``show`` is the
    index among the step's events of a hand or crib counted by its move (one frame
    each, before the step's own), or None for the step itself.

    >>> steps = [{"view": {"events": [{"kind": "deal"}]}}, {"view": {"events": [
    ...     {"kind": "play"}, {"kind": "hand"}, {"kind": "crib"}, {"kind": "deal"}]}}]
    >>> frames({"steps": steps})
    [(0, None), (1, 1), (1, 2), (1, None)]
    """
    out = []
    for step, entry in enumerate(replay["steps"]):
        for number, event in enumerate(entry["view"]["events"]):
            if event["kind"] in SHOWN:
                out.append((step, number))
        out.append((step, None))
    return out


def frame_scores(replay, frames):
    """The scores at each frame: a step's own, and in the show the scores before its
    move plus the points pegged up to the count on screen (as the table's pegs climb
    count by count), never past the step's own.

    >>> [scores for scores in frame_scores(EXAMPLE_REPLAY, frames(EXAMPLE_REPLAY))]
    [[0, 0], [1, 2], [3, 2], [3, 2]]
    """
    steps = replay["steps"]
    out = []
    for step, show in frames:
        final = steps[step]["view"]["scores"]
        if show is None or step == 0:
            out.append(list(final))
            continue
        scores = list(steps[step - 1]["view"]["scores"])
        for event in steps[step]["view"]["events"][:show + 1]:
            team = event.get("team")
            if team is not None and event.get("points"):
                scores[team] = min(scores[team] + event["points"], final[team])
        out.append(scores)
    return out


def deal_marks(replay, frames):
    """``(deal, frame)`` for each deal the game dealt: the frame of the step whose move
    dealt it (after that move's show), where the scrubber marks it.

    >>> deal_marks(EXAMPLE_REPLAY, frames(EXAMPLE_REPLAY))
    [(2, 3)]
    """
    marks = []
    for number, (step, show) in enumerate(frames):
        if show is None:
            for event in replay["steps"][step]["view"]["events"]:
                if event["kind"] == "deal":
                    marks.append((event["deal"], number))
    return marks


def step_from_key(key, index, total):
    """The frame a key goes to (arrows, Home, End), or None for other keys.

    >>> step_from_key("ArrowRight", 3, 10), step_from_key("Home", 3, 10)
    (4, 0)
    >>> step_from_key("ArrowRight", 9, 10), step_from_key("End", 3, 10), step_from_key("x", 3, 10)
    (9, 9, None)
    """
    moves = {"ArrowRight": index + 1, "ArrowLeft": index - 1, "Home": 0, "End": total - 1}
    if key not in moves:
        return None
    return max(0, min(total - 1, moves[key]))


def deal_from_key(key, marks, frame):
    """The frame PageUp or PageDown goes to: the start of this deal (or the one before,
    at its start), the start of the next; None for other keys or past the last deal.

    >>> marks = [(1, 0), (2, 12), (3, 30)]
    >>> [deal_from_key(key, marks, 12) for key in ("PageUp", "PageDown", "x")]
    [0, 30, None]
    >>> deal_from_key("PageUp", marks, 20), deal_from_key("PageDown", marks, 31)
    (12, None)
    """
    if key == "PageDown":
        later = [start for _, start in marks if start > frame]
        return later[0] if later else None
    if key == "PageUp":
        earlier = [start for _, start in marks if start < frame]
        return earlier[-1] if earlier else (0 if frame > 0 else None)
    return None


def speed_from(text, default=1.0):
    """The playing speed a page address or the speed choice asks for (``0``: no pause).

    >>> speed_from("2"), speed_from("0"), speed_from("fast"), speed_from("-1"), speed_from(None)
    (2.0, 0.0, 1.0, 1.0, 1.0)
    """
    try:
        speed = float(text)
    except (TypeError, ValueError):
        return default
    return speed if 0 <= speed <= 16 else default


# --- names ------------------------------------------------------------------------


def seat_names(words, replay, own):
    """The seats' names: the table's (You, Computer…) for the page's own game, else
    ``Seat 1``, ``Seat 2``… (a shared or imported game is someone else's)."""
    if own:
        return table_seat_names(words, replay["team_of"])
    return [i18n.seat_name(seat + 1, words.lang) for seat in range(replay["players"])]


def seat_levels(words, settings, players):
    """Each seat's level under its name, as the table's panels show it ("" for a
    person, and for every seat of a game without the table's settings).

    >>> seat_levels(words, {"rules": {"players": 2}, "level": "expert"}, 2)
    ['', 'Expert']
    >>> seat_levels(words, None, 2)
    ['', '']
    """
    if not settings:
        return ["" for _ in range(players)]
    try:
        persons = handoffview.people(settings)
    except (AttributeError, KeyError, TypeError, ValueError):  # settings of an odd save
        return ["" for _ in range(players)]
    return ["" if seat in persons else level_name(words, computer_level(settings, seat))
            for seat in range(players)]


def _cards(words, codes):
    return "".join(card_html(words, code) for code in codes)


class Replayed:
    """A replay as the viewer shows it, frame by frame, in one language: the felt's
    parts (the table's markup), the caption, the events in words, the board.

    ``own``: the page's own game (names You, Computer…; "you" in the second person);
    ``levels``: each seat's level for its panel.
    """

    def __init__(self, words, replay, own=True, levels=None):
        self.words, self.replay, self.own = words, replay, own
        self.names = seat_names(words, replay, own)
        self.levels = levels or ["" for _ in range(replay["players"])]
        self.viewer = replay["seat"]
        self.you = replay["seat"] if own else None  # spoken to in the second person
        self.frames = frames(replay)
        self.scores = frame_scores(replay, self.frames)
        self.marks = deal_marks(replay, self.frames)

    # --- where --------------------------------------------------------------------

    def last(self):
        return len(self.frames) - 1

    def step(self, frame):
        """The engine's step a frame belongs to."""
        return self.frames[frame][0]

    def view(self, frame):
        return self.replay["steps"][self.step(frame)]["view"]

    def counted(self, frame):
        """The count (a hand or crib event) a show frame draws, or None."""
        step, show = self.frames[frame]
        return None if show is None else self.view(frame)["events"][show]

    def frame_of(self, step):
        """The frame of ``step`` itself (after its show, if its move counted hands).

        >>> Replayed(words, EXAMPLE_REPLAY).frame_of(1)
        3
        """
        return self.frames.index((step, None))

    def opening(self):
        """The frame the viewer opens on: the first deal, dealt (after the cut for it,
        if the game began with one), so the first thing seen is cards on the felt.

        >>> cut = {"view": {"phase": "cut", "events": []}}
        >>> deal = {"view": {"phase": "discard", "events": []}}
        >>> [Replayed.opening_of({"steps": steps}) for steps in ([cut, cut, deal], [deal], [cut])]
        [2, 0, 0]
        """
        return self.frame_of(Replayed.opening_of(self.replay))

    @staticmethod
    def opening_of(replay):
        """The step a game opens on (see :meth:`opening`)."""
        for index, step in enumerate(replay["steps"]):
            if step["view"]["phase"] != "cut":
                return index
        return 0

    def deal(self, frame):
        """The deal on screen (a show's deal is the one it counts).

        >>> shown = Replayed(words, EXAMPLE_REPLAY)
        >>> [shown.deal(frame) for frame in range(4)]
        [1, 1, 1, 2]
        """
        event = self.counted(frame)
        return event["deal"] if event is not None else self.view(frame)["deal_number"]

    def position(self, frame):
        """``Move 3 of 40`` (the start is move 0)."""
        return self.words.t("replay.position", {"step": self.step(frame),
                                                "total": len(self.replay["steps"]) - 1})

    def where(self, frame):
        """The scrubber's value in words: ``Deal 2, move 14 of 40`` (before the first
        deal, during the cut for it: the move alone).

        >>> Replayed(words, EXAMPLE_REPLAY).where(3)
        'Deal 2, move 1 of 1'
        """
        deal = self.deal(frame)
        if deal < 1:
            return self.position(frame)
        return self.words.t("replay.where", {"deal": deal, "step": self.step(frame),
                                             "total": len(self.replay["steps"]) - 1})

    def pause(self, frame, speed):
        """Seconds frame ``frame`` stays on screen while playing at ``speed`` (0: none).

        >>> shown = Replayed(words, EXAMPLE_REPLAY)
        >>> shown.pause(0, 1), shown.pause(1, 2), shown.pause(0, 0)
        (1.4, 1.5, 0)
        """
        if speed <= 0:
            return 0
        return (SHOW_PACE if self.counted(frame) is not None else PACE) / speed

    # --- words --------------------------------------------------------------------

    def whose(self, event):
        """Whose count a shown event is: ``Your hand``, ``Computer's crib``."""
        words, seat = self.words, event["seat"]
        if event["kind"] == "crib":
            return words.t("crib.mine") if seat == self.you else words.t(
                "crib.theirs", {"who": self.names[seat]})
        return words.t("show.hand.mine") if seat == self.you else words.t(
            "show.hand", {"who": self.names[seat]})

    def caption(self, frame):
        """What is happening, in a sentence: the deal and who deals, the starter, the
        play, the count said aloud in the show, the end.

        >>> step = {"move": None, "mover": None, "view": dict(EXAMPLE_VIEW, phase="discard")}
        >>> replay = dict(EXAMPLE_REPLAY, steps=[step])
        >>> Replayed(words, replay).caption(0)
        'Deal 1: you deal. Each player keeps the best cards and lays the rest away to your crib.'
        >>> Replayed(words, replay, own=False).caption(0)[:26]
        'Deal 1: Seat 1 deals. Each'
        """
        event = self.counted(frame)
        if event is not None:
            return self.words.t("replay.show_said", {
                "whose": self.whose(event), "said": i18n.cadence(event["items"], self.words.lang),
                "total": event["worth"]})
        view = self.view(frame)
        phase = view["phase"]
        key = "replay.caption." + CAPTIONS.get(phase, phase)
        if phase == "discard" and view["dealer"] == self.you:
            key += ".mine"
        return self.words.t(key, {"deal": view["deal_number"], "who": self.names[view["dealer"]]})

    def events(self, frame):
        """The frame's events in words: a step's after its show, or in the show what its
        move did before the count on screen (the count itself is the caption): each
        event is said once over the frames.

        >>> shown = Replayed(words, EXAMPLE_REPLAY)
        >>> [shown.events(frame) for frame in (1, 2, 3)]
        [['1 for last card to You'], [], ['Deal 2: Computer deals']]
        """
        step, show = self.frames[frame]
        events = self.replay["steps"][step]["view"]["events"]
        counts = [number for number, event in enumerate(events) if event["kind"] in SHOWN]
        if show is None:
            chosen = events[counts[-1] + 1:] if counts else events
        else:
            before = [number for number in counts if number < show]
            chosen = events[(before[-1] + 1 if before else 0):show]
        return [i18n.event_text(event, self.words.lang, self.names, self.you)
                for event in chosen]

    def events_html(self, frame):
        """The frame's events as list items (text escaped); a step with none says so."""
        lines = self.events(frame)
        if not lines and self.counted(frame) is None:
            lines = [self.words.t("replay.nothing")]
        return "".join("<li>" + escape(line) + "</li>" for line in lines)

    # --- the felt -----------------------------------------------------------------

    def hand_cards(self, step, seat):
        """The cards of ``seat`` the step lets the viewer see, or None (face down).

        The viewer's own hand is in its view; another's only in ``revealed``
        (sent by the engine once the game is over); a hand laid face up in the
        show is in ``shown``.
        """
        entry = self.replay["steps"][step]
        view = entry["view"]
        shown = view["shown"].get("hand:" + str(seat))
        if shown:
            return shown
        if seat == self.viewer:
            if view["phase"] in ("count", "muggins") or (view["phase"] == "play"
                                                         and not view["hand"]):
                return view["kept"]  # played out: the hand back in front of its owner
            return view["hand"]
        revealed = entry.get("revealed")
        if revealed is not None:
            return revealed["hands"][seat]
        return None

    def fan(self, frame, seat):
        """A seat's cards on the felt: face up where the frame shows them, else face
        down. In the show a hand leaves its place while it is counted in the middle
        and lies face up once counted."""
        step, show = self.frames[frame]
        shown_step = step - 1 if show is not None and step > 0 else step
        cards = self.hand_cards(shown_step, seat)
        faces = (_cards(self.words, cards) if cards is not None
                 else backs_html(self.replay["steps"][shown_step]["view"]["hand_sizes"][seat]))
        if show is not None:
            for number, event in enumerate(self.view(frame)["events"]):
                if event["kind"] == "hand" and event["seat"] == seat:
                    faces = (_cards(self.words, event["cards"]) if number < show
                             else "" if number == show else backs_html(len(event["cards"])))
        return faces

    def panel(self, frame, seat, keyed):
        """A seat's panel (the table's ``player_html``): name, level, score, dealer."""
        step, show = self.frames[frame]
        view = self.replay["steps"][step - 1 if show is not None and step > 0 else step]["view"]
        cutting = view["phase"] == "cut"
        team = self.replay["team_of"][seat]
        extra = ""
        if seat in view["said_go"] and show is None:
            extra = '<span class="bubble">' + escape(self.words.t("bubble.go")) + "</span>"
        return player_html(self.words, {
            "name": self.names[seat], "level": self.levels[seat], "team": team,
            "points": self.scores[frame][team], "keyed": keyed, "extra": extra,
            "dealer": view["dealer"] == seat and not cutting,
            "turn": (show is None and view["current_player"] == seat
                     and view["phase"] != "over")}, self.replay["rules"]["target"])

    def cut_card(self, frame, seat):
        """The card a seat cut for the first deal, while the cut is on the felt."""
        step, show = self.frames[frame]
        steps = self.replay["steps"]
        view = steps[step]["view"]
        cut_now = any(event["kind"] == "cut" for event in view["events"])
        if show is not None or (view["phase"] != "cut" and not cut_now):
            return ""
        cards = [event["cards"][0] for entry in steps[:step + 1]
                 for event in entry["view"]["events"]
                 if event["kind"] == "cut" and event["seat"] == seat]
        if not cards:
            return ""
        return ('<span class="cut-card"><small>' + escape(self.words.t("cut.label"))
                + "</small>" + card_html(self.words, cards[-1]) + "</span>")

    def seats_html(self, frame):
        """``(yours, the others')``: your panel, then each other seat's panel over its
        fan, clockwise (the table's markup; one ``data-score`` a side, yours first)."""
        players = self.replay["players"]
        team_of = self.replay["team_of"]
        keyed = {team_of[self.viewer]}
        others = []
        for place, seat in enumerate(handoffview.seat_order(self.viewer, players)):
            fan = self.fan(frame, seat)
            others.append('<div class="opponent" data-seat="' + str(seat) + '" data-place="'
                          + str(place + 1) + '">'
                          + self.panel(frame, seat, team_of[seat] not in keyed)
                          + '<div class="hand small" data-size="' + str(fan.count('class="card'))
                          + '">' + fan + "</div>" + self.cut_card(frame, seat) + "</div>")
            keyed.add(team_of[seat])
        yours = self.panel(frame, self.viewer, True) + self.cut_card(frame, self.viewer)
        return yours, "".join(others)

    def crib_html(self, frame):
        """The crib where it lies: face up once shown or revealed, with its owner."""
        step = self.step(frame)
        entry = self.replay["steps"][step]
        view = entry["view"]
        crib = view["shown"].get("crib")
        if not crib and entry.get("revealed") is not None:
            crib = entry["revealed"]["crib"]
        cards = _cards(self.words, crib) if crib else backs_html(min(view["crib_size"], 4))
        owner = ""
        if view["phase"] != "cut":
            dealer = view["dealer"]
            owner = self.words.t("crib.mine") if dealer == self.you else self.words.t(
                "crib.theirs", {"who": self.names[dealer]})
        return ('<div class="crib-cards">' + cards + "</div><small>" + escape(owner)
                + "</small>")

    def pile_html(self, frame):
        """The cards of the current count, each titled with who laid it."""
        view = self.view(frame)
        played, pile = view["played"], view["pile"]
        seats = [seat for seat, _ in played[len(played) - len(pile):]]
        return "".join('<span class="played" title="' + escape(self.names[seat]) + '">'
                       + card_html(self.words, code) + "</span>"
                       for seat, code in zip(seats, pile))

    def show_html(self, frame):
        """The count on screen in the middle of the felt, as the table counts it: whose
        it is and its total, its cards at the size of a hand with the starter beside
        them, its items (the engine's, in words) one chip each, and the deal's counts
        so far with their totals ("" for a frame that is not a count)."""
        event = self.counted(frame)
        if event is None:
            return ""
        words = self.words
        total = event["worth"]
        starter = self.starter(frame)
        starter_html = ""
        if starter:
            starter_html = ('<span class="show-starter">' + card_html(words, starter)
                            + "<small>" + escape(words.t("show.starter")) + "</small></span>")
        items = "".join('<span class="show-chip">' + escape(i18n.item_text(item, words.lang))
                        + " <b>" + str(item["points"]) + "</b></span>"
                        for item in event["items"])
        return ('<h2 class="show-whose">' + escape(self.whose(event))
                + ' <b class="show-total" data-points="' + str(total) + '">' + str(total)
                + "</b></h2>"
                + '<div class="show-cards" data-size="' + str(len(event["cards"]) + 1) + '">'
                + _cards(words, event["cards"]) + starter_html + "</div>"
                + '<p class="show-items">' + (items or escape(
                    i18n.cadence([], words.lang))) + "</p>"
                + self.counts_html(frame))

    def counts_html(self, frame):
        """The counts of this show so far, whose and their totals, the one on screen
        marked (the table's tabs, read only)."""
        step, show = self.frames[frame]
        counts = [(number, event) for number, event in enumerate(self.view(frame)["events"])
                  if event["kind"] in SHOWN and number <= show]
        if len(counts) < 2:
            return ""
        return ('<ol class="show-counts" aria-label="' + escape(self.words.t("replay.counts"))
                + '">' + "".join(
                    '<li' + (' aria-current="true"' if number == show else "") + ">"
                    + escape(self.whose(event)) + " <b>"
                    + str(event["worth"]) + "</b></li>"
                    for number, event in counts) + "</ol>")

    def starter(self, frame):
        """The starter of the deal on screen: the step's, else (in the show, dealt away
        by the same move) the last one its deal had."""
        deal = self.deal(frame)
        for entry in reversed(self.replay["steps"][:self.step(frame) + 1]):
            view = entry["view"]
            if view["deal_number"] == deal and view["starter"]:
                return view["starter"]
        return None

    def parts(self, frame):
        """The felt of one frame as markup, by the selector of the part it fills.

        >>> parts = Replayed(words, EXAMPLE_REPLAY).parts(1)  # the computer's hand counted
        >>> parts[".replay-show"].count('class="card '), 'data-points="2"' in parts[".replay-show"]
        (5, True)
        >>> parts[".opponents"].count("card back")  # its hand is in the middle
        0
        """
        yours, others = self.seats_html(frame)
        counting = self.counted(frame) is not None
        view = self.view(frame)
        in_play = view["phase"] == "play" and not counting
        hand = "" if counting else _cards(self.words, self.hand_cards(self.step(frame),
                                                                      self.viewer) or [])
        starter = view["starter"] if not counting else None
        return {
            ".you": yours,
            ".opponents": others,
            ".starter": card_html(self.words, starter) if starter else "",
            ".count": self.words.t("count", {"count": view["count"]}) if in_play else "",
            ".pile": "" if counting else self.pile_html(frame),
            ".crib-spot": "" if counting else self.crib_html(frame),
            ".seat-human .hand": hand,
            ".replay-show": self.show_html(frame),
            ".replay-events": self.events_html(frame),
            ".replay-caption": self.caption(frame),
        }

    def felt_html(self, frame):
        """Every part of the felt of one frame, one after the other (for the tests)."""
        return "".join(self.parts(frame).values())

    # --- the board and the scrubber -----------------------------------------------

    def board_options(self):
        """What the game's peg board is drawn from (``tableview.board_options``); the page
        places its pegs from :attr:`scores` (pegboard.mjs ``pegsAlong``)."""
        words, target = self.words, self.replay["rules"]["target"]
        return board_options(words, target, score_names(words, self.names, self.replay["teams"]),
                             self.replay["skunk_lines"])

    def marks_html(self):
        """The scrubber's marks, one at the start of each deal: a button each (outside
        the tab order: the scrubber and PageUp/PageDown reach them by keyboard), placed
        along the track by the page (``data-at``, the fraction of the way)."""
        last = max(1, self.last())
        return "".join(
            '<button type="button" class="deal-mark" tabindex="-1" data-action="deal" data-deal="'
            + str(deal) + '" data-frame="' + str(frame) + '" data-at="'
            + str(round(frame / last, 4)) + '" aria-label="'
            + escape(self.words.t("replay.deal_mark", {"deal": deal})) + '"><span>'
            + str(deal) + "</span></button>" for deal, frame in self.marks)


CAPTIONS = {"peg_count": "count", "muggins": "count"}  # phases said alike

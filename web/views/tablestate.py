"""Everything the table knows between two engine replies: one object, no globals.

Pure (no DOM, no engine), so it runs under MicroPython on the page and under
CPython in the tests. The engine owns the game; this is the page's memory of
what it has shown: the human seat's latest view, the pegs as drawn, the show
on screen, the coach's panels.

>>> state = TableState()
>>> state.new_game({"rules": {"players": 3}}, ["You", "Left", "Right"], teams=3)
>>> state.pegs, state.events_seen, state.view is None
([[0, -1], [0, -1], [0, -1]], 0, True)
"""

from shell import Words

HUMAN = 0  # the seat of the person at this device in a solo game (pass-and-play: viewer)
COMPUTER_PAUSE = 0.3  # seconds before a computer's card shows, at normal speed
PILE_STAYS = 1.2  # seconds a finished pile (31, a go, the last card) stays before it goes


class CoachState:
    """What the coach's panels and the fair-deal line show (drawn again on a language switch)."""

    def __init__(self):
        self.game_events = []  # every event of this game, as the table took them in
        self.game_id = None  # the engine's short id of this game (statistics count it once)
        self.proof_deal = None  # (deal, over) the fair-deal line was last drawn for
        self.last_proof = None  # the last fair-deal proof
        self.hint_busy = False
        self.hint_shown = None  # ("thinking", None) / ("error", error) / ("advice", (advice, n))
        self.review_shown = None  # the same for the review in the show panel


class Regions:
    """The markup last written into each region of the table (keyed by its selector), so
    a redraw writes only the regions whose markup changed: the rest of the page keeps its
    elements, and the browser lays out and paints less. Code that changes a region's
    elements another way forgets it, and the next redraw writes it whole.

    >>> regions = Regions()
    >>> regions.changed(".actions", "<button>Go</button>")
    True
    >>> regions.changed(".actions", "<button>Go</button>")
    False
    >>> regions.forget(".actions"); regions.changed(".actions", "<button>Go</button>")
    True
    >>> regions.changed(".hand", ""), regions.changed(".hand", "")
    (True, False)
    >>> regions.forget(); regions.changed(".hand", "")
    True
    """

    def __init__(self):
        self.drawn = {}

    def changed(self, key, markup):
        """Whether ``markup`` differs from what region ``key`` shows (then it is kept as
        what it shows: the caller writes it)."""
        if self.drawn.get(key) == markup:
            return False
        self.drawn[key] = markup
        return True

    def forget(self, *keys):
        """Regions changed by other means (none named: every region), drawn whole next."""
        if not keys:
            self.drawn = {}
        for key in keys:
            self.drawn.pop(key, None)


class TableState:
    """The table's state: settings, the human's view, and what is on screen."""

    def __init__(self):
        self.engine = None  # the engine's client (window.cribbageEngine) once it is ready
        self.hello = None  # the engine's hello: levels and rule options on offer
        self.settings = None  # the game's settings (shell.settings_from_form)
        self.notice = None  # the dialog's notice: (catalogue key, values), or None
        self.words = Words()  # the page's words: replaced when the player switches language
        self.audio = None  # the Web Audio context of the card sounds, made on first use
        self.stats_from = None  # the dialog the statistics replaced, shown again on Close
        self.stats_opener = None  # the button that opened the statistics (focus returns)
        self.resume_show = None  # a reload came while this deal's show waited for Continue
        self.busy_changed = None  # called with busy when it changes (the page shows it)
        self._busy = False
        self.new_game(None, ["You", "Computer"], 2)

    @property
    def busy(self):
        """A move is on its way: clicks are ignored (the page marks #table[data-busy]).

        >>> state, seen = TableState(), []
        >>> state.busy_changed = seen.append
        >>> state.busy = True; state.busy = True; state.busy = False
        >>> seen
        [True, False]
        """
        return self._busy

    @busy.setter
    def busy(self, value):
        if value != self._busy and self.busy_changed is not None:
            self.busy_changed(value)
        self._busy = value

    def new_game(self, settings, names, teams):
        """Forget the last game's table: a new (or resumed) game begins."""
        self.settings = settings
        self.names = names
        self.sides = names  # the scores' names (teams when partners share a score)
        self.viewer = HUMAN  # the seat whose person is at the device: the only hand drawn
        self.you = HUMAN  # the seat called "you" (None when several people share the device)
        self.handing_off = None  # the seat the device is being passed to, during a hand-off
        self.view = None  # the human seat's view (PlayerView.to_dict)
        self.events_seen = 0  # how many of the game's events the table has taken in
        self.selected = []  # cards picked for the crib
        self.pegs = [[0, -1] for _ in range(teams)]  # per score: [front, back]
        self.deal_shows = []  # this deal's hand and crib events, for the show panel
        self.last_starter = None  # the starter of the deal being shown
        self.busy = False
        self.continue_event = None  # set by Continue at the end of a show
        self.cut_events = []  # the cuts for the first deal
        self.cuts_fresh = False  # the cut has just decided the dealer: keep the cuts in view
        self.claim_events = []  # claims in manual counting (for muggins)
        self.pile = []  # the pile on the felt: {"seat", "card", "calls"} (kept once finished)
        self.pile_count = 0  # its count (31 or the count of a go, once finished)
        self.pile_drawn = None  # what of the pile is drawn (tablerender.pile_key)
        self.regions = Regions()  # the markup of the table's regions as drawn
        self.computer_moving = False  # a computer's move is on its way to the table
        self.showing = None  # the show on screen: {"deal", "shown": [events], "waiting"}
        self.over = None  # the game-over screen's facts: {"outcome", "tally"}
        self.cut_pause = False  # the cut cards stay in view while the table says who deals
        self.auto_going = False  # the table is about to say Go for the player
        self.can_undo = False  # the engine would take back the human's last choice
        self.undos = 0  # moves taken back in this game (the save counts them)
        self.coach = CoachState()

    def lay(self, event):
        """A card laid (a play event): onto the pile, or onto a new one when the count
        starts again (the finished pile stays until then). True for a new pile.

        >>> state = TableState()
        >>> state.lay({"seat": 1, "cards": ["KS"], "count": 10, "items": []})
        True
        >>> state.lay({"seat": 0, "cards": ["5H"], "count": 15,
        ...            "items": [{"kind": "fifteen", "points": 2, "cards": ["KS", "5H"]}]})
        False
        >>> state.call({"kind": "go", "points": 1}); [len(e["calls"]) for e in state.pile]
        [0, 2]
        >>> state.lay({"seat": 1, "cards": ["2C"], "count": 2, "items": []}), len(state.pile)
        (True, 1)
        """
        fresh = not self.pile or event["count"] < self.pile_count
        if fresh:
            self.pile = []
        self.pile.append({"seat": event["seat"], "card": event["cards"][0],
                          "calls": list(event.get("items") or [])})
        self.pile_count = event["count"]
        return fresh

    def call(self, event):
        """Points pegged for the last card laid after it (a go, the last card, a claimed
        card's points): called beside that card."""
        items = event.get("items") or []
        if not items and event.get("points"):
            items = [{"kind": event["kind"], "points": event["points"]}]
        if self.pile:
            self.pile[-1]["calls"].extend(items)

    def pile_finished(self):
        """The pile on the felt is a finished one (31, a go): the engine's pile is empty."""
        return bool(self.pile) and self.view is not None and not self.view["pile"]

    def rules(self):
        """The rules of the game in progress (from the view, else the settings)."""
        if self.view is not None:
            return self.view["rules"]
        return self.settings["rules"] if self.settings else {"players": 2, "target": 121}

    def manual_counting(self):
        return bool(self.settings and self.settings["rules"]["manual_counting"])

    def my_turn(self):
        return (self.view is not None and self.handing_off is None
                and self.view["current_player"] == self.viewer)

    def team_of(self, seat):
        """The score a seat pegs for, as the engine's view says."""
        return self.view["team_of"][seat]

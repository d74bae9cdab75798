"""The JSON protocol the web page speaks to the engine.

The page runs the engine in a web worker; the worker's bridge
(``web/engine/bridge.py``) holds one :class:`Session` and hands every call
to :meth:`Session.call`. Each call names an endpoint and carries one JSON
object; each reply is one JSON text (JSON keeps ``null``, which a JS proxy
of a dict would drop)::

    {"ok": true, "result": ...}
    {"ok": false, "error": {"kind": "...", "type": "...", "message": "..."}}

``kind`` is ``bad-request`` (malformed JSON or arguments), ``illegal-move``,
``bad-card``, ``bad-save`` (a corrupt or foreign save), ``no-game`` (no game
started yet) or ``internal`` (a bug: the engine stays usable). No call
raises, and a call that fails changes nothing.

>>> session = Session()
>>> reply = json.loads(session.call("new_game", '{"seed": 5, "first_dealer": 0, "seat": 1}'))
>>> reply["ok"], reply["result"]["phase"], reply["result"]["view"]["seat"]
(True, 'discard', 1)
>>> json.loads(session.call("apply_move", '{"move": "dance"}'))["error"]["kind"]
'illegal-move'
>>> sorted(ENDPOINTS) == sorted(json.loads(session.call("hello"))["result"]["endpoints"])
True

The game endpoints (one game per session)
-----------------------------------------
``hello({})``
    ``{"engine", "python", "levels", "endpoints", "options"}``: versions, the
    computer levels on offer, the names of every endpoint (the page's client
    makes its methods from this list, so no list of names is kept by hand)
    and the values each rule option may take (``options.cards``: 6, 5, 7;
    ``options.variants``: the players and targets of each).
``new_game({"rules": {...}, "seed"?, "first_dealer"?, "scripted"?, "seat"?, "proof"?})``
    Start a game (``scripted`` holds :meth:`Game.scripted`'s arguments);
    ``{"rules": {"cards": 5}}`` is five-card cribbage to 61.
    Returns its state and save; with ``seat``, also that seat's view; with
    ``"proof": true``, the fair-deal proof.
``state({"seat"?})``, ``view({"seat", "events_from"?})``, ``legal_moves({})``
    Asking. A view holds only what that seat may know; its ``events`` start
    at ``events_from`` of the game's log (``events_total`` is its length).
``apply_move({"move", "seat"?, "events_from"?, "proof"?})``
    Apply a move given as text. Returns an *update*: the state, ``move``,
    ``events`` (what the move caused, as data) and ``save`` (the game as
    text); with ``seat``, that seat's new view (its events from
    ``events_from``); with ``"proof": true``, the fair-deal proof. One round
    trip gives the page everything it needs to redraw and to save.
``computer_move({"level", ...})``
    The player to move moves as a computer of that level; the same update.
``save({})``, ``load({"save", "seat"?, "proof"?})``
    The game as text; resume a saved game (a corrupt save changes nothing),
    answered like ``new_game``.
``hand_off({"seat", "events_from"?, "proof"?})``
    Pass-and-play: the device passes to the person in ``seat``, who becomes
    the session's *viewer* (``new_game``, ``load`` and ``undo`` with a
    ``seat`` set it too; ``apply_move``, ``computer_move`` and ``resign``
    without a ``seat`` answer with the viewer's view). Returns the state, the
    save and the new viewer's view with its events from ``events_from``,
    never another seat's cards.
``undo({"seat", "proof"?})``
    Take back ``seat``'s last choice in this deal (and every move after it):
    the game is replayed to that choice, its save counts the take-back
    (``setup.undos``); answered like ``load``. ``illegal-move`` if there is
    nothing to take back (``state``/updates say ``can_undo`` for the seat).
``resign({"seat", "events_from"?, "proof"?})``
    ``seat`` concedes: the game ends as a loss for its side (outcome kind
    ``resign``), recorded in the save (``setup.resigned``); answered like a move.
``advise({"seat", "lang"?})``, ``review({"seat", "deal"?})``, ``deal_proof({})``
    The coach on a seat's own view (near the end of a game, the master's
    judgement, with a sentence in ``lang`` when the board changes the
    advice), the coach's review of a finished deal, and the fair-deal
    commitments (:mod:`cribbage.coach`, :mod:`cribbage.fairdeal`).
``replay({"save", "seat"?})`` or ``replay({"link"})``
    The game in a save (the viewer ``seat``, 0 if not given) or in a share
    link's text (the viewer is the link's), checked as strictly as ``load``,
    stepped through move by move: each step that seat's view and the events
    the move caused, every hand and the crib too once the game is over
    (:func:`cribbage.replay.replay`), with the game's ``save`` and ``link``.
    Stateless: the session's game is left alone.
``review_game({"seat", "save"?, "lang"?, "deal"?})``
    Every decision of a seat in the whole game graded against the master
    (:func:`cribbage.review.review_game`): the session's game, or, statelessly,
    the game in ``save`` (the session's game is left alone). With ``deal``,
    only that deal's graded decisions, ``{"deal", "deals", "decisions"}``: the
    page asks deal by deal to show its progress, then without ``deal`` for the
    report, which reuses the deals already graded (the session keeps the last
    game's review).

A game with a friend on another device
--------------------------------------
(:mod:`cribbage.peersession`, messages and checks in :mod:`cribbage.peer`)

``peer_host({"rules", "seat"?})`` or ``peer_host({"record", "save"?})``
    Host a game of the rules' two, three or four players (or resume one):
    ``{"game", "record", "update"?}`` (a resumed, dealt game's table update); the
    game is dealt once every guest's random bytes arrive. With more than two the
    host sits in seat 0 and each other seat is a guest on its own channel.
``peer_guest({"game"})`` or ``peer_guest({"record", "seen"?})``
    Join the invitation's game (or resume): ``{"game", "record", "message"}``,
    the ``hello`` to send first.
``peer_receive({"text", "from"?, "events_from"?, "proof"?})``
    One message from the peer (on the host, from guest seat ``from``: the seat of
    the channel it came on): ``{"replies", "others", "update", "reaction",
    "refused", "peer_refused", "verdict", "left", "rematch", "away", "game",
    "match", "record"}``; ``others`` holds the other guests' messages by seat. The host
    applies a guest's move only if it is that guest's turn and legal; a refused
    message changes nothing.
``peer_outbox({})``, ``peer_move({"move"})``, ``peer_reaction({"reaction"})``
    The host's messages after its own move (each guest's update, then the
    reveal when the game is over: ``{"messages", "sends"}``, ``sends`` by guest
    seat), the guest's move and a quick reaction.
``peer_computer({"seat"})``, ``peer_computer_move({})``
    The host lets the computer play a guest's seat (its friend went away), and
    the computer's move when that seat is to move (``{"update", "sends"}``).
``peer_away({"seats"})``
    The host of three or four tells the other guests which friends are away
    (``{"sends"}``; a guest's ``peer_receive`` then has ``away``, the seats).
``peer_leave({})``
    This side leaves for another game: ``{"messages", "sends"}`` telling the friend
    (``left``; a game not over is lost: the host resigns and reveals, a
    guest's ``left`` has the host resign the guest).
``peer_rematch({})``
    A rematch of the finished, checked game: this side's offer, or its yes to the
    friend's (``{"messages", "game", "match", "record"}``; the host's yes also
    commits to the next game, whose ``game`` is new).
``peer_check({"commitment", "host_bytes", "guest_bytes", "save", "seat", "seen"})``
    The guest's after-game check, statelessly: ``{"problems": [...]}``.

The stateless endpoints (the widgets; they leave the game alone)
-----------------------------------------------------------------
``score``, ``show_score``, ``peg_sequence`` and ``deal_steps``: see
:mod:`cribbage.tutor`. Each takes an optional ``"lang"``, the language of
every text in its reply.
``puzzle({"date", "kind", "practice"?, "lang"?})``, ``drill({"level", "seed"?, "lang"?})``
    The daily (or practice) discard and play puzzles, every choice ranked by
    the coach (:mod:`cribbage.puzzles`), and a counting drill's hand by level
    with its score in words (:mod:`cribbage.drills`).
``board({"rules"})``
    The board a game of these rules is pegged on, before there is a game (the
    table's board under its start screen): ``{"target", "teams", "team_of",
    "skunk_lines"}``, the same facts as a view's.
``hand_distribution({"cards"?})``
    How many of all 12,994,800 (hand, starter) pairs score each total as a hand
    and as a crib (:mod:`cribbage.stats`), computed once per process (the
    statistics' chart): ``{"total", "crib_total", "hand": [count per score
    0..29], "crib": [...]}``. With ``"cards": 5`` or ``7`` the hands are those
    of five- or seven-card cribbage (3 or 5 cards: 1,082,900 or 122,151,120
    hands, scores to 20 or 46); the crib (four cards) is the same in every variant.

Events are data (kind, seat, team, points, cards, items, count, refused,
beyond, worth, source, deal, miscount); people's words for them come from
:mod:`cribbage.i18n` on the page. A finished game's view also carries its
``summary`` (:mod:`cribbage.summary`): the points by source and the scores deal
by deal, as pegged, which the game-over dialog draws as they come.
"""

from __future__ import annotations

import json
import sys
import traceback
from collections.abc import Callable
from functools import cache
from typing import Any

from . import __version__
from .cards import CardError
from .coach import coach_advice, review_deal
from .fairdeal import deal_proofs
from .game import Game, GameStateError, IllegalMoveError, Move
from .peersession import ENDPOINTS as PEER_ENDPOINTS
from .peersession import Guest, Host
from .players import LEVELS, ComputerPlayer, computer_move, make_player
from .replay import read_link, read_save
from .replay import replay as replay_steps
from .review import GameReview
from .rules import CARD_COUNTS, PLAYER_COUNTS, SKUNK_RULES, TARGETS, Rules, RulesError, variants
from .tutor import deal_steps, peg_sequence, score, show_score

Request = dict[str, Any]


class ProtocolError(Exception):
    """A request the protocol refuses, with the error's kind (``no-game``, ``bad-request``)."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


def error_kind(error: BaseException) -> str:
    """The protocol's name for what went wrong.

    >>> error_kind(IllegalMoveError("no")), error_kind(KeyError("x"))
    ('illegal-move', 'bad-request')
    """
    if isinstance(error, ProtocolError):
        return error.kind
    if isinstance(error, IllegalMoveError):
        return "illegal-move"
    if isinstance(error, GameStateError):
        return "bad-save"
    if isinstance(error, CardError):
        return "bad-card"
    if isinstance(error, (RulesError, ValueError, TypeError, KeyError)):
        return "bad-request"
    return "internal"


def error_reply(error: BaseException) -> str:
    """The JSON error reply for an exception (a bug is named by its last traceback line)."""
    kind = error_kind(error)
    message = str(error) or type(error).__name__
    if kind == "internal":
        last = traceback.format_exception_only(type(error), error)[-1].strip()
        message = f"The engine hit a bug: {last}"
    body = {"kind": kind, "type": type(error).__name__, "message": message}
    return json.dumps({"ok": False, "error": body})


def seat_of(request: Request, required: bool = False) -> int | None:
    """The request's ``seat`` (a whole number), or None when it may be left out."""
    seat = request.get("seat")
    if seat is None and not required:
        return None
    if type(seat) is not int:
        raise ProtocolError("bad-request", "'seat' must be a seat number.")
    return seat


def game_state(game: Game, seat: int | None = None) -> dict[str, Any]:
    """Where the game stands, with ``seat``'s view when asked."""
    state: dict[str, Any] = {
        "phase": game.phase,
        "current_player": game.current_player,
        "scores": list(game.scores),
        "outcome": game.outcome.to_dict() if game.outcome else None,
        "events_count": len(game.events),
        "undos": game.setup.get("undos", 0),
    }
    if seat is not None:
        state["view"] = game.view(seat).to_dict()
        state["can_undo"] = game.undo_point(seat) is not None
    return state


class Session:
    """One page's engine: the game in progress and its computer players."""

    def __init__(self) -> None:
        self.game: Game | None = None
        self.computers: dict[tuple[int, str], ComputerPlayer] = {}
        # the last game's review, by (save, seat, lang): asked deal by deal, then whole
        self.game_review: tuple[tuple[str, int, str], GameReview] | None = None
        self.viewer: int | None = None  # the seat whose person is at the device
        self.peer: Host | Guest | None = None  # a game with a friend on another device

    def viewer_of(self, request: Request) -> int | None:
        """The seat whose view a reply carries: the request's, else the session's viewer."""
        seat = seat_of(request)
        return self.viewer if seat is None else seat

    def look_from(self, game: Game, seat: int | None) -> None:
        """Make ``seat`` (a seat of ``game``, or None: nobody) the viewer."""
        if seat is not None and not 0 <= seat < game.players:
            raise ProtocolError("bad-request", f"There is no seat {seat}.")
        self.viewer = seat

    def call(self, name: str, text: str = "{}") -> str:
        """Answer one call: ``name`` is an endpoint, ``text`` a JSON object. Never raises."""
        try:
            handler = ENDPOINTS.get(name)
            if handler is None:
                raise ProtocolError("bad-request", f"There is no endpoint {name!r}.")
            request = json.loads(text or "{}")
            if not isinstance(request, dict):
                raise ProtocolError("bad-request", "The request must be a JSON object.")
            return json.dumps({"ok": True, "result": handler(self, request)})
        except json.JSONDecodeError as error:
            return error_reply(ProtocolError("bad-request", f"The request is not JSON: {error}"))
        except Exception as error:  # noqa: BLE001 - the page must always get an answer
            return error_reply(error)

    # --- the game ----------------------------------------------------------

    def require_game(self) -> Game:
        if self.game is None:
            raise ProtocolError("no-game", "Start a game first.")
        return self.game

    def start(self, game: Game) -> None:
        self.game = game
        self.computers.clear()

    def begin(self, game: Game, request: Request) -> dict[str, Any]:
        """A new or loaded game's first update: its state, save, a view and a proof."""
        self.look_from(game, seat_of(request))
        result = game_state(game, seat_of(request))
        result["save"] = game.to_json()
        if request.get("proof") is True:
            result["proof"] = deal_proofs(game)
        return result

    def update(self, game: Game, move: Move, before: int, request: Request) -> dict[str, Any]:
        """Everything the page needs after a move: state, events, save, a view, a proof."""
        result = game_state(game)
        result["move"] = str(move)
        seat = self.viewer_of(request)
        if seat is not None:
            result["can_undo"] = game.undo_point(seat) is not None
        result["events"] = [event.to_dict() for event in game.events[before:]]
        result["save"] = game.to_json()
        if seat is not None:
            result["view"] = game.view(seat).to_dict(events_from_of(request, before))
        if request.get("proof") is True:
            result["proof"] = deal_proofs(game)
        return result

    def apply(self, move: Move, request: Request) -> dict[str, Any]:
        game = self.require_game()
        before = len(game.events)
        game.apply(move)
        return self.update(game, move, before, request)

    def computer(self, seat: int, level: str) -> ComputerPlayer:
        """The computer of ``level`` in ``seat`` (kept for the whole game: it remembers)."""
        key = (seat, level)
        if key not in self.computers:
            self.computers[key] = make_player(level)
        return self.computers[key]

    def computer_choice(self, level: str) -> Move:
        """The move a computer of ``level`` makes for the player to move."""
        game = self.require_game()
        moves = game.legal_moves()
        seat = game.current_player
        if seat is None or not moves:
            raise ProtocolError("bad-request", "Nobody is to move.")
        if len(moves) == 1:  # a cut or a forced go: no decision to make
            return moves[0]
        return computer_move(self.computer(seat, level), game.view(seat))


def hello(session: Session, request: Request) -> dict[str, Any]:
    """Versions, the levels on offer, the endpoints' names and the rule options.

    ``options.variants`` says, for each number of cards dealt (``"6"``, ``"5"``,
    ``"7"``), the players and targets it allows (the first target is its own).
    """
    return {"engine": __version__, "python": sys.version.split()[0],
            "levels": list(LEVELS), "endpoints": list(ENDPOINTS),
            "options": {"players": list(PLAYER_COUNTS), "target": list(TARGETS),
                        "skunk": list(SKUNK_RULES), "cards": list(CARD_COUNTS),
                        "variants": variants()}}


def new_game(session: Session, request: Request) -> dict[str, Any]:
    """Start a game from rules and a seed, or from a scripted deal."""
    rules = Rules.from_dict(request.get("rules") or {})
    scripted = request.get("scripted")
    if scripted is not None:
        if not isinstance(scripted, dict):
            raise ProtocolError("bad-request", "'scripted' must be an object.")
        game = Game.scripted(rules, **scripted)
    else:
        game = Game.new(rules, seed=request.get("seed"), first_dealer=request.get("first_dealer"))
    result = session.begin(game, request)
    session.start(game)
    return result


def state(session: Session, request: Request) -> dict[str, Any]:
    """The current game's state, with a seat's view when asked."""
    return game_state(session.require_game(), seat_of(request))


def events_from_of(request: Request, default: int = 0) -> int:
    """The request's ``events_from`` (where in the game's log the reply's events start)."""
    events_from = request.get("events_from", default)
    if type(events_from) is not int or events_from < 0:
        raise ProtocolError("bad-request", "'events_from' must be a number >= 0.")
    return events_from


def view(session: Session, request: Request) -> dict[str, Any]:
    """What one seat may know."""
    game = session.require_game()
    seat = seat_of(request, required=True)
    assert seat is not None
    return game.view(seat).to_dict(events_from_of(request))


def hand_off(session: Session, request: Request) -> dict[str, Any]:
    """The device passes to the person in ``seat``: the viewer changes, and the reply
    carries that seat's view (events from ``events_from``), the state and the save.

    >>> session = Session()
    >>> _ = session.call("new_game", '{"seed": 5, "first_dealer": 0, "seat": 0}')
    >>> reply = json.loads(session.call("hand_off", '{"seat": 1, "events_from": 1}'))["result"]
    >>> reply["view"]["seat"], session.viewer, reply["events_count"], reply["view"]["events"]
    (1, 1, 1, [])
    """
    game = session.require_game()
    seat = seat_of(request, required=True)
    assert seat is not None
    events_from = events_from_of(request)
    session.look_from(game, seat)
    result = game_state(game, seat)
    result["view"] = game.view(seat).to_dict(events_from)
    result["save"] = game.to_json()
    if request.get("proof") is True:
        result["proof"] = deal_proofs(game)
    return result


def legal_moves(session: Session, request: Request) -> dict[str, Any]:
    """The moves the player to move may make, as text."""
    game = session.require_game()
    return {"player": game.current_player, "moves": [str(m) for m in game.legal_moves()]}


def apply_move(session: Session, request: Request) -> dict[str, Any]:
    """Apply one move given as text; the update the page redraws and saves from."""
    text = request.get("move")
    if not isinstance(text, str):
        raise ProtocolError("bad-request", "'move' must be move text such as 'play 5S'.")
    session.require_game()
    return session.apply(Move.parse(text), request)


def computer_move_endpoint(session: Session, request: Request) -> dict[str, Any]:
    """Let the player to move move as a computer of ``level``."""
    level = request.get("level", "standard")
    if level not in LEVELS:
        raise ProtocolError("bad-request",
                            f"Unknown level {level!r}; use one of {', '.join(LEVELS)}.")
    return session.apply(session.computer_choice(level), request)


def save(session: Session, request: Request) -> dict[str, Any]:
    """The game as text the page can keep."""
    return {"save": session.require_game().to_json()}


def load(session: Session, request: Request) -> dict[str, Any]:
    """Resume a saved game (a corrupt save changes nothing)."""
    text = request.get("save")
    if not isinstance(text, str):
        raise ProtocolError("bad-request", "'save' must be the text save() returned.")
    game = Game.from_json(text)
    result = session.begin(game, request)
    session.start(game)
    return result


def undo(session: Session, request: Request) -> dict[str, Any]:
    """Take back the seat's last choice in this deal; answered like ``load``."""
    game = session.require_game()
    seat = seat_of(request, required=True)
    assert seat is not None
    back = game.undo(seat)
    result = session.begin(back, request)  # the view holds every event, as after load
    session.start(back)
    return result


def resign(session: Session, request: Request) -> dict[str, Any]:
    """The seat concedes the game; the update of a move."""
    game = session.require_game()
    seat = seat_of(request, required=True)
    assert seat is not None
    before = len(game.events)
    game.resign(seat)
    return session.update(game, Move("pass"), before, request) | {"move": "resign"}


def advise(session: Session, request: Request) -> dict[str, Any]:
    """The coach's ranked discards or cards for a seat whose turn it is."""
    seat = seat_of(request, required=True)
    assert seat is not None
    lang = request.get("lang", "en")
    if not isinstance(lang, str):
        raise ProtocolError("bad-request", "'lang' must be a language code.")
    return coach_advice(session.require_game().view(seat), lang)


def review(session: Session, request: Request) -> dict[str, Any]:
    """The coach's review of one seat's decisions in a deal."""
    game = session.require_game()
    seat = seat_of(request, required=True)
    assert seat is not None
    if not 0 <= seat < game.players:
        raise ProtocolError("bad-request", f"There is no seat {seat}.")
    return review_deal(game, seat, request.get("deal"))


def review_game(session: Session, request: Request) -> dict[str, Any]:
    """Grade every decision of a seat in the session's game, or in the given save;
    with ``deal``, one deal's decisions."""
    text = request.get("save")
    if text is not None and not isinstance(text, str):
        raise ProtocolError("bad-request", "'save' must be the text save() returned.")
    game = Game.from_json(text) if text is not None else session.require_game()
    seat = seat_of(request, required=True)
    assert seat is not None
    if not 0 <= seat < game.players:
        raise ProtocolError("bad-request", f"There is no seat {seat}.")
    lang = request.get("lang", "en")
    if not isinstance(lang, str):
        raise ProtocolError("bad-request", "'lang' must be a language code.")
    key = (game.to_json(), seat, lang)
    if session.game_review is None or session.game_review[0] != key:
        session.game_review = (key, GameReview(game, seat, lang))
    review = session.game_review[1]
    deal = request.get("deal")
    if deal is None:
        return review.report()
    if type(deal) is not int or deal not in review.deal_numbers():
        raise ProtocolError("bad-request", f"'deal' must be a deal of this game (1 to "
                            f"{review.deals}).")
    return {"deal": deal, "deals": review.deals, "decisions": review.deal(deal)}


def replay(session: Session, request: Request) -> dict[str, Any]:
    """A saved or shared game step by step, as one seat may see it."""
    if ("save" in request) == ("link" in request):
        raise ProtocolError("bad-request", "Give either 'save' or 'link'.")
    if "link" in request:
        game, seat = read_link(request["link"])
    else:
        game = read_save(request["save"])
        seat = request.get("seat", 0)
    return replay_steps(game, seat)


def deal_proof(session: Session, request: Request) -> dict[str, Any]:
    """Commitments to the decks before they are dealt, and their secrets after."""
    return deal_proofs(session.require_game())


@cache
def _distribution(cards: int = 6) -> dict[str, Any]:
    from .stats import score_distribution

    hand = score_distribution(Rules(cards=cards).hand_size)["hand"]
    crib = score_distribution()["crib"]  # every variant's crib has four cards
    top = max(max(hand), max(crib))
    return {"total": sum(hand.values()), "crib_total": sum(crib.values()),
            "hand": [hand[points] for points in range(top + 1)],
            "crib": [crib[points] for points in range(top + 1)]}


def board(request: Request) -> dict[str, Any]:
    """The board's facts for a game of ``rules``, as a view gives them once it is dealt.

    >>> board({"rules": {"players": 4}})
    {'target': 121, 'teams': 2, 'team_of': [0, 1, 0, 1], 'skunk_lines': [91, 61]}
    """
    rules = Rules.from_dict(request.get("rules") or {})
    return {"target": rules.target, "teams": rules.teams,
            "team_of": [rules.team_of(seat) for seat in range(rules.players)],
            "skunk_lines": rules.skunk_lines}


def hand_distribution(request: Request) -> dict[str, Any]:
    """The distribution of show scores over every hand of a variant (cached)."""
    cards = request.get("cards", 6)
    if type(cards) is not int or cards not in CARD_COUNTS:
        raise ProtocolError("bad-request", "'cards' must be 5, 6 or 7.")
    return _distribution(cards)


def puzzle(request: Request) -> dict[str, Any]:
    """The day's (or a practice) puzzle (imported on first use: no cost at start-up)."""
    from .puzzles import puzzle as make_puzzle

    return make_puzzle(request)


def drill(request: Request) -> dict[str, Any]:
    """A counting drill's hand by level (imported on first use)."""
    from .drills import drill as make_drill

    return make_drill(request)


def stateless(function: Callable[[Request], dict[str, Any]]) -> Callable[
        [Session, Request], dict[str, Any]]:
    """An endpoint that needs no game (the widgets' calls)."""
    return lambda session, request: function(request)


ENDPOINTS: dict[str, Callable[[Session, Request], Any]] = {
    "hello": hello,
    "new_game": new_game,
    "state": state,
    "view": view,
    "legal_moves": legal_moves,
    "apply_move": apply_move,
    "computer_move": computer_move_endpoint,
    "save": save,
    "load": load,
    "advise": advise,
    "review": review,
    "review_game": review_game,
    "replay": replay,
    "undo": undo,
    "hand_off": hand_off,
    "resign": resign,
    "deal_proof": deal_proof,
    "score": stateless(score),
    "show_score": stateless(show_score),
    "peg_sequence": stateless(peg_sequence),
    "deal_steps": stateless(deal_steps),
    "board": stateless(board),
    "hand_distribution": stateless(hand_distribution),
    "puzzle": stateless(puzzle),
    "drill": stateless(drill),
    **PEER_ENDPOINTS,
}
"""Every endpoint by name (the page's client takes these names from ``hello``)."""

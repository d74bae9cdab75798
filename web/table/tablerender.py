"""Drawing the table from the state (MicroPython, main thread).

Each function draws one part of the table from a :class:`tablestate.TableState`
into a :class:`dom.Dom`: no engine calls, no waiting, no rule knowledge (the
view says whose turn it is, what is legal, who partners whom).
"""

import handoffview
import shell
import tableview
from pyscript import document, window
from pyscript.ffi import to_js


def render(dom, state):
    """Draw the whole table from the view of the person at the device."""
    words = state.words
    phase = state.view["phase"]
    dom.table.setAttribute("data-phase", "handoff" if state.handing_off is not None
                           else shell.table_phase(phase, state.view.get("claim")))
    dom.part(".table-header [data-action=new-game]").hidden = phase == "over"
    dom.part(".table-header [data-action=review-game]").hidden = not decided(state)
    render_opponents(dom, state)
    render_scores(dom, state)
    render_centre(dom, state)
    render_hand(dom, state)
    render_actions(dom, state)
    render_claim(dom, state)
    set_text(dom.status, shell.status_text(words, state.view, state.names, state.cuts_fresh,
                                           state.claim_events, state.viewer))


def decided(state):
    """Whether a person at the device has made a decision the review can grade (their
    first discard): Review game is offered from then on."""
    persons = handoffview.people(state.settings)
    return any(event["kind"] == "discard" and event["seat"] in persons
               for event in state.coach.game_events)


def fill(dom, state, selector, markup):
    """Write ``markup`` into the table's region ``selector`` only if it is not what the region
    shows already (tablestate.Regions): a move redraws what it changed, and the elements of
    the rest (a focused button among them) stay as they are. True if it was written."""
    if not state.regions.changed(selector, markup):
        return False
    dom.part(selector).innerHTML = markup
    return True


def set_text(element, text):
    """Change an element's text only if it changed (a live region then speaks once)."""
    if element.textContent != text:
        element.textContent = text


def render_claim(dom, state):
    """The last claim of manual counting and, once settled, its true breakdown in words."""
    lines = []
    events = state.coach.game_events
    if state.manual_counting() and state.view["phase"] != "over" and events:
        deal, lines = tableview.claim_lines(state.words, events, state.names, state.you)
        showing = state.showing is not None and state.showing["deal"] == deal
        if deal != events[-1]["deal"] and not showing:
            lines = []  # the claims of a deal whose show is over
    if fill(dom, state, ".claim-panel", "".join("<p>" + tableview.html(line) + "</p>"
                                                 for line in lines)):
        dom.part(".claim-panel").hidden = not lines


def show_play(dom, state, event):
    """Lay a played card on the pile, its points called beside it, and show its count before
    its points are said, so the announcement never runs ahead of the pile (31 with 29
    still showing). Only the new card is drawn; a finished pile (31, a go) stays on the
    felt until this card starts a new one."""
    if event.get("count") is None or not event.get("cards"):
        return
    fresh = state.lay(event)
    pile = dom.part(".pile")
    laid_at_once = pile.querySelector(".played[data-pending]")  # lay_at_once's copy
    if laid_at_once is not None:
        laid_at_once.remove()
    if fresh:
        pile.innerHTML = ""
    pile.insertAdjacentHTML("beforeend", tableview.played_html(
        state.words, state.names[event["seat"]], state.pile[-1]))
    state.pile_drawn = pile_key(state)
    draw_count(dom, state, event["count"], False)


def lay_at_once(dom, state, code):
    """The card the person at the device plays, on the pile the moment it is chosen (a
    card the view offers them), before the engine's reply draws it again with its count
    and points (show_play). A new series (the view's count is 0) clears a finished pile
    first. Returns whether it was laid (the card was in the hand)."""
    button = dom.part('.seat-human button.card[data-card="' + code + '"]')
    if button is None:
        return False
    pile = dom.part(".pile")
    if state.view.get("count") == 0:
        pile.innerHTML = ""
    button.remove()
    state.regions.forget(".seat-human .hand")
    pile.insertAdjacentHTML("beforeend", tableview.played_html(
        state.words, state.names[state.viewer], {"card": code, "calls": []}, pending=True))
    return True


def discard_at_once(dom, state, codes):
    """The cards the person at the device sends to the crib: gone from the hand to the crib
    the moment they are sent, the rest of the hand and Send off, before the engine's reply
    draws the table again (a refused move redraws the regions forgotten here). Returns
    whether they were laid (each card was in the hand)."""
    buttons = [dom.part('.seat-human button.card[data-card="' + code + '"]') for code in codes]
    if not buttons or any(button is None for button in buttons):
        return False
    for button in buttons:
        button.remove()
    for card in dom.table.querySelectorAll(".seat-human button.card"):
        card.disabled = True
    crib = dom.part(".crib-spot .crib-cards")
    if crib is not None:
        crib.innerHTML = tableview.backs_html(min(state.view["crib_size"] + len(codes), 4))
    press_at_once(dom, state, "send")
    state.regions.forget(".seat-human .hand", ".crib-spot")
    return True


def press_at_once(dom, state, action):
    """A button pressed (Send, Go) is off at once, before the engine's reply redraws the
    actions (written whole: a refused move turns it on again)."""
    pressed = dom.part('.actions button[data-action="' + action + '"]')
    if pressed is not None:
        pressed.disabled = True
    state.regions.forget(".actions")


def call_points(dom, state, event):
    """Points pegged after the last card laid (a go, the last card, a claimed card's
    points): called beside that card on the pile, which stays while they are read."""
    state.call(event)
    last = dom.part(".pile .played:last-child")
    if last is not None and state.pile:
        last.outerHTML = tableview.played_html(state.words, state.names[state.pile[-1]["seat"]],
                                               state.pile[-1])
        state.pile_drawn = pile_key(state)


def pile_key(state):
    """What the pile on the felt shows, to draw it again only when that changes."""
    return ",".join(entry["card"] + str(len(entry["calls"])) for entry in state.pile)


def draw_pile(dom, state):
    """The whole pile from the state (a reload, a language, a deal): only if it changed."""
    if state.pile_drawn == pile_key(state):
        return
    words = state.words
    dom.part(".pile").innerHTML = "".join(
        tableview.played_html(words, state.names[entry["seat"]], entry) for entry in state.pile)
    state.pile_drawn = pile_key(state)


def draw_count(dom, state, count, finished):
    """The count in large type beside the pile (empty for None); a finished pile's count
    (31, a go) stays with it until the next card is led."""
    text = "" if count is None else state.words.markup(
        "count", {"count": "<b>" + str(count) + "</b>"})
    if fill(dom, state, ".count", text):
        dom.part(".count").setAttribute("data-count", "" if count is None else str(count))
    dom.part(".play-area").toggleAttribute("data-finished", finished)


def clear_play(dom, state):
    """Take the last deal's pile, count and announcement off the table (the show and
    the next deal must not show them)."""
    state.pile, state.pile_count = [], 0
    draw_pile(dom, state)
    draw_count(dom, state, None, False)
    dom.part(".announce").innerHTML = ""


def render_scores(dom, state):
    """The scores in the players' panels as the pegs show them (they catch up with the
    engine's as events are taken in and the show is revealed); in place, so a peg's
    move changes two figures, not the panels."""
    target = state.rules()["target"]
    for figure in dom.table.querySelectorAll(".felt .player-score"):
        team = int(figure.getAttribute("data-team"))
        points = state.pegs[team][0]
        number = figure.querySelector("b")
        set_text(number, str(points))
        if number.hasAttribute("data-score"):
            number.setAttribute("data-score", str(points))
        set_text(figure.querySelector(".to-go"), tableview.to_go_text(state.words, points, target))


def player_panel(state, seat, keyed, cutting):
    """A seat's panel (tableview.player_html) from the state: whose turn, who deals."""
    words = state.words
    persons = handoffview.people(state.settings)
    level = "" if seat in persons else tableview.level_name(
        words, tableview.computer_level(state.settings, seat))
    extra = ""
    if seat in state.view["said_go"]:
        extra = '<span class="bubble">' + tableview.html(words.t("bubble.go")) + "</span>"
    team = state.team_of(seat)
    return tableview.player_html(words, {
        "name": state.names[seat], "level": level, "team": team,
        "points": state.pegs[team][0], "keyed": keyed, "extra": extra,
        "dealer": state.view["dealer"] == seat and not cutting,
        "turn": (state.view["current_player"] == seat and state.view["phase"] != "over"
                 and state.showing is None and state.handing_off is None)},
        state.rules()["target"])


def render_opponents(dom, state):
    """Every player's panel (yours first: the scores' ``data-score`` in seat order from
    you, one a score), the others' hands as fans, and the cut cards while they show."""
    players = state.view["rules"]["players"]
    pieces = []
    cutting = state.view["phase"] == "cut"  # nobody deals before the cut decides it
    keyed = {state.team_of(state.viewer)}
    for place, seat in enumerate(handoffview.seat_order(state.viewer, players)):
        team = state.team_of(seat)
        pieces += [('<div class="opponent" data-seat="' + str(seat) + '" data-place="'
                    + str(place + 1) + '">', None),
                   (player_panel(state, seat, team not in keyed, cutting),
                    '.opponent[data-seat="' + str(seat) + '"] > .player'),
                   ('<div class="hand small" data-size="' + str(state.view["hand_sizes"][seat])
                    + '">' + seat_cards(state, seat) + "</div>" + cut_card(state, seat)
                    + "</div>", None)]
        keyed.add(team)
    if fill_around(dom, state, ".opponents", pieces):
        # the CSS seats them by position
        dom.part(".opponents").setAttribute("data-players", str(players))
    fill_around(dom, state, ".felt .you", [
        (player_panel(state, state.viewer, True, cutting), ".felt .you > .player"),
        (cut_card(state, state.viewer), None)])


def fill_around(dom, state, selector, pieces):
    """Draw region ``selector`` from ``pieces``, each ``(markup, None)`` or ``(markup,
    panel)``, a player's panel found by the selector ``panel``: the whole region when
    anything else in it changed, else only the panels that changed (whose turn it is
    moves two panels, and the hands beside them stay). True if written whole."""
    frame = "".join(markup if panel is None else "|" + panel for markup, panel in pieces)
    if state.regions.changed(selector, frame):  # the region's key holds all but the panels
        dom.part(selector).innerHTML = "".join(markup for markup, panel in pieces)
        for markup, panel in pieces:
            if panel is not None:
                state.regions.changed(panel, markup)
        return True
    for markup, panel in pieces:
        if panel is not None and state.regions.changed(panel, markup):
            dom.part(panel).outerHTML = markup
    return False


def seat_cards(state, seat):
    """Another seat's cards: face down, or face up while its claimed hand is counted
    (manual counting: the hand being settled is public, as the view's ``shown`` says)."""
    shown = state.view["shown"].get("hand:" + str(seat))
    if shown and state.view["phase"] in ("count", "muggins"):
        return "".join(tableview.card_html(state.words, code) for code in shown)
    return tableview.backs_html(state.view["hand_sizes"][seat])


def cut_card(state, seat):
    """The card a seat cut for the first deal, labelled as a cut, while the cut is on
    the table (in the discard only during the pause that shows who cut lowest)."""
    words = state.words
    if state.view["phase"] != "cut" and not state.cut_pause:
        return ""
    cards = [event["cards"][0] for event in state.cut_events if event["seat"] == seat]
    if not cards:
        return ""
    return ('<span class="cut-card"><small>' + tableview.html(words.t("cut.label")) + "</small>"
            + tableview.card_html(words, cards[-1]) + "</span>")


def render_centre(dom, state):
    words = state.words
    starter = state.view["starter"]
    fill(dom, state, ".starter", tableview.card_html(words, starter) if starter else "")
    in_play = shell.table_phase(state.view["phase"], state.view.get("claim")) == "play"
    finished = in_play and state.pile_finished()
    count = (state.pile_count if finished else state.view["count"]) if in_play else None
    draw_count(dom, state, count, finished)
    draw_pile(dom, state)
    dealer = state.view["dealer"]
    crib_owner = "" if state.view["phase"] == "cut" else crib_name(state, dealer)
    backs = tableview.backs_html(min(state.view["crib_size"], 4))
    fill(dom, state, ".crib-spot", '<div class="crib-cards">' + backs + '</div><small>'
         + tableview.html(crib_owner) + "</small>")


def render_hand(dom, state):
    words = state.words
    phase = state.view["phase"]
    legal = state.view["legal_moves"]
    cards = []
    if state.handing_off is not None:  # nobody's cards while the device changes hands
        fill(dom, state, ".seat-human .hand", "")
        return
    for number, code in enumerate(state.view["hand"]):
        keys = ' aria-keyshortcuts="' + str(number + 1) + '"'
        if phase == "discard":
            enabled = not state.view["discards"]  # chosen while others choose theirs
            cards.append(tableview.card_html(words, code, "pick", enabled, code in state.selected,
                                             keys=keys))
        else:
            cards.append(tableview.card_html(words, code, "play", ("play " + code) in legal,
                                             keys=keys))
    if phase in ("count", "muggins") or (phase == "play" and not state.view["hand"]):
        cards = [tableview.card_html(words, code) for code in state.view["kept"]]
    if fill(dom, state, ".seat-human .hand", "".join(cards)):
        # seven cards are drawn narrower
        dom.part(".seat-human .hand").setAttribute("data-size", str(len(cards)))


def mark_selected(dom, state):
    """Show which cards are picked for the crib on the buttons already drawn."""
    state.regions.forget(".seat-human .hand")  # its buttons changed in place
    for card in dom.table.querySelectorAll(".seat-human button.card[data-action=pick]"):
        chosen = card.getAttribute("data-card") in state.selected
        if chosen:
            card.classList.add("selected")
        else:
            card.classList.remove("selected")
        card.setAttribute("aria-pressed", "true" if chosen else "false")


def crib_name(state, dealer):
    """``Your crib`` or ``Computer's crib``."""
    words = state.words
    if dealer == state.you:
        return words.t("crib.mine")
    return words.t("crib.theirs", {"who": state.names[dealer]})


SHORTCUTS = {"go": "G", "continue": "Enter", "undo": "U", "hint": "H"}


def button(words, action, key, enabled=True, quiet=False):
    """An action button labelled in the page's language (``data-action`` stays English)."""
    keys = ' aria-keyshortcuts="' + SHORTCUTS[action] + '"' if action in SHORTCUTS else ""
    return ('<button type="button"' + (' class="quiet"' if quiet else "") + ' data-action="'
            + action + '"' + keys + ("" if enabled else " disabled") + ">"
            + tableview.html(words.t("button." + key)) + "</button>")


def render_actions(dom, state):
    words = state.words
    phase = state.view["phase"]
    mine = state.my_turn()
    legal = state.view["legal_moves"]
    buttons = []
    if phase in ("cut", "starter") and mine:
        buttons.append(button(words, "cut", "cut"))
    if phase == "discard":
        need = state.view["discards_each"]
        buttons.append(button(words, "send", "send", mine and len(state.selected) == need))
    if phase in ("discard", "play") and mine and legal != ["go"]:
        buttons.append(button(words, "hint", "hint", quiet=True))
    if phase in ("discard", "play") and mine and state.can_undo:
        buttons.append(button(words, "undo", "undo", quiet=True))
    if phase == "play" and mine and "go" in legal and not state.auto_going:
        # Only when the engine says going is the player's move, and the table is not
        # saying it for them (the auto Go option).
        buttons.append(button(words, "go", "go"))
    if phase in ("count", "peg_count") and mine:
        buttons.append('<label class="claim">' + tableview.html(words.t("button.points"))
                       + ' <input type="number" name="points" min="0" max="'
                       + str(state.view.get("max_claim", 29)) + '" value="0" '
                       'inputmode="numeric"></label>' + button(words, "count", "count"))
    if phase == "muggins" and mine:
        buttons.append(button(words, "muggins", "muggins") + button(words, "pass", "accept"))
    fill(dom, state, ".actions", "".join(buttons))


def move_pegs(state, team, points):
    """Peg ``points`` for ``team``: the back peg leapfrogs the front one (only it moves)."""
    front, back = state.pegs[team]
    moved = window.cribbageBoard.leapfrog(front, back, front + points)
    state.pegs[team] = [int(moved[0]), int(moved[1])]
    draw_pegs(state, team)


def draw_pegs(state, team):
    """Move ``team``'s pegs on the board to where ``state`` has them (the board's module,
    web/views/pegboard.mjs, trades the two when one leapfrogs the other, and moves the
    score's tag with the front one)."""
    board = document.querySelector("svg.pegboard")
    if board:
        front, back = state.pegs[team]
        window.cribbageBoard.placePegs(board, team, front, back)


def log(dom, text, kind=None):
    """One line of the game log (``kind``: the event's, so each deal's first line is a
    heading)."""
    item = document.createElement("li")
    item.textContent = text
    if kind:
        item.setAttribute("data-kind", kind)
    lines = dom.part(".log-lines")
    lines.append(item)
    if lines.parentElement.open:  # a closed drawer is scrolled as it opens (TableGame.run)
        scroll_log(dom)


def scroll_log(dom):
    """The log's last line in view. Reading its height lays the page out at once, so it is
    done only while the drawer is open, not for each event of a move."""
    lines = dom.part(".log-lines")
    lines.scrollTop = lines.scrollHeight


def relog(dom, state, events):
    """Write the whole log again (the language changed), in one DOM update."""
    words = state.words
    lines = dom.part(".log-lines")
    lines.innerHTML = "".join(
        '<li data-kind="' + tableview.html(event["kind"]) + '">'
        + tableview.html(tableview.event_text(words, event, state.names, state.you))
        + "</li>"
        for event in events)
    scroll_log(dom)


def draw_board(dom, state):
    """The peg board with named tracks, the pegs where the scores stand."""
    lines = state.view["skunk_lines"] if state.view else []
    paint_board(dom, state.words, state.rules()["target"], state.sides, lines, state.pegs)


def paint_board(dom, words, target, sides, lines, pegs=None):
    """A board to ``target`` with a lane per name of ``sides`` (pegs at the start if None),
    and its column sized to it (a landscape table: the board stands up the column's
    height, the column is as wide as that board and the felt takes the rest)."""
    options = tableview.board_options(words, target, sides, lines, pegs)
    window.cribbageBoard.drawBoard(dom.part(".board"), to_js(options))
    dom.table.style.setProperty("--board-ratio", window.cribbageBoard.boardRatio(target,
                                                                                 len(sides)))


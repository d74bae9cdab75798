"""Drawing the table from the human seat's view (MicroPython, main thread).

Reads the shared state in tablestate.py; no engine calls and no waiting here.
"""

import pegboard
import shell
import tablestate as st
import tableview
from pyscript import document
from tablestate import part


def render():
    """Draw the whole st.table from the human's st.view."""
    phase = st.view["phase"]
    st.table.setAttribute("data-phase", shell.table_phase(phase))
    part(".table-header [data-action=new-game]").hidden = phase == "over"
    render_scores()
    render_opponents()
    render_centre()
    render_hand()
    render_actions()
    st.status.textContent = status_line()


def render_scores():
    """The st.scores as the st.pegs show them (they catch up with the engine's as events
    are taken in and the show is revealed)."""
    players = st.view["rules"]["players"]
    parts_html = []
    for team, name in enumerate(tableview.score_names(players)):
        points = str(st.pegs[team][0])
        parts_html.append('<span class="score team-' + str(team) + '">' + tableview.html(name)
                          + ' <b data-score="' + points + '">' + points + "</b></span>")
    st.scores.innerHTML = "".join(parts_html)


def render_opponents():
    players = st.view["rules"]["players"]
    panels = []
    for seat in range(1, players):
        marks = ""
        if st.view["dealer"] == seat:
            marks += '<span class="dealer-mark" title="Dealer">D</span>'
        if seat in st.view["said_go"]:
            marks += '<span class="bubble">Go!</span>'
        turn = " turn" if st.view["current_player"] == seat else ""
        level = tableview.computer_level(st.settings, seat)
        panels.append('<div class="opponent' + turn + '" data-seat="' + str(seat) + '">'
                      + '<div class="seat-name">' + tableview.html(st.names[seat]) + " <small>"
                      + level + "</small>" + marks + "</div>"
                      + '<div class="hand small">'
                      + tableview.backs_html(st.view["hand_sizes"][seat]) + "</div>"
                      + cut_card(seat) + "</div>")
    part(".opponents").innerHTML = "".join(panels)
    human = part(".seat-human .seat-name")
    human_marks = ""
    if st.view["dealer"] == st.HUMAN:
        human_marks = ' <span class="dealer-mark" title="Dealer">D</span>'
    human.innerHTML = "You" + human_marks + cut_card(st.HUMAN)


def cut_card(seat):
    """The card a seat cut for the first deal, while the cut is on the st.table."""
    if st.view["phase"] != "cut" and not st.cuts_fresh:
        return ""
    cards = [event["cards"][0] for event in st.cut_events if event["seat"] == seat]
    if not cards:
        return ""
    return '<span class="cut-card">' + tableview.card_html(cards[-1]) + "</span>"


def render_centre():
    starter = st.view["starter"]
    part(".starter").innerHTML = tableview.card_html(starter) if starter else ""
    count = st.view["count"]
    in_play = st.view["phase"] == "play"
    part(".count").textContent = ("Count " + str(count)) if in_play else ""
    played, pile_cards = st.view["played"], st.view["pile"]
    pile_seats = [seat for seat, _ in played[len(played) - len(pile_cards):]]
    pile = []
    for seat, code in zip(pile_seats, st.view["pile"]):
        pile.append('<span class="played" title="' + tableview.html(st.names[seat]) + '">'
                    + tableview.card_html(code) + "</span>")
    part(".pile").innerHTML = "".join(pile)
    dealer = st.view["dealer"]
    crib_owner = "Your crib" if dealer == st.HUMAN else st.names[dealer] + "'s crib"
    part(".crib-spot").innerHTML = ('<div class="crib-cards">' + tableview.backs_html(
        min(st.view["crib_size"], 4)) + '</div><small>' + tableview.html(crib_owner) + "</small>")


def render_hand():
    phase = st.view["phase"]
    legal = st.view["legal_moves"]
    cards = []
    for code in st.view["hand"]:
        if phase == "discard":
            enabled = st.view["current_player"] == st.HUMAN
            cards.append(tableview.card_html(code, "pick", enabled, code in st.selected))
        else:
            cards.append(tableview.card_html(code, "play", ("play " + code) in legal))
    if phase in ("count", "muggins") or (phase == "play" and not st.view["hand"]):
        cards = [tableview.card_html(code) for code in st.view["kept"]]
    part(".seat-human .hand").innerHTML = "".join(cards)


def render_actions():
    phase = st.view["phase"]
    mine = st.view["current_player"] == st.HUMAN
    legal = st.view["legal_moves"]
    buttons = []
    if phase in ("cut", "starter") and mine:
        buttons.append('<button type="button" data-action="cut">Cut</button>')
    if phase == "discard":
        need = st.view["rules"]["players"] == 2 and 2 or 1
        ready = mine and len(st.selected) == need
        buttons.append('<button type="button" data-action="send"' + ("" if ready else " disabled")
                       + ">Send to crib</button>")
    if phase in ("discard", "play") and mine and legal != ["go"]:
        buttons.append('<button type="button" class="quiet" data-action="hint">Hint</button>')
    if phase == "play":
        can_go = mine and legal == ["go"]
        buttons.append('<button type="button" data-action="go"' + ("" if can_go else " disabled")
                       + ">Go</button>")
    if phase == "count" and mine:
        buttons.append('<label class="claim">Points <input type="number" name="points" min="0" '
                       'max="29" value="0" inputmode="numeric"></label>'
                       '<button type="button" data-action="count">Count</button>')
    if phase == "muggins" and mine:
        buttons.append('<button type="button" data-action="muggins">Muggins!</button>'
                       '<button type="button" data-action="pass">Accept</button>')
    part(".actions").innerHTML = "".join(buttons)


def status_line():
    phase = st.view["phase"]
    seat = st.view["current_player"]
    if phase == "over":
        return "Game over."
    if seat != st.HUMAN:
        who = st.names[seat] if seat is not None else ""
        return who + (" is thinking…" if phase in ("discard", "play") else "…")
    if phase == "cut":
        return "Cut the cards: the lowest card deals."
    if phase == "discard":
        first = ""
        if st.cuts_fresh:
            first = ("You cut lowest and deal. " if st.view["dealer"] == st.HUMAN
                     else st.names[st.view["dealer"]] + " cut lowest and deals. ")
        need = 2 if st.view["rules"]["players"] == 2 else 1
        whose = "your" if st.view["dealer"] == st.HUMAN else st.names[st.view["dealer"]] + "'s"
        return (first + "Choose " + str(need) + " card" + ("s" if need > 1 else "") + " for "
                + whose + " crib.")
    if phase == "starter":
        return "Cut the deck for the starter."
    if phase == "play":
        if st.view["legal_moves"] == ["go"]:
            return "No card fits under 31: say Go."
        return "Your turn: play a card (count " + str(st.view["count"]) + ")."
    if phase == "count":
        crib = "crib" in st.view["shown"] and st.view["dealer"] == st.HUMAN
        counting = "your crib" if crib else "your hand"
        return "Count " + counting + " and enter the points."
    if phase == "muggins":
        claim = [e for e in st.claim_events if e["seat"] != st.HUMAN]
        said = ""
        if claim:
            said = st.names[claim[-1]["seat"]] + " claimed " + str(claim[-1]["count"]) + ". "
        return said + "Did they miss points? Call Muggins! or accept."
    return ""


def move_pegs(team, points):
    front, back = st.pegs[team]
    st.pegs[team] = list(pegboard.leapfrog(front, back, front + points))
    draw_pegs(team)


def draw_pegs(team):
    target = st.view["rules"]["target"] if st.view else st.settings["rules"]["target"]
    tracks = len(st.pegs)
    front, back = st.pegs[team]
    for which, points in (("front", front), ("back", back)):
        peg = document.getElementById("peg-" + str(team) + "-" + which)
        if peg:
            peg.style.transform = pegboard.peg_transform(target, tracks, team, points)


def log(text):
    item = document.createElement("li")
    item.textContent = text
    lines = part(".log-lines")
    lines.append(item)
    lines.scrollTop = lines.scrollHeight

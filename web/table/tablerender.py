"""Drawing the table from the human seat's view (MicroPython, main thread).

Reads the shared state in tablestate.py; no engine calls and no waiting here.
"""

import pegboard
import shell
import tablestate as st
import tableview
from pyscript import document
from shell import t
from tablestate import part


def render():
    """Draw the whole table from the human's view."""
    phase = st.view["phase"]
    st.table.setAttribute("data-phase", shell.table_phase(phase))
    part(".table-header [data-action=new-game]").hidden = phase == "over"
    render_scores()
    render_opponents()
    render_centre()
    render_hand()
    render_actions()
    st.status.textContent = shell.status_text(st.view, st.names, st.cuts_fresh, st.claim_events)


def render_scores():
    """The scores as the pegs show them (they catch up with the engine's as events
    are taken in and the show is revealed)."""
    players = st.view["rules"]["players"]
    parts_html = []
    for team, name in enumerate(tableview.score_names(players)):
        points = str(st.pegs[team][0])
        parts_html.append('<span class="score team-' + str(team) + '">' + tableview.html(name)
                          + ' <b data-score="' + points + '">' + points + "</b></span>")
    st.scores.innerHTML = "".join(parts_html)


def dealer_mark():
    return ('<span class="dealer-mark" title="' + tableview.html(t("dealer.title")) + '">'
            + tableview.html(t("dealer.mark")) + "</span>")


def render_opponents():
    players = st.view["rules"]["players"]
    panels = []
    for seat in range(1, players):
        marks = ""
        if st.view["dealer"] == seat:
            marks += dealer_mark()
        if seat in st.view["said_go"]:
            marks += '<span class="bubble">' + tableview.html(t("bubble.go")) + "</span>"
        turn = " turn" if st.view["current_player"] == seat else ""
        level = tableview.level_name(tableview.computer_level(st.settings, seat))
        panels.append('<div class="opponent' + turn + '" data-seat="' + str(seat) + '">'
                      + '<div class="seat-name">' + tableview.html(st.names[seat]) + " <small>"
                      + tableview.html(level) + "</small>" + marks + "</div>"
                      + '<div class="hand small">'
                      + tableview.backs_html(st.view["hand_sizes"][seat]) + "</div>"
                      + cut_card(seat) + "</div>")
    part(".opponents").innerHTML = "".join(panels)
    human = part(".seat-human .seat-name")
    human_marks = ""
    if st.view["dealer"] == st.HUMAN:
        human_marks = " " + dealer_mark()
    human.innerHTML = tableview.html(st.names[st.HUMAN]) + human_marks + cut_card(st.HUMAN)


def cut_card(seat):
    """The card a seat cut for the first deal, while the cut is on the table."""
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
    part(".count").textContent = t("count", {"count": count}) if in_play else ""
    played, pile_cards = st.view["played"], st.view["pile"]
    pile_seats = [seat for seat, _ in played[len(played) - len(pile_cards):]]
    pile = []
    for seat, code in zip(pile_seats, st.view["pile"]):
        pile.append('<span class="played" title="' + tableview.html(st.names[seat]) + '">'
                    + tableview.card_html(code) + "</span>")
    part(".pile").innerHTML = "".join(pile)
    dealer = st.view["dealer"]
    crib_owner = crib_name(dealer)
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


def crib_name(dealer):
    """``Your crib`` or ``Computer's crib``."""
    if dealer == st.HUMAN:
        return t("crib.mine")
    return t("crib.theirs", {"who": st.names[dealer]})


def button(action, key, enabled=True, quiet=False):
    """An action button labelled in the page's language (``data-action`` stays English)."""
    return ('<button type="button"' + (' class="quiet"' if quiet else "") + ' data-action="'
            + action + '"' + ("" if enabled else " disabled") + ">"
            + tableview.html(t("button." + key)) + "</button>")


def render_actions():
    phase = st.view["phase"]
    mine = st.view["current_player"] == st.HUMAN
    legal = st.view["legal_moves"]
    buttons = []
    if phase in ("cut", "starter") and mine:
        buttons.append(button("cut", "cut"))
    if phase == "discard":
        need = st.view["rules"]["players"] == 2 and 2 or 1
        buttons.append(button("send", "send", mine and len(st.selected) == need))
    if phase in ("discard", "play") and mine and legal != ["go"]:
        buttons.append(button("hint", "hint", quiet=True))
    if phase == "play":
        buttons.append(button("go", "go", mine and legal == ["go"]))
    if phase == "count" and mine:
        buttons.append('<label class="claim">' + tableview.html(t("button.points"))
                       + ' <input type="number" name="points" min="0" max="29" value="0" '
                       'inputmode="numeric"></label>' + button("count", "count"))
    if phase == "muggins" and mine:
        buttons.append(button("muggins", "muggins") + button("pass", "accept"))
    part(".actions").innerHTML = "".join(buttons)


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


def relog(events):
    """Write the whole log again (the language changed), in one DOM update."""
    lines = part(".log-lines")
    lines.innerHTML = "".join("<li>" + tableview.html(tableview.event_text(event, st.names))
                              + "</li>" for event in events)
    lines.scrollTop = lines.scrollHeight


def draw_board(target, players):
    """The peg board with named tracks, the pegs where the scores stand."""
    part(".board").innerHTML = pegboard.board_svg(target, tableview.score_names(players),
                                                  t("board", {"target": target}))
    for team in range(len(st.pegs)):
        draw_pegs(team)

"""The cut and the deal on the felt (MicroPython, main thread): the deck fanned for the
cut, the banner that says who deals, and the short moves of cards dealt and played.

Each move is one Web Animation of at most ``LONGEST`` ms, started after the table is
drawn: nothing waits for it, so input is never held back, and a redraw meanwhile only
ends it early (the card is already where it belongs). None plays at speed 0 (the
dialog's Animations: Off, or ``?speed=0``) nor under ``prefers-reduced-motion``.
"""

from pyscript import window
from pyscript.ffi import to_js

LONGEST = 300  # ms: no move of a card lasts longer, its delay included
DEAL_MS = 180  # one card dealt
DEAL_STAGGER = 16  # ms between two cards dealt (seven cards: 96 + 180 < LONGEST)
PLAY_MS = 200  # a card laid on the pile
SLIDE_MS = 240  # a hand moving to the middle of the felt to be counted
FAN = 9  # card backs in the fanned deck


def moving(speed):
    """Whether cards may move: not at speed 0, nor when the player asks for less motion."""
    if speed <= 0:
        return False
    return not window.matchMedia("(prefers-reduced-motion: reduce)").matches


def draw_deck(dom, state):
    """The deck: fanned while a cut is on (for the deal or the starter), a tap on it
    cutting when the cut is the viewer's (the Cut button stays, for the keyboard and the
    automation contract); a plain pack otherwise."""
    deck = dom.part(".deck")
    view = state.view
    if deck is None:  # a felt drawn without a deck: Cut alone cuts
        return
    cutting = (view is not None and view["phase"] in ("cut", "starter")
               and state.handing_off is None)
    if not cutting:
        if deck.classList.contains("cut-fan"):
            deck.classList.remove("cut-fan")
            deck.removeAttribute("data-action")
            deck.innerHTML = ""
        return
    deck.classList.add("cut-fan")
    if state.my_turn():
        deck.setAttribute("data-action", "cut")  # a pointer's shortcut to the Cut button
        deck.setAttribute("title", state.words.t("button.cut"))  # text, not markup
    else:
        deck.removeAttribute("data-action")
        deck.removeAttribute("title")
    if not deck.innerHTML:
        deck.innerHTML = '<span class="card back"></span>' * FAN  # fanned by start.css


def show_dealer(dom, state):
    """Say big on the felt who deals, while both cut cards are still shown."""
    words = state.words
    dealer = state.view["dealer"]
    text = (words.t("cut.you_deal") if dealer == state.you
            else words.t("cut.deals", {"who": state.names[dealer]}))
    banner = dom.part(".announce")
    if banner is None:
        return
    line = window.document.createElement("span")
    line.className = "cut-banner"
    line.textContent = text
    banner.innerHTML = ""
    banner.append(line)


def clear_dealer(dom):
    """Take the banner of the cut off the felt (other announcements stay)."""
    for banner in dom.table.querySelectorAll(".announce .cut-banner"):
        banner.remove()


def deal_in(dom, speed):
    """The cards of a new deal fly from the deck to each hand, one after the other."""
    if not moving(speed):
        return
    deck = dom.part(".deck") or dom.part(".stock")
    if deck is None:
        return
    start = deck.getBoundingClientRect()
    cards = list(dom.table.querySelectorAll(".seat-human .hand .card, .opponents .hand .card"))
    for index, card in enumerate(cards[:16]):
        fly(card, start, DEAL_MS, min(index * DEAL_STAGGER, LONGEST - DEAL_MS))


def play_in(dom, speed, mine):
    """The card just laid slides onto the pile from the side of whoever played it."""
    if not moving(speed):
        return
    played = dom.table.querySelectorAll(".pile .played")
    if not played.length:
        return
    card = played[played.length - 1]
    rise = "3rem" if mine else "-3rem"
    card.animate(to_js([{"transform": "translateY(" + rise + ") scale(1.08)", "opacity": 0.3},
                        {"transform": "none", "opacity": 1}]),
                 to_js({"duration": PLAY_MS, "easing": "ease-out"}))


def fly(card, start, duration, delay):
    """Move ``card`` from the rectangle ``start`` to where it lies."""
    box = card.getBoundingClientRect()
    dx = start.left + start.width / 2 - (box.left + box.width / 2)
    dy = start.top + start.height / 2 - (box.top + box.height / 2)
    card.animate(to_js([{"transform": "translate(" + str(int(dx)) + "px," + str(int(dy))
                         + "px) scale(0.8)", "opacity": 0.4},
                        {"transform": "none", "opacity": 1}]),
                 to_js({"duration": duration, "delay": delay, "easing": "ease-out",
                        "fill": "backwards"}))

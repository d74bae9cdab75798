"""The show counted on the felt, as markup (pure: MicroPython on the page, CPython in the tests).

Each count of a deal (the pone's hand, the dealer's, then the crib; with three or four
players in the order the engine scored them) is a tab over a panel: the hand at the size
of your own with the starter beside it, and its itemised list. The steps, their cards,
their running totals and every word come from the engine's items through
``cribbage/i18n.py`` (``count_steps``, ``tally_groups``): no rule and no arithmetic here.

>>> event = {"kind": "hand", "seat": 1, "points": 4, "worth": 4, "cards": ["5S", "TH", "2C", "9D"],
...          "items": [{"kind": "fifteen", "cards": ["5S", "TH"], "points": 2},
...                    {"kind": "fifteen", "cards": ["2C", "9D", "4H"], "points": 2}]}
>>> whose(words, event, ["You", "Computer"], 0), tab_name(words, event, ["You", "Computer"])
("Computer's hand", 'Computer')
>>> list_text(list_html(words, event["items"]))
'15 for 2 ×2 = 4'
"""

from shell import escape, i18n
from tableview import card_html, card_words


def whose(words, event, names, you):
    """Whose count a shown event is, in words: ``Your hand``, ``Computer's crib``."""
    seat = event["seat"]
    if event["kind"] == "crib":
        return words.t("crib.mine") if seat == you else words.t("crib.theirs",
                                                                {"who": names[seat]})
    return words.t("show.hand.mine") if seat == you else words.t("show.hand",
                                                                  {"who": names[seat]})


def tab_name(words, event, names):
    """The short name on a count's tab: the hand's owner, or ``Crib``."""
    return words.t("show.crib") if event["kind"] == "crib" else names[event["seat"]]


def tab_html(words, event, index, names, you, selected):
    """A count's tab: whose it is (in full and short: the CSS shows the one that fits) and
    its total (filled in as it is counted).

    >>> html = tab_html(words, {"kind": "crib", "seat": 0}, 2, ["You", "Computer"], 0, True)
    >>> 'role="tab"' in html and 'aria-selected="true"' in html and ">Crib<" in html
    True
    >>> ">Your crib<" in html
    True
    """
    return ('<button type="button" role="tab" class="show-tab" id="show-tab-' + str(index)
            + '" aria-controls="show-hand-' + str(index) + '" aria-selected="'
            + ("true" if selected else "false") + '" tabindex="' + ("0" if selected else "-1")
            + '" data-action="show-tab" data-index="' + str(index) + '"><span class="who long">'
            + escape(whose(words, event, names, you)) + '</span><span class="who short">'
            + escape(tab_name(words, event, names)) + '</span> <b class="show-points"></b>'
            + "</button>")


def panel_html(words, event, index, starter, selected):
    """A count's panel: its cards at the size of your hand, the starter beside them, and
    room for its itemised list (and, in manual counting, the claim).

    >>> html = panel_html(words, {"kind": "hand", "seat": 0, "cards": ["5S", "5H", "6D", "4C"]},
    ...                   0, "JS", True)
    >>> html.count('class="card '), 'data-size="5"' in html, 'aria-labelledby="show-tab-0"' in html
    (5, True, True)
    """
    cards = "".join(card_html(words, code) for code in event["cards"])
    starter_label = words.t("show.starter")
    return ('<div class="show-hand shown" role="tabpanel" id="show-hand-' + str(index)
            + '" aria-labelledby="show-tab-' + str(index) + '" data-kind="' + event["kind"]
            + '" data-seat="' + str(event["seat"]) + '"' + ("" if selected else " hidden") + ">"
            + '<div class="show-cards" data-size="' + str(len(event["cards"]) + 1) + '">'
            + cards + '<span class="show-starter" title="' + escape(starter_label) + '">'
            + card_html(words, starter) + "<small>" + escape(starter_label) + "</small></span>"
            + '</div><p class="show-list"></p></div>')


def list_html(words, items, said=None):
    """The itemised list of a count: every entry with its total once counted (``said``
    None), else the entries of the first ``said + 1`` steps, the last marked as the step
    being said (the chip). Its text is the engine's ``tally`` once counted.

    >>> items = [{"kind": "pair", "cards": ["5S", "5H"], "points": 2},
    ...          {"kind": "run", "cards": ["4C", "5S", "6D"], "points": 3},
    ...          {"kind": "run", "cards": ["4C", "5H", "6D"], "points": 3}]
    >>> list_text(list_html(words, items, 1)), list_text(list_html(words, items))
    ('pair 2 · run of 3', 'pair 2 · run of 3 ×2 = 8')
    >>> 'class="show-item now"' in list_html(words, items, 1)
    True
    >>> list_text(list_html(words, []))
    'nothing = 0'
    """
    lang = words.lang
    steps = i18n.count_steps(items)
    counted = said is None
    if not counted and said < 0:  # nothing said yet
        return ""
    groups = i18n.tally_groups(steps if counted else steps[:said + 1], lang)
    if not groups:
        return '<span class="show-sum">' + escape(i18n.tally([], lang)) + "</span>"
    join = '<span class="sep">' + escape(i18n.text("tally.join", lang)) + "</span>"
    entries = join.join(entry_html(group, counted, number == len(groups) - 1)
                        for number, group in enumerate(groups))
    if not counted:
        return entries
    # The engine's template around the entries and the total: the text is i18n.tally's.
    return i18n.fill(escape(i18n.text("tally.total", lang)), {
        "items": entries, "total": '<b class="show-sum">' + str(groups[-1]["total"]) + "</b>"})


def entry_html(group, counted, last):
    """One entry of a count's list (``15 for 2 ×2``). Once counted it is a toggle button
    that lights the cards of each of its steps again in turn (``data-steps``); while
    counted, the last is the chip.

    >>> group = {"kind": "run", "points": 3, "times": 2, "text": "run of 3 ×2",
    ...          "each": [["4C", "5S", "6D"], ["4C", "5H", "6D"]]}
    >>> entry_html(group, True, True)[:60]
    '<button type="button" class="show-item" data-action="show-it'
    >>> 'data-steps="4C 5S 6D|4C 5H 6D"' in entry_html(group, True, True)
    True
    """
    facts = ('data-kind="' + group["kind"] + '" data-points="' + str(group["points"])
             + '" data-times="' + str(group["times"]) + '"')
    if not counted:
        return ('<span class="show-item' + (" now" if last else "") + '" ' + facts + ">"
                + escape(group["text"]) + "</span>")
    steps = "|".join(" ".join(cards) for cards in group["each"])
    return ('<button type="button" class="show-item" data-action="show-item" aria-pressed='
            '"false" data-steps="' + steps + '" ' + facts + ">" + escape(group["text"])
            + "</button>")


def list_text(html):
    """The text a list's markup shows (for the examples: tags dropped)."""
    out, inside = [], False
    for char in html:
        if char == "<":
            inside = True
        elif char == ">":
            inside = False
        elif not inside:
            out.append(char)
    return "".join(out).replace("&amp;", "&")


def heard(words, event, starter, names, you):
    """A count said for screen readers once counted: whose, the cards and the starter
    in words, the count said aloud and its total.

    >>> heard(words, {"kind": "crib", "seat": 1, "points": 2, "worth": 2,
    ...     "cards": ["5S", "TH", "2C", "9D"],
    ...     "items": [{"kind": "fifteen", "cards": ["5S", "TH"], "points": 2}]}, "KD",
    ...     ["You", "Computer"], 0)
    "Computer's crib: five of spades, ten of hearts, two of clubs, nine of diamonds, \
starter king of diamonds: fifteen two (2)"
    """
    join = i18n.text("list.join", words.lang)
    return words.t("show.heard", {
        "whose": whose(words, event, names, you),
        "cards": join.join(card_words(words, code) for code in event["cards"]),
        "starter": card_words(words, starter),
        "said": i18n.cadence(event["items"], words.lang),
        "total": event["worth"]})


def claim_notes(words, events, event, names, you):
    """Manual counting: what was claimed for a shown hand or crib against its count, and
    the muggins it drew, from the game's events (``event`` among them).

    >>> claim = {"kind": "claim", "seat": 1, "count": 5, "cards": ["5S", "TH", "2C", "9D"]}
    >>> hand = {"kind": "hand", "seat": 1, "points": 5, "worth": 5, "cards": claim["cards"],
    ...         "items": [{"kind": "fifteen", "cards": ["5S", "TH"], "points": 2}]}
    >>> muggins = {"kind": "muggins", "seat": 0, "points": 3, "count": 5, "miscount": "over"}
    >>> claim_notes(words, [claim, hand, muggins], hand, ["You", "Computer"], 0)
    ['claimed 5: 3 too many', 'Muggins! You took 3 (over-claim: 5 claimed)']
    """
    at = None
    for index in range(len(events)):
        if events[index] is event:
            at = index
    if at is None:
        return []
    notes = []
    for earlier in reversed(events[:at]):
        if earlier["kind"] == "claim" and earlier["seat"] == event["seat"]:
            notes.append(i18n.claimed_text(earlier["count"], event["items"], words.lang))
            break
        if earlier["kind"] in ("hand", "crib", "deal"):
            break
    for later in events[at + 1:]:
        if later["kind"] in ("claim", "hand", "crib", "deal"):
            break
        if later["kind"] == "muggins":
            notes.append(i18n.event_text(later, words.lang, names, you))
    return notes

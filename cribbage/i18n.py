"""The game's words in English, Spanish and Japanese: one catalogue per language.

Each language is one flat JSON catalogue, ``lang/<code>.json`` beside this
module: a key (``"event.play"``) maps to a template whose ``{names}`` are
filled in (``"{who} plays {cards} — {count}"``). The engine ships its part
(cards, score items, the cadence, the game log); ``build.py`` merges it with
the page's parts (``web/lang/*.<code>.json``) into ``dist/lang/<code>.json``,
which the page installs with :func:`install`.

This module is pure and keeps to what MicroPython also has (no typing,
dataclasses or f-strings), so the engine (CPython or Pyodide) and the page's
UI (MicroPython on the main thread) render words with the same code.

>>> card_name("QH"), card_name("QH", "es"), card_name("QH", "ja")
('queen of hearts', 'reina de corazones', 'ハートのクイーン')
>>> choose_language(["ja-JP", "en-US"]), choose_language(["fr-FR"]), choose_language([], "es")
('ja', 'en', 'es')
"""

import json

try:  # in the engine, a package module; in the page's UI, a file beside this one
    from .faces import RANK_CODES, SUIT_CODES, face
except ImportError:
    from faces import RANK_CODES, SUIT_CODES, face

LANGUAGES = ("en", "es", "ja")
DEFAULT = "en"

_catalogues = {}


def choose_language(preferred, stored=None):
    """The language to show: the stored choice if it is ours, else the first of
    the browser's ``preferred`` tags (``navigator.languages``) that we speak, else English.

    >>> choose_language(["es-MX"], "ja"), choose_language(["de", "es-ES"], "<script>")
    ('ja', 'es')
    """
    if stored in LANGUAGES:
        return stored
    for tag in preferred or ():
        primary = str(tag).split("-")[0].split("_")[0].lower()
        if primary in LANGUAGES:
            return primary
    return DEFAULT


def language(lang):
    """``lang`` if it is one of ours, else English (a safe value from any input).

    >>> language("es"), language("xx"), language(None)
    ('es', 'en', 'en')
    """
    return lang if lang in LANGUAGES else DEFAULT


def install(lang, entries):
    """Add ``entries`` (key -> template) to ``lang``'s catalogue (the page's merged file)."""
    catalogue(lang).update(entries)


def catalogue(lang):
    """The catalogue of ``lang`` (loaded once from ``lang/<code>.json`` beside this file)."""
    lang = language(lang)
    if lang not in _catalogues:
        _catalogues[lang] = _read(lang)
    return _catalogues[lang]


def _read(lang):
    try:
        here = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
    except NameError:  # a MicroPython module may have no __file__
        here = "."
    try:
        with open(here + "/lang/" + lang + ".json", encoding="utf-8") as file:
            return json.loads(file.read())
    except OSError:  # the page installs its merged catalogue instead
        return {}


def text(key, lang="en", values=None):
    """The template ``key`` in ``lang`` (falling back to English, then the key), filled in.

    >>> text("event.starter", "en", {"cards": "5♠"})
    'The starter is 5♠'
    >>> text("no such key")
    'no such key'
    """
    template = catalogue(lang).get(key)
    if template is None:
        template = catalogue(DEFAULT).get(key, key)
    return fill(template, values)


def fill(template, values):
    """Replace each ``{name}`` in ``template`` by ``values[name]`` (other braces stay)."""
    if values:
        for name in values:
            template = template.replace("{" + name + "}", str(values[name]))
    return template


def _words(key, lang):
    words = catalogue(lang).get(key)
    return words if words else catalogue(DEFAULT)[key]


def number_word(number, lang="en"):
    """A total as said in counting (``'twelve'``; digits past the words we have).

    >>> number_word(12), number_word(12, "es"), number_word(12, "ja"), number_word(31)
    ('twelve', 'doce', '12', '31')
    """
    words = _words("numbers", lang)
    return words[number] if 0 <= number < len(words) else str(number)


# --- cards ---------------------------------------------------------------------


def card_name(code, lang="en"):
    """A card code (``5S``) in words, as a screen reader says it.

    >>> card_name("TC", "es"), card_name("AS", "ja")
    ('diez de tréboles', 'スペードのエース')
    """
    rank = _words("ranks", lang)[RANK_CODES.index(code[0])]
    suit = _words("suits", lang)[SUIT_CODES.index(code[1])]
    return text("card", lang, {"rank": rank, "suit": suit})


def card_label(code):
    """The short face of a card, the same in every language: ``10♥``."""
    return face(code)


def cards_label(codes):
    """Several short faces: ``5♠ 5♥``."""
    return " ".join(card_label(code) for code in codes)


# --- score items and the cadence --------------------------------------------------


def _kind_key(item):
    """``pair.2`` / ``pair.6`` / ``pair.12`` for pairs, else the item's kind."""
    if item["kind"] == "pair":
        return "pair." + str(item["points"])
    return item["kind"]


def item_text(item, lang="en"):
    """One score item (``{"kind", "cards", "points"}``) as a short phrase.

    >>> pair = {"kind": "pair", "cards": ["5S", "5H"], "points": 2}
    >>> item_text(pair), item_text(pair, "es"), item_text(pair, "ja")
    ('pair of fives', 'par de cincos', '5のペア')
    >>> item_text({"kind": "run", "cards": ["4S", "5S", "6H"], "points": 3})
    'run of 3'
    """
    values = {"points": item["points"], "length": item["points"]}  # a run scores its length
    if item["kind"] == "pair":
        rank = RANK_CODES.index(item["cards"][0][0])
        values["ranks"] = _words("ranks_plural", lang)[rank]
        values["rank"] = card_label(item["cards"][0])[:-1]
    return text("item." + _kind_key(item), lang, values)


def reasons(items, lang="en"):
    """Why points were pegged, short: ``'fifteen 2, pair 2'``."""
    parts = [text("reason", lang, {"item": text("peg." + item["kind"], lang),
                                   "points": item["points"]}) for item in items]
    return text("list.join", lang).join(parts)


def cadence(items, lang="en"):
    """The breakdown said aloud with the running total, as players count.

    >>> items = [{"kind": "fifteen", "cards": [], "points": 2},
    ...          {"kind": "pair", "cards": ["5S", "5H"], "points": 2}]
    >>> cadence(items)
    'fifteen two, and a pair is four'
    >>> cadence(items, "es")
    'quince dos y un par son cuatro'
    >>> cadence(items, "ja")
    'フィフティーン2、ペアで4'
    >>> cadence([], "es")
    'diecinueve (nada)'
    """
    if not items:
        return text("said.nothing", lang)
    phrases = [said_step(step, lang) for step in count_steps(items)]
    if len(phrases) == 1:
        return phrases[0]
    last = text("said.last", lang, {"phrase": phrases[-1]})
    return text("said.join", lang).join(phrases[:-1]) + text("said.before_last", lang) + last


def _said_together(items):
    """The items as they are said: all the pairs of one rank (3 pairs: three of a kind,
    6 pairs: four of a kind) become one item where the first of them was, with each
    of their cards once.

    >>> fives = [{"kind": "pair", "cards": [a, b], "points": 2}
    ...          for a, b in (("5S", "5H"), ("5S", "5D"), ("5H", "5D"))]
    >>> sixes = [{"kind": "pair", "cards": ["6S", "6H"], "points": 2}]
    >>> [(i["kind"], i["points"]) for i in _said_together(fives[:2] + sixes + fives[2:])]
    [('pair', 6), ('pair', 2)]
    >>> cadence(fives)
    'three of a kind is six'
    """
    by_rank = {}
    for item in items:
        if item["kind"] == "pair":
            by_rank.setdefault(item["cards"][0][0], []).append(item)
    said = []
    for item in items:
        if item["kind"] != "pair":
            said.append(item)
        elif by_rank[item["cards"][0][0]][0] is item:  # the first pair of its rank
            pairs = by_rank[item["cards"][0][0]]
            cards = []
            for pair in pairs:
                cards.extend(card for card in pair["cards"] if card not in cards)
            said.append({"kind": "pair", "cards": cards,
                         "points": sum(p["points"] for p in pairs)})
    return said


# --- the show counted step by step: its chips and its itemised list -----------------


def count_steps(items):
    """A hand's items as they are counted, one step at a time (the pairs of one rank
    together: a pair royal is one step), each with the cards that make it and the
    running total. The table lights each step's cards as it is said.

    >>> items = [{"kind": "fifteen", "cards": ["5S", "TH"], "points": 2},
    ...          {"kind": "pair", "cards": ["5S", "5H"], "points": 2},
    ...          {"kind": "pair", "cards": ["5S", "5D"], "points": 2},
    ...          {"kind": "pair", "cards": ["5H", "5D"], "points": 2}]
    >>> [(s["kind"], s["cards"], s["points"], s["total"]) for s in count_steps(items)]
    [('fifteen', ['5S', 'TH'], 2, 2), ('pair', ['5S', '5H', '5D'], 6, 8)]
    """
    steps, total = [], 0
    for item in _said_together(items):
        total += item["points"]
        steps.append({"kind": item["kind"], "cards": list(item.get("cards") or []),
                      "points": item["points"], "total": total})
    return steps


def said_step(step, lang="en"):
    """One step of a count said aloud with its running total (for screen readers).

    >>> said_step({"kind": "run", "points": 3, "total": 9}), said_step(
    ...     {"kind": "fifteen", "points": 2, "total": 4}, "ja")
    ('a run of three is nine', 'フィフティーン4')
    """
    return text("said." + _kind_key(step), lang, {
        "total": number_word(step["total"], lang),
        "length": number_word(step["points"], lang)})  # a run scores its length


def tally_item(item, lang="en"):
    """A step of the show, or the points of a card in the play (a go, the last card
    too: ``{"kind": "go", "points": 1}``), short, as its chip says it.

    >>> tally_item({"kind": "fifteen", "points": 2}), tally_item({"kind": "run", "points": 3})
    ('15 for 2', 'run of 3')
    >>> tally_item({"kind": "pair", "points": 6}, "es"), tally_item({"kind": "go", "points": 1},
    ...                                                              "ja")
    ('trío 6', 'ゴー 1点')
    """
    return text("tally." + _kind_key(item), lang, {"points": item["points"]})


def tally_groups(items, lang="en"):
    """The entries of a hand's itemised list: equal steps in a row make one entry
    (``15 for 2 ×2``) with the cards of each step (``each``), how many (``times``) and
    the running total after it.

    >>> runs = [{"kind": "run", "cards": c.split(), "points": 3}
    ...         for c in ("4S 5S 6H", "4S 5H 6H")]
    >>> [(g["text"], g["times"], g["total"], g["each"]) for g in tally_groups(runs)]
    [('run of 3 ×2', 2, 6, [['4S', '5S', '6H'], ['4S', '5H', '6H']])]
    """
    groups = []
    for step in count_steps(items):
        said = tally_item(step, lang)
        if groups and groups[-1]["said"] == said:
            group = groups[-1]
            group["times"] += 1
            group["each"].append(step["cards"])
        else:
            group = {"said": said, "kind": step["kind"], "points": step["points"],
                     "times": 1, "each": [step["cards"]]}
            groups.append(group)
        group["total"] = step["total"]
    for group in groups:
        group["text"] = group["said"] if group["times"] == 1 else text(
            "tally.times", lang, {"item": group["said"], "times": group["times"]})
    return groups


def tally(items, lang="en"):
    """A hand's itemised list with its total, as it stays beside the hand once counted.

    >>> f = {"kind": "fifteen", "cards": [], "points": 2}
    >>> r = {"kind": "run", "cards": [], "points": 3}
    >>> items = [f, f, {"kind": "pair", "cards": ["5S", "5H"], "points": 2}, r, r]
    >>> tally(items), tally(items, "es")
    ('15 for 2 ×2 · pair 2 · run of 3 ×2 = 12', '15 por 2 ×2 · par 2 · escalera de 3 ×2 = 12')
    >>> tally(items, "ja"), tally([])
    ('15で2点×2、ペア 2点、3枚のラン×2 ＝ 12点', 'nothing = 0')
    """
    groups = tally_groups(items, lang)
    if not groups:
        return text("tally.nothing", lang)
    entries = text("tally.join", lang).join(group["text"] for group in groups)
    return text("tally.total", lang, {"items": entries, "total": groups[-1]["total"]})


def claimed_text(claimed, items, lang="en"):
    """A claim of manual counting against the true count of ``items``.

    >>> items = [{"kind": "fifteen", "cards": [], "points": 2},
    ...          {"kind": "pair", "cards": ["5S", "5H"], "points": 2}]
    >>> claimed_text(3, items), claimed_text(6, items), claimed_text(4, items, "es")
    ('claimed 3: 1 missed', 'claimed 6: 2 too many', 'declarado 4: exacto')
    """
    worth = sum(item["points"] for item in items)
    if claimed < worth:
        return text("claimed.under", lang, {"claimed": claimed, "points": worth - claimed})
    if claimed > worth:
        return text("claimed.over", lang, {"claimed": claimed, "points": claimed - worth})
    return text("claimed.right", lang, {"claimed": claimed})


# --- the game log -------------------------------------------------------------------


def seat_name(seat, lang="en"):
    """The engine's name for a seat (``Seat 1``), when the caller has no names."""
    return text("seat", lang, {"seat": seat})


def event_text(event, lang="en", names=None, you=None):
    """One line of the game log for an engine event (a dict as ``Event.to_dict``).

    ``names`` name the seats (else ``Seat N``); the seat ``you`` gets the
    second-person form of the line where the language has one.

    >>> play = {"kind": "play", "seat": 1, "cards": ["5S"], "count": 15, "points": 2,
    ...         "items": [{"kind": "fifteen", "points": 2, "cards": []}]}
    >>> event_text(play, "en", ["You", "Computer"])
    'Computer plays 5♠ — 15 — fifteen 2'
    >>> event_text(dict(play, seat=0), "es", ["Tú", "Ordenador"], you=0)
    'Tú juegas 5♠ — 15 — quince 2'
    >>> event_text({"kind": "go_said", "seat": 1}, "ja")
    '席1：ゴー'
    >>> event_text({"kind": "muggins", "seat": 0, "points": 4, "count": 13, "miscount": "over"})
    'Muggins! Seat 0 took 4 (over-claim: 13 claimed)'
    >>> event_text({"kind": "hand", "seat": 1, "cards": ["5S"], "points": 3, "beyond": 9,
    ...             "worth": 12}, "en", ["You", "Computer"])
    'Computer counts hand 5♠: 12 (9 not pegged: past the game hole)'
    """
    seat = event.get("seat")
    if seat is None:
        who = ""
    elif names is not None:
        who = names[seat]
    else:
        who = seat_name(seat, lang)
    key = "event." + event["kind"]
    if seat is not None and seat == you and (key + ".you") in catalogue(lang):
        key += ".you"
    values = {"who": who, "cards": cards_label(event.get("cards") or []),
              "count": event.get("count"), "deal": event.get("deal"),
              "points": event.get("worth", event.get("points", 0))}
    line = text(key, lang, values)
    if event["kind"] in ("play", "peg") and event.get("points"):
        line += text("event.play.points", lang, {"reasons": reasons(event["items"], lang)})
    if event.get("miscount"):  # a muggins call, or an over-claim corrected without one
        what = "event.muggins." if event["kind"] == "muggins" else "event.corrected."
        line += text(what + event["miscount"], lang, values)
    for what in ("refused", "beyond"):  # counted, not pegged: exact finish, the game hole
        if event.get(what):
            line += text("event." + what, lang, {what: event[what]})
    return line

"""The page's UI on the main thread (MicroPython): starts the table.

This first script stays small so the dialog is live at once: it restores the
last settings into the new-game dialog, then imports the rest of the UI one
module per task of the browser's event loop (``dom.next_turn``: MicroPython
compiles each import in one go, and the whole UI at once would hold the main
thread for half a second).
The table is one :class:`tablegame.TableGame` over one
:class:`tablestate.TableState`; pure logic lives in web/views/ (tested under
CPython). docs/architecture.md describes the MicroPython subset kept to.
"""

import asyncio
import json

import stored
from dom import SETTINGS_KEY, Dom, form_values, load, next_turn, storage_set, warn
from pyscript import document, window
from pyscript.ffi import create_proxy


def restore_form(dom):
    """Put the last used settings back into the dialog (the levels once the engine
    has said which it offers: TableGame.offer_levels). A value the dialog does not
    offer (a choice of a newer version, or a damaged store) is dropped and said in
    the console: the dialog's own default stays."""
    values = load(SETTINGS_KEY, stored.load_settings)
    dom.form.querySelector("details.more-options").open = values.get("more_options") is True
    for element in dom.form.elements:
        name = element.name
        if not name or name not in values or element.type in ("submit", "button", "file"):
            continue
        value = values[name]
        if element.type == "checkbox":
            element.checked = value is True
        elif not isinstance(value, str):
            continue
        elif element.tagName == "SELECT" and not offered(element, value):
            if not element.classList.contains("level-choice"):  # levels: once the engine says
                warn("Stored setting " + name + " dropped (not offered: " + value[:20] + ")")
        else:
            element.value = value


def offered(select, value):
    """Whether the choice ``select`` offers ``value``."""
    return any(option.value == value for option in select.options)


def apply_display(dom, event=None):
    """The display settings (four-colour deck, larger cards, plain court cards) on the table
    at once, kept with the dialog's other settings (the table reads the sound and Go options
    itself)."""
    values = form_values(dom.form)
    four = dom.form.querySelector("input[name=four_colour]").checked
    large = dom.form.querySelector("input[name=large_cards]").checked
    dom.table.setAttribute("data-deck", "four" if four else "two")
    dom.table.setAttribute("data-cards", "large" if large else "normal")
    simple = dom.form.querySelector("input[name=simple_faces]").checked
    dom.table.setAttribute("data-faces", "simple" if simple else "figures")
    if event is not None and event.target.getAttribute("data-setting"):
        storage_set(SETTINGS_KEY, json.dumps(values))


def remember_more(dom):
    """Keep whether More options is open with the stored settings (only that value: the
    levels are not offered yet when restore_form opens it, and must not be stored then)."""
    values = load(SETTINGS_KEY, stored.load_settings)
    is_open = dom.form.querySelector("details.more-options").open is True
    if values.get("more_options", False) != is_open:
        values["more_options"] = is_open
        storage_set(SETTINGS_KEY, json.dumps(values))


def show_level_choices(dom):
    """Show one seat choice per player and one level choice per computer (a seat played
    by a person has no level)."""
    chosen = str(dom.form.querySelector("select[name=players]").value)
    players = int(chosen) if chosen.isdigit() else 2  # always one of the options offered
    for label in dom.form.querySelectorAll(".more-levels, .more-seats"):
        four = label.classList.contains("four-only")
        label.hidden = players < 3 or (four and players < 4)
    def person(seat):
        return dom.form.querySelector("select[name=who" + str(seat) + "]").value == "person"

    # Seat 1, when a computer, plays at the first level (the second seat's).
    for seats, name in (((0, 1), "level"), ((2,), "level2"), ((3,), "level3")):
        if all(person(seat) for seat in seats):
            dom.form.querySelector("select[name=" + name + "]").closest("label").hidden = True


# The UI's modules, leaves first, so each turn compiles one module (MicroPython compiles
# an import in one go: all of them at once would hold the main thread for ~0.5 s).
UI_MODULES = ("i18n", "shell", "tableview", "tablestate", "tablerender", "coachview",
              "charts", "statsview", "reviewview", "backup", "tablecoach", "tableinput",
              "showview", "tablemotion", "tableshow", "tablereview", "tablesaves", "tabsync",
              "tabs", "peertable", "tablegame")


async def fetch_later_modules():
    """Put the UI's other modules into MicroPython's files: PyScript's config names only
    the first screen's (so it runs this script sooner), the rest come in one file built
    beside the page (sitebuild/assemble.py, later_modules)."""
    response = await window.fetch("./table-modules.json")
    if not response.ok:
        raise OSError("HTTP " + str(response.status))
    modules = json.loads(await response.text())
    await next_turn()  # parsing them was a task's work; writing them is another's
    for name, source in modules.items():
        with open(name, "w") as module:
            module.write(source)


async def boot(dom):
    """Import the rest of the UI in separate turns, take the page's language, run the table."""
    try:
        await fetch_later_modules()
    except Exception as error:  # offline before the offline copy was stored: Start goes off
        dom.cannot_start()
        window.cribbageLoading.failed(None, str(error) or "network", "ui.loading.table_failed")
        raise
    for name in UI_MODULES:
        await next_turn()
        __import__(name)
    import tablegame
    import tablestate

    table = tablegame.TableGame(dom, tablestate.TableState())
    # loading.mjs chose the language (i18n.choose_language's rules), fetched its
    # catalogue and translated the static page; the UI installs the same catalogue.
    # Listen first, so a switch made meanwhile is not missed; language() resolves
    # to the newest choice.
    document.addEventListener("cribbage:language", create_proxy(table.on_language))
    words = await window.cribbageLoading.language()
    await next_turn()  # parsing the catalogue is a task of its own
    window.performance.mark("cribbage:language-start")
    table.use_language(str(words.lang), str(words.text))
    window.performance.measure("cribbage:language-install", "cribbage:language-start")
    await table.run()


def on_start(dom, event):
    """Start pressed: the table's handler once it runs, else the press is held (the deck is
    shuffled on the felt) and the table deals as soon as its engine answers."""
    event.preventDefault()
    if dom.on_start is not None:
        dom.on_start()
    elif not dom.start_held:
        dom.hold_start()


def main():
    dom = Dom()
    dom.form.querySelector("select[name=players]").addEventListener(
        "change", create_proxy(lambda event: show_level_choices(dom)))
    for who in dom.form.querySelectorAll("select.who-choice"):
        who.addEventListener("change", create_proxy(lambda event: show_level_choices(dom)))
    restore_form(dom)
    show_level_choices(dom)
    apply_display(dom)
    dom.form.addEventListener("change", create_proxy(lambda event: apply_display(dom, event)))
    dom.form.querySelector("details.more-options").addEventListener(
        "toggle", create_proxy(lambda event: remember_more(dom)))
    dom.table.setAttribute("data-speed", "0" if dom.forced_speed == 0 else "1")
    dom.table.setAttribute("data-phase", "setup")
    dom.form.addEventListener("submit", create_proxy(lambda event: on_start(dom, event)))
    dom.start.disabled = False  # a press is taken from now on: never a dead Start
    window.performance.mark("cribbage:ui-ready")
    asyncio.create_task(boot(dom))


main()

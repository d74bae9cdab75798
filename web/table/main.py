"""The page's UI on the main thread (MicroPython): starts the table.

This first script stays small so the dialog is live at once: it restores the
last settings into the new-game dialog, then imports the rest of the UI one
module per turn of the event loop (MicroPython compiles each import in one
go, and a single large compile would hold the main thread for ~200 ms).
Pure logic lives in shell.py, tableview.py and pegboard.py (tested under
CPython); see shared/DESIGN.md for the MicroPython subset this code keeps to.
"""

import asyncio
import json

import tablestate as st
from pyscript import document, window
from pyscript.ffi import create_proxy
from tablestate import storage_get, url_speed


def restore_form():
    """Put the last used settings back into the dialog."""
    text = storage_get(st.SETTINGS_KEY)
    if text is None:
        return
    try:
        values = json.loads(text)
    except ValueError:
        return
    if not isinstance(values, dict):
        return
    for element in st.form.elements:
        name = element.name
        if name in values:
            if element.type == "checkbox":
                element.checked = values[name] is True
            elif isinstance(values[name], str):
                element.value = values[name]
    show_level_choices()


def show_level_choices(event=None):
    """Show one level choice per computer."""
    players = int(st.form.querySelector("select[name=players]").value)
    for label in st.form.querySelectorAll(".more-levels"):
        four = label.classList.contains("four-only")
        label.hidden = players < 3 or (four and players < 4)


async def boot():
    """Import the rest of the UI in separate turns, take the page's language, run the table."""
    await asyncio.sleep(0)
    import i18n  # noqa: F401
    await asyncio.sleep(0)
    import shell  # noqa: F401
    import tableview  # noqa: F401
    await asyncio.sleep(0)
    import pegboard  # noqa: F401
    import tablerender  # noqa: F401
    await asyncio.sleep(0)
    import coachview  # noqa: F401
    await asyncio.sleep(0)
    import statsview  # noqa: F401
    await asyncio.sleep(0)
    import tablecoach  # noqa: F401
    await asyncio.sleep(0)
    import tablegame

    # loading.mjs chose the language (i18n.choose_language's rules), fetched its catalogue
    # and translated the static page; the UI installs the same catalogue. Listen first,
    # so a switch made meanwhile is not missed; language() resolves to the newest choice.
    document.addEventListener("cribbage:language", create_proxy(tablegame.on_language))
    words = await window.cribbageLoading.language()
    await asyncio.sleep(0)  # parsing the catalogue is a task of its own
    window.performance.mark("cribbage:language-start")
    tablegame.use_language(str(words.lang), str(words.text))
    window.performance.measure("cribbage:language-install", "cribbage:language-start")
    await tablegame.run()


st.form.querySelector("select[name=players]").addEventListener(
    "change", create_proxy(show_level_choices))
restore_form()
show_level_choices()
st.table.setAttribute("data-speed", "0" if url_speed() == 0 else "1")
st.table.setAttribute("data-phase", "setup")
window.performance.mark("cribbage:ui-ready")
asyncio.create_task(boot())

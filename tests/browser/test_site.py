"""The static site in a real browser: shell, loading, engine protocol, origin, long tasks."""

from __future__ import annotations

import json
from typing import Any

import pytest

from sitebuild.common import DIST

from .driver import more_options

LONG_TASK_LIMIT_MS = 200  # no main-thread task longer than this, ever


def test_shell_and_dialog_work_before_the_engine_is_ready(app: Any, page: Any) -> None:
    held: list[Any] = []
    # Hold the engine's wasm download so "before the engine is ready" is certain.
    page.route("**/pyodide.asm.wasm", lambda route: held.append(route))
    app.open()
    table = app.table
    assert table.get_attribute("data-engine") == "loading"
    start = page.get_by_role("button", name="Start")
    assert page.locator("#engine-progress").is_visible()
    # The dialog is usable at once: its choices can be made while the engine loads.
    more_options(page)
    page.get_by_label("Players").select_option("3")
    page.get_by_label("Game to").select_option("61")
    page.get_by_label("Exact finish").check()
    assert page.get_by_label("Players").input_value() == "3"

    page.wait_for_function(
        "() => document.getElementById('engine-stage').textContent.includes('Downloading')"
    )
    # Start takes a press at once: the felt shows the deck being shuffled meanwhile.
    assert start.is_enabled()
    start.click()
    page.wait_for_selector("#table[data-shuffling]")
    assert page.locator("#new-game").is_hidden()
    assert page.locator(".status .shuffling-note").inner_text().startswith("Shuffling the deck")
    assert table.get_attribute("data-phase") == "setup"
    assert table.get_attribute("data-engine") == "loading"
    for route in held:
        route.continue_()
    page.unroute("**/pyodide.asm.wasm")
    # The deal follows the moment the engine answers, with the dialog's choices.
    page.wait_for_selector("#table[data-phase=cut]")
    assert table.get_attribute("data-engine") == "ready"
    assert table.get_attribute("data-shuffling") is None
    assert page.locator(".status .shuffling-note").count() == 0 or \
        page.locator(".status .shuffling-note").is_hidden()
    assert page.locator("[data-score]").count() == 3
    assert app.result("state")["phase"] == "cut"
    view = app.result("view", {"seat": 0})
    assert (
        view["rules"]["players"] == 3
        and view["rules"]["target"] == 61
        and view["rules"]["exact_finish"]
    )


# No service worker: the reload's engine must come from the network, where it is held.
@pytest.mark.browser_context_args(service_workers="block")
def test_a_start_pressed_early_never_replaces_a_saved_game(app: Any, page: Any) -> None:
    """A reload with a game in progress: Start pressed before the engine answers gives way
    to the saved game, which resumes where it was."""
    app.open().wait_engine()
    page.get_by_role("button", name="Start").click()
    page.wait_for_selector("#table:not([data-phase=setup])")
    saved = page.evaluate("localStorage.getItem('cribbage.save')")
    assert saved
    held: list[Any] = []
    page.route("**/pyodide.asm.wasm", lambda route: held.append(route))
    page.route("**/*.snapshot", lambda route: held.append(route))
    page.reload()
    page.wait_for_selector("#table[data-phase=setup]")
    page.get_by_role("button", name="Start").click()
    page.wait_for_selector("#table[data-shuffling]")
    for route in held:
        route.continue_()
    page.unroute("**/pyodide.asm.wasm")
    page.unroute("**/*.snapshot")
    page.wait_for_selector("#table[data-resume=resumed]")
    page.wait_for_selector("#table:not([data-shuffling])")
    assert page.evaluate("localStorage.getItem('cribbage.save')") == saved


def test_loading_progress_reports_real_stages(app: Any, page: Any) -> None:
    app.open().wait_engine()
    marks = page.evaluate("performance.getEntriesByType('mark').map(m => m.name)")
    stages = [m.split(":")[-1] for m in marks if m.startswith("cribbage:progress:")]
    assert "download" in stages and "python" in stages
    assert stages.index("runtime") < stages.index("download") < stages.index("python")
    assert page.locator("#engine-progress").get_attribute("value") == "100"


def test_engine_answers_with_structured_replies(app: Any) -> None:
    app.open().wait_engine()
    hello = app.result("hello")
    assert hello["python"].startswith("3.14") and "expert" in hello["levels"]
    assert app.result("score", {"hand": ["5C", "5D", "5H", "JS"], "starter": "5S"})["total"] == 29

    assert app.call("state")["error"]["kind"] == "no-game"
    bad_json = json.loads(app.page.evaluate("window.cribbageEngine.hello('{not json')"))
    assert bad_json["error"]["kind"] == "bad-request"
    assert app.call("score", {"hand": ["ZZ"], "starter": "5S"})["error"]["kind"] == "bad-card"
    app.result("new_game", {"seed": 7, "first_dealer": 0})
    illegal = app.call("apply_move", {"move": "play 5S"})
    assert illegal["error"]["kind"] == "illegal-move" and illegal["error"]["message"]
    assert app.call("load", {"save": '{"not": "a save"}'})["error"]["kind"] == "bad-save"
    assert app.result("state")["phase"] == "discard"  # errors changed nothing


def test_whole_game_through_the_protocol(app: Any, page: Any) -> None:
    app.open().wait_engine()
    app.result("new_game", {"seed": 2024})
    # Computer against computer at the lowest level, driven from the page's JS.
    final = page.evaluate(
        """async () => {
            const engine = window.cribbageEngine;
            let state, moves = 0, saved = null;
            do {
                state = JSON.parse(await engine.computer_move('{"level": "beginner"}'));
                if (!state.ok) return state;
                moves += 1;
                if (moves === 40) saved = JSON.parse(await engine.save('{}')).result.save;
            } while (state.result.phase !== "over" && moves < 2000);
            return {moves, saved, ...state.result};
        }"""
    )
    assert final.get("phase") == "over", final
    outcome = final["outcome"]
    assert max(final["scores"]) >= 121 and outcome["winner"] in (0, 1)
    # A save from the middle of the game resumes exactly there.
    resumed = app.result("load", {"save": final["saved"]})
    assert resumed["phase"] != "over"
    assert app.result("save")["save"] == final["saved"]


def test_nothing_leaves_the_origin(app: Any, page: Any, requests_seen: list[str]) -> None:
    app.open().wait_engine()
    page.get_by_role("button", name="Start").click()
    page.wait_for_selector("#table[data-phase=cut]")
    assert any(
        url.endswith("pyodide.asm.wasm") for url in requests_seen
    )  # worker requests are seen too
    app.assert_same_origin(requests_seen)


def test_no_long_main_thread_task_while_loading_and_thinking(app: Any, page: Any) -> None:
    app.open().wait_engine()
    app.result("new_game", {"seed": 11})
    for _ in range(30):  # the expert thinks in the worker; the page must stay free
        state = app.result("computer_move", {"level": "expert"})
        if state["phase"] == "over":
            break
    tasks = app.long_tasks()
    longest = max((t["duration"] for t in tasks), default=0)
    assert longest <= LONG_TASK_LIMIT_MS, f"main-thread long tasks: {tasks}"


def test_engine_starts_at_navigation_independently_of_the_ui(
    page: Any, base_url: str, requests_seen: list[str]
) -> None:
    held: list[Any] = []
    # Hold MicroPython (the UI) back: the engine must load and answer without it.
    page.route("**/micropython.wasm", lambda route: held.append(route))
    page.goto("/")
    # A call made at once waits for the engine instead of failing.
    hello = json.loads(page.evaluate("window.cribbageEngine.hello('{}')"))
    assert hello["ok"] and hello["result"]["python"].startswith("3.14")
    assert page.evaluate(
        "window.cribbageEngine.ready.then((engine) => engine === window.cribbageEngine)"
    )
    assert page.locator("#table").get_attribute("data-phase") == "loading"  # the UI is still held
    assert any(url.endswith("/engine-worker.mjs") for url in requests_seen)
    assert not any(url.endswith(("engine.json", "bridge.py")) for url in requests_seen)
    for route in held:
        route.continue_()
    page.unroute("**/micropython.wasm")
    page.wait_for_selector("#table[data-engine=ready]")
    assert page.get_by_role("button", name="Start").is_enabled()


@pytest.mark.allow_console_errors
def test_an_engine_that_cannot_load_says_so(page: Any) -> None:
    page.route("**/cribbage-*.tar.gz", lambda route: route.fulfill(status=404, body="gone"))
    page.goto("/")
    page.wait_for_selector("#table[data-phase=setup]")
    page.wait_for_function(
        "() => document.getElementById('engine-stage').textContent.includes('could not load')"
    )
    assert page.locator("#table").get_attribute("data-engine") == "loading"
    # Start, live from the first frame, goes off once the UI hears of the failure.
    page.wait_for_selector("#new-game button[name=start]:disabled")
    reply = page.evaluate(
        "window.cribbageEngine.hello('{}').then(() => 'answered', (e) => e.message)"
    )
    assert "answered 404" in reply


@pytest.mark.allow_console_errors
def test_a_table_whose_later_modules_cannot_load_says_so(page: Any) -> None:
    """The table's modules after its first screen come in one file (table-modules.json):
    when it does not arrive, the page says so, and Start stays off."""
    page.route("**/table-modules.json", lambda route: route.fulfill(status=503, body="busy"))
    page.goto("/")
    page.wait_for_function(
        "() => document.getElementById('engine-stage').textContent.includes("
        "'The table could not load (HTTP 503)')")
    # The engine comes up meanwhile; its progress does not cover the failure.
    page.evaluate("window.cribbageEngine.hello('{}').then(() => 'answered', (e) => e.message)")
    assert "could not load" in page.locator("#engine-stage").text_content()
    assert page.get_by_role("button", name="Start").is_disabled()


def test_the_worker_is_created_by_the_first_script_in_head(site: str) -> None:
    """engine.js, a classic script, is the first script of the table page's <head>,
    written into the page (the first frame waits for no request but the HTML's)."""

    html = (DIST / "index.html").read_text()
    head = html.split("</head>", 1)[0]
    first = head[head.index("<script"):]
    tag, rest = first.split(">", 1)
    assert tag == "<script", tag  # not a module, not async or deferred, not fetched
    assert rest.split("</script>", 1)[0] == (DIST / "engine.js").read_text()
    assert head.index("<script") < head.index("<style>")  # before the stylesheet, too


def test_the_engine_methods_are_the_engines_own_endpoints(app: Any, page: Any) -> None:
    """window.cribbageEngine has one method per name the worker sent with "ready"."""
    app.open().wait_engine()
    names = page.evaluate(
        """async () => {
            const engine = await window.cribbageEngine.ready;
            return Object.keys(engine).filter((name) => typeof engine[name] === "function");
        }"""
    )
    # asked of the engine (a round trip: only a plain '{}' is the reply sent with "ready")
    hello = json.loads(page.evaluate("window.cribbageEngine.hello('{ }')"))
    endpoints = hello["result"]["endpoints"]
    assert set(names) == set(endpoints) | {"watch", "hello"}, (names, endpoints)
    assert page.evaluate("window.cribbageEngine.no_such_endpoint === undefined")
    assert page.evaluate("window.cribbageEngine.then === undefined")


def test_a_restored_snapshot_draws_fresh_seeds_on_every_load(app: Any, page: Any) -> None:
    """The build's memory snapshot holds one random state: every load must draw its own."""
    seeds = []
    for _ in range(2):
        app.open().wait_engine()
        python = page.evaluate(
            "performance.getEntriesByName('cribbage:progress:python')[0].detail"
        )
        assert python["restored"] is True  # Python came from the snapshot
        save = json.loads(app.result("new_game", {})["save"])
        seeds.append(save["setup"]["seed"])
    assert seeds[0] != seeds[1], seeds


@pytest.mark.allow_console_errors
def test_a_refused_snapshot_falls_back_to_a_normal_start(
    app: Any, page: Any, requests_seen: list[str]
) -> None:
    page.route("**/cribbage-*.snapshot", lambda route: route.fulfill(status=404, body="gone"))
    app.open().wait_engine()
    assert app.result("hello")["python"].startswith("3.14")
    assert app.result("new_game", {"seed": 3})["phase"] in ("cut", "discard")
    assert any(url.endswith("/python_stdlib-start.zip") for url in requests_seen)
    python = page.evaluate("performance.getEntriesByName('cribbage:progress:python')[0].detail")
    assert python["restored"] is False

"""Five-card and seven-card cribbage through the page, at 360 px wide: the dialog's
variant choice, the hand as dealt and kept, and the show (docs/rules.md rules 20-21)."""

from __future__ import annotations

from typing import Any

from .driver import Table, more_options


def forget_the_game(page: Any) -> None:
    """Leave the table and clear its save, so the next open() starts afresh."""
    origin = page.evaluate("location.origin")
    page.goto("about:blank")
    page.context.new_cdp_session(page).send(
        "Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "local_storage"})


def assert_hand_fits(table: Table, page: Any, count: int) -> None:
    boxes = table.hand_boxes()
    assert len(boxes) == count
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    for x, _, width, height in boxes:
        assert x >= 0 and x + width <= 360
        assert width >= 40 and height >= 56  # big enough to tap
    # One row: a card may still be sliding in (dealt with a small drop), never a row lower.
    tops = [y for _, y, _, _ in boxes]
    assert max(tops) - min(tops) < 30, tops


def play_to_the_show(app: Any, page: Any, cards: str, kept: int) -> None:
    table = Table(app, page).open()
    more_options(page)
    page.get_by_label("Cards dealt").select_option(cards)
    table.start()  # two players; "Game to" 121 gives way to the variant's own target
    table.play_until(lambda: table.phase == "discard" and table.my_cards().count() > 0)
    assert_hand_fits(table, page, int(cards))
    if cards == "5":  # the pone of the first hand has pegged three for last
        assert sorted(table.scores()) == [0, 3]
        assert "Three for last" in page.locator(".log-lines").text_content()
    else:
        assert table.scores() == [0, 0]
    table.play_until(lambda: table.phase == "show" and table.enabled("Continue") is not None)
    felt = page.locator("#table > .felt")
    sizes = [felt.locator(f"#show-hand-{index} .show-cards > .card").count() for index in range(3)]
    assert sizes == [kept, kept, 4], sizes  # each hand and the crib, in the middle in turn
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


def test_five_and_seven_card_games_through_the_page_to_the_show(app: Any, page: Any) -> None:
    page.set_viewport_size({"width": 360, "height": 740})
    play_to_the_show(app, page, "5", kept=3)
    forget_the_game(page)
    play_to_the_show(app, page, "7", kept=5)


def test_seven_card_with_three_players_is_refused_with_a_notice(app: Any, page: Any) -> None:
    Table(app, page).open()
    more_options(page)
    page.get_by_label("Cards dealt").select_option("7")
    page.get_by_label("Players").select_option("3")
    page.get_by_role("button", name="Start").click()
    notice = page.locator("#new-game .notice")
    notice.wait_for(state="visible")
    assert "2 players" in notice.text_content()
    assert page.locator("#table").get_attribute("data-phase") == "setup"

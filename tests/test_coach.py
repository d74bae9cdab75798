"""The coach: ranked discards and plays, and the advise command."""

from __future__ import annotations

import json

from cribbage import Game, parse_cards
from cribbage.coach import advise_cli, advise_discard, advise_play


def test_advise_discard_ranks_every_discard_best_first() -> None:
    view = Game.scripted(dealer=0, hands=["5S 4S 2S 8D 6H 8C", "TS 6D JH 4H KC 7C"],
                         starter="5H").view(0)
    choices = advise_discard(view)
    assert len(choices) == 15
    assert [c.net for c in choices] == sorted((c.net for c in choices), reverse=True)
    assert choices[0].discard == tuple(parse_cards("8D 8C"))
    for choice in choices:  # our crib: net adds the crib
        assert abs(choice.net - (choice.hand + choice.crib)) < 1e-9


def test_pone_avoids_giving_fives_to_the_dealer() -> None:
    view = Game.scripted(dealer=1, hands=["5S 5H 9D TC JS 2C", "AS 2S 3S 4S 6S 7S"],
                         starter="KD").view(0)
    best = advise_discard(view)[0]
    assert not any(card.rank == 5 for card in best.discard)
    assert all(abs(c.net - (c.hand - c.crib)) < 1e-9 for c in advise_discard(view))


def test_advise_play_takes_the_fifteen_and_explains() -> None:
    game = Game.scripted(dealer=0, hands=["5S 4S 2S 6H", "6D JH 4H 7C"],
                         crib="TS 8D KC 8C", starter="5H")
    game.apply("cut")
    game.apply("play JH")
    advice = advise_play(game.view(0))
    assert [a.card.code for a in advice][0] == "5S"
    assert advice[0].points_now == 2 and "pegs 2 now" in advice[0].reason
    assert [a.value for a in advice] == sorted((a.value for a in advice), reverse=True)


def test_advise_cli_prints_a_ranked_table(capsys) -> None:
    assert advise_cli(["5S", "4S", "2S", "8D", "6H", "8C", "--dealer"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 16 and "8D 8C" in lines[1]
    assert advise_cli(["5S", "4S", "2S", "8D", "6H", "--players", "3", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert len(rows) == 5 and rows[0]["net"] >= rows[-1]["net"]

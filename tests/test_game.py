"""The game, rule by rule (docs/rules.md rules 3-19), and rules bugs known from other engines."""

import json

import pytest

from cribbage import Card, Game, GameStateError, IllegalMoveError, Outcome, Rules, RulesError


def scores_after(game, moves):
    for move in moves:
        game.apply(move)
    return list(game.scores)


def pegs(game, kind=None):
    return [(e.kind, e.seat, e.points) for e in game.events
            if e.points and (kind is None or e.kind == kind)]


def seed_example():
    """The worked example of docs/rules.md: Alice (seat 0) deals, Bob is seat 1."""
    return Game.scripted(dealer=0, hands=["5S 4S 2S 8D 6H 8C", "TS 6D JH 4H KC 7C"],
                         starter="5H")


EXAMPLE_PLAY = ["discard TS KC", "discard 8D 8C", "cut", "play JH", "play 5S", "play 7C",
                "play 6H", "go", "play 2S", "play 6D", "play 4S", "play 4H"]


def test_worked_example_from_the_seeds():
    game = seed_example()
    for move in EXAMPLE_PLAY[:8]:
        game.apply(move)
    assert game.current_player == 0 and game.legal_moves()[0].cards == (Card.parse("2S"),)
    for move in EXAMPLE_PLAY[8:]:
        game.apply(move)
    assert pegs(game) == [
        ("play", 0, 2),        # Alice 5♠: fifteen
        ("play", 0, 3),        # Alice 6♥: run 5-6-7
        ("go", 0, 1),          # Alice 2♠: 30 for the go
        ("play", 1, 2),        # Bob 4♥: pair
        ("last card", 1, 1),   # and last card
        ("hand", 1, 9),        # Bob's show
        ("hand", 0, 12),       # Alice's show
        ("crib", 0, 6),        # Alice's crib
    ]
    plays = [e for e in game.events if e.kind == "play"]
    assert [e.count for e in plays] == [10, 15, 22, 28, 30, 6, 10, 14]
    assert plays[5].seat == 1  # Bob said go, so Bob leads the next series
    assert game.scores == [24, 12] and game.dealer == 1 and game.deal_number == 2


# --- rules 3-5: players, the first deal, the deal ----------------------------------

def test_four_players_are_two_teams_of_opposite_seats():
    game = Game.new(Rules(players=4), seed=5, first_dealer=3)
    assert len(game.scores) == 2
    assert [game.team_of(s) for s in range(4)] == [0, 1, 0, 1]
    assert game.current_player == 0  # left of the dealer; play goes clockwise


def test_cut_for_first_deal_lowest_deals_and_ties_recut():
    for seed in range(200):
        game = Game.new(Rules(players=3), seed=seed)
        assert game.phase == "cut"
        while game.phase == "cut":
            game.apply("cut")
        cuts = [e for e in game.events if e.kind == "cut"]
        final_round = cuts[-len({e.seat for e in cuts[-3:]}):]
        dealer = next(e.seat for e in game.events if e.kind == "dealer")
        lowest = min(e.cards[0].rank for e in final_round)
        assert dealer == game.dealer
        assert [e.seat for e in final_round if e.cards[0].rank == lowest] == [dealer]
        if len(cuts) > 3:  # a tie: only the tied players cut again
            first = cuts[:3]
            low = min(e.cards[0].rank for e in first)
            tied = [e.seat for e in first if e.cards[0].rank == low]
            assert len(tied) > 1 and [e.seat for e in cuts[3:3 + len(tied)]] == tied
            return
    pytest.fail("no tie in 200 seeds")


@pytest.mark.parametrize("players, dealt, crib_dealt", [(2, 6, 0), (3, 5, 1), (4, 5, 0)])
def test_deal_sizes_and_crib(players, dealt, crib_dealt):
    game = Game.new(Rules(players=players), seed=11, first_dealer=0)
    assert [len(h) for h in game.hands] == [dealt] * players
    assert len(game.crib) == crib_dealt
    while game.phase == "discard":
        game.apply(game.legal_moves()[0])
    assert [len(h) for h in game.hands] == [4] * players and len(game.crib) == 4


def test_deal_passes_to_the_left():
    game = Game.new(Rules(players=3), seed=2, first_dealer=1)
    dealers = []
    while len(dealers) < 5 and not game.is_over:
        dealers.append(game.dealer)
        deal = game.deal_number
        while game.deal_number == deal and not game.is_over:
            game.apply(game.legal_moves()[0])
    assert dealers == [1, 2, 0, 1, 2]


# --- rule 6: the starter and his heels -----------------------------------------

def test_right_of_dealer_cuts_and_heels_scores_two_at_once():
    game = Game.scripted(Rules(players=3), dealer=1, hands=["AS 2S 3S 4S", "AH 2H 3H 4H",
                         "AD 2D 3D 4D"], crib="AC 2C 3C 4C", starter="JH")
    assert game.phase == "starter" and game.current_player == 0
    game.apply("cut")
    assert pegs(game) == [("heels", 1, 2)]


def test_heels_can_end_the_game():
    game = Game.scripted(dealer=0, hands=["AS 2S 3S 4S", "AH 2H 3H 4H"], crib="AC 2C 3C 4C",
                         starter="JD", scores=[119, 50])
    game.apply("cut")
    assert game.is_over and game.outcome.winner == 0 and game.scores == [121, 50]
    assert game.legal_moves() == []


# --- rules 7-11: the play ---------------------------------------------------------

def test_thirty_one_is_two_with_no_go_on_top_and_next_leader():
    game = Game.scripted(dealer=0, hands=["KS QS AS 2S", "KH AH 9H 3H"], crib="4C 5C 6C 7C",
                         starter="8D")
    scores_after(game, ["cut", "play KH", "play KS", "play AH", "play QS"])  # count 31? no: 31
    assert game.events[-1].count == 31 and pegs(game)[-1] == ("play", 0, 2)
    assert not [e for e in game.events if e.kind == "go"]
    assert game.count == 0 and game.current_player == 1  # left of the player who made 31


def test_player_out_of_cards_is_skipped_and_other_plays_on_alone():
    game = Game.scripted(dealer=0, hands=["2S 3S 4S 5S", "KH QH JH TH"], crib="AC 6C 7C 8C",
                         starter="9D")
    scores_after(game, ["cut", "play KH", "play 2S", "play QH", "play 3S", "go", "play 4S"])
    # Seat 1 said go at 25; seat 0 plays on alone: 4 makes 29 (go point), reset.
    assert pegs(game)[-1] == ("go", 0, 1)
    assert game.current_player == 1
    scores_after(game, ["play JH", "play 5S", "play TH"])
    # seat 0 is out of cards: seat 1 plays alone and scores last card
    assert pegs(game, "last card") == [("last card", 1, 1)]


def test_must_play_if_able_and_cannot_say_go_with_a_card_that_fits():
    game = seed_example()
    scores_after(game, EXAMPLE_PLAY[:4])
    with pytest.raises(IllegalMoveError, match="must play"):
        game.apply("go")


def test_go_and_next_leader_with_three_players():
    game = Game.scripted(Rules(players=3), dealer=0,
                         hands=["9S QS 2S 3S", "KH 9H 5H 7H", "KD QD 4D 3D"],
                         crib="AC 4C 5C 6C", starter="8C")
    scores_after(game, ["cut", "play KH", "play KD", "play 9S"])  # count 29
    assert game.legal_moves() == [game.legal_moves()[0]] and str(game.legal_moves()[0]) == "go"
    scores_after(game, ["go"])  # seat 1 cannot play; seat 2 cannot either: asked to say go
    assert game.current_player == 2 and str(game.legal_moves()[0]) == "go"
    scores_after(game, ["go"])  # seat 0 can play 2S: it must
    assert game.current_player == 0
    scores_after(game, ["play 2S"])  # 31 for seat 0: 2 points, no go on top
    assert pegs(game)[-1] == ("play", 0, 2) and game.count == 0
    assert game.current_player == 1  # left of the player who laid the last card


def test_three_players_after_a_go_left_of_the_last_card_leads():
    # Seat 1 says go first, seat 2 lays the last card: seat 0 (left of seat 2) leads
    # the next count, not seat 1 who said go.
    game = Game.scripted(Rules(players=3), dealer=0,
                         hands=["5S 9S 8S 7S", "KH 9H 8H 7H", "KD 4D 9D 8D"],
                         crib="AC 2C 3C 6C", starter="QC")
    scores_after(game, ["cut", "play KH", "play KD", "play 5S", "go", "play 4D"])
    assert pegs(game)[-1] == ("go", 2, 1) and game.count == 0
    assert game.current_player == 0


def test_last_card_is_not_added_to_thirty_one():
    game = Game.scripted(dealer=0, hands=["2S AC AS AD", "9D 6H QD AH"], crib="TC KH 9C 4H",
                         starter="8D")
    scores_after(game, ["cut", "play AH", "play AS", "play 6H", "play AD", "play 9D",
                        "play AC", "play QD", "play 2S"])
    in_play = [peg for peg in pegs(game) if peg[0] in ("play", "go", "last card")]
    assert in_play == [("play", 0, 2), ("play", 0, 2)]  # pair of aces; 31 on the last card
    assert not [e for e in game.events if e.kind in ("go", "last card")]


def test_last_card_scores_one():
    game = seed_example()
    scores_after(game, EXAMPLE_PLAY)
    assert pegs(game, "last card") == [("last card", 1, 1)]


# --- rule 12: show order; rule 15: counting out --------------------------------------

def test_show_order_starts_left_of_dealer_and_crib_last():
    game = Game.scripted(Rules(players=3), dealer=1, hands=["AS 2S 3S 4S", "AH 2H 3H 4H",
                         "AD 2D 3D 4D"], crib="AC 2C 3C 4C", starter="9C")
    while game.deal_number == 1:
        game.apply(game.legal_moves()[0])
    shows = [(e.kind, e.seat) for e in game.events if e.kind in ("hand", "crib")]
    assert shows == [("hand", 2), ("hand", 0), ("hand", 1), ("crib", 1)]


def play_out(game):
    while game.phase == "play" or game.phase == "starter":
        game.apply(game.legal_moves()[0])


def test_pone_counting_out_ends_the_game_before_dealer_and_crib():
    # OpenSpiel bug: show counted in seat order and past 121, winner = lowest seat.
    game = Game.scripted(dealer=0, hands=["5C 5D 5H JS", "AS 2S 3S 4H"], crib="6C 7C 8C 9C",
                         starter="5S", scores=[100, 110])
    play_out(game)
    assert game.is_over and game.outcome.winner == 1
    assert [e.kind for e in game.events if e.kind in ("hand", "crib")] == ["hand"]
    assert game.scores[1] >= 121 and game.scores[0] < 121


def test_the_peg_stops_in_the_game_hole():
    # The pone's 29 from over 100: only the points up to 121 are pegged, the rest lie beyond.
    game = Game.scripted(dealer=1, hands=["5C 5D 5H JS", "AS 2S 3S 4H"], crib="6C 7C 8C 9C",
                         starter="5S", scores=[100, 100])
    play_out(game)
    at = next(i for i, e in enumerate(game.events) if e.kind == "hand")
    hand, before = game.events[at], 100 + sum(e.points for e in game.events[:at] if e.team == 0)
    assert hand.seat == 0 and hand.worth == 29 and hand.refused == 0
    assert (hand.points, hand.beyond) == (121 - before, 29 - (121 - before))
    assert game.scores[0] == game.outcome.scores[0] == 121 and game.outcome.winner == 0
    summary = game.view(1).to_dict()["summary"]
    assert summary["points"][0]["total"] == 121 and summary["by_deal"][0][-1] == 121
    assert hand.describe().endswith(f": 29 ({hand.beyond} not pegged: past the game hole)")


def test_crib_four_card_flush_scores_nothing():  # OpenSpiel bug: 4-card crib flush scored
    game = Game.scripted(dealer=0, hands=["AS 3S 5D 7C", "2S 4S 6D 8C"], crib="2H 4H 6H 8H",
                         starter="KS")
    play_out(game)
    crib = next(e for e in game.events if e.kind == "crib")
    assert [i.kind for i in crib.items] == [] and crib.points == 0


def test_game_ends_exactly_when_target_reached_in_the_play():
    game = seed_example()
    game.scores = [0, 0]
    game = Game.scripted(dealer=0, hands=["5S 4S 2S 8D 6H 8C", "TS 6D JH 4H KC 7C"],
                         starter="5H", scores=[119, 0])
    scores_after(game, EXAMPLE_PLAY[:5])  # Alice's fifteen takes her to 121
    assert game.is_over and game.scores == [121, 0] and game.outcome.kind == "double skunk"
    with pytest.raises(IllegalMoveError, match="over"):
        game.apply("play 7C")


# --- rule 17: skunks and lurch ------------------------------------------------------

@pytest.mark.parametrize("rules, loser, kind, points", [
    (Rules(), 91, "win", 1), (Rules(), 90, "skunk", 2), (Rules(), 61, "skunk", 2),
    (Rules(), 60, "double skunk", 3), (Rules(target=61), 31, "win", 1),
    (Rules(target=61), 30, "skunk", 2), (Rules(target=61), 0, "skunk", 2),
    (Rules(skunk="lurch"), 61, "win", 1), (Rules(skunk="lurch"), 60, "lurch", 2),
    (Rules(skunk="lurch", target=61), 30, "lurch", 2), (Rules(skunk="none"), 0, "win", 1),
])
def test_kinds_of_win(rules, loser, kind, points):
    outcome = Outcome.judge(rules, 0, [rules.target, loser])
    assert (outcome.kind, outcome.game_points) == (kind, points)


@pytest.mark.parametrize("rules, scores, kind", [
    (Rules(players=3), [121, 100, 85], "skunk"),          # the lowest loser decides
    (Rules(players=3), [121, 59, 120], "double skunk"),
    (Rules(players=3), [91, 121, 95], "win"),
    (Rules(players=3, skunk="lurch"), [121, 60, 110], "lurch"),
    (Rules(players=3, target=61), [61, 30, 60], "skunk"),
])
def test_three_player_skunk_and_lurch_are_judged_on_the_lowest_loser(rules, scores, kind):
    winner = scores.index(rules.target)
    assert Outcome.judge(rules, winner, scores).kind == kind


def test_team_skunk_is_judged_on_the_losing_team_score():
    assert Outcome.judge(Rules(players=4), 1, [60, 121]).kind == "double skunk"
    assert Outcome.judge(Rules(players=4, target=61), 0, [61, 30]).kind == "skunk"


def test_short_game_has_a_skunk_line_but_no_double_skunk():
    for loser in (0, 15, 30):
        outcome = Outcome.judge(Rules(target=61), 0, [61, loser])
        assert (outcome.kind, outcome.game_points) == ("skunk", 2)
    assert Outcome.judge(Rules(target=61), 0, [61, 31]).kind == "win"


# --- rule 18: manual counting and muggins ------------------------------------------

def manual_game(muggins=True):
    rules = Rules(manual_counting=True, muggins=muggins)
    return Game.scripted(rules, dealer=0, hands=["5S 4S 2S 6H", "6D JH 4H 7C"],
                         crib="TS 8D KC 8C", starter="5H")


def test_manual_counting_and_muggins():
    game = manual_game()
    play_out(game)
    assert game.phase == "count" and game.current_player == 1
    bob = tuple(sorted(Card.parse(c) for c in "6D JH 4H 7C".split()))
    assert game.view(1).shown["hand:1"] == bob
    before = list(game.scores)
    game.apply("count 8")  # Bob misses his nobs (worth 9)
    assert game.phase == "muggins" and game.current_player == 0
    game.apply("muggins")
    assert game.scores[1] - before[1] == 8 and game.scores[0] - before[0] == 1
    assert game.phase == "count" and game.current_player == 0
    game.apply("count 20")  # an over-claim (worth 12): Bob may call it before it is pegged
    assert game.phase == "muggins" and game.current_player == 1
    assert game.scores[0] - before[0] == 1
    game.apply("muggins")  # Alice is put back to 12 and Bob scores the 8 she over-claimed
    assert game.scores[0] - before[0] == 1 + 12 and game.scores[1] - before[1] == 8 + 8
    game.apply("count 6")
    assert game.phase == "discard"  # next deal


def test_without_muggins_undercounted_points_are_lost():
    game = manual_game(muggins=False)
    play_out(game)
    before = list(game.scores)
    game.apply("count 0")
    assert game.scores == before and game.phase == "count"


def test_muggins_needs_manual_counting():
    with pytest.raises(RulesError):
        Rules(muggins=True)


# --- rule 19: exact finish ------------------------------------------------------------

def test_exact_finish_refuses_points_past_the_target():
    rules = Rules(exact_finish=True)
    game = Game.scripted(rules, dealer=0, hands=["5S 4S 2S 8D 6H 8C", "TS 6D JH 4H KC 7C"],
                         starter="5H", scores=[120, 0])
    scores_after(game, EXAMPLE_PLAY[:5])  # the fifteen (2) would make 122
    assert game.scores == [120, 0] and not game.is_over
    assert game.events[-1].refused == 2
    scores_after(game, EXAMPLE_PLAY[5:9])  # Alice 2S: the go point makes exactly 121
    assert game.is_over and game.scores[0] == 121


# --- moves, errors, saving -------------------------------------------------------------

def test_illegal_moves_raise_and_change_nothing():
    game = seed_example()
    scores_after(game, EXAMPLE_PLAY[:3])
    before = game.to_json(), len(game.events), [list(h) for h in game.hands]
    for bad, message in [("play 5S", "not in your hand"), ("discard JH", "time to play"),
                         ("play 2C", "not in your hand"), ("fly away", "unknown move"),
                         ("play QQ", "not a card"), ("count 99", "time to play")]:
        with pytest.raises(IllegalMoveError, match=message):
            game.apply(bad)
        assert (game.to_json(), len(game.events), [list(h) for h in game.hands]) == before
    assert isinstance(IllegalMoveError("x"), ValueError)


def test_count_past_31_is_illegal():
    game = seed_example()
    scores_after(game, EXAMPLE_PLAY[:7])  # count 28, Bob holds 6D 4H
    with pytest.raises(IllegalMoveError, match="past 31"):
        game.apply("play 6D")


def test_seed_and_moves_replay_exactly_and_json_round_trips_mid_deal():
    game = Game.new(Rules(players=3), seed=99)
    for _ in range(40):
        game.apply(game.legal_moves()[-1])
    text = game.to_json()
    again = Game.from_json(text)
    assert again.to_json() == text
    assert again.hands == game.hands and again.pile == game.pile and again.scores == game.scores
    assert [e.to_dict() for e in again.events] == [e.to_dict() for e in game.events]
    replay = Game.new(Rules(players=3), seed=99)
    for move in game.moves:
        replay.apply(move)
    assert replay.view(1).to_dict() == game.view(1).to_dict()


@pytest.mark.parametrize("text", [
    "", "nonsense", "[]", '{"format": "cribbage-game"}',
    '{"format": "cribbage-game", "version": 1, "rules": {"players": 5}, "setup": '
    '{"seed": 1, "first_dealer": 0}, "moves": []}',
    '{"format": "cribbage-game", "version": 1, "rules": {}, "setup": '
    '{"seed": 1, "first_dealer": 0}, "moves": ["play KS"]}',
    '{"format": "cribbage-game", "version": 1, "rules": {}, "setup": '
    '{"seed": -1, "first_dealer": 0}, "moves": []}',
    '{"format": "cribbage-game", "version": 1, "rules": {}, "setup": '
    '{"seed": 1, "first_dealer": 7}, "moves": []}',
    '{"format": "cribbage-game", "version": 1, "rules": {}, "setup": '
    '{"seed": 1, "first_dealer": 0, "deck": ["AS"]}, "moves": []}',
    '{"format": "cribbage-game", "version": 1, "rules": {}, "setup": '
    '{"seed": 1, "first_dealer": 0}, "moves": [5]}',
])
def test_corrupt_saves_give_a_clear_error(text):
    with pytest.raises(GameStateError):
        Game.from_json(text)


def test_explicit_deck_order():
    deck = [c for c in "AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS".split()]
    deck += [r + s for s in "HDC" for r in "A23456789TJQK"]
    game = Game.new(seed=1, first_dealer=0, deck=deck)
    assert sorted(c.code for c in game.hands[1]) == sorted(["AS", "3S", "5S", "7S", "9S", "JS"])
    with pytest.raises(GameStateError):
        Game.new(seed=1, first_dealer=0, deck=deck[:-1] + ["AS"])


@pytest.mark.parametrize("hands, crib, starter", [
    (["5S 4S 2S 8D 6H", "TS 6D JH 4H KC 7C"], "", "5H"),     # wrong size
    (["5S 4S 2S 8D 6H 8C", "TS 6D JH 4H KC 5S"], "", "5H"),  # duplicate
    (["5S 4S 2S 8D 6H 8C", "TS 6D JH 4H KC 7C"], "", "5S"),  # starter in a hand
    (["5S 4S 2S 6H", "6D JH 4H 7C"], "TS 8D", "5H"),         # crib too small
])
def test_bad_scripted_deals(hands, crib, starter):
    with pytest.raises(GameStateError):
        Game.scripted(dealer=0, hands=hands, crib=crib, starter=starter)


# --- hidden information ----------------------------------------------------------------

def test_view_holds_nothing_hidden():
    game = Game.new(Rules(players=4), seed=8, first_dealer=0)
    while game.phase != "play":
        game.apply(game.legal_moves()[0])
    game.apply(game.legal_moves()[0])
    for seat in range(4):
        text = json.dumps(game.view(seat).to_dict())
        hidden = [c for s in range(4) if s != seat for c in game.hands[s]]
        hidden += [c for c in game.crib if c not in game.discards[seat]] + game.deck
        for card in hidden:
            assert f'"{card.code}"' not in text
        assert game.view(seat).legal_moves == (tuple(game.legal_moves())
                                               if seat == game.current_player else ())


def test_view_of_unknown_seat():
    with pytest.raises(ValueError):
        Game.new(seed=1, first_dealer=0).view(2)


@pytest.mark.parametrize("rules", [Rules(), Rules(target=61), Rules(skunk="lurch"),
                                   Rules(target=61, skunk="lurch"), Rules(skunk="none")])
def test_skunk_lines_are_where_the_outcome_changes(rules: Rules) -> None:
    """A board's skunk lines: a loser on a line is not skunked, one hole below is."""
    lines = rules.skunk_lines
    for line in lines:
        above = Outcome.judge(rules, winner=0, scores=[rules.target, line])
        below = Outcome.judge(rules, winner=0, scores=[rules.target, line - 1])
        assert above.game_points < below.game_points
    changes = [score for score in range(1, rules.target)
               if Outcome.judge(rules, 0, [rules.target, score]).game_points
               != Outcome.judge(rules, 0, [rules.target, score - 1]).game_points]
    assert sorted(changes, reverse=True) == lines

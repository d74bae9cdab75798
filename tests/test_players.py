"""Computer players: hidden information, legal play at every level, the expert's discard."""

from __future__ import annotations

import dataclasses
import random
from itertools import combinations

import pytest
from reference import reference_play

from cribbage import Card, Game, Move, Rules, score_hand
from cribbage.cards import full_deck
from cribbage.players import (
    LEVELS,
    Player,
    computer_move,
    exact_count,
    load_player,
    make_player,
)
from cribbage.players.discard import crib_tables, crib_value, crib_weight, rank_discards
from cribbage.players.pegging import PlaySearch, peg_points, sample_hidden_hands
from cribbage.scoring import score_peg
from cribbage.view import PlayerView


def play_out(game: Game, players: list, check=None, max_deals: int = 99) -> Game:
    while game.phase != "over" and game.deal_number <= max_deals:
        seat = game.current_player
        view = game.view(seat)
        if check:
            check(game, view)
        move = computer_move(players[seat], view)
        assert move in game.legal_moves(), (move, game.phase)
        game.apply(move)
    return game


def reachable_objects(root: object, limit: int = 20000) -> list[object]:
    """Every object reachable from ``root`` through attributes and containers."""
    seen, stack, found = set(), [root], []
    while stack and len(found) < limit:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, (str, int, float, bool, type(None))):
            continue
        seen.add(id(obj))
        found.append(obj)
        if isinstance(obj, dict):
            stack.extend(obj.keys())
            stack.extend(obj.values())
        elif isinstance(obj, (list, tuple, set, frozenset)):
            stack.extend(obj)
        for name in getattr(type(obj), "__slots__", ()):
            stack.append(getattr(obj, name, None))
        if hasattr(obj, "__dict__"):
            stack.extend(vars(obj).values())
    return found


class Spy:
    """A player that checks every view it gets for hidden cards, then plays like standard."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.inner = make_player("standard", seed=0)
        self.views = 0

    def inspect(self, view: PlayerView) -> None:
        self.views += 1
        game = self.game
        reachable = reachable_objects(view)
        assert not any(isinstance(obj, Game) for obj in reachable), "the view reaches the game"
        # Cards of earlier deals were public when logged; check this deal's knowledge.
        this_deal = tuple(e for e in view.events if e.deal == view.deal_number)
        reachable = reachable_objects(dataclasses.replace(view, events=this_deal))
        public = {card for _, card in view.played} | {view.starter} if view.starter else set()
        public |= {card for _, card in view.played}
        public |= {c for cards in view.shown.values() for c in cards}
        hidden = set(game.deck) | set(game.crib) - set(view.discards)
        for seat in range(game.players):
            if seat != view.seat:
                hidden |= set(game.hands[seat]) | set(game.kept[seat]) | set(game.discards[seat])
        hidden -= public
        cards = {obj for obj in reachable if isinstance(obj, Card)}
        assert not cards & hidden, f"view holds hidden cards {cards & hidden}"

    def discard(self, view: PlayerView) -> list[Card]:
        self.inspect(view)
        return self.inner.discard(view)

    def play(self, view: PlayerView) -> Card:
        self.inspect(view)
        return self.inner.play(view)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_player_never_receives_hidden_cards(players: int) -> None:
    game = Game.new(Rules(players=players, target=61), seed=11, first_dealer=0)
    spy = Spy(game)
    others = [make_player("expert", seed=s) for s in range(players)]
    seats = [spy] + others[1:]
    play_out(game, seats, max_deals=2)
    assert spy.views > 4


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("level", list(LEVELS))
def test_every_level_plays_legal_moves(level: str, players: int) -> None:
    game = Game.new(Rules(players=players, target=61), seed=players * 7, first_dealer=1)
    seats = [make_player(level, seed=s) if s % 2 == 0 else make_player("standard", seed=s)
             for s in range(players)]
    play_out(game, seats, max_deals=3 if level == "expert" else 99)
    assert game.deal_number >= 2


@pytest.mark.parametrize("level", list(LEVELS))
def test_players_follow_the_protocol(level: str) -> None:
    """Each level's answers, asked directly at every decision of a whole game between two
    of them: the discards and cards the protocol promises, a count the game accepts."""
    players = [make_player(level, seed=1), make_player(level, seed=2)]
    assert all(isinstance(player, Player) and type(player) is LEVELS[level]
               for player in players)
    assert repr(players[0]) == f"{LEVELS[level].__name__}()" and players[0].level == level
    game = Game.new(Rules(target=61, manual_counting=True), seed=21, first_dealer=0)
    asked = {"discard": 0, "play": 0, "count": 0}
    while game.phase != "over":
        seat = game.current_player
        assert seat is not None
        view, legal = game.view(seat), game.legal_moves()
        player = players[seat]
        if view.phase == "discard":
            cards = list(player.discard(view))
            assert len(cards) == len(set(cards)) == view.rules.discards_each
            assert set(cards) <= set(view.hand)
            move = Move("discard", tuple(cards))
        elif view.phase == "play" and legal != [Move("go")]:
            card = player.play(view)
            assert card in view.hand and view.count + card.value <= 31
            move = Move("play", (card,))
        elif view.phase == "count":
            points = player.count(view)
            assert type(points) is int and 0 <= points <= exact_count(view) + 29
            move = Move("count", points=points)
        else:
            move = computer_move(player, view)
        asked[move.kind] = asked.get(move.kind, 0) + 1
        assert move in legal, (level, move, view.phase)
        game.apply(move)
    assert asked["discard"] >= 4 and asked["play"] >= 8 and asked["count"] >= 6, asked
    outcome = game.outcome
    assert outcome is not None and list(outcome.scores) == game.scores
    assert game.scores[outcome.winner] >= 61 > game.scores[1 - outcome.winner]


def test_players_are_made_and_loaded_by_name() -> None:
    assert type(load_player("cribbage.players:Easy")) is LEVELS["easy"]
    assert type(load_player("master", seed=3)) is LEVELS["master"]
    with pytest.raises(ValueError, match="did not return a player"):
        load_player("collections:OrderedDict")
    with pytest.raises(ValueError, match="unknown level 'grandmaster'"):
        make_player("grandmaster")


def test_manual_counting_with_muggins_plays_to_the_end() -> None:
    rules = Rules(manual_counting=True, muggins=True)
    game = Game.new(rules, seed=4, first_dealer=0)
    play_out(game, [make_player("beginner", seed=1), make_player("expert", seed=2)])
    outcome = game.outcome
    assert outcome is not None and game.phase == "over"
    assert game.scores[outcome.winner] >= rules.target > game.scores[1 - outcome.winner]
    # Every point pegged is in the log: the scores are the events' totals.
    totals = [sum(e.points for e in game.events if e.team == team) for team in (0, 1)]
    assert totals == game.scores == list(outcome.scores)
    starters = {e.deal: e.cards[0] for e in game.events if e.kind == "starter"}
    events = list(game.events)
    called = 0
    for index, claim in enumerate(events):
        if claim.kind != "claim":
            continue
        assert claim.count is not None
        pegged = events[index + 1]  # the hand or crib claimed, as the game pegged it
        assert pegged.kind in ("hand", "crib") and pegged.cards == claim.cards
        worth = score_hand(list(claim.cards), starters[claim.deal],
                           crib=pegged.kind == "crib").total
        assert claim.seat == 0 or claim.count == worth  # the expert counts exactly
        after = events[index + 2] if index + 2 < len(events) else None
        # What was pegged and what stopped at the game hole (beyond) make the count.
        assert pegged.points + pegged.beyond == (
            min(claim.count, worth) if after and after.kind == "muggins" else claim.count)
        if after is not None and after.kind == "muggins":
            # The other side takes the difference: a called under-count adds up to the worth.
            called += 1
            assert claim.count != worth and after.seat == 1 - claim.seat
            assert after.count == claim.count and after.points == abs(claim.count - worth)
            assert after.miscount == ("under" if claim.count < worth else "over")
        elif claim.count < worth:  # the expert calls every under-count, unless it won
            assert after is not None and after.kind == "over"
    # The beginner under-counts sometimes and the expert takes the points.
    assert called == sum(e.kind == "muggins" for e in events) >= 1


def test_expert_counts_exactly_and_beginner_can_miss_nobs() -> None:
    rules = Rules(manual_counting=True)
    game = Game.scripted(rules, dealer=0, hands=["5S 4S 2S 6H", "6D JH 4H 7C"],
                         crib="TS 8D KC 8C", starter="5H")
    play_out(game, [make_player("expert"), make_player("expert")], max_deals=1)
    claims = [e.count for e in game.events if e.kind == "claim"]
    assert claims == [9, 12, 6]  # Bob 9, Alice 12, crib 6: the seeds' worked example
    beginner = make_player("beginner", seed=0)
    beginner.miss_nobs = 1.0
    beginner.miss_fifteen = 0.0
    game = Game.scripted(rules, dealer=0, hands=["5S 4S 2S 6H", "6D JH 4H 7C"],
                         crib="TS 8D KC 8C", starter="5H")
    while game.phase != "count":
        seat = game.current_player
        game.apply(computer_move(make_player("standard"), game.view(seat)))
    view = game.view(1)
    assert exact_count(view) == 9 and beginner.count(view) == 8


def test_computer_move_says_go_and_cuts() -> None:
    game = Game.new(seed=2, first_dealer=0)
    player = make_player("expert", seed=1)
    kinds = set()
    while game.phase != "over" and game.deal_number < 4:
        view = game.view(game.current_player)
        move = computer_move(player, view)
        if view.legal_moves in ((Move("go"),), (Move("cut"),)):
            assert move == view.legal_moves[0]
            kinds.add(move.kind)
        game.apply(move)
    assert kinds == {"go", "cut"}


def brute_force_value(view: PlayerView, discard: tuple[Card, ...]) -> float:
    """The expert's stated discard value, recomputed with the itemised scorer."""
    kept = [c for c in view.hand if c not in discard]
    seen = set(view.hand)
    starters = [Card.from_index(i) for i in range(52) if Card.from_index(i) not in seen]
    role = "dealer" if view.is_dealer else "pone"
    total = 0.0
    for starter in starters:
        total += score_hand(kept, starter).total
        total += crib_weight(view) * crib_value(view.rules.players, role, discard,
                                                     starter, view.hand)
    return total / len(starters)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_expert_discard_maximises_its_value_function(players: int) -> None:
    rng = random.Random(players)
    expert = make_player("expert")
    for trial in range(6):
        game = Game.new(Rules(players=players), seed=rng.randrange(10**6),
                        first_dealer=trial % players)
        view = game.view(game.current_player)
        chosen = tuple(sorted(expert.discard(view)))
        values = {tuple(sorted(d)): brute_force_value(view, d)
                  for d in combinations(view.hand, view.rules.discards_each)}
        assert values[chosen] == pytest.approx(max(values.values()), abs=1e-9)
        ranked = rank_discards(view)
        assert ranked[0].net == pytest.approx(values[chosen], abs=1e-9)


def test_crib_tables_are_sane() -> None:
    tables = crib_tables()
    dealer = tables["2p dealer"]
    # Laying away 5-5 into your own crib is worth far more than K-9.
    assert dealer[4][4][9] > dealer[12][8][9] + 4
    assert 3.5 < sum(dealer[a][b][s] for a in range(13) for b in range(13)
                     for s in range(13)) / 13**3 < 6
    assert len(tables["3p"]) == 13 and len(tables["4p"][0]) == 13


def test_peg_points_agree_with_the_engine() -> None:
    rng = random.Random(3)
    deck = [Card.from_index(i) for i in range(52)]
    checked = 0
    while checked < 2000:
        pile = rng.sample(deck, rng.randint(1, 6))
        count = sum(c.value for c in pile)
        if count > 31:
            continue
        assert peg_points(tuple(c.rank for c in pile), count) == score_peg(pile).total
        checked += 1


def test_the_pegging_search_agrees_with_the_reference_play() -> None:
    """The players' search of the rest of the play (on ranks) and the rules-text search
    of tests/reference.py (on cards) find the same best pegging lead, every card known,
    on random deals of two to four cards each: the reference that checks the master's
    decisions (tests/test_master.py) plays by the engine's rules."""
    rng = random.Random(1)
    deck = [(card.rank, card.suit) for card in full_deck()]
    for _ in range(150):
        rng.shuffle(deck)
        sizes = rng.choice([(4, 4), (3, 4), (4, 3), (3, 3), (2, 3), (2, 2)])
        hands = (tuple(deck[:sizes[0]]), tuple(deck[sizes[0]:sum(sizes)]))
        me, turn = rng.randrange(2), rng.randrange(2)

        def lead(pegged: tuple[int, int], done: bool, me: int = me) -> float | None:
            return float(pegged[me] - pegged[1 - me]) if done else None

        expected = reference_play(hands, (), turn, frozenset(), None, me, lead)
        ranks = tuple(tuple(sorted(rank for rank, _ in hand)) for hand in hands)
        assert PlaySearch(2, [0, 1], me).value(ranks, (), turn, 0, -1, 99) == expected


def test_sampled_hands_respect_a_go() -> None:
    game = Game.scripted(dealer=0, hands=["KS QS JS 5D", "KH QH AH TH"],
                         crib="2C 3C 4C 5C", starter="9D")
    game.apply("cut")
    for move in ("play KH", "play KS", "play QH", "go"):
        game.apply(move)
    view = game.view(1)  # seat 0 said go at 30: it holds nothing worth 1
    for _ in range(20):
        hands = sample_hidden_hands(view, random.Random(_))
        assert len(hands[0]) == 3 and min(hands[0]) >= 2


def test_suited_discard_adds_the_crib_flush_chance() -> None:
    from cribbage.cards import parse_cards
    from cribbage.players.discard import flush_chance

    hand = parse_cards("2H 7H 9S KC QD 4D")
    suited, mixed = parse_cards("2H 7H"), parse_cards("2H 7S")
    starter = Card.parse("5H")
    # 10 hearts unseen (13 - our 2 - the starter): the opponent throws 2 of 45 cards.
    assert flush_chance(2, "H", hand) == pytest.approx(10 * 9 / (45 * 44))
    gain = crib_value(2, "dealer", suited, starter, hand) - crib_value(2, "dealer", suited,
                                                                      starter)
    assert gain == pytest.approx(5 * flush_chance(2, "H", hand) - 5 * flush_chance(2, "H", ()))
    assert crib_value(2, "dealer", mixed, starter, hand) == crib_value(2, "dealer", mixed, starter)
    assert flush_chance(4, "S", parse_cards("AS 2S 3S 4S 5S")) == pytest.approx(
        7 * 6 * 5 / (46 * 45 * 44))


def test_keep_table_and_plausible_samples() -> None:
    from cribbage.players.pegging import discard_regret, keep_value, sample_plausible_hands
    from cribbage.scoring import rank_points

    ranks = (4, 5, 5, 6)
    weights = [4 - ranks.count(s) for s in range(1, 14)]
    exact = sum(w * rank_points(tuple(sorted(ranks + (s,))))
                for s, w in zip(range(1, 14), weights)) / sum(weights)
    assert keep_value(ranks) == pytest.approx(exact, abs=1e-3)
    assert discard_regret((5, 5, 10, 11, 1, 13), 2, 1.0) == 0.0  # 5-5-T-J is the keep
    assert discard_regret((1, 2, 9, 13, 5, 5), 2, 1.0) > 1  # throwing 5-5 is poor
    game = Game.scripted(dealer=0, hands=["KS QS JS 5D", "KH QH AH TH"],
                         crib="2C 3C 4C 5C", starter="9D")
    game.apply("cut")
    for move in ("play KH", "play KS", "play QH", "go"):
        game.apply(move)
    view = game.view(1)
    for seed in range(10):
        hands = sample_plausible_hands(view, random.Random(seed), 3.0)
        assert len(hands[0]) == 3 and min(hands[0]) >= 2


def test_plays_are_read_series_by_series() -> None:
    from cribbage.players.pegging import play_shortfall, series_plays

    game = Game.scripted(dealer=0, hands=["KS QS JS 5D", "KH QH AH 4H"],
                         crib="2C 3C 4C 5C", starter="9D")
    game.apply("cut")
    for move in ("play KH", "play KS", "play QH", "go", "play AH", "play 5D"):
        game.apply(move)
    plays = series_plays(game.view(0))
    # K K Q is 30, a go, the ace makes 31: the five begins the next series.
    assert [(seat, len(pile), rank) for seat, pile, rank in plays] == [
        (1, 0, 13), (0, 1, 13), (1, 2, 12), (1, 3, 1), (0, 0, 5)]
    # Seat 1 laid the queen on the pair of kings: holding a third king it passed up six.
    assert play_shortfall(plays, 1, (13,)) == 6
    assert play_shortfall(plays, 1, (4,)) == 0


def test_reading_the_plays_makes_a_missed_fifteen_unlikely() -> None:
    from cribbage.players.pegging import sample_plausible_hands

    # The pone led a ten and the dealer answered with a two: a dealer holding a five
    # would have pegged fifteen two, so sampled hands with a five grow rare.
    game = Game.scripted(dealer=0, hands=["2S 9D 9H KD", "TS 3D 7H 8C"],
                         crib="AC 3C 4C 6C", starter="QD")
    game.apply("cut")
    for move in ("play TS", "play 2S"):
        game.apply(move)
    view = game.view(1)

    def fives(reading: float) -> int:
        return sum(5 in sample_plausible_hands(view, random.Random(seed), 3.0,
                                               reading=reading)[0]
                   for seed in range(300))

    assert fives(0.0) > 3 * fives(2.0)

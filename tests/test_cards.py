"""Cards (docs/rules.md rules 1-2) and their text forms."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cribbage import Card, CardError, full_deck, parse_cards


@pytest.mark.parametrize("text, code", [
    ("5S", "5S"), ("5s", "5S"), ("10H", "TH"), ("TH", "TH"), ("th", "TH"), ("QD", "QD"),
    ("AC", "AC"), ("5♠", "5S"), ("10♥", "TH"), ("Q♦", "QD"), ("A♣", "AC"), (" kc ", "KC"),
])
def test_parse_accepts_every_documented_form(text, code):
    assert Card.parse(text).code == code


@pytest.mark.parametrize("text", ["", "5", "1S", "11H", "5X", "ZS", "10", "5SS", "♠5", "0S"])
def test_parse_rejects_with_a_message_naming_the_text(text):
    with pytest.raises(CardError) as error:
        Card.parse(text)
    assert repr(text.strip() if text.strip() else text)[1:-1] in str(error.value) or text == ""
    assert isinstance(error.value, ValueError)


def test_symbol_and_code_forms():
    card = Card.parse("10H")
    assert (str(card), card.code, card.rank, card.suit, card.value) == ("10♥", "TH", 10, "H", 10)
    assert str(Card.parse("AS")) == "A♠"


def test_values_ace_low_faces_ten():  # rule 2
    assert [Card(rank, "S").value for rank in range(1, 14)] == [1, 2, 3, 4, 5, 6, 7, 8, 9,
                                                                10, 10, 10, 10]


def test_ordering_and_hashing():
    deck = full_deck()
    assert len(set(deck)) == 52 and sorted(reversed(deck)) == deck
    assert Card.parse("AS") < Card.parse("2S") < Card.parse("KC")
    assert {Card.parse("5S"): 1}[Card(5, "S")] == 1


def test_parse_cards_list_and_text():
    assert parse_cards("5S 4S 2S 6H") == [Card(5, "S"), Card(4, "S"), Card(2, "S"), Card(6, "H")]
    assert parse_cards("5S,4S") == parse_cards(["5S", "4S"])
    with pytest.raises(CardError, match="'QQ'"):
        parse_cards("5S QQ")


def test_invalid_constructor_values():
    with pytest.raises(CardError):
        Card(14, "S")
    with pytest.raises(CardError):
        Card(5, "X")


@given(st.integers(0, 51))
def test_text_forms_round_trip(index):
    card = Card.from_index(index)
    assert Card.parse(card.code) == card == Card.parse(str(card))
    assert card.index == index

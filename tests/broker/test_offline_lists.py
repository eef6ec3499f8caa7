"""A list said with a heading of the owner's own, and an item added later
(shelldon.broker.offline_lists, through broker.offline): kept as the list, the item added to
it, the list said back whole. Before the seventeenth pass "I need: …" and "add to my list: …"
kept nothing, and "what's on my list?" said the command back."""

from __future__ import annotations

from shelldon.broker.offline_lists import added, heading
from shelldon.broker.offline_view import Shown
from support.offline_pet import Pet


def test_a_heading_of_the_owners_own_is_a_list() -> None:
    assert heading("we need: oat milk, apples, rice") == "shopping list: oat milk, apples, rice"
    assert heading("stuff to pack for the weekend: tent, stove") == "packing list: tent, stove"
    assert heading("my favourite films are: Alien, Heat") == "my favourite films are Alien, Heat"
    assert heading("note to self: call mum") == "note to self: call mum"  # no list heading


def test_a_list_is_kept_an_item_added_and_said_back_whole() -> None:
    pet = Pet()
    pet.say("hi, I'm Ola")
    pet.say("we need: oat milk, apples, rice")
    reply = pet.say("and also lemons")
    assert "lemons" in reply, reply
    lists = [body for body, _ in pet.memory.values() if "shopping list" in body]
    assert lists and all(f in " ".join(lists) for f in ("oat milk", "apples", "rice", "lemons"))
    answer = pet.say("what do I need to get?")
    assert all(f in answer for f in ("oat milk", "apples", "rice", "lemons")), answer


def test_added_to_my_list_is_kept_and_asked_back() -> None:
    pet = Pet()
    pet.say("hi, I'm Ola")
    pet.say("add to my list: renew passport")
    pet.say("put book the vet on my list")
    answer = pet.say("what's on my list?")
    assert "renew passport" in answer and "book the vet" in answer, answer
    assert "add to" not in answer, answer


def test_a_list_shown_by_title_alone_is_never_replaced_by_the_new_item() -> None:
    entries = [Shown("shopping list", "facts")]  # its words are not in the prompt
    found = added("oh and bananas", entries, "I need: milk, eggs")
    assert found is not None
    _, name, content = found.keep
    assert name != "shopping list" and "bananas" in content


def test_several_favourites_are_kept() -> None:
    pet = Pet()
    pet.say("hi, I'm Ola")
    pet.say("my favourite films are: Alien, Heat and Arrival")
    kept = " ".join(body for body, _ in pet.memory.values())
    assert "Alien, Heat and Arrival" in kept, pet.memory


def test_more_for_a_list_said_with_its_own_heading_is_added() -> None:
    """After the held-apart owner: "also to buy: …" after a list kept nothing."""
    pet = Pet()
    pet.say("hi, I'm Ola")
    pet.say("to buy: pears, cheese")
    pet.say("plus I need: soap, foil")
    answer = pet.say("what's on my shopping list?")
    assert all(f in answer for f in ("pears", "cheese", "soap", "foil")), answer


def test_a_shopping_need_said_without_a_heading_is_the_shopping_list() -> None:
    """The nineteenth pass: "I need to buy milk, eggs and bread" was "Tell me more!", nothing
    kept; a need of two things or more, or what the owner ran out of, is the shopping list, and
    a second one adds to it."""
    assert heading("I need to pick up rice and onions") == "shopping list: rice and onions"
    assert heading("we ran out of oat milk") == "shopping list: oat milk"
    for not_a_list in ("I need to get a new job", "I'm out of ideas", "I need to get up and go"):
        assert heading(not_a_list) == not_a_list
    pet = Pet()
    pet.say("hi, I'm Ola")
    reply = pet.say("I need to buy lentils and limes")
    assert "lentils" in reply and "shopping list" in reply, reply
    reply = pet.say("oh and we're out of butter, sugar")
    assert "butter" in reply, reply
    answer = pet.say("what do I need to buy?")
    assert all(f in answer for f in ("lentils", "limes", "butter", "sugar")), answer

"""core.retrieval.query: the words a turn's entries are ranked by."""

from __future__ import annotations

from shelldon.core.retrieval.query import query_tokens
from shelldon.core.words import tokens


def test_a_question_about_the_owner_as_a_whole_is_ranked_by_owner() -> None:
    assert "owner" in query_tokens("what do you know about me?")
    assert "owner" in query_tokens("Tell me about myself")
    assert "owner" not in query_tokens("where does my sister live?")


def test_a_question_about_the_owner_typed_short_is_ranked_by_owner() -> None:
    """The fourteenth pass, talking to the real pet: "wat do u know abt me" got "I don't know
    much about you yet" with five entries kept: no word of it was in them, so none was in the
    prompt."""
    for asked in ("wat do u know abt me", "what u know bout me?", "tell me abt myself"):
        assert "owner" in query_tokens(asked), asked


def test_a_question_about_who_the_owner_is_is_ranked_by_the_owners_name() -> None:
    """Found talking to the pet: "who am I?" twenty turns after "I'm Priya" got "I don't think
    you've told me your name yet!": no word of it is in the entry that names the owner."""
    who = ("who am I?", "Do you remember me?", "hey, do you know who I am?", "you know me?",
           "Have we met before?", "so do you still recognise me")  # fmt: skip
    for asked in who:
        assert {"owner", "name"} <= set(query_tokens(asked)), asked
    for other in ("who am I meeting tomorrow?", "do you know my sister?", "remember me to Ana"):
        assert "name" not in query_tokens(other), other


def test_a_question_about_a_liking_is_ranked_by_its_kinds_words() -> None:
    assert {"tea", "coffe"} <= set(query_tokens("what do I like to drink?"))
    assert "band" in query_tokens("what music do I like?")
    assert "pizza" in query_tokens("what's my favourite food?")
    # Not a question about liking: a dinner is not ranked by every dish.
    assert "pizza" not in query_tokens("I'm cooking dinner for Ana tonight")
    assert "owner" in query_tokens("what did I tell you?")
    assert "owner" in query_tokens("What do you remember?")
    assert "owner" not in query_tokens("what did I tell you about my sister?")


def test_a_question_about_the_work_of_before_is_ranked_by_the_former_job() -> None:
    """The sixteenth pass: "where did I used to work?" past the recent window said the owner's
    own line back: the entry titled "former job" ("The owner is a retired welder.") shared no
    word of the question but "work", and was not ranked in."""
    former = set(query_tokens("former job"))
    for asked in ("where did I used to work?", "what was my old job?", "what did I use to do?"):
        assert former <= set(query_tokens(asked)), asked
    assert not former <= set(query_tokens("where do I work?"))


def test_a_question_about_a_list_is_ranked_by_the_list() -> None:
    """The seventeenth pass: "what do I need to buy?" shared no word with "shopping list"."""
    for asked in ("what do I need to buy?", "what's on my list?", "what's on the shopping list"):
        assert {"shop", "list"} <= set(query_tokens(asked)), asked
    assert "list" not in query_tokens("what do I need to do today?")


def test_a_gift_question_is_ranked_by_what_people_like() -> None:
    """The seventeenth pass: "any idea what I could get her?" did not rank "wife ingrid likes"."""
    for asked in ("any idea what I could get her?", "what should I buy my dad", "gift ideas?"):
        assert "like" in query_tokens(asked), asked
    assert "like" not in query_tokens("what should I get done today?")


def test_a_meal_question_is_ranked_by_the_owners_diet() -> None:
    """The nineteenth pass: "any ideas for dinner tonight?" shared no word with the kept "diet"
    ("The owner is vegetarian.") nor "mum skill" ("… makes the best dal")."""
    diet = set(tokens("diet makes"))
    for asked in ("any ideas for dinner tonight?", "what's for dinner?", "what should I bake?"):
        assert diet <= set(query_tokens(asked)), asked
    assert not diet <= set(query_tokens("what did I have for dinner yesterday?"))

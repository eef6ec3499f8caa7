"""Kinds of things an owner likes (food, drink, films and shows, books, music) and the everyday
words of each: the words that ask for the kind ("what do I like to *drink*?") and a few that name
one ("tea", "sushi", "jazz"). One home for both readers of them:

- ranking (core.retrieval.query.query_tokens): a question about what the owner likes of a kind
  shares no word with "The owner loves jasmine tea", so it is ranked by the kind's words too, and
  the entry reaches the prompt in full rather than by its title;
- the offline brain (broker.offline_topics): a preference counts for "what should I drink?" when it
  names the kind or one of its words.

Small lists on purpose (the broker's memory budget): the common words of each kind, plurals
spelt out, no regular expressions.
"""

from __future__ import annotations

# The words that ask for a kind.
KIND_NAMES: dict[str, tuple[str, ...]] = {
    "food": (
        "food",
        "foods",
        "dish",
        "dishes",
        "meal",
        "meals",
        "cuisine",
        "dinner",
        "lunch",
        "breakfast",
        "snack",
        "eat",
        "eating",
        "cook",
        "cooking",
    ),
    "watch": (
        "film",
        "films",
        "movie",
        "movies",
        "cinema",
        "series",
        "show",
        "shows",
        "tv",
        "telly",
        "documentary",
        "documentaries",
        "watch",
        "watching",
    ),
    "read": ("book", "books", "novel", "novels", "author", "authors", "read", "reading"),
    "listen": (
        "music",
        "song",
        "songs",
        "band",
        "bands",
        "album",
        "albums",
        "podcast",
        "podcasts",
        "artist",
        "artists",
        "singer",
        "singers",
        "listening",
    ),
    "drink": ("drink", "drinks", "beverage", "beverages"),
}
# A few words that name one of a kind.
KIND_INSTANCES: dict[str, tuple[str, ...]] = {
    "food": (
        "pizza",
        "pasta",
        "sushi",
        "curry",
        "ramen",
        "noodles",
        "tacos",
        "burger",
        "burgers",
        "salad",
        "soup",
        "rice",
        "chocolate",
        "cake",
        "ice cream",
        "steak",
        "chicken",
        "fish and chips",
        "dumplings",
        "pancakes",
        "bread",
        "cheese",
    ),
    "watch": ("anime", "cartoon", "cartoons", "sitcom", "sitcoms"),
    "read": ("poetry", "poems", "comics", "manga", "magazine", "magazines"),
    "listen": ("jazz", "rock", "pop"),
    "drink": (
        "tea",
        "coffee",
        "beer",
        "wine",
        "juice",
        "cocktail",
        "cocktails",
        "smoothie",
        "smoothies",
        "lemonade",
        "cider",
        "whisky",
        # coffee-shop drinks (the fourteenth pass: "i love iced lattes", then "what should i
        # drink rn" got "I don't know what you like to drink yet")
        "latte",
        "lattes",
        "cappuccino",
        "espresso",
        "mocha",
        "matcha",
        "chai",
        "milkshake",
        "milkshakes",
        "kombucha",
    ),
}
# The words of a question about what the owner likes.
LIKING_WORDS = (
    "like",
    "likes",
    "love",
    "loves",
    "enjoy",
    "enjoys",
    "favourite",
    "favorite",
    "fave",
    "prefer",
    "prefers",
)

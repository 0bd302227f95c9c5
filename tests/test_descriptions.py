"""Description analysis: the tokenizer, the matchers, and plain English that must stay unflagged."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support import lint

from webmcp_lint.descriptions import (
    consequential_action,
    describe,
    developer_tooling,
    name_words,
    reads_like_query,
    same_value,
    tokenize,
)


def listed_values(text, values):
    return describe(text).listed_values(values)


def kinds(text):
    return [(token.kind, token.text) for token in tokenize(text)]


def test_tokenizer_separates_words_quotes_backticks_numbers_and_identifiers():
    assert kinds("Pass `sort_order` as 'asc' or \"desc\", max 1,000 for flightId.") == [
        ("word", "Pass"), ("code", "sort_order"), ("word", "as"), ("quoted", "asc"), ("word", "or"),
        ("quoted", "desc"), ("punct", ","), ("word", "max"), ("number", "1,000"), ("word", "for"),
        ("identifier", "flightId"), ("punct", "."),
    ]


def test_tokenizer_keeps_apostrophes_and_dates_inside_their_token():
    assert kinds("the user's order of 2024-01-15") == [
        ("word", "the"), ("word", "user's"), ("word", "order"), ("word", "of"), ("number", "2024-01-15")]


def test_name_words_split_on_separators_and_case_changes():
    assert name_words("getHTMLPageURL_v2.fetch-now") == ("get", "html", "page", "url", "v2", "fetch", "now")


@pytest.mark.parametrize(("name", "expected"), [
    ("Returns", ("returns",)), ("get_order-status", ("get", "order", "status")), ("A", ("a",)),
    ("Sort_Order", ("sort", "order")), ("sortOrder", ("sort", "order")), ("", ()), ("URLs", ("ur", "ls")),
])
def test_name_words_lower_case_every_word_with_or_without_case_changes(name, expected):
    assert name_words(name) == expected


def test_tokenizer_reads_signed_numbers_and_quotes_only_where_they_stand_alone():
    assert kinds("'start' set\t-5 or x-5, 'q' and it's 'ok'\n`a`") == [
        ("quoted", "start"), ("word", "set"), ("number", "-5"), ("word", "or"), ("word", "x-5"), ("punct", ","),
        ("quoted", "q"), ("word", "and"), ("word", "it's"), ("quoted", "ok"), ("punct", "\n"), ("code", "a")]


def test_tokenizer_tells_identifiers_from_capitalised_words():
    assert kinds("Returns getUser or ID") == [
        ("word", "Returns"), ("identifier", "getUser"), ("word", "or"), ("word", "ID")]


@pytest.mark.parametrize(("text", "cue"), [
    ("(celsius if omitted)", "defaults"), ("Sorted newest first unless set; when not given, newest is used.", "defaults"),
    ("A boolean flag.", "types"), ("Returns true or false.", "types"), ("Up to 50 items.", "bounds"),
    ("Choose from: small, medium or large.", "value_lists"), ("'x' or 'y'", "value_lists"), ("pickup|delivery", "value_lists"),
])
def test_a_text_with_the_cue_of_a_matcher_is_still_matched(text, cue):
    assert getattr(describe(text), cue)


# --- matchers: what counts -------------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "names", "expected"), [
    ("Pass the search_query to narrow results.", ["search_query"], ["search_query"]),
    ("Looks up flightId in the schedule.", ["flightId"], ["flightId"]),
    ("Set `limit` to cap the results.", ["limit"], ["limit"]),
    ('Use "query" for the words.', ["query"], ["query"]),
    ("query: the words to look for.", ["query"], ["query"]),
    ("Runs query(words) against the index.", ["query"], ["query"]),
    ("Give the city parameter as a name.", ["city"], ["city"]),
    ("Fetch the text of a URL.", ["url"], []),
    ("Searches the catalog for the query the user typed.", ["query"], []),
    ("Order of the results.", ["order"], []),
])
def test_parameter_names_count_only_when_written_as_names(text, names, expected):
    assert describe(text).parameter_names(names) == expected


@pytest.mark.parametrize("text", [
    "Takes a string with the words to search for.", "The number of seats (integer).", "A boolean flag for gift wrap.",
    "An array of product IDs.", "List of strings naming the tags.", "Must be a string.", "Set true/false to include drafts.",
    "Value of type number.", "String: the city name.",
])
def test_type_words_used_as_types(text):
    assert describe(text).types


@pytest.mark.parametrize("text", [
    "Number of tickets to purchase", "A number of options are available.", "Phone number the courier can call.",
    "Supports boolean operators such as AND and OR.", "Card number printed on the front.",
    "Query string appended to the link.", "Rounds the total to the nearest integer amount shown to the user.",
    "Object detection on the uploaded photo.",
])
def test_type_words_in_plain_english(text):
    assert not describe(text).types


def test_enum_values_match_whole_words_and_spaced_identifiers():
    assert listed_values("Sort newest first, or by price low to high.", ["newest", "price_low_to_high"]) == [
        "newest", "price_low_to_high"]
    assert listed_values("Pick a size from the menu.", ["a", "b"]) == []
    assert listed_values("Pick 'a' or 'b'.", ["a", "b"]) == ["a", "b"]
    assert listed_values("Relative network priority for the request", ["high", "low", "auto"]) == []
    # Values far apart are words of a sentence, not a list of values.
    assert listed_values("Lists the user's projects, including the ones shared with them by an admin.",
                            ["user", "admin"]) == []


@pytest.mark.parametrize(("text", "value"), [
    ("Defaults to 10.", "10"), ("Sort order; defaults to newest.", "newest"), ("Currency (default: 'EUR').", "EUR"),
    ("Page size, default 20.", "20"), ("Includes drafts, false by default.", "false"), ("The default is `relevance`.", "relevance"),
    ("Units are either celsius or fahrenheit (celsius if omitted).", "celsius"),
    ("Sort order, 'relevance' when omitted.", "relevance"), ("Page size; 20 if not given.", "20"),
    ("If not given, today's date is used.", "today's date"),
])
def test_default_statements(text, value):
    assert [statement.values for statement in describe(text).defaults] == [[value]]


# Words and values a default may be stated with: numbers in several spellings, words, infinities.
STATED = st.sampled_from(["10", "1,000", "1e3", "0.5", "١٢", "1_000", "-3", "Infinity", "inf", "NaN", "newest",
                          "Newest", "oldest", "true", "ten", "first"])


@given(st.lists(STATED, min_size=1, max_size=4), STATED)
def test_the_cheap_look_near_default_never_misses_a_value_same_value_accepts(stated, declared):
    """near_default_word skips the words near "default" when no token may state the value (_may_be_written): that
    shortcut must agree with same_value, whatever either learns to accept."""
    facts = describe("Sort order, " + " ".join(stated) + " by default.")
    assert facts.near_default_word(declared) == any(same_value(word, declared) for word in facts.default_neighbours)


@pytest.mark.parametrize("text", [
    "Use the default shipping address.", "If omitted, the default is used.", "Defaults to the current location of the user.",
    "Whether this card becomes the default.",
    "Ignored if empty.", "Returns all results if omitted.", "Search text. If omitted, every product is listed.",
])
def test_default_word_without_a_value(text):
    assert describe(text).defaults == []


@pytest.mark.parametrize(("text", "kind", "values", "unit"), [
    ("Between 1 and 100 results.", "range", ["1", "100"], "results"),
    ("At most 50 characters.", "max", ["50"], "characters"),
    ("Up to 3 attachments.", "max", ["3"], "attachments"),
    ("Max 50 characters", "max", ["50"], "characters"),
    ("Maximum length of 20.", "max", ["20"], None),
    ("At least 8 characters long.", "min", ["8"], "characters"),
    ("Page size (1-100).", "range", ["1", "100"], None),
    ("Rating from 1 to 5 stars.", "range", ["1", "5"], "stars"),
    ("10 or more seats.", "min", ["10"], "seats"),
    ("Age, 18 or older.", "min", ["18"], None),
    ("Latitude between -90 and 90.", "range", ["-90", "90"], None),
])
def test_bound_statements(text, kind, values, unit):
    statements = describe(text).bounds
    assert [(statement.kind, statement.values, statement.unit) for statement in statements] == [(kind, values, unit)]


@pytest.mark.parametrize("text", [
    "ISO 3166-1 alpha-2 country code.", "Date in YYYY-MM-DD form, e.g. 2024-01-15.", "Maximum price in euros.",
    "Shows up to date prices.", "Number of nights at the hotel.", "Call 555-1234 for help.",
])
def test_no_bound_in_plain_english(text):
    assert describe(text).bounds == []


@pytest.mark.parametrize(("text", "values"), [
    ("One of: small, medium, large.", ["small", "medium", "large"]),
    ("Size, one of small, medium or large.", ["small", "medium", "large"]),
    ("Either 'asc' or 'desc'.", ["asc", "desc"]),
    ('Direction: "asc" or "desc".', ["asc", "desc"]),
    ("Priority (high/low/auto).", ["high", "low", "auto"]),
    ("Allowed values: draft, published.", ["draft", "published"]),
    ("Mode is pickup|delivery.", ["pickup", "delivery"]),
])
def test_allowed_value_lists(text, values):
    assert [statement.values for statement in describe(text).value_lists] == [values]


@pytest.mark.parametrize("text", [
    "One of the user's saved addresses.", "City, e.g. 'Paris' or 'Lyon'.", "A tag such as 'sale' or 'new'.",
    "Either the user's email or phone.", "Whether to include archived items (true/false).",
    "Free-text note and/or instructions for the kitchen.",
])
def test_no_allowed_values_in_plain_english_or_examples(text):
    assert describe(text).value_lists == []


@pytest.mark.parametrize(("name", "description", "action"), [
    ("book_flight", "", "book"), ("submitSupportTicket", "", "submit"), ("cart.checkout", "", "checkout"),
    ("place_order", "", "place order"), ("assistant", "Sends a message to the seller.", "send"),
    ("assistant", "Use when the user wants to cancel a subscription.", "cancel"),
    ("assistant", "Places an order for the items in the cart.", "place order"),
    ("assistant", "Creates and sends an invoice to the customer.", "send"),
])
def test_consequential_actions(name, description, action):
    assert consequential_action(name, description) == action


@pytest.mark.parametrize(("name", "description"), [
    ("get_order_status", "Returns the delivery status of one of the user's orders."),
    ("order_history", "Order history of the signed-in user."),
    ("search_products", "Searches the product catalog by keyword. Use when the user wants to find or compare products."),
    ("list_messages", "Messages from the seller, newest first."),
    ("fetch_tool", "Fetch the text content of a URL and show it on the page."),
    ("sort_results", "Order of the results."),
    ("search_catalog", "Searches products and orders by date."),
])
def test_no_consequential_action(name, description):
    assert consequential_action(name, description) is None


def test_developer_tooling_and_query_names():
    assert developer_tooling("dump_app_state", "") == "dump"
    assert developer_tooling("toggle_feature_flag", "") == "feature flag"
    assert developer_tooling("x", "Seeds the catalog with test data.") == "test data"
    assert developer_tooling("reset_password", "Sends a reset link to the user's email.") is None
    assert developer_tooling("seed_test_orders", "") == "seed"
    assert developer_tooling("get_seed_catalog", "Lists the seeds the garden shop sells.") is None
    assert reads_like_query("getStoreHours") and reads_like_query("cart.list")
    assert not reads_like_query("book_flight")


# --- plain English stays unflagged -----------------------------------------------------------------------

PLAIN_ENGLISH = [
    # The guidance's own descriptions.
    "Retrieves the user's saved preferences.",
    "Retrieves items currently in the user's shopping cart.",
    "Calculates the area of a rectangle.",
    "The width of the rectangle.",
    "The height of the rectangle.",
    "Searches the product catalog by keyword. Use when the user wants to find or compare products.",
    "Words to search for.",
    "Order of the results.",
    "Fetch the text content of a URL and show it on the page.",
    "The URL to fetch",
    "Relative network priority for the request",
    "Book a flight for the user with confirmed flight details.",
    "ID of the flight to book",
    "Number of tickets to purchase",
    "Returns a snapshot of the internal application store for debugging.",
    "Lists items in the inventory.",
    # Realistic tools.
    "Fetch the text of a URL",
    "Returns the delivery status of one of the user's orders.",
    "Order number from the confirmation email.",
    "Maximum price the user is willing to pay, in euros.",
    "Date of departure in the traveller's local time zone.",
    "Use when the user asks where their parcel is.",
    "Two-letter ISO 3166-1 country code of the shipping address.",
    "Whether to include items that are out of stock.",
    "City or airport the trip starts from.",
    "Free-text note for the kitchen, such as allergies.",
    "Number of guests, including children.",
    "The user's preferred language for replies.",
    "Phone number the courier can call on arrival.",
    "Returns products similar to the one the user is viewing.",
    "A short summary of the issue in the user's own words.",
    "Pick one of the saved addresses.",
    "The default delivery address is used when none is given.",
    "Shows up to date prices from the catalog.",
    "Start time of the meeting, in the user's time zone.",
    "Text of the review as the customer wrote it.",
    "Total number of items in the cart.",
    "Email address where the receipt is sent.",
    "Get the current weather for a city so the user can plan their day.",
    "Query the user typed, used to rank the suggestions.",
]

SCHEMA = {
    "type": "object",
    "properties": {
        "query": {"type": "string", "description": "Words to search for."},
        "url": {"type": "string", "format": "uri", "description": "Page to read."},
        "sort": {"type": "string", "enum": ["newest", "price_low_to_high"], "default": "newest",
                 "description": "Order of the results."},
        "limit": {"type": "integer", "minimum": 1, "maximum": 50, "description": "How many results to show."},
        "order": {"type": "string", "description": "Reference the shop gave the user."},
    },
}


def tool_with(description: str, parameter_description: str) -> str:
    schema = json.loads(json.dumps(SCHEMA))
    schema["properties"]["query"]["description"] = parameter_description
    return (f"document.modelContext?.registerTool({{ name: \"assistant_tool\", description: {json.dumps(description)},"
            f" inputSchema: {json.dumps(schema)}, execute() {{ return 1; }} }});")


@pytest.mark.parametrize("sentence", PLAIN_ENGLISH)
def test_plain_english_is_not_flagged_as_tool_or_parameter_description(sentence):
    found = {d.code for d in lint(tool_with(sentence, sentence))}
    assert not found & {"WM301", "WM302", "WM303", "WM607", "WM608", "WM611"}


def test_there_are_at_least_thirty_plain_english_sentences():
    assert len(set(PLAIN_ENGLISH)) >= 30


def test_twenty_realistic_tools_get_no_description_or_security_finding():
    from pathlib import Path

    code = (Path(__file__).parent / "data" / "realistic_tools.js").read_text()
    mine = {f"WM{number}" for number in list(range(301, 307)) + list(range(601, 613))}
    found = [(d.code, d.message) for d in lint(code) if d.code in mine]
    assert found == []
    assert code.count("registerTool(") == 20


@pytest.mark.parametrize(("name", "action"), [
    ("cart_checkout", "checkout"), ("bulk_delete", "delete"), ("calendar_book_meeting", "book"),
    ("order_pizza", "order"), ("email_receipt", "email"),
])
def test_consequential_verbs_anywhere_in_a_name(name, action):
    assert consequential_action(name, "") == action


@pytest.mark.parametrize("name", ["sort_order", "order_date", "message_templates", "email_preferences", "close_modal",
                                  "text_to_speech", "last_order"])
def test_consequential_nouns_in_a_name_are_not_actions(name):
    assert consequential_action(name, "") is None

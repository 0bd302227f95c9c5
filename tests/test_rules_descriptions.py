"""WM301..WM306: what each description rule flags, what it leaves alone, and where findings point."""

from __future__ import annotations

import pytest
from support import codes, findings, flagged_text


def tool(description: str = '"Searches the catalog for products the user wants."', properties: str = "",
         prelude: str = "", name: str = '"search_products"') -> str:
    return (f"{prelude}\ndocument.modelContext?.registerTool({{\n  name: {name},\n  description: {description},\n"
            f"  inputSchema: {{ type: \"object\", properties: {{ {properties} }} }},\n"
            "  execute() { return 1; },\n  annotations: { readOnlyHint: true },\n});\n")


QUERY = 'query: { type: "string", description: "Words to search for." }'
SORT = 'sort: { type: "string", enum: ["newest", "oldest"], default: "newest", description: "Order of the results." }'
LIMIT = 'limit: { type: "integer", minimum: 1, maximum: 50, description: "How many results to show." }'


# --- WM301 ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("description", [
    '"Searches products. Pass search_query with the words."',
    '"Searches products; `query` holds the words."',
    '"Searches products by query: the words the user typed."',
    '"Searches products. limit: how many to show."',
    '"Searches products. Takes a string of keywords."',
    '"Searches products. The limit (number) caps the results."',
    '"Searches products sorted newest or oldest first."',
    '"Searches products, sorted by newest by default."',
    '"Searches products. Returns at most 50 results."',
    '"Searches products. Returns between 1 and 50 results."',
])
def test_wm301_flags_descriptions_that_repeat_the_schema(description):
    properties = ", ".join((QUERY, SORT, LIMIT, 'search_query: { type: "string", description: "Words." }'))
    assert "WM301" in codes(tool(description, properties))


def test_wm301_flags_interpolation_of_the_enum_identifier_and_points_at_the_description():
    code = tool('`Searches products. Sort is one of ${SORT_ORDERS.join(", ")}.`',
                'sort: { type: "string", enum: SORT_ORDERS, description: "Order of the results." }',
                prelude='const SORT_ORDERS = ["newest", "price_low_to_high"];')
    assert flagged_text(code, "WM301") == ['`Searches products. Sort is one of ${SORT_ORDERS.join(", ")}.`']
    assert "SORT_ORDERS" in findings(code, "WM301")[0].message


def test_wm301_reads_a_const_the_description_refers_to():
    code = tool("DESCRIPTION", QUERY + ", " + SORT,
                prelude='const DESCRIPTION = "Searches products. Sort: newest or oldest.";')
    assert flagged_text(code, "WM301") == ["DESCRIPTION"]


@pytest.mark.parametrize("description", [
    '"Fetch the text of a URL."',  # a short parameter name used as plain English
    '"Searches the catalog for the query the user typed. Use when the user wants to compare products."',
    '"Searches products. Sizes come in small, medium and large."',  # constraint the schema lacks: WM303's
    "describe()",  # not computable
    '"Tells the time zone of a url: useful before scheduling a call."',  # a noun of the prose before a colon
    '"Reads the text of the url: use it when the user pastes a link."',
])
def test_wm301_leaves_plain_english_undeclared_constraints_and_unknown_text_alone(description):
    properties = ", ".join((QUERY, SORT, 'url: { type: "string", format: "uri", description: "Page to read." }'))
    assert "WM301" not in codes(tool(description, properties))


# --- WM302 ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("prop", [
    'q: { type: "string", description: "A string with the words to search for." }',
    'n: { type: "number", description: "Seats to book (number)." }',
    'wrap: { type: "boolean", description: "A boolean flag for gift wrapping." }',
    's: { type: "string", enum: ["newest", "oldest"], description: "Sort newest or oldest first." }',
    's: { type: "string", enum: ["newest", "oldest"], default: "newest", description: "Sort order, defaults to newest." }',
    'n: { type: "integer", minimum: 1, maximum: 9, description: "Passengers, between 1 and 9." }',
    'c: { type: "string", maxLength: 200, description: "Note for the courier, at most 200 characters." }',
])
def test_wm302_flags_parameter_descriptions_that_repeat_their_schema(prop):
    assert "WM302" in codes(tool(properties=prop))


def test_wm302_points_at_the_parameter_description():
    code = tool(properties='s: { type: "string", enum: ["newest", "oldest"], description: "Either newest or oldest." }')
    assert flagged_text(code, "WM302") == ['"Either newest or oldest."']
    assert '"newest", "oldest"' in findings(code, "WM302")[0].message


@pytest.mark.parametrize("prop", [
    SORT, QUERY, LIMIT,
    'passengers: { type: "number", description: "Number of tickets to purchase" }',
    'url: { type: "string", description: "The URL to fetch" }',
    'priority: { type: "string", enum: ["high", "low", "auto"], description: "Relative network priority for the request" }',
])
def test_wm302_leaves_meaningful_descriptions_alone(prop):
    assert "WM302" not in codes(tool(properties=prop))


# --- WM303 ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("prop", "keyword"), [
    ('size: { type: "string", description: "Pizza size, one of: small, medium, large." }', "`enum`"),
    ('dir: { type: "string", description: "Either \'asc\' or \'desc\'." }', "`enum`"),
    ('limit: { type: "integer", description: "How many results; defaults to 10." }', "`default`"),
    ('limit: { type: "integer", description: "How many results, between 1 and 100." }', "`minimum` / `maximum`"),
    ('note: { type: "string", description: "Note for the kitchen, max 50 characters." }', "`maxLength`"),
    ('tags: { type: "array", items: { type: "string" }, description: "Labels, up to 20 items." }', "`maxItems`"),
])
def test_wm303_flags_constraints_only_in_a_parameter_description(prop, keyword):
    found = findings(tool(properties=prop), "WM303")
    assert len(found) == 1 and keyword in found[0].message


def test_wm303_reads_the_tool_description_and_names_the_parameter():
    code = tool('"Searches products. The limit must be between 1 and 100."',
                'limit: { type: "integer", description: "How many results to show." }')
    assert flagged_text(code, "WM303") == ['"Searches products. The limit must be between 1 and 100."']
    assert "`limit`" in findings(code, "WM303")[0].message


@pytest.mark.parametrize("prop", [
    SORT, LIMIT,  # the schema declares them: WM301/WM302 territory
    's: { type: "string", enum: ["newest", "oldest"], description: "One of newest or oldest." }',
    'n: { type: "integer", minimum: 1, maximum: 100, description: "Results, between 1 and 100." }',
    'c: { type: "string", description: "City, e.g. \'Paris\' or \'Lyon\'." }',
    'q: { type: "string", description: "Words to search for." }',
])
def test_wm303_leaves_declared_constraints_and_plain_descriptions_alone(prop):
    assert "WM303" not in codes(tool(properties=prop))


def test_wm303_leaves_a_bound_another_parameter_declares_to_wm301():
    code = tool('"Returns at most 25 reviews of a product."',
                'productId: { type: "string", description: "Product whose reviews to list." }, '
                'limit: { type: "integer", maximum: 25, description: "How many reviews to return." }')
    assert "WM303" not in codes(code)
    assert "WM301" in codes(code)


@pytest.mark.parametrize("prop", [
    'unit: { type: "string", description: "Temperature scale (celsius if omitted)." }',
    'date: { type: "string", description: "Day to book. If not given, today\'s date is used." }',
])
def test_wm303_flags_defaults_stated_by_omission(prop):
    found = findings(tool(properties=prop), "WM303")
    assert len(found) == 1 and "`default`" in found[0].message


def test_wm303_reads_per_as_a_rate_not_a_mention_of_the_parameter():
    """"at most 20 per page" bounds what a page holds, not the page number."""
    page = 'page: { type: "integer", minimum: 1, description: "Page of results." }'
    assert "WM303" not in codes(tool('"Lists recent reviews, at most 20 per page, newest first."', page))
    assert "WM303" in codes(tool('"Lists recent reviews. The page is at most 20."', page))


def test_wm303_ignores_output_bounds_that_name_no_parameter():
    assert "WM303" not in codes(tool('"Returns up to 10 suggestions for the words the user typed."', QUERY))


def test_wm303_reads_form_tool_descriptions():
    html = ('<form toolname="find_flights" tooldescription="Finds flights for the user\'s trip.">'
            '<input name="cabin" toolparamdescription="Cabin class, one of economy, business or first."></form>')
    assert flagged_text(html, "WM303", "page.html") == ["Cabin class, one of economy, business or first."]


# --- WM304 ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("name", "description"), [
    ('"get_cart_items"', '"Get cart items."'), ('"getWeather"', '"Get the weather"'), ('"search"', '"Search"'),
    ('"cart_lookup"', '"Cart lookup."'), ('"get_cart_items"', '"Gets the cartItems."'),
])
def test_wm304_flags_names_restated_or_too_short(name, description):
    assert flagged_text(tool(description, QUERY, name=name), "WM304") == [description]


@pytest.mark.parametrize("description", ['"Retrieves items currently in the user\'s shopping cart."', '""', "describe()",
                                         '"Get the cart items now."'])
def test_wm304_leaves_informative_empty_and_unknown_descriptions_alone(description):
    assert "WM304" not in codes(tool(description, QUERY, name='"get_cart_items"'))


def test_wm304_quotes_a_long_description_shortened():
    word = "x" * 50_000
    [finding] = findings(tool(f'"{word}"', QUERY), "WM304")
    assert f'"{"x" * 79}…" has fewer than' in finding.message and len(finding.message) < 200


# --- WM305 ----------------------------------------------------------------------------------------------

def test_wm305_budgets_are_500_for_tools_and_150_for_parameters():
    at_budget = tool('"' + "a" * 500 + '"', f'q: {{ type: "string", description: "{"b" * 150}" }}')
    assert "WM305" not in codes(at_budget)
    over = tool('"' + "a" * 501 + '"', f'q: {{ type: "string", description: "{"b" * 151}" }}')
    assert flagged_text(over, "WM305") == ['"' + "a" * 501 + '"', '"' + "b" * 151 + '"']


# --- WM306 ----------------------------------------------------------------------------------------------

def test_wm306_flags_properties_without_description_at_any_depth_on_their_key():
    props = ('address: { type: "object", description: "Where to ship.", properties: { '
             'city: { type: "string" }, lines: { type: "array", items: { type: "object", properties: '
             '{ text: { type: "string" } } }, description: "Street lines." } } }, zip: { type: "string" }')
    assert flagged_text(tool(properties=props), "WM306") == ["city", "text", "zip"]


def test_wm306_leaves_described_unknown_and_form_properties_alone():
    assert "WM306" not in codes(tool(properties=QUERY + ", other: SHARED_SCHEMA"))
    html = '<form toolname="find" tooldescription="Finds flights for a trip."><input name="city"></form>'
    assert "WM306" not in codes(html, "page.html")


def test_a_declared_default_near_the_word_default_is_a_repeat_not_an_undeclared_constraint():
    code = tool('"Searches products, sorted newest first by default."', SORT)
    assert "WM301" in codes(code) and "WM303" not in codes(code)
    assert "WM302" in codes(tool(properties=SORT.replace("Order of the results.", "Order, newest first by default.")))
    assert not {"WM301", "WM303"} & set(codes(tool('"Results are sorted by relevance by default."', SORT)))


@pytest.mark.parametrize(("declared", "written", "flagged"), [
    ("20", "page size 20.0", True),  # the same number, written otherwise
    ("1e999", "no limit: infinity", True),  # infinite: the word holds no digit
    ('"All"', "page size ALL", True),
    ('"x"', "page size all", False),
])
def test_wm302_compares_a_declared_default_with_the_words_near_default(declared, written, flagged):
    prop = f'size: {{ type: "number", default: {declared}, description: "Rows per page (default {written})." }}'
    assert ("WM302" in codes(tool(properties=prop))) is flagged


def test_wm301_does_not_read_true_or_false_about_the_result_as_a_type():
    wrap = 'wrap: { type: "boolean", description: "Whether to gift-wrap the order." }'
    assert "WM301" not in codes(tool('"Returns true or false depending on whether the item can be wrapped."', wrap))
    assert "WM302" in codes(tool(properties=wrap.replace("Whether to gift-wrap the order.", "Gift wrap (true/false).")))


def test_wm303_reads_a_parameter_description_that_is_only_a_list_of_values():
    assert "WM303" in codes(tool(properties='dir: { type: "string", description: "Sort direction. asc or desc." }'))
    assert "WM303" not in codes(tool(properties='from: { type: "string", description: "City or airport the trip starts from." }'))


def test_wm303_reads_lists_in_the_tool_description_only_about_a_parameter():
    cabin = 'cabin: { type: "string", description: "Class of travel." }'
    assert "WM303" in codes(tool('"Searches flights. The cabin is one of economy, business or first."', cabin))
    assert "WM303" not in codes(tool('"Returns the flight status: scheduled, delayed or cancelled."', cabin))


def test_wm306_reads_properties_inside_any_of_branches():
    props = ('contact: { description: "How to reach the user.", anyOf: [ { type: "object", properties: '
             '{ email: { type: "string" } } } ] }')
    assert flagged_text(tool(properties=props), "WM306") == ["email"]


def test_wm303_does_not_read_a_list_of_parameters_as_allowed_values():
    props = ('name: { type: "string", description: "At least one of name or email is needed." }, '
             'email: { type: "string", description: "Where to send the receipt." }')
    assert "WM303" not in codes(tool(properties=props))

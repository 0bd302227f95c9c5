"""The form extractor: <form toolname> in HTML, JSX, Vue, Svelte and Angular templates as FORM tools."""

from __future__ import annotations

from webmcp_lint.declarative import ARIA_DESCRIPTION, LABEL, TOOLPARAMDESCRIPTION
from webmcp_lint.engine import lint_text
from webmcp_lint.evaluate import UNDEFINED, JSArray, JSObject, Unknown
from webmcp_lint.model import SourceKind


def form_tools(code: str, filename: str = "index.html"):
    result = lint_text(code, filename)
    assert not result.internal_errors, result.internal_errors
    return [tool for tool in result.project.tools if tool.source_kind == SourceKind.FORM]


def only_tool(code: str, filename: str = "index.html"):
    [tool] = form_tools(code, filename)
    return tool


def properties(tool) -> JSObject:
    return tool.get("inputSchema").get("properties")


def described(tool) -> dict:
    """Parameter name -> (description source, description value)."""
    result = {}
    for form_field in tool.form.fields:
        description = form_field.description
        result[form_field.name] = (description.source, description.value) if description else None
    return result


SEARCH_FORM = """<form toolname="search_flights" tooldescription="Finds flights for a trip." tooltitle="Flights"
      action="/search" toolautosubmit>
  <label>From <input name="origin" required></label>
  <label for="dest">To</label><input id="dest" name="destination" required>
  <input name="when" type="date" toolparamdescription="Day of departure">
  <input name="adults" type="number" min="1" max="9" aria-description="How many adults travel">
  <select name="cabin" toolparamdescription="Cabin class">
    <option value="economy">Economy</option><option>Business</option>
  </select>
  <textarea name="notes"></textarea>
  <input type="hidden" name="csrf" value="x"><input type="submit" value="Go"><button>Go</button>
</form>"""


def test_html_form_becomes_a_tool_with_a_synthesised_definition():
    tool = only_tool(SEARCH_FORM)
    assert tool.registration is None and tool.script.language == "html"
    assert tool.name == "search_flights"
    assert tool.get("description") == "Finds flights for a trip."
    assert tool.get("title") == "Flights"
    name = tool.prop("name")
    assert name.key_node.text == b"toolname" and name.value_node.text == b"search_flights"
    schema = tool.get("inputSchema")
    assert schema.get("type") == "object"
    assert list(properties(tool).props) == ["origin", "destination", "when", "adults", "cabin", "notes"]
    assert [item.value for item in schema.get("required").items] == ["origin", "destination"]


def test_field_descriptions_come_from_toolparamdescription_then_label_then_aria_description():
    assert described(only_tool(SEARCH_FORM)) == {
        "origin": (LABEL, "From"),
        "destination": (LABEL, "To"),
        "when": (TOOLPARAMDESCRIPTION, "Day of departure"),
        "adults": (ARIA_DESCRIPTION, "How many adults travel"),
        "cabin": (TOOLPARAMDESCRIPTION, "Cabin class"),
        "notes": None,
    }
    order = '<form toolname="t"><label>Label<input name="a" aria-description="Aria" toolparamdescription="Own"></label>' \
            '<label>Label <b>text</b> <input name="b" aria-description="Aria"></label>' \
            '<input name="c" toolparamdescription="" aria-description="Aria"></form>'
    assert described(only_tool(order)) == {"a": (TOOLPARAMDESCRIPTION, "Own"), "b": (LABEL, "Label text"),
                                          "c": (ARIA_DESCRIPTION, "Aria")}


def test_field_schemas_follow_the_controls():
    props = properties(only_tool(SEARCH_FORM))
    assert props.get("origin").get("type") == "string"
    adults = props.get("adults")
    assert (adults.get("type"), adults.get("minimum"), adults.get("maximum")) == ("number", 1, 9)
    assert props.get("when").get("format") == "date"
    assert isinstance(props.get("cabin").get("enum"), JSArray)
    assert props.get("cabin").get("enum").values == ["economy", "Business"]
    assert props.get("cabin").get("description") == "Cabin class"
    assert props.get("notes").get("description") is UNDEFINED


def test_only_toolparamdescription_becomes_the_schema_description():
    props = properties(only_tool(SEARCH_FORM))
    assert [props.get(name).get("description") for name in ("origin", "adults", "when")] == [
        UNDEFINED, UNDEFINED, "Day of departure"]
    when = props.props["when"].value.props["description"]
    assert when.key_node.text == b"toolparamdescription" and when.value_node.text == b"Day of departure"


def test_buttons_and_hidden_inputs_are_not_fields():
    assert [field.name for field in only_tool(SEARCH_FORM).form.fields] == [
        "origin", "destination", "when", "adults", "cabin", "notes"]


def test_radio_group_is_one_parameter_with_its_values_as_enum():
    tool = only_tool('<form toolname="size"><fieldset toolparamdescription="Pizza size">'
                     '<input type="radio" name="size" value="s"><input type="radio" name="size" value="l">'
                     '</fieldset><input type="checkbox" name="extra_cheese"></form>')
    props = properties(tool)
    assert list(props.props) == ["size", "extra_cheese"]
    assert props.get("size").get("enum").values == ["s", "l"]
    assert props.get("size").get("description") == "Pizza size"
    assert props.get("extra_cheese").get("type") == "boolean"


def test_fields_outside_the_form_join_it_through_the_form_attribute():
    tool = only_tool('<form id="f" toolname="t"><input name="a"></form><input form="f" name="b"><input name="c">')
    assert [field.name for field in tool.form.fields] == ["a", "b"]


def test_label_for_may_be_anywhere_in_the_document():
    tool = only_tool('<label for="q">Query</label><form toolname="t"><input id="q" name="q"></form>')
    assert described(tool) == {"q": (LABEL, "Query")}


def test_forms_without_toolname_are_not_tools():
    assert form_tools('<form action="/x"><input name="q"></form> toolname') == []


def test_attribute_names_are_case_insensitive_and_entities_decoded():
    tool = only_tool('<form ToolName="t" ToolDescription="Fish &amp; chips"><input NAME=q></form>')
    assert (tool.name, tool.get("description")) == ("t", "Fish & chips")
    assert [field.name for field in tool.form.fields] == ["q"]


def test_jsx_form_with_literals_static_expressions_and_constants():
    code = """
const DESCRIPTION = "Finds recipes by " + "ingredient.";
export function Search({ extra }) {
  return (
    <form toolname="find_recipe" tooldescription={DESCRIPTION} toolautosubmit>
      <label htmlFor="ing">Ingredient</label>
      <input id="ing" name={"ingredient"} autoComplete="off" />
      <input name={extra.name} />
      <Input name="ignored" />
      {items.map((item) => <input key={item} name={item} toolparamdescription={item} />)}
    </form>
  );
}
"""
    tool = only_tool(code, "Search.jsx")
    assert tool.script.language == "javascript"
    assert (tool.name, tool.get("description")) == ("find_recipe", "Finds recipes by ingredient.")
    assert tool.form.autosubmit is not None
    names = [field.name for field in tool.form.fields]
    assert names[0] == "ingredient" and all(isinstance(name, Unknown) for name in names[1:]) and len(names) == 3
    assert described(tool)["ingredient"] == (LABEL, "Ingredient")
    assert tool.prop("name").value_node.text == b'"find_recipe"'


def test_jsx_spreads_and_false_attributes():
    tool = only_tool('const f = <form toolname="t" {...props} toolautosubmit={false}><input {...field} /></form>;',
                     "F.tsx")
    assert tool.definition.open and isinstance(tool.get("description"), Unknown)
    assert tool.form.autosubmit is None
    assert isinstance(tool.form.fields[0].name, Unknown)


def test_jsx_components_are_not_forms():
    assert form_tools('const f = <Form toolname="t"><input /></Form>;', "F.tsx") == []


def test_vue_template_forms_with_bound_attributes():
    component = """<template>
  <form toolname="book_table" :tooldescription="'Books a table.'" v-bind:action="url" @submit.prevent="send">
    <input v-model="when" :name="fieldName" />
    <input name="guests" :toolparamdescription="guestsHelp" />
  </form>
</template>
<script setup>
const url = "/book";
</script>
"""
    tool = only_tool(component, "Book.vue")
    assert tool.get("description") == "Books a table."
    assert isinstance(tool.form.element.value("action"), Unknown)
    assert isinstance(tool.form.fields[0].name, Unknown)
    assert isinstance(tool.form.fields[1].description.value, Unknown)
    assert tool.source.position(tool.node.start_byte) == (2, 3)


def test_svelte_forms_with_expressions():
    component = """<script>
  let help = "x";
</script>
<form toolname={"svelte_tool"} tooldescription="Finds {help}" on:submit|preventDefault={go}>
  <input name="q" toolparamdescription={help} />
  <input {name} />
</form>
"""
    tool = only_tool(component, "Form.svelte")
    assert tool.name == "svelte_tool"
    assert isinstance(tool.get("description"), Unknown)
    assert [isinstance(field.name, Unknown) for field in tool.form.fields] == [False, True]
    assert isinstance(tool.form.fields[0].description.value, Unknown)


def test_angular_inline_template_forms_keep_positions_in_the_ts_file():
    code = """import { Component } from "@angular/core";

@Component({
  selector: "app-search",
  template: `
    <form toolname="find_hotel" tooldescription="Finds hotels." (ngSubmit)="go()">
      <input name="city" [toolparamdescription]="'City to stay in'" />
      <span>{{ count }} ${"results"}</span>
    </form>`,
})
export class SearchComponent {}
"""
    tool = only_tool(code, "search.component.ts")
    assert tool.name == "find_hotel"
    assert tool.source.position(tool.node.start_byte) == (6, 5)
    assert described(tool) == {"city": (TOOLPARAMDESCRIPTION, "City to stay in")}


def test_templates_of_other_decorators_are_not_read():
    code = 'import { Directive } from "@angular/core";\n@Directive({ template: `<form toolname="t"></form>` })\nclass D {}\n'
    assert form_tools(code, "d.ts") == []

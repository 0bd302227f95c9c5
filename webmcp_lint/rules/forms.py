"""WM7xx: declarative tools (``<form toolname>`` in HTML, JSX, Vue, Svelte and Angular templates).

Each rule reads the FormTool the form extractor attached to a SourceKind.FORM
tool; the rules subscribe to those tools only (imperative and framework tools have none).
"""

from __future__ import annotations

from typing import Iterator

from webmcp_lint.declarative import FormField, FormTool, group_description
from webmcp_lint.descriptions import consequential_action, name_words
from webmcp_lint.vocabulary import NOUN_LIKE_VERBS
from webmcp_lint.model import Finding, Project, ToolDefinition
from webmcp_lint.rules import FORM_TOOLS, rule
from webmcp_lint.rules.shape import MAX_NAME_LENGTH, name_problem
from webmcp_lint.wording import article

# Autocomplete tokens of fields that hold credentials or payment data.
SENSITIVE_AUTOCOMPLETE = frozenset({
    "cc-number", "cc-csc", "cc-exp", "cc-exp-month", "cc-exp-year", "one-time-code", "new-password",
    "current-password",
})
# Field names that ask for card or bank details (for fields without a payment autocomplete token).
PAYMENT_NAME_WORDS = frozenset({"cvv", "cvv2", "cvc", "csc", "iban", "cardnumber", "ccnumber", "ccv"})
PAYMENT_NAME_PAIRS = frozenset({("card", "number"), ("credit", "card"), ("debit", "card"), ("cc", "number"),
                                ("security", "code"), ("card", "cvc"), ("card", "expiry"), ("account", "number")})


def _label(tool: ToolDefinition) -> str:
    """How messages name the tool: 'form tool "search"'."""
    return f'form tool "{tool.name}"' if tool.name else "this form tool"


def _capitalised(phrase: str) -> str:
    return phrase[:1].upper() + phrase[1:]


@rule("WM701", "form-tool-missing-description", "error", on=FORM_TOOLS)
def form_tool_missing_description(tool: ToolDefinition, project: Project) -> Iterator[Finding]:
    form = tool.form
    description = form.attribute("tooldescription")
    if description is None:
        if not form.element.open:
            yield tool.finding(tool.anchor, f"{_capitalised(_label(tool))} has no tooldescription; add one that "
                                            "says what the tool does and when to use it.")
    elif isinstance(description.string, str) and not description.string.strip():
        yield tool.finding(description.node, f"{_capitalised(_label(tool))} has an empty tooldescription; say "
                                             "what the tool does and when to use it.")


@rule("WM702", "form-tool-invalid-name", "error", on=FORM_TOOLS)
def form_tool_invalid_name(tool: ToolDefinition, project: Project) -> Iterator[Finding]:
    attribute = tool.form.attribute("toolname")
    if attribute is None or not isinstance(attribute.string, str):
        return
    problem = name_problem(attribute.string)
    if problem is not None:
        yield tool.finding(attribute.value_node or attribute.node,
                           f"toolname {attribute.string!r} {problem}; use 1 to {MAX_NAME_LENGTH} ASCII letters, "
                           "digits, '_', '-' or '.'.")


@rule("WM703", "form-field-missing-name", "warning", on=FORM_TOOLS)
def form_field_missing_name(tool: ToolDefinition, project: Project) -> Iterator[Finding]:
    form = tool.form
    for form_field in form.fields:
        if not form_field.has_name:
            yield tool.finding(form_field.element.tag_node,
                               f"This <{form_field.element.tag}> of {_label(tool)} has no name, so the agent "
                               "cannot fill it; add a name attribute.")


@rule("WM704", "form-field-missing-description", "warning", on=FORM_TOOLS)
def form_field_missing_description(tool: ToolDefinition, project: Project) -> Iterator[Finding]:
    form = tool.form
    for name, members in _named_groups(form):
        if group_description(members) is None and not any(member.element.open for member in members):
            subject = f'Field "{name}"' if name else "This field"
            yield tool.finding(members[0].element.tag_node,
                               f"{subject} of {_label(tool)} has no toolparamdescription, <label> or "
                               "aria-description; add a toolparamdescription that says what the value means.")


def _named_groups(form: FormTool) -> Iterator[tuple[str | None, list[FormField]]]:
    """Each parameter once: fields sharing a static name (a radio group) together, dynamic names alone."""
    yield from form.parameters.items()
    for form_field in form.fields:
        if form_field.has_name and not isinstance(form_field.name, str):
            yield None, [form_field]


@rule("WM705", "autosubmit-consequential-form", "warning", on=FORM_TOOLS)
def autosubmit_consequential_form(tool: ToolDefinition, project: Project) -> Iterator[Finding]:
    form = tool.form
    autosubmit = form.autosubmit
    if autosubmit is None:
        return
    reason = _consequential_reason(form)
    if reason is not None:
        yield tool.finding(autosubmit.node, f"{_capitalised(_label(tool))} {reason} but submits itself "
                                            "(toolautosubmit); remove toolautosubmit so the user confirms it.")


def _consequential_reason(form: FormTool) -> str | None:
    """Why an automatic submission is risky (WM602's reading of names and descriptions), or None."""
    texts = (form.element.value(key) for key in ("toolname", "tooldescription", "action"))
    name, description, action = (value if isinstance(value, str) else None for value in texts)
    readings = (("name", consequential_action(name, None)),
                ("description", consequential_action(None, description)),
                ("action", _consequential_action_path(action) if action else None))
    for where, word in readings:
        if word is not None:
            return f'names a consequential action ("{word}" in its {where})'
    for form_field in form.fields:
        kind = sensitive_kind(form_field) or _payment_name(form_field)
        if kind is not None:
            return f"holds {article(kind)} {kind} field"
    return None


def _payment_name(form_field: FormField) -> str | None:
    """'payment' when a field's name says it holds card or bank details (``card_number``, ``cvc``, ``iban``)."""
    name = form_field.name
    parts = name_words(name) if isinstance(name, str) else ()
    pairs = set(zip(parts, parts[1:]))
    return "payment" if not PAYMENT_NAME_PAIRS.isdisjoint(pairs) or not PAYMENT_NAME_WORDS.isdisjoint(parts) else None


def _consequential_action_path(action: str) -> str | None:
    """The consequential action a form's action path names, read segment by segment from the end, extensions
    dropped: "/checkout/confirm" -> "checkout". A noun-like verb counts only as the last segment: "/cart/order"
    orders, "/order/track" tracks."""
    path = action.split("?", 1)[0].split("#", 1)[0]  # before the query or the fragment, whichever comes first
    segments = [segment.split(".", 1)[0] for segment in path.split("://", 1)[-1].split("/")]
    if "://" in path:
        segments = segments[1:]  # the host
    for position, segment in enumerate(reversed([segment for segment in segments if segment])):
        word = consequential_action(segment, None)
        if word is not None and (position == 0 or word not in NOUN_LIKE_VERBS):
            return word
    return None


def sensitive_kind(form_field: FormField) -> str | None:
    """'password' or the sensitive autocomplete token of a field, else None."""
    if form_field.input_type == "password":
        return "password"
    return next((token for token in form_field.autocomplete_tokens if token in SENSITIVE_AUTOCOMPLETE), None)


@rule("WM706", "form-exposes-sensitive-field", "warning", on=FORM_TOOLS)
def form_exposes_sensitive_field(tool: ToolDefinition, project: Project) -> Iterator[Finding]:
    form = tool.form
    for form_field in form.fields:
        kind = sensitive_kind(form_field)
        if kind is None:
            continue
        attribute = form_field.element.attribute("type" if kind == "password" else "autocomplete")
        yield tool.finding(attribute.node if attribute is not None else form_field.element.tag_node,
                           f"{_capitalised(_label(tool))} exposes {article(kind)} {kind} field to the agent; keep credentials "
                           "and payment data out of tool forms and let the user enter them.")

"""The agent surface: every tool a codebase exposes, as a stable manifest, and the drift between two of them.

A linter says what is wrong; a reviewer also asks what a site hands to
agents at all. ``build_manifest`` turns a lint run's tools into a plain,
sorted, versioned JSON document (paths relative to the linted root, no
timestamps or machine-specific data), so the same sources give the same
bytes on any machine. ``compare`` reads two manifests and lists what changed,
each change with the level ``--fail-on-change`` compares against.
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path
from typing import Iterable

from tree_sitter import Node

from webmcp_lint.config import common_directory
from webmcp_lint.descriptions import consequential_action, developer_tooling
from webmcp_lint.diagnostics import Diagnostic
from webmcp_lint.engine import LintResult
from webmcp_lint.evaluate import UNDEFINED, BigIntValue, JSArray, JSFunction, JSObject, Unknown, Value
from webmcp_lint.execute import execute_of
from webmcp_lint.model import ANNOTATIONS, Project, Registration, SourceKind, ToolDefinition
from webmcp_lint.record import HashedRecord
from webmcp_lint.untrusted import returns_untrusted_content

MANIFEST_FORMAT = "webmcp-lint/tools"
MANIFEST_VERSION = 1

DYNAMIC = "<dynamic>"  # a value the analyzer cannot know statically
FUNCTION = "<function>"
TOO_LARGE = "<too large>"
MAX_VALUE_DEPTH = 64
MAX_JSON_VALUES = 20000

# Sources whose integration registers the tool with its own AbortController and aborts it on
# unmount, scope disposal or injector destruction (notes/api-verification.md).
INTEGRATION_KINDS = frozenset({SourceKind.REACT, SourceKind.VUE, SourceKind.ANGULAR, SourceKind.ANGULAR_FORM})
# Annotations a source sets whatever the code says: Angular's form tool forces these to false.
FORCED_ANNOTATIONS = {SourceKind.ANGULAR_FORM: {"readOnlyHint": False, "untrustedContentHint": False}}
# Schema keywords a parameter row shows (the whole schema is in ``input_schema``).
PARAMETER_KEYWORDS = ("description", "enum", "const", "default", "format", "pattern", "minimum", "maximum",
                      "exclusiveMinimum", "exclusiveMaximum", "minLength", "maxLength", "minItems", "maxItems")
MAX_PARAMETERS = 500

FLAGS = ("consequential", "read-only", "untrusted-content", "debugging", "cross-origin", "auto-submit")

# --fail-on-change levels, highest first: a threshold fails on changes at its level or above.
LEVELS = ("added", "removed", "exposure", "any")
DEFAULT_FAIL_LEVEL = "exposure"


class ManifestError(ValueError):
    """A file given to ``--against`` that is not a manifest this version can read."""


# --- building the manifest ----------------------------------------------------------------------

def linted_root(paths: Iterable[str]) -> Path:
    """The directory manifest paths are relative to: the deepest one holding every path linted."""
    return common_directory(list(paths)).resolve()


def relative_path(path: Path, root: Path) -> str:
    resolved = path.resolve()
    try:
        return resolved.relative_to(root).as_posix()
    except ValueError:
        return Path(os.path.relpath(resolved, root)).as_posix()


def build_manifest(result: LintResult, root: Path) -> dict:
    """The manifest of a lint run: every tool once, sorted, with the findings on it counted."""
    counts = finding_counts(result.project, result.diagnostics)
    registrations = registrations_by_definition(result.project)
    entries = [tool_entry(tool, root, counts.get(id(tool), 0), result.project, registrations.get(tool.identity, []))
               for tool in result.project.tools]
    entries.sort(key=lambda entry: (entry["name"] is None, entry["name"] or "", entry["source"]["path"],
                                    entry["source"]["line"], entry["source"]["column"]))
    return {"format": MANIFEST_FORMAT, "version": MANIFEST_VERSION, "tools": entries}


def manifest_json(manifest: dict) -> str:
    return json.dumps(manifest, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def tool_entry(tool: ToolDefinition, root: Path, findings: int, project: Project | None = None,
               registrations: list[Registration] | None = None) -> dict:
    line, column = tool.source.position(tool.node.start_byte)
    annotations, declared = effective_annotations(tool)
    if registrations is None:
        registrations = [tool.registration] if tool.registration is not None else []
    registration = registration_entry(tool, registrations)
    # Angular's form tool infers its schema from the form model's value at run time.
    schema = Unknown("inferred at run time") if tool.source_kind == SourceKind.ANGULAR_FORM else tool.get("inputSchema")
    entry = {
        "name": _text_field(tool.get("name")),
        "title": _text_field(tool.get("title")),
        "description": _text_field(tool.get("description")),
        "source": {"kind": tool.source_kind.value, "framework": tool.framework,
                   "path": relative_path(tool.source.path, root), "line": line, "column": column},
        "parameters": parameters(schema),
        "input_schema": None if schema is UNDEFINED else static_json(schema),
        "annotations": annotations,
        "annotations_declared": declared,
        "registration": registration,
        "findings": findings,
    }
    entry["flags"] = derived_flags(tool, annotations, registration, project)
    return entry


def _text_field(value: Value) -> str | None:
    if value is UNDEFINED or value is None:
        return None
    return value if isinstance(value, str) else DYNAMIC


def static_json(value: Value):
    """A static value as JSON; what cannot be known is ``"<dynamic>"``.

    Bounded in depth and in size: const references can share one object
    many times over, so a small source may stand for a huge tree.
    """
    budget = [MAX_JSON_VALUES]

    def convert(current: Value, depth: int):
        budget[0] -= 1
        if depth > MAX_VALUE_DEPTH or budget[0] < 0:
            return TOO_LARGE
        if isinstance(current, bool) or current is None or isinstance(current, str):
            return current
        if isinstance(current, (int, float)):
            return current if math.isfinite(current) else str(current)
        if isinstance(current, JSObject):
            converted = {key: convert(prop.value, depth + 1) for key, prop in current.props.items()
                         if prop.value is not UNDEFINED}
            if current.open:
                converted["..."] = DYNAMIC
            return converted
        if isinstance(current, JSArray):
            items = [None if item is UNDEFINED else convert(item, depth + 1) for item in current.values]
            return items + [DYNAMIC] if current.open else items
        if isinstance(current, JSFunction):
            return FUNCTION
        if isinstance(current, BigIntValue):
            return current.text
        return DYNAMIC  # Unknown, or UNDEFINED at the top

    return convert(value, 0)


def js_truthy(value: Value) -> bool | str:
    """How the browser's boolean conversion reads an annotation value; ``"<dynamic>"`` when unknown."""
    if isinstance(value, Unknown):
        return DYNAMIC
    if value is UNDEFINED or value is None:
        return False
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)):
        return value != 0 and not math.isnan(value)
    if isinstance(value, str):
        return value != ""
    return True  # objects, arrays, functions


def effective_annotations(tool: ToolDefinition) -> tuple[dict, list[str]]:
    """Each annotation's effective value (absent means false) and the annotations the code sets."""
    forced = FORCED_ANNOTATIONS.get(tool.source_kind, {})
    values, declared = {}, []
    for key in ANNOTATIONS:
        value = tool.annotation(key) if tool.source_kind != SourceKind.FORM else UNDEFINED
        if value is not UNDEFINED:
            declared.append(key)
        values[key] = forced.get(key, js_truthy(value))
    return values, sorted(declared)


def registration_entry(tool: ToolDefinition, registrations: list[Registration]) -> dict:
    """Whether and how the tool is registered: its ``exposedTo`` origins and what unregisters it.

    A definition registered from several places (one factory, two call
    sites) is exposed to the origins of all of them. ``signal`` is true when
    an AbortSignal unregisters the tool (one passed to every registerTool,
    or the one a framework integration aborts on teardown), false when a
    registerTool gets none, null when no signal applies (a form leaves with
    its element; a definition never seen registered).
    """
    if registrations:
        origins = {origin for registration in registrations
                   for origin in exposed_origins(registration.options, registration.options_node)}
        signals = {_option_present(registration.options, "signal") for registration in registrations}
        signal = False if False in signals else DYNAMIC if DYNAMIC in signals else True
        return {"registered": True, "exposed_to": sorted(origins), "signal": signal}
    if tool.source_kind in INTEGRATION_KINDS:
        return {"registered": True, "exposed_to": [], "signal": True}
    if tool.source_kind == SourceKind.FORM:
        return {"registered": True, "exposed_to": [], "signal": None}
    return {"registered": False, "exposed_to": [], "signal": None}


def registrations_by_definition(project: Project) -> dict[tuple[str, int, int], list[Registration]]:
    """Every registerTool call of each definition (``project.tools`` keeps one per definition)."""
    found: dict[tuple[str, int, int], list[Registration]] = {}
    for analysis in project.files:
        for tool in analysis.tools:
            if tool.registration is not None:
                calls = found.setdefault(tool.identity, [])
                if all(known.call.id != tool.registration.call.id for known in calls):
                    calls.append(tool.registration)
    return found


def _option_present(options: Value, key: str) -> bool | str:
    """Whether an option is passed: a key with a value the analyzer cannot compute still counts."""
    if isinstance(options, JSObject):
        prop = options.props.get(key)
        if prop is None:
            return DYNAMIC if options.open else False
        return prop.value is not UNDEFINED and prop.value is not None
    if options is UNDEFINED or options is None:
        return False
    return DYNAMIC


def exposed_origins(options: Value, options_node: Node | None) -> list[str]:
    """The ``exposedTo`` entries, sorted; an entry not known statically shows its source text."""
    if isinstance(options, Unknown):
        return [_dynamic_text(options_node)] if options_node is not None else [DYNAMIC]
    if not isinstance(options, JSObject) or "exposedTo" not in options.props:
        return [DYNAMIC] if isinstance(options, JSObject) and options.open else []
    prop = options.props["exposedTo"]
    value = prop.value
    if isinstance(value, str):
        return [value]
    if isinstance(value, JSArray):
        origins = {item.value if isinstance(item.value, str) else _dynamic_text(item.node) for item in value.items}
        if value.open:
            origins.add(_dynamic_text(prop.value_node))
        return sorted(origins)
    if value is UNDEFINED or value is None:
        return []
    return [_dynamic_text(prop.value_node)]


def _dynamic_text(node: Node | None) -> str:
    if node is None:
        return DYNAMIC
    return f"<dynamic: {' '.join(node.text.decode('utf-8', errors='replace').split())}>"


def parameters(schema: Value) -> list[dict] | str:
    """Each property of the input schema, nested ones as ``address.city`` and ``items[].sku``, sorted by name."""
    if schema is UNDEFINED or schema is None:
        return []
    if not isinstance(schema, JSObject):
        return DYNAMIC
    found: list[dict] = []
    stack: list[tuple[str, JSObject]] = [("", schema)]
    while stack and len(found) < MAX_PARAMETERS:
        prefix, current = stack.pop()
        properties = current.get("properties")
        required = current.get("required")
        required_names = {value for value in required.values if isinstance(value, str)} \
            if isinstance(required, JSArray) else set()
        if isinstance(properties, JSObject):
            for name, prop in properties.props.items():
                full_name = f"{prefix}{name}"
                found.append(_parameter(full_name, prop.value, name in required_names))
                if isinstance(prop.value, JSObject):
                    stack.append((f"{full_name}.", prop.value))
                    items = prop.value.get("items")
                    if isinstance(items, JSObject):
                        stack.append((f"{full_name}[].", items))
    return sorted(found, key=lambda parameter: parameter["name"])


def _parameter(name: str, schema: Value, required: bool) -> dict:
    entry = {"name": name, "required": required}
    if not isinstance(schema, JSObject):
        entry["type"] = DYNAMIC
        return entry
    entry["type"] = static_json(schema.get("type")) if schema.has("type") else None
    for keyword in PARAMETER_KEYWORDS:
        if schema.has(keyword) and schema.get(keyword) is not UNDEFINED:
            entry[keyword] = static_json(schema.get(keyword))
    return entry


def derived_flags(tool: ToolDefinition, annotations: dict, registration: dict, project: Project | None) -> list[str]:
    """What the tool does for a reviewer, from its hints and from what the rules read in its wording and code.

    ``consequential``: consequentialHint true, or a name or description naming a consequential action
    where WM602 would ask for the hint. ``untrusted-content``: untrustedContentHint true, or an execute
    returning content fetched from another origin or an input URL (WM605). ``debugging``: the hint, or
    developer-tooling wording (WM606). ``cross-origin``: any ``exposedTo`` entry.
    """
    name, description = tool.get("name"), tool.get("description")
    name = name if isinstance(name, str) else None
    description = description if isinstance(description, str) else None
    flags = set()
    if annotations["consequentialHint"] is True or (
            tool.annotation("consequentialHint") is UNDEFINED and annotations["readOnlyHint"] is not True
            and consequential_action(name, description) is not None):
        flags.add("consequential")
    if annotations["readOnlyHint"] is True:
        flags.add("read-only")
    if annotations["untrustedContentHint"] is True or _returns_untrusted_content(tool, project):
        flags.add("untrusted-content")
    if annotations["debugging"] is True or developer_tooling(name, description) is not None:
        flags.add("debugging")
    if registration["exposed_to"]:
        flags.add("cross-origin")
    if tool.form is not None and tool.form.autosubmit is not None:
        flags.add("auto-submit")
    return [flag for flag in FLAGS if flag in flags]


def _returns_untrusted_content(tool: ToolDefinition, project: Project | None) -> bool:
    if tool.source_kind == SourceKind.FORM:
        return False
    model = execute_of(tool, project)
    return model is not None and returns_untrusted_content(model) is not None


# --- findings per tool --------------------------------------------------------------------------

def finding_counts(project: Project, diagnostics: list[Diagnostic]) -> dict[int, int]:
    """Findings per tool (by ``id``).

    A finding belongs to the innermost definition, registration call or
    framework call it starts in (a call declaring several tools is settled by
    the finding's ``tool_name``), else to the one tool of its ``tool_name``,
    preferring one in the same file. File-level findings belong to no tool.
    """
    tools = list(project.tools)
    spans: dict[str, list[tuple[int, int, ToolDefinition]]] = {}
    for tool in tools:
        spans.setdefault(tool.source.display_path, []).append((tool.node.start_byte, tool.node.end_byte, tool))
        if tool.registration is not None:
            call = tool.registration.call
            spans.setdefault(tool.registration.source.display_path, []).append((call.start_byte, call.end_byte, tool))
    for analysis in project.files:
        for framework_call in analysis.framework_calls:
            call = framework_call.call
            path = framework_call.script.source.display_path
            for tool in tools:
                if tool.source.display_path == path and call.start_byte <= tool.node.start_byte < call.end_byte:
                    spans[path].append((call.start_byte, call.end_byte, tool))
    by_name: dict[str, list[ToolDefinition]] = {}
    for tool in tools:
        if tool.name is not None:
            by_name.setdefault(tool.name, []).append(tool)
    counts: dict[int, int] = {}
    for diagnostic in diagnostics:
        owner = _owner(diagnostic, spans.get(diagnostic.path, ()), by_name.get(diagnostic.tool_name or "", []))
        if owner is not None:
            counts[id(owner)] = counts.get(id(owner), 0) + 1
    return counts


def _owner(diagnostic: Diagnostic, spans, named: list[ToolDefinition]) -> ToolDefinition | None:
    holding = [(end - start, tool) for start, end, tool in spans if start <= diagnostic.start < end]
    if holding:
        smallest = min(size for size, _ in holding)
        innermost = [tool for size, tool in holding if size == smallest]
        named_ids = {id(tool) for tool in named}
        innermost = [tool for tool in innermost if id(tool) in named_ids] or innermost
        return innermost[0] if len(innermost) == 1 else None
    same_file = [tool for tool in named if tool.source.display_path == diagnostic.path]
    candidates = same_file or named
    return candidates[0] if len(candidates) == 1 else None


# --- reading a manifest -------------------------------------------------------------------------

def load_manifest(text: str) -> dict:
    try:
        manifest = json.loads(text)
    except json.JSONDecodeError as error:
        raise ManifestError(f"not JSON ({error.msg} at line {error.lineno})") from None
    if not isinstance(manifest, dict) or manifest.get("format") != MANIFEST_FORMAT:
        raise ManifestError("not a tools manifest (write one with `webmcp-lint tools --format json`)")
    if manifest.get("version") != MANIFEST_VERSION:
        raise ManifestError(f"manifest version {manifest.get('version')!r} is not {MANIFEST_VERSION}; "
                            "regenerate it with this webmcp-lint")
    if not isinstance(manifest.get("tools"), list) or not all(isinstance(tool, dict) for tool in manifest["tools"]):
        raise ManifestError('"tools" must be a list of objects')
    return manifest


# --- drift --------------------------------------------------------------------------------------

class Change(HashedRecord):
    """One difference between a committed manifest and the current surface."""

    __slots__ = ("level", "tool", "message")
    _compared = __slots__

    def __init__(self, level: str, tool: str, message: str) -> None:
        self.level = level  # one of LEVELS
        self.tool = tool
        self.message = message

    def line(self) -> str:
        return f"{self.level}: {self.tool}: {self.message}"

    def fails(self, threshold: str) -> bool:
        return LEVELS.index(self.level) <= LEVELS.index(threshold)


def compare(old: dict, new: dict) -> list[Change]:
    """What changed from ``old`` to ``new`` (both manifests), tools paired by name, then by path."""
    changes: list[Change] = []
    for before, after in _pairs(old["tools"], new["tools"]):
        if before is None:
            changes.append(Change("added", _label(after), f"tool added ({_where(after)})"))
        elif after is None:
            changes.append(Change("removed", _label(before), f"tool removed (was in {_where(before)})"))
        else:
            changes.extend(_tool_changes(before, after))
    return changes


def _label(tool: dict) -> str:
    return f'"{tool.get("name")}"' if tool.get("name") is not None else f"unnamed tool at {_where(tool)}"


def _where(tool: dict) -> str:
    source = tool.get("source") or {}
    return f"{source.get('path')}:{source.get('line')}"


def _pairs(old: list[dict], new: list[dict]) -> list[tuple[dict | None, dict | None]]:
    """Tools of both sides paired: same name and path first, then same name in manifest order."""
    remaining = list(old)
    pairs: list[tuple[dict | None, dict | None]] = []
    unmatched: list[dict] = []
    for tool in new:
        match = next((candidate for candidate in remaining if _key(candidate) == _key(tool)), None)
        if match is None:
            unmatched.append(tool)
        else:
            remaining.remove(match)
            pairs.append((match, tool))
    for tool in unmatched:
        match = next((candidate for candidate in remaining if candidate.get("name") == tool.get("name")
                      and tool.get("name") is not None), None)
        if match is not None:
            remaining.remove(match)
        pairs.append((match, tool))
    pairs.extend((tool, None) for tool in remaining)
    return pairs


def _key(tool: dict) -> tuple:
    return tool.get("name"), (tool.get("source") or {}).get("path")


# Hints whose loss makes an agent less careful: the change is an exposure.
SAFETY_HINTS = ("consequentialHint", "untrustedContentHint")


def _tool_changes(before: dict, after: dict) -> list[Change]:
    label = _label(after)
    changes = []
    for origin in sorted(set(_list(after, "registration", "exposed_to")) - set(_list(before, "registration", "exposed_to"))):
        changes.append(Change("exposure", label, f'exposedTo gains origin "{origin}"'))
    for origin in sorted(set(_list(before, "registration", "exposed_to")) - set(_list(after, "registration", "exposed_to"))):
        changes.append(Change("any", label, f'exposedTo no longer lists origin "{origin}"'))
    changes.extend(_hint_changes(label, before, after))
    for field in ("title", "description"):
        if before.get(field) != after.get(field):
            changes.append(Change("any", label, f"{field} changed: {_shown(before.get(field), limit=None)} -> "
                                                 f"{_shown(after.get(field), limit=None)}"))
    parameter_changes = _parameter_changes(label, before.get("parameters"), after.get("parameters"))
    changes.extend(parameter_changes)
    if not parameter_changes and before.get("input_schema") != after.get("input_schema"):
        changes.append(Change("any", label, "input schema changed"))
    return changes


def _list(tool: dict, *keys: str) -> list:
    value = tool
    for key in keys:
        value = value.get(key) if isinstance(value, dict) else None
    return [item for item in value if isinstance(item, str)] if isinstance(value, list) else []


def _hint_changes(label: str, before: dict, after: dict) -> list[Change]:
    old, new = before.get("annotations") or {}, after.get("annotations") or {}
    declared = set(after.get("annotations_declared") or ())
    changes = []
    for hint in ANNOTATIONS:
        was, now = old.get(hint, False), new.get(hint, False)
        if was == now:
            continue
        shown_now = json.dumps(now) if hint in declared else "absent"
        if hint in SAFETY_HINTS and was is True:
            changes.append(Change("exposure", label, f"{hint} turned off (true -> {shown_now})"))
        elif hint == "readOnlyHint" and now is True:
            changes.append(Change("exposure", label, f"readOnlyHint turned on ({json.dumps(was)} -> true): "
                                                     "agents may now call it without asking"))
        else:
            changes.append(Change("any", label, f"{hint} changed ({json.dumps(was)} -> {shown_now})"))
    return changes


def _parameter_changes(label: str, before, after) -> list[Change]:
    if not isinstance(before, list) or not isinstance(after, list):
        return [] if before == after else [Change("any", label, f"parameters changed: {_shown(before)} -> {_shown(after)}")]
    old = {parameter.get("name"): parameter for parameter in before if isinstance(parameter, dict)}
    new = {parameter.get("name"): parameter for parameter in after if isinstance(parameter, dict)}
    changes = []
    for name in sorted(set(new) - set(old), key=str):
        required = " (required)" if new[name].get("required") else ""
        changes.append(Change("any", label, f'parameter "{name}" added{required}'))
    for name in sorted(set(old) - set(new), key=str):
        changes.append(Change("any", label, f'parameter "{name}" removed'))
    for name in sorted(set(old) & set(new), key=str):
        differences = [f"{key} {_shown(old[name].get(key))} -> {_shown(new[name].get(key))}"
                       for key in sorted(set(old[name]) | set(new[name])) if old[name].get(key) != new[name].get(key)]
        if differences:
            changes.append(Change("any", label, f'parameter "{name}" changed: {", ".join(differences)}'))
    return changes


def _shown(value, limit: int | None = 80) -> str:
    """A value in a change line; long schema values are cut, texts a reviewer must read are not."""
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text if limit is None or len(text) <= limit else text[:limit - 3] + "..."

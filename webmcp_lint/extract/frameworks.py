"""Tools declared through a framework integration: React/Vue ``useWebMCP``, Angular's providers and forms.

Calls are recognised by what they import, not by their local name: the
callee must resolve to an integration's export (``import { useWebMCP as
useTool } from "use-webmcp-tool"``, a namespace import, ``require``, or a
const alias of one of those). Each call is recorded for the lifecycle rules
(WM503 to WM505) and each definition it declares becomes a ToolDefinition
with its source kind, so rules can tell a Vue hook's options from a
registerTool definition.
"""

from __future__ import annotations

from tree_sitter import Node

from webmcp_lint.evaluate import JSArray, JSObject, Value
from webmcp_lint.extract import IDENTIFIER_BYTES, Extractor, identifiers_named
from webmcp_lint.frameworks import AUTO_IMPORTS, INTEGRATIONS, Integration, package_dependencies
from webmcp_lint.model import EXTRA_FIELDS, FileAnalysis, FrameworkCall, Script, ToolDefinition
from webmcp_lint.scope import Binding, pattern_names
from webmcp_lint.syntax import WRAPPED_CALLEE_STARTS, call_arguments, text, unwrap

MAX_ALIAS_STEPS = 4


def imported_origin(node: Node | None, script: Script, steps: int = MAX_ALIAS_STEPS) -> tuple[str, str] | None:
    """(module, exported name) of the import ``node`` refers to, following const aliases and namespaces."""
    node = unwrap(node)
    if node is None or steps == 0:
        return None
    if node.type == "member_expression":  # namespace.useWebMCP
        holder = unwrap(node.child_by_field_name("object"))
        owner = imported_origin(holder, script, steps - 1) if holder is not None and holder.type == "identifier" else None
        if owner is None or owner[1] != "*":
            return None
        return owner[0], text(node.child_by_field_name("property"))
    if node.type != "identifier":
        return None
    binding = script.scopes.resolve(node)
    if binding is None:  # a global: maybe a name the app's Nuxt modules import everywhere
        return auto_imports(script).get(text(node))
    return _remembered_origin(binding, script, steps)


def auto_imports(script: Script) -> dict[str, tuple[str, str]]:
    """The names a Nuxt app's modules import in every file, with their origin (none outside such an app): read
    from the dependencies of the nearest package.json."""
    return script.once("auto imports", lambda: _auto_imports_of(script))


def _auto_imports_of(script: Script) -> dict[str, tuple[str, str]]:
    package = script.index.nearest_package_json(script.source.path) if script.index is not None else None
    dependencies = package_dependencies(package.value) if package is not None else set()
    return {name: origin for module, names in AUTO_IMPORTS.items() if module in dependencies
            for name, origin in names.items()}


def _remembered_origin(binding: Binding, script: Script, steps: int) -> tuple[str, str] | None:
    """The origin of ``binding``, found once per binding and alias steps left (every call through one name
    asks the same question); an import's origin is the same whatever the steps left, so it is found once."""
    known = script.once("imported_origins", dict)
    key = (binding.name_node.id, None if binding.kind == "import" else steps)
    if key not in known:
        known[key] = _binding_origin(binding, script, steps)
    return known[key]


INTEGRATION_MODULES = frozenset(module for module, _ in INTEGRATIONS)


def _leads_to_no_integration(name: str, script: Script) -> bool:
    """Every call through ``name`` reaches no integration: each binding it may resolve to is a parameter,
    a function... (which has no origin), or its origin is neither an integration nor a namespace of an
    integration's module. A call ``name.f()`` follows one alias step less than ``name()``, and fewer steps
    find the same origin or none, so the origin ``name()`` would reach answers for both."""
    for binding in script.scopes.bindings_of(name):
        if not _may_have_origin(binding):
            continue
        origin = _remembered_origin(binding, script, MAX_ALIAS_STEPS)
        if origin is not None and (origin in INTEGRATIONS or (origin[1] == "*" and origin[0] in INTEGRATION_MODULES)):
            return False
    return True


def _may_have_origin(binding: Binding) -> bool:
    """An import, or a variable with a value: a parameter, a function or a bare declaration has no origin."""
    return binding.kind == "import" or (binding.kind in ("const", "let", "var") and binding.init is not None)


def _binding_origin(binding: Binding, script: Script, steps: int) -> tuple[str, str] | None:
    if not _may_have_origin(binding):
        return None
    if binding.kind == "import":
        module, name = binding.import_source or "", binding.imported_name or "default"
        if script.index is not None:  # a local module (relative, or a path a tsconfig maps) may pass one on
            return script.index.package_origin(script, module, name) or (module, name)
        return module, name
    init = unwrap(binding.init)
    if init is not None and _is_require(init):
        arguments = call_arguments(init)
        module = text(arguments[0])[1:-1] if arguments and arguments[0].type == "string" else None
        if module is None or len(binding.path) > 1:
            return None
        return (module, str(binding.path[0])) if binding.path else (module, "*")
    if binding.path:
        return None
    return imported_origin(init, script, steps - 1)


def integration_of(call: Node, script: Script) -> tuple[Integration, str] | None:
    """The integration a call invokes, and the module it came from."""
    origin = imported_origin(call.child_by_field_name("function"), script)
    if origin is None:
        return None
    integration = INTEGRATIONS.get(origin)
    return (integration, origin[0]) if integration is not None else None


def _definitions(integration: Integration, arguments: list[Node], script: Script) -> list[JSObject]:
    evaluator = script.evaluator
    if integration.api == "provideExperimentalWebMcpTools":
        listed = evaluator.value(arguments[0]) if arguments else None
        values: list[Value] = listed.values if isinstance(listed, JSArray) else []
    elif integration.api == "form":
        # form(model, options) or form(model, schema, options): the tool is an option.
        values = []
        for argument in arguments[1:]:
            options = evaluator.value(argument)
            if isinstance(options, JSObject):
                values.append(options.get("experimentalWebMcpTool"))
    else:
        values = evaluator.candidates(arguments[0]) if arguments else []
    return [value for value in values if isinstance(value, JSObject) and value.node is not None]


def _extract(script: Script, analysis: FileAnalysis) -> None:
    if not _may_import_integration(script):
        return
    names = _import_reaching_names(script)
    if not names:
        return
    seen = {tool.identity for tool in analysis.tools}
    settled = set()  # names every call through which is known to reach no integration
    for call, spelled in _calls_from(script, names):
        if spelled in settled:
            continue  # the callee starts with the name: its base is that name, or none
        name = _callee_base_name(call)
        if name not in names or name in settled:
            continue
        found = integration_of(call, script)
        if found is None:
            if _leads_to_no_integration(name, script):
                settled.add(name)
            continue
        integration, module = found
        analysis.framework_calls.append(FrameworkCall(script, call, integration.api, module, integration.framework))
        analysis.has_webmcp_code = True
        for definition in _definitions(integration, call_arguments(call), script):
            tool = ToolDefinition(integration.source_kind, script, script.source, definition.node, definition,
                                  framework=integration.framework,
                                  extra_fields=EXTRA_FIELDS.get(integration.source_kind, ()), integration=integration)
            if tool.identity not in seen:
                seen.add(tool.identity)
                analysis.tools.append(tool)


def _may_import_integration(script: Script) -> bool:
    """Some import of the script may bring in an integration: a ``require``, an import from an integration's
    module, or from a local module that exists (relative, or a path a tsconfig maps: it may pass one on). Most
    files import none of these, and then no call needs a look: every origin is a name of another package or of
    a missing local module."""
    if identifiers_named(script, {"require"}) or auto_imports(script):
        return True
    index = script.index
    for specifier in script.import_specifiers():
        if specifier is None or specifier in INTEGRATION_MODULES:
            return True
        if index is not None and index.resolve_specifier(script.source.path, specifier) is not None:
            return True
    return False


# Initialisers of a variable that may hold an import: an alias or a namespace member (and require()).
CALLEE_ALIAS_KINDS = frozenset({"identifier", "member_expression"})


def _import_reaching_names(script: Script) -> frozenset[str]:
    """Names that may lead to an import (imports, and the variables ``imported_origin`` follows).

    Most calls go through none of them (``document.createElement``, ``items.map``),
    and a set lookup rejects them before any name is resolved. Read from the
    declarations themselves: a declarator or a ``for...of`` variable always
    binds with const, let or var, so its bindings need not be made.
    """
    data = script.source.data
    names = set(script.scopes.imported_names) | set(auto_imports(script))
    for _, name, value in script.initialised_declarators():
        if _may_alias(value, data):
            names.update(text(identifier) for identifier, _ in pattern_names(name))
    for loop in script.of_kind("for_in_statement"):
        keyword, left = loop.child_by_field_name("kind"), loop.child_by_field_name("left")
        operator, right = loop.child_by_field_name("operator"), loop.child_by_field_name("right")
        if keyword is not None and left is not None and operator is not None and operator.type == "of" \
                and _may_alias(right, data):
            names.update(text(identifier) for identifier, _ in pattern_names(left))
    return frozenset(names)


def _may_alias(value: Node | None, data: bytes) -> bool:
    """An initialiser that may hold an import: an alias, a namespace member, or require()."""
    init = unwrap(value)
    if init is None:
        return False
    kind = init.type
    return kind in CALLEE_ALIAS_KINDS or (data.startswith(b"require", init.start_byte) and _is_require(init))


def _calls_from(script: Script, names: frozenset[str]) -> list[tuple[Node, str | None]]:
    """The calls, in document order, that may start with one of ``names`` (``f(...)``, ``ns.f(...)``),
    each with the name its first token spells (None for a wrapped callee).

    Told by the bytes a call starts with: a call starts where its callee
    does, unless the callee is wrapped (parentheses, a type assertion), and
    those calls are kept too. Reading a node's kind costs more than its start.
    """
    calls = script.of_kind("call_expression")
    data = script.source.data
    spellings_by_first_byte: dict[int, list[tuple[bytes, str]]] = {}
    for name in names:
        spelling = name.encode("utf-8")
        if not spelling or "\ufffd" in name:  # a name that is not its bytes decoded: look at every call
            return [(call, None) for call in calls]
        spellings_by_first_byte.setdefault(spelling[0], []).append((spelling, name))
    chosen = []
    size = len(data)
    for call in calls:
        start = call.start_byte
        first = data[start] if start < size else None
        if first in WRAPPED_CALLEE_STARTS:
            chosen.append((call, None))
            continue
        for spelling, name in spellings_by_first_byte.get(first, ()):
            end = start + len(spelling)
            if not data.startswith(spelling, start):
                continue
            following = data[end] if end < size else None
            if following not in IDENTIFIER_BYTES:  # else a longer name starts the call
                # A byte outside ASCII or an escape may still continue the name: then it is not known.
                chosen.append((call, None if following is not None and (following >= 0x80 or following == 0x5C)
                               else name))
                break
    return chosen


def _is_require(node: Node) -> bool:
    return node.type == "call_expression" and text(node.child_by_field_name("function")) == "require"


def _callee_base_name(call: Node) -> str | None:
    """``f`` of ``f(...)`` and ``ns`` of ``ns.f(...)``: the name ``imported_origin`` starts from."""
    callee = unwrap(call.child_by_field_name("function"))
    if callee is not None and callee.type == "member_expression":
        callee = unwrap(callee.child_by_field_name("object"))
    return text(callee) if callee is not None and callee.type == "identifier" else None


EXTRACTOR = Extractor(
    name="frameworks",
    triggers=(b"useWebMCP", b"WebMcp"),
    kinds=frozenset({"call_expression", "import_statement"}),
    extract=_extract,
    order=20,
)

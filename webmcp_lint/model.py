"""The domain model between syntax and rules.

Extractors turn syntax into these objects; rules read them. A new source of
tool definitions (a framework, a file format) adds an extractor and never
touches a rule.
"""

from __future__ import annotations

import enum
import weakref
from typing import TYPE_CHECKING, Callable, Hashable, Iterator, TypeVar

from tree_sitter import Node, Tree

from webmcp_lint.evaluate import UNDEFINED, Evaluator, JSObject, Prop, Unknown, Value
from webmcp_lint.record import Record
from webmcp_lint.scope import ScopeIndex
from webmcp_lint.source import SourceFile

if TYPE_CHECKING:
    from webmcp_lint.diagnostics import Fix
    from webmcp_lint.declarative import FormTool
    from webmcp_lint.frameworks import Detection, Integration
    from webmcp_lint.project_index import ProjectIndex


class SourceKind(str, enum.Enum):
    """Where a tool definition came from."""

    IMPERATIVE = "imperative"  # registerTool(def) on a model context
    FACTORY = "factory"  # returned by a function, maybe in another module
    TYPED = "typed"  # typed as WebMCP.ModelContextTool, maybe never registered
    REACT = "react"  # useWebMCP(options) from a React integration
    VUE = "vue"  # useWebMCP(options) from @vueuse/core
    ANGULAR = "angular"  # provideExperimentalWebMcpTools / declareExperimentalWebMcpTool
    ANGULAR_FORM = "angular-form"  # experimentalWebMcpTool form option
    FORM = "form"  # <form toolname>


TOOL_FIELDS = ("name", "title", "description", "inputSchema", "outputSchema", "execute", "annotations")
REGISTER_OPTIONS = ("signal", "exposedTo")
ANNOTATIONS = ("readOnlyHint", "consequentialHint", "untrustedContentHint", "debugging")

# Fields each source requires, and the extra option keys it accepts beside TOOL_FIELDS.
REQUIRED_FIELDS = {
    SourceKind.ANGULAR_FORM: ("name", "description"),
    SourceKind.FORM: ("name", "description"),
}
DEFAULT_REQUIRED_FIELDS = ("name", "description", "execute")
EXTRA_FIELDS = {
    SourceKind.REACT: ("enabled",),
    SourceKind.VUE: ("enabled", "formatOutput", "onError", "document"),
}


T = TypeVar("T")


class Script(Record):
    """One parse tree of a file (a whole .js file, or the scripts of one language in an HTML file)."""

    _compared = ("source", "language", "tree", "nodes", "scopes", "evaluator", "index")

    def __init__(self, source: SourceFile, language: str, tree: Tree, nodes: dict[str, list[Node]],
                 scopes: ScopeIndex, evaluator: Evaluator, index: "ProjectIndex | None" = None) -> None:
        self.source = source
        self.language = language
        self.tree = tree
        self.nodes = nodes
        self.scopes = scopes
        self.evaluator = evaluator
        self.index = index  # the run's modules, for names imported from local files
        self._derived: dict = {}
        self.root = tree.root_node  # kept: each ``tree.root_node`` makes a new Node
        _SCRIPTS_BY_ROOT[self.root.id] = self

    def of_kind(self, kind: str) -> list[Node]:
        return self.nodes.get(kind, [])

    def once(self, key: Hashable, compute: Callable[[], "T"]) -> "T":
        """A fact about this script computed at most once (extractors and rules ask the same questions)."""
        if key in self._derived:
            return self._derived[key]
        value = self._derived[key] = compute()
        return value

    def text(self, node: Node) -> str:
        return node.text.decode("utf-8", errors="replace")

    def holds(self, node: Node) -> bool:
        """``node`` is a node of this script's tree (the one its byte range leads to from the root)."""
        return self.root.descendant_for_byte_range(node.start_byte, node.end_byte) == node

    def import_specifiers(self) -> list[str | None]:
        """The module each import statement with a source names (None when it is not a plain string), in order:
        the framework detection, the framework extractor and a unit's list of imported files all read them (the
        scope index reads them as it indexes the imports)."""
        return self.scopes.import_specifiers

    def initialised_declarators(self) -> list[tuple[Node, Node, Node]]:
        """(declarator, name or pattern, value) of every ``x = value`` declarator: several extractors read them all
        (the scope index lists them as it reads the declarators)."""
        return self.scopes.initialised_declarators


# Every live Script by the id of its tree's root, so a node found through an
# import or a factory can be traced to the file it is written in.
_SCRIPTS_BY_ROOT: "weakref.WeakValueDictionary[int, Script]" = weakref.WeakValueDictionary()


def script_of(node: Node | None) -> Script | None:
    """The Script whose parse tree holds ``node`` (a node from another module keeps its own file)."""
    if node is None:
        return None
    root = node
    while root.parent is not None:
        root = root.parent
    return _SCRIPTS_BY_ROOT.get(root.id)


class Registration(Record):
    """A registerTool(def, options) call on a model context."""

    _compared = ("script", "call", "definition_node", "options_node", "options")

    def __init__(self, script: Script, call: Node, definition_node: Node | None, options_node: Node | None,
                 options: Value) -> None:
        self.script = script
        self.call = call
        self.definition_node = definition_node
        self.options_node = options_node
        self.options = options

    @property
    def source(self) -> SourceFile:
        return self.script.source


class ToolDefinition(Record):
    """One tool, whatever its source. ``definition`` is the static object (a form's is synthesised)."""

    _compared = ("source_kind", "script", "source", "node", "definition", "registration", "framework",
                 "extra_fields", "form", "integration")

    def __init__(self, source_kind: SourceKind, script: Script | None, source: SourceFile, node: Node,
                 definition: JSObject, registration: Registration | None = None, framework: str | None = None,
                 extra_fields: tuple[str, ...] = (), form: "FormTool | None" = None,
                 integration: "Integration | None" = None) -> None:
        self.source_kind = source_kind
        self.script = script
        self.source = source
        self.node = node
        self.definition = definition
        self.registration = registration
        self.framework = framework
        self.extra_fields = extra_fields
        self.form = form  # the <form toolname> facts of a SourceKind.FORM tool
        self.integration = integration  # the framework API that declared it: how its execute is called
        # ``get`` and ``prop`` are the definition's own lookups (rules read some 15,000 fields and 9,000
        # properties a run: one call each, not two).
        self.get: Callable[[str], Value] = definition.get
        self.prop: Callable[[str], Prop | None] = definition.props.get
        # A definition built in another module (a factory, an import) belongs to that module's file.
        # A node of the tool's own tree is recognised in one step (script_of climbs .parent to the root).
        if script is None or not script.holds(node):
            owner = script_of(node)
            if owner is not None and owner is not script:
                self.script, self.source = owner, owner.source
        # The key tools are told apart by (extractors, the project's tool list and rules read it several times a
        # tool): where the definition is written, worked out once.
        self.identity: tuple[str, int, int] = (self.source.display_path, node.start_byte, node.end_byte)

    @property
    def name(self) -> str | None:
        value = self.get("name")
        return value if isinstance(value, str) else None

    @property
    def required_fields(self) -> tuple[str, ...]:
        return REQUIRED_FIELDS.get(self.source_kind, DEFAULT_REQUIRED_FIELDS)

    @property
    def anchor(self) -> Node:
        """Where findings about something missing point: the name property, else the object."""
        prop = self.prop("name")
        if prop is not None and prop.key_node is not None:
            return prop.key_node
        return self.node

    @property
    def annotations(self) -> JSObject | None:
        value = self.get("annotations")
        return value if isinstance(value, JSObject) else None

    def annotation(self, key: str) -> Value:
        """An annotation's value: UNDEFINED when absent, Unknown when not static."""
        value = self.get("annotations")
        if value is UNDEFINED:
            return UNDEFINED
        if isinstance(value, JSObject):
            return value.get(key)
        return Unknown("annotations")

    def script_holding(self, node: Node) -> Script | None:
        """The script whose tree holds ``node``: the tool's own, or the module a property was spread in or
        imported from (its offsets, text and names are that module's); None when no script is known.

        A node of the tool's own tree is recognised from its root in one step (script_of climbs .parent,
        which tree-sitter computes from the root at every step)."""
        if self.script is not None and self.script.holds(node):
            return self.script
        return script_of(node)

    def finding(self, node: Node, message: str, fix: "Fix | None" = None, source: SourceFile | None = None) -> "Finding":
        if source is None:  # a property spread in from another module points into that module
            owner = self.script_holding(node)
            source = owner.source if owner is not None else self.source
        return Finding(source, node.start_byte, node.end_byte, message, self.name, fix)


class Finding(Record):
    """What a rule yields: a byte range in a file and a message. The engine adds the rule."""

    _compared = ("source", "start", "end", "message", "tool_name", "fix")

    def __init__(self, source: SourceFile, start: int, end: int, message: str, tool_name: str | None = None,
                 fix: "Fix | None" = None) -> None:
        self.source = source
        self.start = start
        self.end = end
        self.message = message
        self.tool_name = tool_name
        self.fix = fix


def finding_at(source: SourceFile, node: Node, message: str, fix: "Fix | None" = None,
               tool_name: str | None = None) -> Finding:
    return Finding(source, node.start_byte, node.end_byte, message, tool_name, fix)


class ModelContextRef(Record):
    """An expression that evaluates to a model context (``document.modelContext``, an alias...)."""

    _compared = ("script", "node", "via_navigator")

    def __init__(self, script: Script, node: Node, via_navigator: bool) -> None:
        self.script = script
        self.node = node
        self.via_navigator = via_navigator


class ModelContextCall(Record):
    """A method call on a model context: ``mc.registerTool(...)``, ``mc.getTools(...)``..."""

    _compared = ("script", "call", "method", "method_node", "receiver")

    def __init__(self, script: Script, call: Node, method: str, method_node: Node, receiver: ModelContextRef) -> None:
        self.script = script
        self.call = call
        self.method = method
        self.method_node = method_node
        self.receiver = receiver


class NavigatorReach(Record):
    """A reach for the deprecated ``navigator.modelContext``: ``node`` is reported, ``navigator`` fixed."""

    _compared = ("script", "node", "navigator")

    def __init__(self, script: Script, node: Node, navigator: Node) -> None:
        self.script = script
        self.node = node
        self.navigator = navigator


class UnresolvedDefinition(Record):
    """A registration whose definition cannot be known statically (WM002)."""

    _compared = ("registration", "reason")

    def __init__(self, registration: Registration, reason: str) -> None:
        self.registration = registration
        self.reason = reason


class FrameworkCall(Record):
    """A call of a framework integration's API (``useWebMCP``, ``declareExperimentalWebMcpTool``...)."""

    _compared = ("script", "call", "api", "module", "framework")

    def __init__(self, script: Script, call: Node, api: str, module: str, framework: str) -> None:
        self.script = script
        self.call = call
        self.api = api  # the integration's exported name, whatever local alias the call uses
        self.module = module  # the package it was imported from
        self.framework = framework  # react | vue | angular


class FileAnalysis(Record):
    """Everything the extractors found in one file."""

    _compared = ("source", "scripts", "tools", "registrations", "unresolved", "model_context_refs",
                 "model_context_calls", "navigator_reaches", "parse_errors", "framework_calls", "has_webmcp_code",
                 "suppressions", "framework", "imported_only")

    def __init__(self, source: SourceFile, scripts: list[Script] | None = None,
                 tools: list[ToolDefinition] | None = None, registrations: list[Registration] | None = None,
                 unresolved: list[UnresolvedDefinition] | None = None,
                 model_context_refs: list[ModelContextRef] | None = None,
                 model_context_calls: list[ModelContextCall] | None = None,
                 navigator_reaches: list[NavigatorReach] | None = None,
                 parse_errors: list[tuple[Script, Node]] | None = None,
                 framework_calls: list[FrameworkCall] | None = None, has_webmcp_code: bool = False,
                 suppressions: list | None = None, framework: "Detection | None" = None,
                 imported_only: bool = False) -> None:
        self.source = source
        self.scripts = [] if scripts is None else scripts
        self.tools = [] if tools is None else tools
        self.registrations = [] if registrations is None else registrations
        self.unresolved = [] if unresolved is None else unresolved
        self.model_context_refs = [] if model_context_refs is None else model_context_refs
        self.model_context_calls = [] if model_context_calls is None else model_context_calls
        self.navigator_reaches = [] if navigator_reaches is None else navigator_reaches
        self.parse_errors = [] if parse_errors is None else parse_errors
        self.framework_calls = [] if framework_calls is None else framework_calls
        self.has_webmcp_code = has_webmcp_code
        # webmcp_lint.suppression.Directive, in comment order
        self.suppressions = [] if suppressions is None else suppressions
        self.framework = framework  # the app's framework, for files with tools or registrations
        # A module the run does not lint, analysed because a linted file imports it: its suppression comments
        # apply to the findings reported in it, but are never reported as unused (an importer the run does not
        # lint may be what they are for).
        self.imported_only = imported_only


class Project(Record):
    """All files of one run; cross-file rules and tool rules read it."""

    _compared = ("files", "index")

    def __init__(self, files: list[FileAnalysis] | None = None, index: "ProjectIndex | None" = None) -> None:
        self.files = [] if files is None else files
        self.index = index  # modules, package.json and tsconfig.json files on disk

    @property
    def tools(self) -> Iterator[ToolDefinition]:
        """Every tool definition once, even when registered from several places.

        A definition both typed and registered (or handed to a framework) is
        reported as the registered one, which knows more (options, framework).
        """
        chosen: dict[tuple[str, int, int], ToolDefinition] = {}
        for analysis in self.files:
            for tool in analysis.tools:
                current = chosen.get(tool.identity)
                if current is None or (current.source_kind == SourceKind.TYPED and tool.source_kind != SourceKind.TYPED):
                    chosen[tool.identity] = tool
        yield from chosen.values()

"""Which UI framework a file belongs to, and each framework's official WebMCP integration.

A file is React, Vue or Angular code when it imports the framework, when it
is a component file (``.vue``, ``.jsx``, ``.tsx``), or when the nearest
package.json depends on the framework (WM502). JSX is not React's alone: a
``.jsx``/``.tsx`` file that imports another JSX framework (Solid, Preact,
Stencil, ...) is none of the three, and one whose package.json depends on
such a framework (or on Vue) is not React by its suffix. The integration table keys
each framework API by the package that exports it, so a call is recognised
through any local alias (``import { useWebMCP as useTool }``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from webmcp_lint.languages import lower_suffix
from webmcp_lint.model import FileAnalysis, Project, SourceKind
from webmcp_lint.record import HashedRecord

if TYPE_CHECKING:
    from webmcp_lint.project_index import ProjectIndex

REACT, VUE, ANGULAR = "react", "vue", "angular"
FRAMEWORK_NAMES = {REACT: "React", VUE: "Vue", ANGULAR: "Angular"}

# What WM502 tells users to use instead of a direct registerTool (RULES.md, WM5xx).
OFFICIAL_INTEGRATION = {
    REACT: "use-webmcp-tool's useWebMCP(options), one call per tool",
    VUE: "@vueuse/core's useWebMCP(options)",
    ANGULAR: "provideExperimentalWebMcpTools([...]) or declareExperimentalWebMcpTool(...) from @angular/core",
}

# Packages whose import (or dependency) marks a framework.
FRAMEWORK_PACKAGES = {
    REACT: ("react", "react-dom", "next", "use-webmcp-tool", "usewebmcp", "@mcp-b/react-webmcp"),
    VUE: ("vue", "nuxt", "@vueuse/core"),
    ANGULAR: ("@angular/core",),
}
DEPENDENCY_PACKAGES = {REACT: ("react", "next"), VUE: ("vue", "nuxt"), ANGULAR: ("@angular/core",)}
COMPONENT_SUFFIXES = {".vue": VUE, ".jsx": REACT, ".tsx": REACT}
# Frameworks other than React whose components are written in .jsx/.tsx files (each package, or a subpath of it:
# solid-js/web, preact/hooks, hono/jsx).
OTHER_JSX_PACKAGES = ("solid-js", "preact", "@stencil/core", "@builder.io/qwik", "@qwik.dev/core", "inferno",
                      "hono/jsx", "mithril")  # Hono's JSX only: its RPC client (hono/client) is common in React apps
_OTHER_JSX_SUBPATHS = tuple(package + "/" for package in OTHER_JSX_PACKAGES)
# Dependencies after which a .jsx/.tsx suffix no longer says React (Vue components may be written in TSX too).
NOT_REACT_JSX_DEPENDENCIES = OTHER_JSX_PACKAGES + DEPENDENCY_PACKAGES[VUE]
DEPENDENCY_FIELDS = ("dependencies", "devDependencies", "peerDependencies")


class Integration(HashedRecord):
    """One framework API that declares tools, and how its wrapper calls the tool's execute.

    ``passes_signal``: execute gets the run's options (``{ signal }``) as its second argument.
    ``reports_throws``: a throw becomes an ``isError`` result carrying its message.
    ``reports_returned_errors``: a returned ``Error`` becomes such a result too (instead of ``{}``).
    The execute rules (WM401, WM403 to WM405, WM409) read these facts, never the package's name.
    """

    _compared = ("framework", "source_kind", "api", "passes_signal", "reports_throws", "reports_returned_errors")

    def __init__(self, framework: str, source_kind: SourceKind, api: str, *, passes_signal: bool = True,
                 reports_throws: bool = False, reports_returned_errors: bool = False) -> None:
        self.framework = framework
        self.source_kind = source_kind
        self.api = api
        self.passes_signal = passes_signal
        self.reports_throws = reports_throws
        self.reports_returned_errors = reports_returned_errors


# (module, exported name) -> integration. `form` is Angular's signal form (the tool is an option of it).
# usewebmcp 5.1.0 (re-exported by @mcp-b/react-webmcp 5.1.0) calls `execute(input)` and turns a throw into
# `{ content: [{ text: "Error: <message>" }], isError: true }`, but a returned Error goes through
# normalizeToolResponse as `"{}"`. @vueuse/core 15.0.0 calls `execute(args)` and throws a returned Error
# itself, so both become an isError result with the message.
MCP_B_USE_WEBMCP = Integration(REACT, SourceKind.REACT, "useWebMCP", passes_signal=False, reports_throws=True)
INTEGRATIONS = {
    ("use-webmcp-tool", "useWebMCP"): Integration(REACT, SourceKind.REACT, "useWebMCP"),
    ("use-webmcp-tool", "default"): Integration(REACT, SourceKind.REACT, "useWebMCP"),  # not on npm yet: both forms
    ("usewebmcp", "useWebMCP"): MCP_B_USE_WEBMCP,
    ("@mcp-b/react-webmcp", "useWebMCP"): MCP_B_USE_WEBMCP,
    ("@vueuse/core", "useWebMCP"): Integration(VUE, SourceKind.VUE, "useWebMCP", passes_signal=False,
                                               reports_throws=True, reports_returned_errors=True),
    ("@angular/core", "provideExperimentalWebMcpTools"):
        Integration(ANGULAR, SourceKind.ANGULAR, "provideExperimentalWebMcpTools"),
    ("@angular/core", "declareExperimentalWebMcpTool"):
        Integration(ANGULAR, SourceKind.ANGULAR, "declareExperimentalWebMcpTool"),
    ("@angular/forms/signals", "form"): Integration(ANGULAR, SourceKind.ANGULAR_FORM, "form"),
}


# Nuxt modules that make a package's composables global, used with no import statement: the module's package, and
# the names it brings with their origin (@vueuse/nuxt auto-imports every VueUse function).
AUTO_IMPORTS = {"@vueuse/nuxt": {"useWebMCP": ("@vueuse/core", "useWebMCP")}}


class Detection(HashedRecord):
    _compared = ("framework", "reason")

    def __init__(self, framework: str, reason: str) -> None:
        self.framework = framework
        self.reason = reason  # why, for messages: "the file imports react"

    @property
    def name(self) -> str:
        return FRAMEWORK_NAMES[self.framework]


# (framework, its packages, the prefix of their subpaths), in FRAMEWORK_PACKAGES order.
_FRAMEWORK_PREFIXES = tuple((framework, packages, tuple(package + "/" for package in packages))
                            for framework, packages in FRAMEWORK_PACKAGES.items())


def framework_of_module(specifier: str) -> str | None:
    """The framework an imported package belongs to (``react-dom/client`` is React)."""
    for framework, packages, subpaths in _FRAMEWORK_PREFIXES:
        if specifier in packages or specifier.startswith(subpaths):
            return framework
    if specifier.startswith("@angular/"):
        return ANGULAR
    if specifier.startswith("@vue/"):
        return VUE
    return None


def imported_modules(analysis: FileAnalysis) -> list[str]:
    """The module specifiers of a file's import statements (all of its scripts)."""
    return [specifier for script in analysis.scripts for specifier in script.import_specifiers() if specifier]


def detect_framework(analysis: FileAnalysis, index: ProjectIndex | None) -> Detection | None:
    """The framework of the app a file belongs to, or None for plain JavaScript (or another framework's code)."""
    specifiers = imported_modules(analysis)
    for specifier in specifiers:
        framework = framework_of_module(specifier)
        if framework is not None:
            return Detection(framework, f"the file imports {specifier}")
    if any(specifier in OTHER_JSX_PACKAGES or specifier.startswith(_OTHER_JSX_SUBPATHS) for specifier in specifiers):
        return None  # a Solid or Preact component is no React one, whatever its suffix or package.json
    package = index.nearest_package_json(analysis.source.path) if index is not None else None
    dependencies = package_dependencies(package.value) if package is not None else set()
    suffix = lower_suffix(analysis.source.display_path)
    framework = COMPONENT_SUFFIXES.get(suffix)
    if framework is not None and not (framework == REACT and dependencies.intersection(NOT_REACT_JSX_DEPENDENCIES)):
        return Detection(framework, f"it is a {suffix} component")
    for framework, names in DEPENDENCY_PACKAGES.items():
        found = next((name for name in names if name in dependencies), None)
        if found is not None:
            return Detection(framework, f"{package.source.display_path} depends on {found}")
    return None


def package_dependencies(manifest: object) -> set[str]:
    """The names a package.json depends on, in any of DEPENDENCY_FIELDS (none for an invalid one)."""
    if not isinstance(manifest, dict):
        return set()
    return {name for field in DEPENDENCY_FIELDS if isinstance(manifest.get(field), dict)
            for name in manifest[field]}


def assign_frameworks(project: Project, index: ProjectIndex | None) -> None:
    """Record the framework of the app on each file with tools or registrations, and on its tools
    (integrations set their own); rules read it from there instead of detecting it again."""
    for analysis in project.files:
        if not analysis.tools and not analysis.registrations:
            continue
        analysis.framework = detection = detect_framework(analysis, index)
        if detection is None:
            continue
        for tool in analysis.tools:
            if tool.framework is None:
                tool.framework = detection.framework

"""Name bindings of one file: which declaration an identifier refers to.

Built from the declaration nodes the single walk collected. A name's
bindings are made the first time something asks about that name (most
declared names never are), and an identifier resolves to the innermost scope
whose byte range holds it, climbing its ancestors only when ranges cannot
settle it (see ScopeIndex).
"""

from __future__ import annotations

from bisect import bisect_right
from functools import lru_cache
from itertools import count
from operator import itemgetter
from typing import Callable, Iterator

from tree_sitter import Node

from webmcp_lint.languages import JAVASCRIPT, TSX, TYPESCRIPT, language

FUNCTION_KINDS = frozenset({
    "function_declaration", "function_expression", "function", "arrow_function",
    "method_definition", "generator_function", "generator_function_declaration",
})
BLOCK_SCOPE_KINDS = frozenset({
    "statement_block", "program", "for_statement", "for_in_statement", "switch_body",
    "class_body", "catch_clause",
}) | FUNCTION_KINDS

# Kinds the walk must collect for the index.
BINDING_KINDS = frozenset({
    "variable_declarator", "formal_parameters", "function_declaration",
    "generator_function_declaration", "class_declaration", "import_statement",
    "catch_clause", "arrow_function", "for_in_statement",
})

_UNSEEN = object()


class DecodedMemo(dict):
    """Texts by the bytes they decode from, made on a miss and forgotten all at once when ``limit`` is reached.

    Its bound ``__getitem__`` is the lookup: a hit costs one C call, where ``lru_cache`` packs each bytes
    argument in a key tuple and frees it again."""

    __slots__ = ("decode", "limit")

    def __init__(self, decode: Callable[[bytes], str], limit: int) -> None:
        super().__init__()
        self.decode = decode
        self.limit = limit

    def __missing__(self, raw: bytes) -> str:
        if len(self) >= self.limit:
            self.clear()
        text = self[raw] = self.decode(raw)
        return text


def _decoded(raw: bytes) -> str:
    return raw.decode("utf-8", "replace")


# The text of a name's bytes, remembered per spelling: files spell the same names and keys over and over
# (``signal``, ``type``, ``description``), and each decoded copy would live as long as the parse tree.
# The index slices the bytes of its own file's nodes from the file's data (``node.text`` costs twice as much:
# it copies them through a memoryview); a node that may be another module's is read with ``node.text``.
spelling: Callable[[bytes], str] = DecodedMemo(_decoded, 4096).__getitem__


def spelled(data: bytes, node: Node) -> str:
    """The text of a node of the file ``data`` holds, sliced from it and shared per spelling (see ``spelling``)."""
    return spelling(data[node.start_byte:node.end_byte])


SCRIPT_GRAMMARS = (JAVASCRIPT, TYPESCRIPT, TSX)


FIELD_NAMES = ("name", "value", "parameter", "kind", "left", "right", "operator", "source", "function", "object",
               "property")


class Fields:
    """How the index (and the model and extractors) read the fields of their own tree's nodes: by id in a known
    script grammar, else by name. Tree-sitter finds a field by name comparing it with each field name of the
    grammar in turn, a thousand instructions a read; the ids differ between grammars."""

    __slots__ = ("read",) + FIELD_NAMES

    def __init__(self, ids: dict[str, int] | None) -> None:
        self.read: Callable[[Node, int | str], Node | None] = \
            Node.child_by_field_name if ids is None else Node.child_by_field_id  # type: ignore[assignment]
        for field in FIELD_NAMES:
            setattr(self, field, field if ids is None else ids[field])


BY_NAME = Fields(None)


@lru_cache(maxsize=None)
def fields_of(grammar: str | None) -> Fields:
    """The fields of a script grammar, read by id; by name for another grammar or none."""
    if grammar not in SCRIPT_GRAMMARS:
        return BY_NAME
    found = language(grammar)
    ids = {field: found.field_id_for_name(field) for field in FIELD_NAMES}
    return BY_NAME if None in ids.values() else Fields(ids)


# First step of a loop variable's path: "each element of ``init``" (``for (const t of tools)``).
EACH = "[each]"


class Binding:
    """One declared name. ``path`` is the destructuring path into ``init``.

    A plain class with slots: a file declares thousands of names, and a dataclass costs more to build.
    """

    __slots__ = ("name", "kind", "name_node", "declaration", "init", "path", "import_source", "imported_name")

    def __init__(self, name: str, kind: str, name_node: Node, declaration: Node, init: Node | None = None,
                 path: tuple[str | int, ...] = (), import_source: str | None = None,
                 imported_name: str | None = None) -> None:
        self.name = name
        self.kind = kind  # const | let | var | param | function | class | import | catch
        self.name_node = name_node
        self.declaration = declaration
        self.init = init
        self.path = path
        self.import_source = import_source
        self.imported_name = imported_name  # "default", "*" or the exported name

    def __repr__(self) -> str:
        return f"Binding({self.name!r}, {self.kind!r}, path={self.path!r})"


class ScopeIndex:
    """Every binding of one file, by scope and by name.

    A file declares thousands of names and rules ask about a few hundred, so
    a declaration is only recorded under its name when the index is built;
    its scope (found by climbing ``.parent``, which tree-sitter computes from
    the root) and its Binding are made the first time its name is asked about.
    Parameter lists are not even walked until a name they spell is asked
    about. A name's declarations are indexed together, in declaration order,
    so the answers are those of an index built whole.
    """

    __slots__ = ("data", "fields", "_pending", "_asked", "_parameter_lists", "_parameter_text", "_parameter_starts",
                 "_bindings", "_scopes_by_name", "shared_facts", "_resolved", "initialised_declarators", "imported_names",
                 "import_specifiers")

    def __init__(self, data: bytes, fields: Fields = BY_NAME) -> None:
        self.data = data  # the bytes the tree was parsed from
        self.fields = fields  # how to read the fields of the tree's nodes
        # Per name, its declarations not indexed yet: (order, make, *arguments), or a list of them when there are
        # several; make(index, name, *arguments) gives (scope, Binding), or None when the declaration binds nothing.
        self._pending: dict[str, tuple | list[tuple]] = {}
        self._asked: set[str] = set()  # names whose bindings are indexed
        # The parameter lists not walked yet (None once walked), and their texts joined, with where each starts.
        self._parameter_lists: list[Node | None] = []
        self._parameter_text = b""
        self._parameter_starts: list[int] = []
        self._bindings: dict[tuple[int, str], Binding] = {}
        # Per name, the scopes that bind it: (start byte, end byte, scope node, binding).
        self._scopes_by_name: dict[str, list[tuple[int, int, Node, Binding]]] = {}
        # What several names of one declaration share, by the declaration's id: its kind and scope (a tuple), or
        # the function or program holding it (a node). The binding makers below work it out for the first name
        # asked about and keep it here.
        self.shared_facts: dict[int, tuple | Node] = {}
        self._resolved: dict[int, Binding | None] = {}  # resolve's answers, by the identifier's id
        # Read while indexing, and wanted by the extractors too: (declarator, its name or pattern, its value) of each
        # declarator with a value, import names, and the module each import statement with a source names (None when
        # it is not a plain string), in order.
        self.initialised_declarators: list[tuple[Node, Node, Node]] = []
        self.imported_names: set[str] = set()
        self.import_specifiers: list[str | None] = []

    def declare(self, name: str, entry: tuple) -> None:
        """Record a declaration of ``name`` (``entry`` starts with its place in declaration order).

        Most names are declared once: their entry is kept alone, and a list made for the second one (a list
        per name was a tenth of what indexing a file left allocated).
        """
        pending = self._pending.get(name)
        if pending is None:
            self._pending[name] = entry
        elif type(pending) is list:
            pending.append(entry)
        else:
            self._pending[name] = [pending, entry]

    def defer_parameter_lists(self, parameter_lists: list[Node]) -> None:
        """Keep the parameter lists with their texts: a list is walked when a name it spells is asked about."""
        data = self.data
        texts = [data[params.start_byte:params.end_byte] for params in parameter_lists]
        starts, position = [], 0
        for text in texts:
            starts.append(position)
            position += len(text) + 1
        self._parameter_lists = list(parameter_lists)
        self._parameter_starts = starts
        self._parameter_text = b"\0".join(texts)  # NUL is in no name: no match spans two lists

    def _ask(self, name: str) -> None:
        """Index the bindings of ``name``, the first time it is asked about."""
        if name in self._asked:
            return
        self._asked.add(name)
        if self._parameter_starts:
            self._walk_parameter_lists(name)
        entries = self._pending.pop(name, None)
        if entries is None:
            return
        if type(entries) is not list:
            entries = [entries]
        entries.sort(key=_ORDER)  # a parameter list walked late still takes its place
        for _, make, *arguments in entries:
            made = make(self, name, *arguments)
            if made is not None:
                self._add(*made)

    def _walk_parameter_lists(self, name: str) -> None:
        """Declare the names of every parameter list not walked yet whose text spells ``name``."""
        lists, starts = self._parameter_lists, self._parameter_starts
        name_bytes = name.encode("utf-8")
        if not name_bytes or "\ufffd" in name:  # not the bytes it was decoded from: walk them all
            chosen = range(len(lists))
        else:
            chosen = []
            text = self._parameter_text
            found = text.find(name_bytes)
            while found != -1:
                chosen.append(bisect_right(starts, found) - 1)
                found = text.find(name_bytes, found + 1)
        for position in chosen:
            params = lists[position]
            if params is not None:
                lists[position] = None
                _declare_parameters(self, params, position)

    def _add(self, scope: Node, binding: Binding) -> None:
        name = binding.name
        key = (scope.id, name)
        if key not in self._bindings:
            self._bindings[key] = binding
            entry = (scope.start_byte, scope.end_byte, scope, binding)
            entries = self._scopes_by_name.get(name)
            if entries is None:
                self._scopes_by_name[name] = [entry]
            else:
                entries.append(entry)

    def binding_in(self, scope: Node, name: str) -> Binding | None:
        """The binding of ``name`` that ``scope`` itself declares (the first, when several do)."""
        self._ask(name)
        return self._bindings.get((scope.id, name))

    def bindings_of(self, name: str) -> list[Binding]:
        """The bindings an identifier spelled ``name`` may resolve to (the first of each scope)."""
        self._ask(name)
        return [entry[3] for entry in self._scopes_by_name.get(name, ())]

    def resolve(self, identifier: Node) -> Binding | None:
        """The binding ``identifier`` refers to, or None for a global or unknown name.

        Remembered by the node's id (extractors and rules ask about the same
        identifiers): a node's id is the address of its part of a live tree,
        so no node of another tree can share it while this tree's bindings
        hold this tree alive.
        """
        key = identifier.id
        found = self._resolved.get(key, _UNSEEN)
        if found is _UNSEEN:
            found = self._resolved[key] = self._resolve(identifier)
        return found

    def _resolve(self, identifier: Node) -> Binding | None:
        """The innermost scope binding the name whose byte range holds the
        identifier: tree-sitter finds a node's parent by walking down from the
        root, so climbing ancestors one ``.parent`` at a time costs the square
        of the depth. The climb remains for what ranges cannot settle.
        """
        # Sliced from this file's bytes even when the identifier is another module's: no binding of this index
        # is ever its answer then (the look down below and the climb only meet this tree's nodes), whatever name
        # its range spells here.
        name = spelled(self.data, identifier)
        self._ask(name)
        entries = self._scopes_by_name.get(name)
        if entries is None:
            return None
        start, end = identifier.start_byte, identifier.end_byte
        if start == end or identifier.child_count:
            return self._climb(identifier, name)
        best = None
        for entry in entries:
            if entry[0] <= start and end <= entry[1] and (
                    best is None or entry[0] > best[0] or (entry[0] == best[0] and entry[1] < best[1])):
                best = entry
            elif best is not None and entry[0] == best[0] and entry[1] == best[1] and entry[0] <= start <= entry[1]:
                return self._climb(identifier, name)  # two scopes with one range: only the tree can tell
        if best is None:
            return None
        if best[2].descendant_for_byte_range(start, end) != identifier:  # compares trees too
            return self._climb(identifier, name)  # a node of another tree
        return best[3]

    def _climb(self, identifier: Node, name: str) -> Binding | None:
        """The binding of ``name`` in the nearest ancestor scope (``_resolve`` has indexed the name)."""
        node = identifier.parent
        while node is not None:
            binding = self._bindings.get((node.id, name))
            if binding is not None:
                return binding
            node = node.parent
        return None

    def is_global(self, identifier: Node) -> bool:
        return self.resolve(identifier) is None


def nearest(node: Node, kinds: frozenset[str]) -> Node:
    return _nearest_from(node.parent, kinds, node)


def _nearest_from(current: Node | None, kinds: frozenset[str], fallback: Node) -> Node:
    """The first of ``current`` and its ancestors of one of ``kinds``, else ``fallback``."""
    while current is not None and current.type not in kinds:
        current = current.parent
    return current if current is not None else fallback


_VAR_SCOPE_KINDS = FUNCTION_KINDS | {"program"}
_PROGRAM = frozenset({"program"})


def _declaration_kind(declaration: Node | None) -> str:
    """var, let or const, from the declaration holding a declarator."""
    kind = declaration.type if declaration is not None else None
    if kind == "variable_declaration":
        return "var"
    if kind == "lexical_declaration":
        keyword = declaration.child(0)
        return keyword.type if keyword is not None else "let"
    return "let"


def pattern_names(pattern: Node, path: tuple[str | int, ...] = ()):
    """Yield (identifier node, destructuring path) for every name a pattern binds, iteratively."""
    stack = [(pattern, path)]
    while stack:
        node, node_path = stack.pop()
        kind = node.type
        if kind in ("identifier", "shorthand_property_identifier_pattern"):
            yield node, node_path + ((node.text.decode(),) if kind == "shorthand_property_identifier_pattern" else ())
        elif kind == "object_pattern":
            for child in reversed(node.named_children):
                if child.type == "shorthand_property_identifier_pattern":
                    stack.append((child, node_path))
                elif child.type == "pair_pattern":
                    key = child.child_by_field_name("key")
                    value = child.child_by_field_name("value")
                    if key is not None and value is not None:
                        stack.append((value, node_path + (property_key(key) or "?",)))
                elif child.type == "object_assignment_pattern":
                    left = child.child_by_field_name("left")
                    if left is not None:
                        stack.append((left, node_path))
                elif child.type == "rest_pattern":
                    stack.extend((grand, node_path + ("...",)) for grand in child.named_children)
        elif kind == "array_pattern":
            index = 0  # holes (`[, second]`) are commas without a node
            for child in node.children:
                if child.type == ",":
                    index += 1
                elif child.is_named and child.type != "comment":
                    stack.append((child, node_path + (index,)))
        elif kind in ("assignment_pattern", "object_assignment_pattern"):
            left = node.child_by_field_name("left")
            if left is not None:
                stack.append((left, node_path))
        elif kind in ("rest_pattern", "required_parameter", "optional_parameter"):
            target = node.child_by_field_name("pattern")
            children = [target] if target is not None else node.named_children[:1]
            stack.extend((child, node_path) for child in children)


def property_key(key: Node) -> str | None:
    """The static name of an object key node (identifier, string, number, computed string)."""
    kind = key.type
    if kind in ("property_identifier", "identifier", "shorthand_property_identifier",
                "private_property_identifier"):
        return key.text.decode("utf-8", errors="replace")
    if kind == "string":
        from webmcp_lint.evaluate import string_value

        return string_value(key)
    if kind == "number":
        return key.text.decode()
    if kind == "computed_property_name":
        inner = key.named_children[0] if key.named_children else None
        if inner is not None and inner.type in ("string", "template_string"):
            from webmcp_lint.evaluate import string_value

            return string_value(inner)
    return None


def specifier_names(specifier: Node) -> tuple[Node, Node] | None:
    """(name, alias) of an import or export specifier; without ``as``, the alias is the name."""
    name = specifier.child_by_field_name("name")
    alias = specifier.child_by_field_name("alias") or name
    return None if name is None or alias is None else (name, alias)


def specifier_text(node: Node) -> str:
    """A specifier's name: an identifier, or a string (``export { x as "a-b" }``)."""
    return property_key(node) or node.text.decode("utf-8", errors="replace")


def build_index(nodes: dict[str, list[Node]], data: bytes, grammar: str | None) -> ScopeIndex:
    """Index every binding the walk collected (each made when its name is first asked about); ``data`` is the
    bytes the tree was parsed from, ``grammar`` the language it was parsed in (its nodes' fields are read by id)."""
    index = ScopeIndex(data, fields_of(grammar))
    fields = index.fields
    read, name_field, value_field = fields.read, fields.name, fields.value
    declare = index.declare
    initialised = index.initialised_declarators
    order = count()
    for declarator in nodes.get("variable_declarator", ()):
        name = read(declarator, name_field)
        if name is None:
            continue
        value = read(declarator, value_field)
        if value is not None:
            initialised.append((declarator, name, value))
        if name.type == "identifier":
            declare(spelled(data, name),
                    ((_VARIABLES, next(order)), _variable_binding, name, declarator, ()))
            continue
        for identifier, path in pattern_names(name):
            declare(spelled(data, identifier),
                    ((_VARIABLES, next(order)), _variable_binding, identifier, declarator, path))
    parameter_lists = nodes.get("formal_parameters", ())
    if parameter_lists:
        index.defer_parameter_lists(parameter_lists)
    after_parameters = ((_OTHERS, position) for position in count())
    for arrow in nodes.get("arrow_function", ()):
        parameter = read(arrow, fields.parameter)
        if parameter is not None and parameter.type == "identifier":
            declare(spelled(data, parameter),
                    (next(after_parameters), _arrow_parameter_binding, parameter, arrow))
    for kind_name, kinds in (("function", ("function_declaration", "generator_function_declaration")), ("class", ("class_declaration",))):
        for kind in kinds:
            for declaration in nodes.get(kind, ()):
                name = read(declaration, name_field)
                if name is not None:
                    declare(spelled(data, name),
                            (next(after_parameters), _declared_binding, name, declaration, kind_name))
    for loop in nodes.get("for_in_statement", ()):
        _index_loop_variable(index, loop, after_parameters)
    for catch in nodes.get("catch_clause", ()):
        parameter = read(catch, fields.parameter)
        if parameter is not None:
            for identifier, path in pattern_names(parameter):
                _declare_made(index, next(after_parameters), catch, Binding(
                    spelled(data, identifier), "catch", identifier, catch, None, path))
    for statement in nodes.get("import_statement", ()):
        _index_import(index, statement, after_parameters)
    return index


# Where declarations stand in declaration order: variables, then parameters (by list, then name), then the rest.
_VARIABLES, _PARAMETERS, _OTHERS = range(3)
_ORDER = itemgetter(0)


def _declare_parameters(index: ScopeIndex, params: Node, position: int) -> None:
    """Declare the names of one parameter list, in its place among all lists."""
    declare = index.declare
    data = index.data
    order = count()
    for parameter in params.named_children:
        if parameter.type == "identifier":
            declare(spelled(data, parameter),
                    ((_PARAMETERS, position, next(order)), _parameter_binding, parameter, parameter, (), params))
            continue
        for identifier, path in pattern_names(parameter):
            declare(spelled(data, identifier),
                    ((_PARAMETERS, position, next(order)), _parameter_binding, identifier, parameter, path, params))


# How each kind of declaration becomes (scope, Binding) when its name is first asked about; None when it binds nothing.
def _variable_binding(index: ScopeIndex, name: str, identifier: Node, declarator: Node,
                      path: tuple[str | int, ...]) -> tuple[Node, Binding]:
    facts = index.shared_facts.get(declarator.id)
    if facts is None:
        declaration = declarator.parent
        kind = _declaration_kind(declaration)
        scope = _nearest_from(declaration, _VAR_SCOPE_KINDS if kind == "var" else BLOCK_SCOPE_KINDS, declarator)
        fields = index.fields
        facts = index.shared_facts[declarator.id] = (kind, scope, fields.read(declarator, fields.value))
    kind, scope, init = facts
    return scope, Binding(name, kind, identifier, declarator, init, path)


def _parameter_binding(index: ScopeIndex, name: str, identifier: Node, parameter: Node, path: tuple[str | int, ...],
                       params: Node) -> tuple[Node, Binding] | None:
    function = index.shared_facts.get(params.id)
    if function is None:
        function = index.shared_facts[params.id] = params.parent
    if function is None:
        return None
    return function, Binding(name, "param", identifier, parameter, None, path)


def _arrow_parameter_binding(index: ScopeIndex, name: str, parameter: Node, arrow: Node) -> tuple[Node, Binding]:
    return arrow, Binding(name, "param", parameter, arrow)


def _declared_binding(index: ScopeIndex, name: str, name_node: Node, declaration: Node,
                      kind: str) -> tuple[Node, Binding]:
    return nearest(declaration, BLOCK_SCOPE_KINDS), Binding(name, kind, name_node, declaration, declaration)


def _made_binding(index: ScopeIndex, name: str, scope: Node, binding: Binding) -> tuple[Node, Binding]:
    return scope, binding


def _declare_made(index: ScopeIndex, order: tuple, scope: Node, binding: Binding) -> None:
    """Record a binding already made (the few declarations whose scope is at hand)."""
    index.declare(binding.name, (order, _made_binding, scope, binding))


def _index_loop_variable(index: ScopeIndex, loop: Node, order: Iterator[tuple]) -> None:
    """``for (const t of tools)`` binds ``t`` to each element of ``tools``; ``for...in`` binds keys (unknown)."""
    fields = index.fields
    read = fields.read
    keyword = read(loop, fields.kind)
    left = read(loop, fields.left)
    if keyword is None or left is None:
        return  # assigns an existing name
    for identifier, path in pattern_names(left):
        index.declare(spelled(index.data, identifier), (next(order), _loop_binding, identifier, loop, keyword, path))


def _loop_binding(index: ScopeIndex, name: str, identifier: Node, loop: Node, keyword: Node,
                  path: tuple[str | int, ...]) -> tuple[Node, Binding]:
    """(scope, Binding) of a loop variable, made when its name is first asked about; what every variable of one
    loop shares (its scope, kind and elements) is worked out once, under the loop's id."""
    facts = index.shared_facts.get(loop.id)
    if facts is None:
        keyword_kind = keyword.type
        kind = keyword_kind if keyword_kind in ("const", "let", "var") else "let"
        fields = index.fields
        operator = fields.read(loop, fields.operator)
        elements = fields.read(loop, fields.right) if operator is not None and operator.type == "of" else None
        scope = nearest(loop, _VAR_SCOPE_KINDS) if kind == "var" else loop
        facts = index.shared_facts[loop.id] = (kind, scope, elements)
    kind, scope, elements = facts
    return scope, Binding(name, kind, identifier, loop, elements, (EACH,) + path)


def _index_import(index: ScopeIndex, statement: Node, order: Iterator[tuple]) -> None:
    """Declare the names an import binds (each Binding, with the module's specifier, is made when asked for)."""
    source = index.fields.read(statement, index.fields.source)
    if source is None:
        return
    from webmcp_lint.evaluate import string_value  # evaluate imports this module

    module = string_value(source)
    index.import_specifiers.append(module)
    clause = next((child for child in statement.named_children if child.type == "import_clause"), None)
    if clause is None:
        return
    imported: list[tuple[Node, Node | str]] = []  # (the local name, the name it imports)
    for child in clause.named_children:
        kind = child.type
        if kind == "identifier":
            imported.append((child, "default"))
        elif kind == "namespace_import":
            imported.extend((name, "*") for name in child.named_children if name.type == "identifier")
        elif kind == "named_imports":
            for specifier in child.named_children:
                names = specifier_names(specifier) if specifier.type == "import_specifier" else None
                if names is not None:
                    imported.append((names[1], names[0]))
    data = index.data
    for alias, name in imported:
        local = spelled(data, alias)
        index.imported_names.add(local)
        index.declare(local, (next(order), _import_binding, alias, statement, module, name))


def _import_binding(index: ScopeIndex, name: str, alias: Node, statement: Node, module: str | None,
                    imported: Node | str) -> tuple[Node, Binding]:
    """(scope, Binding) of an imported name, made when the name is first asked about; ``module`` is the statement's
    specifier, ``imported`` the name the module exports (a node) or "default"/"*". The statement's program is found
    once, under its id."""
    program = index.shared_facts.get(statement.id)
    if program is None:
        program = index.shared_facts[statement.id] = nearest(statement, _PROGRAM)
    imported_name = imported if isinstance(imported, str) else specifier_text(imported)
    return program, Binding(name, "import", alias, statement, None, (), module, imported_name)

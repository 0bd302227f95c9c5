"""Grammar loading and the one query pass: every subscribed node, in document order."""

from __future__ import annotations

import importlib.util
import subprocess
import sys

import tree_sitter

from webmcp_lint import languages
from webmcp_lint.languages import nodes_by_kind, parse


def test_nodes_of_one_kind_come_in_document_order_outer_first_when_they_start_together():
    # Chained calls all start at byte 0; tree-sitter's captures order such ties differently from run to run.
    code = b"a().b().c().d().e();\nf(g(h()));\n"
    calls = nodes_by_kind(parse(code, "javascript").root_node, "javascript", frozenset({"call_expression"}))[
        "call_expression"]
    spans = [(node.start_byte, node.end_byte) for node in calls]
    assert spans == sorted(spans, key=lambda span: (span[0], -span[1]))
    assert [code[start:end] for start, end in spans[:2]] == [b"a().b().c().d().e()", b"a().b().c().d()"]
    assert len(spans) == 8


def test_only_the_subscribed_kinds_present_in_the_language_are_collected():
    found = nodes_by_kind(parse(b"const x = f(1);", "javascript").root_node, "javascript",
                          frozenset({"call_expression", "jsx_element", "interface_declaration"}))
    assert set(found) == {"call_expression"}


def test_several_runs_of_nodes_that_start_together_are_each_put_outer_first():
    # Ties in several places of one file, among nodes that do not tie, for calls and binary expressions alike.
    code = b"x(1);\na().b().c();\ny(2);\nq = 1 + 2 + 3 + 4;\nz(3);\np(q(r)).s(t(u).v()).w();\n"
    found = nodes_by_kind(parse(code, "javascript").root_node, "javascript",
                          frozenset({"call_expression", "binary_expression"}))
    for kind in ("call_expression", "binary_expression"):
        spans = [(node.start_byte, node.end_byte) for node in found[kind]]
        assert spans == sorted(spans, key=lambda span: (span[0], -span[1])), kind
    assert len(found["call_expression"]) == 12
    assert [node.text for node in found["binary_expression"]] == [b"1 + 2 + 3 + 4", b"1 + 2 + 3", b"1 + 2"]


def test_grammars_load_without_their_packages_init_and_parse():
    """The grammars' own ``__init__`` imports importlib.resources (~6 ms a process) for query files never read."""
    script = ("import sys\n"
              "from webmcp_lint.languages import language, parse\n"
              "for name in ('javascript', 'typescript', 'tsx', 'html'):\n"
              "    language(name)\n"
              "print(parse(b'let a: number = 1', 'typescript').root_node.child(0).type,\n"
              "      parse(b'<p>x</p>', 'html').root_node.child(0).type,\n"
              "      'importlib.resources' in sys.modules)\n")
    completed = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert completed.stdout.split() == ["lexical_declaration", "element", "False"]


def test_a_grammar_package_without_a_separate_binding_is_imported_as_usual(monkeypatch):
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    binding = languages._grammar_binding.__wrapped__("tree_sitter_javascript")  # not the memoized load
    assert binding.__name__ == "tree_sitter_javascript"
    assert tree_sitter.Language(binding.language()).id_for_node_kind("call_expression", True) is not None

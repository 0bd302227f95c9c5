"""The one query pass: every subscribed node, in document order."""

from __future__ import annotations

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

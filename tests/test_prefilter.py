"""The prefilter never hides a file from an extractor, and keeps plain code out of the parser."""

from __future__ import annotations

import pytest

from webmcp_lint.extract import all_extractors, may_hold_webmcp


@pytest.mark.parametrize("extractor", all_extractors(), ids=lambda extractor: extractor.name)
def test_every_extractor_trigger_passes_the_prefilter(extractor):
    assert extractor.triggers, f"{extractor.name} declares no trigger words"
    for word in extractor.triggers:
        assert may_hold_webmcp(b"const unrelated = 1;\n// " + word + b"\n"), word


@pytest.mark.parametrize("text", [b"export const add = (a, b) => a + b;\n", b"server.registerTool('x', {}, handler);\n",
                                  b"<html><body><form action='/search'></form></body></html>"])
def test_plain_code_does_not_pass(text):
    assert not may_hold_webmcp(text)


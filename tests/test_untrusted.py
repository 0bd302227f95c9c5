"""untrusted.url_source: where a request URL points, from its static text or its evaluated value."""

from __future__ import annotations

import pytest

from test_execute_model import model_of

from webmcp_lint.untrusted import returns_untrusted_content, url_source


def source_of(url: str, before: str = "") -> str | None:
    model = model_of(f"async execute({{ id }}, {{ signal }}) {{ const r = await fetch({url}, {{ signal }}); "
                     "return await r.json(); }", before=before)
    (fetch,) = model.fetches
    return url_source(fetch.url, model)


@pytest.mark.parametrize(("url", "expected"), [
    ("`https://api.example.com/items/${id}`", "other"),  # an absolute head: whatever follows, another origin
    ("`//cdn.example.com/${id}`", "other"),
    ("`/api/items/${id}`", "same"),  # no continuation turns "/a" into an absolute URL
    ("`api/${id}`", "same"),
    ("`${BASE}/items`", "other"),  # no head: the substitution's value decides
    ("`/${HOST}/items`", "other"),  # "/" + "/evil.example" is "//evil.example": evaluated, not read from the head
    ("`https:${PATH}`", "other"),
    ("`\\x2f\\x2fevil.example/${PAGE}`", "other"),  # an escaped head is decoded, as the evaluated value is
    ("`\\x2f\\x2fevil.example/${id}`", "same"),  # not static: the head is read as written
    ("`${id}`", "input"),
    ("`HTTPS://api.example.com/${id}`", "other"),  # a scheme in any case
    ("`\u017ftp://api.example.com/${id}`", "other"),  # "ſ" folds to "s", as re.IGNORECASE reads it
    ("`\u212a:${PATH}`", "other"),  # "K" folds to "k": "K:" may start a scheme, so the value decides
    ("`\u00e9:${PATH}`", "same"),  # "é" folds to no ASCII letter: no scheme starts so
])
def test_template_urls(url, expected):
    before = ('const BASE = "https://api.example.com"; const HOST = "/evil.example"; const PATH = "//x.example/a";'
              'const PAGE = "a";')
    assert source_of(url, before) == expected


def test_a_relative_template_url_returns_no_untrusted_content():
    model = model_of("async execute({ id }, { signal }) { const r = await fetch(`/api/${id}`, { signal }); "
                     "return await r.json(); }")
    assert returns_untrusted_content(model) is None

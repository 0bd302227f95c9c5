"""``webmcp-lint rules`` (the rule list) and ``webmcp-lint rule CODE`` (one rule's page)."""

from __future__ import annotations

import sys

import click

from webmcp_lint.commands import CommandError
from webmcp_lint.pages import load_page
from webmcp_lint.rules import all_rules, find_rule


@click.command("rules")
@click.option("--format", "output_format", type=click.Choice(["text", "json"]), default="text", show_default=True)
def list_rules(output_format) -> None:
    """List every rule: code, slug, severity, fix, summary."""
    rows = []
    for rule in all_rules():
        page = load_page(rule.code)
        rows.append((rule.code, rule.slug, rule.severity.value, rule.fix, page.summary if page else ""))
    if output_format == "json":
        import json

        keys = ("code", "slug", "severity", "fix", "summary")
        click.echo(json.dumps([dict(zip(keys, row)) for row in rows], indent=2))
        return
    from rich.console import Console
    from rich.table import Table

    table = Table("code", "slug", "severity", "fix", "summary", box=None, pad_edge=False)
    for row in rows:
        table.add_row(*row)
    Console(no_color=not sys.stdout.isatty(), width=200 if not sys.stdout.isatty() else None).print(table)


@click.command("rule")
@click.argument("code_or_slug")
def show_rule(code_or_slug) -> None:
    """Print a rule's page (what it flags, why, examples, fix)."""
    rule = find_rule(code_or_slug)
    if rule is None:
        raise CommandError(f"unknown rule '{code_or_slug}' (see `webmcp-lint rules`)")
    page = load_page(rule.code)
    if page is None:
        raise CommandError(f"no page for {rule.code}")
    click.echo(page.text, nl=not page.text.endswith("\n"))

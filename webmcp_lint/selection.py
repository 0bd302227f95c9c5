"""Rule selectors: codes (WM101), prefixes (WM4, WM40), slugs (throw-in-execute) or ALL."""

from __future__ import annotations

from webmcp_lint.rules import Rule, all_rules


class SelectorError(ValueError):
    pass


def expand(selector: str, rules: list[Rule] | None = None) -> list[Rule]:
    """The rules a selector names; raises SelectorError with a suggestion when it names none."""
    rules = rules if rules is not None else all_rules()
    wanted = selector.strip()
    if wanted.upper() == "ALL":
        return list(rules)
    upper = wanted.upper()
    matched = [rule for rule in rules if rule.code.startswith(upper) or rule.slug == wanted.lower()]
    if upper.startswith("WM") and not matched:
        raise SelectorError(_unknown(wanted, rules))
    if not matched:
        raise SelectorError(_unknown(wanted, rules))
    return matched


def _unknown(wanted: str, rules: list[Rule]) -> str:
    import difflib  # only a misspelling pays for it

    names = [rule.code for rule in rules] + [rule.slug for rule in rules]
    close = difflib.get_close_matches(wanted, names, n=1, cutoff=0.6)
    hint = f"; did you mean {close[0]}?" if close else ""
    return f"unknown rule selector '{wanted}'{hint}"


def split_selectors(values: tuple[str, ...] | list[str] | None) -> list[str]:
    """Accept repeated options and comma-separated lists alike."""
    result: list[str] = []
    for value in values or ():
        result.extend(part.strip() for part in value.split(",") if part.strip())
    return result


def select_rules(select: list[str] | None, extend_select: list[str] | None, ignore: list[str] | None) -> list[Rule]:
    """Ruff's model: (select or ALL) plus extend-select, minus ignore."""
    rules = all_rules()
    chosen: dict[str, Rule] = {}
    for selector in (select if select else ["ALL"]) + list(extend_select or []):
        for rule in expand(selector, rules):
            chosen[rule.code] = rule
    for selector in ignore or []:
        for rule in expand(selector, rules):
            chosen.pop(rule.code, None)
    return sorted(chosen.values(), key=lambda rule: rule.code)

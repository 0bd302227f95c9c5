"""Description analysis: what a tool or parameter description says about the schema.

The guidance: the agent already receives the inputSchema, so a description
says what the tool does and when to use it, never the parameter names,
types, enum values, defaults or bounds. A small tokenizer splits a
description into words, quoted and backticked spans, numbers and
identifiers; matchers then find phrases that *state* a name, a type, a
list of allowed values, a default or a bound. They look for how a thing
is said ("takes a string", "defaults to 10", "between 1 and 100"), never
for a bare word, so plain English ("Fetch the text of a URL", "Number of
tickets to purchase", "Order of the results") stays silent.

The same matchers serve WM301/WM302 (the schema declares what the prose
repeats) and WM303 (the prose states a constraint the schema lacks).
"""

from __future__ import annotations

import math
import re
from functools import lru_cache
from operator import attrgetter
from types import MappingProxyType
from typing import Iterable, Mapping, Sequence

from tree_sitter import Node

from webmcp_lint import vocabulary as words
from webmcp_lint.evaluate import Element, JSArray, JSObject, Prop, Unknown, Value, decode_escapes, to_js_string
from webmcp_lint.model import Script, ToolDefinition
from webmcp_lint.memo import built_once, per_object
from webmcp_lint.record import Record
from webmcp_lint.schema import walk_schema
from webmcp_lint.syntax import Worklist

# --- tokenizer ---------------------------------------------------------------------------------

# Blanks before a token are part of its match (a search that fails at each blank costs more), and each
# alternative starts with the character it needs (lookbehinds come after it): words first, since most tokens are
# words and no other kind starts with a letter. No alternative starts with a blank, so giving blanks back never
# finds a token (a possessive `*+` would say so, but Python 3.10 has none).
_TOKEN = re.compile(
    r"[^\S\n]*(?:"
    r"(?P<word>[^\W\d_][\w]*(?:['’.\-][^\W_][\w]*)*)"
    r"|(?P<code>`[^`\n]*`)"
    r"|(?P<quoted>\"[^\"\n]{0,80}\"|“[^”\n]{0,80}”|‘[^’\n]{0,80}’|'(?<![\w']')[^'\n]{1,60}'(?![\w']))"
    r"|(?P<number>\d+(?:-\d+){2,}|(?:-(?<![\w\-]-))?(?:\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?))"
    r"|(?P<punct>\n|[^\s\w])"
    r")"
)
_INNER_CAPITAL = re.compile(r"[a-z0-9][A-Z]")
_ABBREVIATIONS = frozenset({"e.g", "i.e", "etc", "vs", "approx", "incl", "cf"})
SENTENCE_ENDS = frozenset({".", "!", "?", ";", "\n"})
_QUOTATION_MARKS = "`\"“‘'"  # what quoted and backticked tokens start with
_DIGIT = re.compile(r"\d")  # what number tokens hold
_LOWER = attrgetter("lower")


class Token:
    """One token. ``text`` is the inner text for quoted and backticked spans. ``lower``, ``is_word`` and
    ``is_literal`` (written the way values are written: quoted, backticked, a number or an identifier) are
    worked out once, since the matchers ask them of every token."""

    __slots__ = ("kind", "text", "start", "end", "lower", "is_word", "is_literal")

    def __init__(self, kind: str, text: str, start: int, end: int) -> None:
        self.kind = kind  # word | identifier | number | quoted | code | punct
        self.text = text
        self.start = start
        self.end = end
        self.lower = text.lower()
        self.is_word, self.is_literal = _KIND_FLAGS[kind]

    def __repr__(self) -> str:
        return f"Token({self.kind!r}, {self.text!r}, {self.start}, {self.end})"


# (is_word, is_literal) of each kind of token.
_KIND_FLAGS = {"word": (True, False), "identifier": (True, True), "number": (False, True), "quoted": (False, True),
               "code": (False, True), "punct": (False, False)}


@lru_cache(maxsize=4096)
def tokenize(text: str) -> tuple[Token, ...]:
    """Words, quoted/backticked spans, numbers, identifiers (``_`` or inner capital) and punctuation."""
    tokens: list[Token] = []
    append = tokens.append
    for match in _TOKEN.finditer(text):
        kind = match.lastgroup
        raw = match[kind]
        end = match.end()  # the token's group ends the match (the blanks before it start it)
        start = end - len(raw)
        if kind == "word":
            # An inner capital needs a capital after the first letter: "returns" and "Returns" have none.
            if "_" in raw or (not raw.islower() and not raw[1:].islower() and _INNER_CAPITAL.search(raw) is not None):
                kind = "identifier"
        elif kind == "code" or kind == "quoted":
            raw = raw[1:-1].strip()
        append(Token(kind, raw, start, end))
    return tuple(tokens)


def sentences(tokens: Sequence[Token]) -> list[list[Token]]:
    """Split at sentence ends (not at the dot of "e.g.")."""
    result: list[list[Token]] = []
    current: list[Token] = []
    previous = ""  # the lower-cased text of the token before
    for token in tokens:
        if token.kind == "punct" and token.text in SENTENCE_ENDS:
            if token.text == "." and previous in _ABBREVIATIONS:
                current.append(token)
            elif current:
                result.append(current)
                current = []
        else:
            current.append(token)
        previous = token.lower
    if current:
        result.append(current)
    return result


# Where a space goes between two words of an identifier: a case change ("sort|Order", "item2|Name") and the
# end of an acronym ("HTML|Parser"). Lookarounds match no text, so the replacement is a plain space: a replacement
# that names groups (``\1 \2``) costs a Python call per match in Python 3.11.
_CASE_CHANGE = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_ACRONYM_END = re.compile(r"(?<=[A-Z])(?=[A-Z][a-z])")


def _separators_to_spaces(name: str) -> str:
    """``_``, ``.``, ``-`` and ``/`` as spaces, so that str.split (which splits at runs of whitespace, the ``\\s``
    of a regular expression) separates the words. Four replacements cost less than one str.translate, which
    looks each character up in its table."""
    return name.replace("_", " ").replace(".", " ").replace("-", " ").replace("/", " ")


@lru_cache(maxsize=4096)
def name_words(name: str) -> tuple[str, ...]:
    """The words of an identifier: split on ``_``, ``-``, ``.``, ``/``, spaces and case changes, lower-cased."""
    rest = name[1:]
    if not rest or rest.islower():  # no capital after the first letter: no case change to split at
        if name.isalnum():  # nor a separator: a plain word
            return (name.lower(),)
        return tuple(_separators_to_spaces(name).lower().split())
    spaced = _ACRONYM_END.sub(" ", _CASE_CHANGE.sub(" ", name))
    return tuple(_separators_to_spaces(spaced).lower().split())


def content_words(spoken: Iterable[str]) -> list[str]:
    """Words without articles, singular: "Gets the weather" says what ``get_weather`` says."""
    return [singular(word) for word in spoken if word not in words.ARTICLES]


@lru_cache(maxsize=4096)
def _word_content(word: str) -> tuple[str, ...]:
    """The content words of one written word (see ``content_words``); remembered, since descriptions share most of
    their words."""
    return tuple(content_words(name_words(word)))


def _phrase(text: str, first: Token, last: Token) -> str:
    return text[first.start:last.end]


def _follows(tokens: Sequence[Token], index: int, phrase: tuple[str, ...]) -> bool:
    """``tokens[index:]`` starts with the words of ``phrase``."""
    if not phrase:
        return True
    if index + len(phrase) > len(tokens) or tokens[index].lower != phrase[0]:
        return False
    return all(tokens[index + offset].lower == part for offset, part in enumerate(phrase[1:], start=1))


# --- matchers ------------------------------------------------------------------------------------

class Cues:
    """The phrases a matcher starts from. A text that holds every word of none of them (``may_occur_in``, asked of
    its lower-cased tokens) gives the matcher nothing to look at: most descriptions state no type, default or list."""

    __slots__ = ("by_first_word", "first_words")

    def __init__(self, phrases: Iterable[tuple[str, ...]]) -> None:
        self.by_first_word: dict[str, list[tuple[str, ...]]] = {}
        for phrase in phrases:
            self.by_first_word.setdefault(phrase[0], []).append(phrase)
        self.first_words = frozenset(self.by_first_word)

    def may_occur_in(self, lowers: frozenset[str]) -> bool:
        for first in lowers & self.first_words:
            for phrase in self.by_first_word[first]:
                if lowers.issuperset(phrase):
                    return True
        return False


class Statement(Record):
    """Something a description says: the quoted phrase, and the values it names."""

    __slots__ = ("phrase", "values", "kind", "unit")
    _compared = __slots__

    def __init__(self, phrase: str, values: list[str], kind: str = "", unit: str | None = None) -> None:
        self.phrase = phrase
        self.values = values
        self.kind = kind  # bounds: "min" | "max" | "range"; types: the type word, or "true/false" for spelled-out values
        self.unit = unit


class DescriptionFacts:
    """What one description text states, for WM301-WM303. The statements are shared: read them, never change them.

    Built once per distinct text (``describe``): several rules ask about the same description, and sites repeat
    the same texts across tools; the questions that take schema values remember their answers per value."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens = tokenize(text)
        self.sentences = sentences(self.tokens)
        # Every token lower-cased: a matcher whose cue words the text lacks has nothing to look at.
        self.lowers = frozenset(map(_LOWER, self.tokens))
        self._parameter_names: dict[tuple[str, ...], list[str]] = {}
        self._listed: dict[tuple[str, ...], list[str]] = {}
        self._near_default: dict[str, bool] = {}
        self._content_within: dict[int, tuple[str, ...] | None] = {}
        self._sentence_words: dict[int, frozenset[str]] = {}

    @built_once
    def quotes(self) -> bool:
        """The text has a quoted or backticked span (most have none, nor any quotation mark)."""
        return any(mark in self.text for mark in _QUOTATION_MARKS) \
            and any(token.kind in ("quoted", "code") for token in self.tokens)

    @built_once
    def types(self) -> list[Statement]:
        """JSON type words used as types: "(number)", "takes a string", "A boolean flag", "array of strings"."""
        if not _TYPE_CUES.may_occur_in(self.lowers):
            return []
        spelled_boolean = "true" in self.lowers and "false" in self.lowers  # what a "true or false" pair needs
        return [statement for sentence in self.sentences for statement in _sentence_types(sentence, spelled_boolean)]

    @built_once
    def defaults(self) -> list[Statement]:
        """"defaults to X", "default: X", "(default X)", "X by default": the stated default value."""
        if not _DEFAULT_CUES.may_occur_in(self.lowers):
            return []
        return [statement for sentence in self.sentences for statement in _sentence_defaults(self.text, sentence)]

    @built_once
    def has_digit(self) -> bool:
        """The text holds a digit: every number does (bounds, and tokens a numeric default could be written as)."""
        return _DIGIT.search(self.text) is not None

    @built_once
    def bounds_by_sentence(self) -> list[list[Statement]]:
        """Numeric bounds, sentence by sentence: "between 1 and 100", "at most 50 characters", "1-100"."""
        if not self.has_digit:  # every bound states a number
            return [[] for _ in self.sentences]
        return [_sentence_bounds(self.text, sentence) for sentence in self.sentences]

    @built_once
    def bounds(self) -> list[Statement]:
        return [statement for found in self.bounds_by_sentence for statement in found]

    @built_once
    def value_lists_by_sentence(self) -> list[list[Statement]]:
        """Lists of allowed values, sentence by sentence: "one of: a, b, c", "either 'x' or 'y'", "(asc/desc)"."""
        if not _LIST_CUES.may_occur_in(self.lowers) and not self.quotes:
            return [[] for _ in self.sentences]
        return [_sentence_value_lists(self.text, sentence) for sentence in self.sentences]

    @built_once
    def value_lists(self) -> list[Statement]:
        return [statement for found in self.value_lists_by_sentence for statement in found]

    @built_once
    def bare_value_list(self) -> Statement | None:
        """A sentence that is nothing but a short list of values ("asc or desc.", "small, medium or large"):
        in a parameter description, that is the allowed values."""
        if self.lowers.isdisjoint(_BARE_LIST_JOINERS):
            return None
        for sentence in self.sentences:
            found = _bare_value_list(self.text, sentence)
            if found is not None:
                return found
        return None

    def has_fewer_words(self, count: int) -> bool:
        """Fewer than ``count`` tokens that are not punctuation (the count stops there)."""
        seen = 0
        for token in self.tokens:
            if token.kind != "punct":
                seen += 1
                if seen >= count:
                    return False
        return seen < count

    def content_within(self, limit: int) -> tuple[str, ...] | None:
        """The content words of the text, identifiers split into their words (see ``content_words``), when there
        are at most ``limit``: WM304 compares a description with a name, and a longer one cannot restate it."""
        if limit not in self._content_within:
            self._content_within[limit] = self._content_up_to(limit)
        return self._content_within[limit]

    def _content_up_to(self, limit: int) -> tuple[str, ...] | None:
        found: list[str] = []
        for token in self.tokens:
            if token.is_word:
                found += _word_content(token.text)
                if len(found) > limit:
                    return None
        return tuple(found)

    @built_once
    def states_constraints(self) -> bool:
        """Any list of allowed values, default or bound: most descriptions state none."""
        return bool(self.value_lists or self.bare_value_list or self.defaults or self.bounds)

    def sentence_words(self, index: int) -> frozenset[str]:
        """The words of sentence ``index``, identifiers split into their words (``sort_order`` -> sort, order);
        worked out per sentence, for those that state a list or a bound (see WM303). The word after "per" is a
        rate's unit ("20 per page"), not a mention of what it names."""
        found = self._sentence_words.get(index)
        if found is None:
            sentence = self.sentences[index]
            found = self._sentence_words[index] = frozenset(
                word for position, token in enumerate(sentence)
                if token.is_word and not (position and sentence[position - 1].lower == "per")
                for word in name_words(token.text))
        return found

    def parameter_names(self, names: Sequence[str]) -> list[str]:
        """Which of ``names`` the text writes as parameter names (see ``_mentioned_parameter_names``)."""
        if self.lowers.isdisjoint(map(str.lower, names)):
            return []
        key = tuple(names)
        if key not in self._parameter_names:
            self._parameter_names[key] = _mentioned_parameter_names(self.tokens, key)
        return self._parameter_names[key]

    def listed_values(self, values: Sequence[str]) -> list[str]:
        """Which of ``values`` (enum values) the text lists (see ``_mentioned_values``)."""
        if len(values) < 2:
            return []  # a list needs two values
        key = tuple(values)
        if key not in self._listed:
            self._listed[key] = _mentioned_values(self.text, self.tokens, key)
        return self._listed[key]

    @built_once
    def mentions_default(self) -> bool:
        """The text uses the word "default" (then it has ``default_neighbours``: the word itself among them)."""
        return not self.lowers.isdisjoint(words.DEFAULT_WORDS)

    @built_once
    def default_neighbours(self) -> list[str]:
        """The words within DEFAULT_WINDOW_WORDS of the word "default" in the same sentence."""
        if not self.mentions_default:
            return []
        return [text for sentence in self.sentences for text in _default_neighbours(sentence)]

    def near_default_word(self, value: str) -> bool:
        """A declared default written near the word "default": "newest first by default", "default sort: newest"."""
        if not self.mentions_default:
            return False
        if value not in self._near_default:
            self._near_default[value] = self._may_be_written(value) \
                and any(same_value(text, value) for text in self.default_neighbours)
        return self._near_default[value]

    def _may_be_written(self, value: str) -> bool:
        """Some token may state ``value`` (see ``same_value``): one spelled like it, or a number, which holds a digit
        unless it is infinite ("Infinity"). When none may, the words near "default" need not be worked out."""
        return value.lower() in self.lowers or self.has_digit or _is_infinite(value)


@lru_cache(maxsize=4096)
def describe(text: str) -> DescriptionFacts:
    """The facts of a description text, shared by every rule and tool that reads the same text."""
    return DescriptionFacts(text)


def _mentioned_parameter_names(tokens: Sequence[Token], names: Sequence[str]) -> list[str]:
    """Parameter names written as names: with ``_``/inner capital, quoted, before ``:``/``(``/``=``,
    or next to "parameter"/"field"/"input"... A short name that is also an English word is not a name
    when it is only used as a word ("Fetch the text of a URL" with a ``url`` parameter)."""
    found: list[str] = []
    by_lower: dict[str, list[str]] = {}  # every match below is a name spelled like the token, case aside
    for name in names:
        by_lower.setdefault(name.lower(), []).append(name)
    for index, token in enumerate(tokens):
        candidates = by_lower.get(token.lower)
        if candidates is None:
            continue
        if token.kind in ("quoted", "code"):
            matches = candidates
        elif token.is_word:
            matches = [name for name in candidates if token.text == name and _is_name_here(tokens, index, name)]
            matches += [name for name in candidates if token.kind == "identifier" and _looks_like_identifier(name)]
        else:
            continue
        found.extend(name for name in matches if name not in found)
    return found


def _looks_like_identifier(name: str) -> bool:
    return "_" in name or _INNER_CAPITAL.search(name) is not None


_PARENTHESISED_NOTES = words.JSON_TYPE_WORDS | {"required", "optional", "default", "defaults"}
# Words that make the word after them a noun of the prose, not a parameter's name.
_DETERMINERS = frozenset({"a", "an", "the", "another", "this", "that", "these", "those", "each", "every", "any",
                          "some", "its", "their", "your", "my", "our", "his", "her", "one"})


def _is_name_here(tokens: Sequence[Token], index: int, name: str) -> bool:
    if _looks_like_identifier(name):
        return True
    following = tokens[index + 1] if index + 1 < len(tokens) else None
    if following is not None and following.text == "=":
        return True
    if following is not None and following.text == ":":
        # "city: the city to look up" names it; "the time zone of a city: useful before..." is prose.
        return index == 0 or tokens[index - 1].lower not in _DETERMINERS
    if following is not None and following.text == "(":
        # "query(...)" or "query (string, required)", not "a city (or town)".
        note = [token.lower for token in tokens[index + 2:index + 7]]
        closing = note.index(")") if ")" in note else len(note)
        if following.start == tokens[index].end or any(word in _PARENTHESISED_NOTES for word in note[:closing]):
            return True
    neighbours = [tokens[position].lower for position in (index - 1, index + 1) if 0 <= position < len(tokens)]
    return any(neighbour in words.PARAMETER_WORDS for neighbour in neighbours)


_TYPE_CUES = Cues([(word,) for word in words.JSON_TYPE_WORDS | frozenset(words.PLURAL_TYPE_WORDS)]
                  + [("true", "false")])  # "true or false" spells the boolean type out


def _sentence_types(sentence: list[Token], spelled_boolean: bool) -> list[Statement]:
    """``spelled_boolean``: the text has the words "true" and "false" (else no pair of them is looked for)."""
    found: list[Statement] = []
    for index, token in enumerate(sentence):
        lower = token.lower
        plural = words.PLURAL_TYPE_WORDS.get(lower)
        if plural and index >= 2 and sentence[index - 1].lower == "of" and sentence[index - 2].lower in ("array", "list"):
            found.append(Statement(f"{sentence[index - 2].text} of {token.text}", [plural], plural))
            continue
        if lower not in words.JSON_TYPE_WORDS:
            continue  # no type word (most tokens: _type_word would say None)
        type_word = _type_word(token)
        if type_word is None:
            continue
        if _is_type_use(sentence, index, type_word):
            found.append(Statement(token.text, [type_word], type_word))
    if spelled_boolean:
        found.extend(_boolean_pairs(sentence))
    return found


def _type_word(token: Token) -> str | None:
    if token.kind not in ("word", "code", "quoted"):
        return None
    lower = token.lower
    if lower in words.JSON_TYPE_WORDS:
        return {"bool": "boolean", "int": "integer", "float": "number", "str": "string"}.get(lower, lower)
    return None


_NOT_A_NUMBER_TYPE_AFTER = frozenset({"of", "you", "that", "which", "from", "on", "printed", "shown", "to", "for",
                                      "we", "the", "assigned", "given", "associated", "used", "in"})


def _is_type_use(sentence: list[Token], index: int, type_word: str) -> bool:
    token = sentence[index]
    following = sentence[index + 1] if index + 1 < len(sentence) else None
    after = following.lower if following is not None else ""
    if type_word == "number" and after in _NOT_A_NUMBER_TYPE_AFTER:
        return False
    if token.kind in ("code", "quoted") or token.lower in ("bool", "int", "str"):
        return True
    # "(number)", "(optional string)", "(string, required)": a short parenthesised note.
    group = _parenthesised(sentence, index)
    if group is not None and sum(1 for item in group if item.is_word) <= 4 and after != "of":
        return True
    # Walk back over adjectives and an article to what introduces the type.
    position = index - 1
    while position >= 0 and sentence[position].lower in words.TYPE_ADJECTIVES:
        position -= 1
    has_article = position >= 0 and sentence[position].lower in words.ARTICLES
    if has_article:
        position -= 1
    before = sentence[position].lower if position >= 0 else ""
    if position < 0 and (has_article or (following is not None and following.kind == "punct" and following.text in ":,–-")):
        return type_word != "number" or after != "of"  # "A string ...", "Integer: ...", but "A number of"
    if position < 0 and type_word in ("string", "integer", "boolean"):
        return True  # "String containing the name", "Boolean."; not "Number of tickets", "Object detection"
    if type_word != "number" and not has_article:
        # "must be a valid email string": up to two words between the article and the type word
        for gap in (1, 2):
            if position - gap >= 1 and sentence[position - gap].lower in words.ARTICLES \
                    and sentence[position - gap - 1].lower in words.TYPE_INTRODUCERS:
                return True
    if before in words.TYPE_INTRODUCERS and (has_article or before in ("type", "typed", "as")):
        return True
    if before == "of" and position >= 1 and sentence[position - 1].lower == "type":
        return True
    if before == ":" and position >= 1 and sentence[position - 1].lower == "type":
        return True
    if after in words.TYPE_NOUNS and (type_word != "number" or has_article or index == 0):
        return True
    if after in ("or", "|", "/") and index + 2 < len(sentence) and _type_word(sentence[index + 2]) is not None:
        return True
    return False


PARENTHESIS_REACH = 12  # tokens looked at on each side: a note in parentheses is short


def _parenthesised(sentence: list[Token], index: int) -> list[Token] | None:
    """The tokens of the short parenthesised group around ``index``, if any."""
    start = index - 1
    while start >= max(0, index - PARENTHESIS_REACH) and sentence[start].text not in ("(", ")"):
        start -= 1
    end = index + 1
    while end < min(len(sentence), index + PARENTHESIS_REACH) and sentence[end].text not in ("(", ")"):
        end += 1
    if start < 0 or end >= len(sentence) or sentence[start].text != "(" or sentence[end].text != ")":
        return None
    return sentence[start + 1:end]


def _boolean_pairs(sentence: list[Token]) -> list[Statement]:
    """"true/false", "true or false": the boolean type spelled out."""
    found = []
    for index in range(len(sentence) - 2):
        first, middle, last = sentence[index:index + 3]
        if {first.lower, last.lower} == {"true", "false"} and middle.lower in ("/", "or", "|"):
            found.append(Statement(f"{first.text} {middle.text} {last.text}".replace(" / ", "/"), ["boolean"], "true/false"))
    return found


MAX_WORDS_BETWEEN_LISTED_VALUES = 4


_WORD_JOINERS = re.compile(r"[_\-]+")
_WORD_RUN = re.compile(r"[^\W_]+")
_SENTENCE_MARKS = frozenset(".;!?")  # a list does not run across them


@lru_cache(maxsize=4096)
def _written_forms(values: tuple[str, ...]) -> tuple[tuple[str, str, tuple[str, ...] | None], ...]:
    """Each distinct value, lower-cased, with the forms a text may write it in (``price_low-to_high`` also as
    "price low to high"); None for a one-letter value or a stop word, which counts only when quoted.
    Remembered per enum: tools repeat their enums, and each text that may list values asks about them."""
    forms = []
    for value in dict.fromkeys(values):
        needle = value.lower().strip()
        if not needle:
            continue
        if len(needle) < 2 or needle in words.STOP_WORDS:
            forms.append((value, needle, None))
        elif "_" in needle or "-" in needle:
            forms.append((value, needle, (needle, _WORD_JOINERS.sub(" ", needle))))
        else:
            forms.append((value, needle, (needle,)))
    return tuple(forms)


def _whole_word_spans(text: str, needle: str) -> list[tuple[int, int]]:
    r"""Where ``needle`` stands in ``text`` with no word character (alphanumeric or ``_``) or hyphen on either
    side, left to right and not overlapping: what ``(?<![\w\-])needle(?![\w\-])`` finds, without compiling a
    pattern per value (the sides are tested inline: a call per side cost more than the search)."""
    spans = []
    size = len(needle)
    start = text.find(needle)
    while start != -1:
        end = start + size
        if (start == 0 or not (text[start - 1].isalnum() or text[start - 1] in "_-")) \
                and (end == len(text) or not (text[end].isalnum() or text[end] in "_-")):
            spans.append((start, end))
            start = text.find(needle, end)
        else:
            start = text.find(needle, start + 1)
    return spans


def _mentioned_values(text: str, tokens: Sequence[Token], values: tuple[str, ...]) -> list[str]:
    """Which of ``values`` (enum values) the text lists: whole words (``price_low_to_high`` also as
    "price low to high") that stand close together, as a list does ("newest or oldest", "a, b and c").
    One-letter values and stop words count only when quoted."""
    if len(values) < 2:
        return []  # a list needs two values
    lowered = text.lower()
    quoted: set[str] | None = None  # the quoted spans, looked for only for a short value
    hits: list[tuple[int, int, str]] = []
    for value, needle, variants in _written_forms(values):
        if variants is None:
            if quoted is None:
                quoted = {token.lower for token in tokens if token.kind in ("quoted", "code")}
            variants = (f"'{needle}'", f'"{needle}"', f"`{needle}`") if needle in quoted else ()
        for variant in variants:
            if variant in lowered:  # most values are not written at all
                hits += [(start, end, value) for start, end in _whole_word_spans(lowered, variant)]
    if len(hits) < 2:
        return []  # a list needs two values written (most texts name one at most)
    hits.sort()
    best: list[str] = []
    cluster: list[str] = []
    previous_end = None
    for start, end, value in hits:
        gap = lowered[previous_end:start] if previous_end is not None else ""
        if previous_end is None or not _SENTENCE_MARKS.isdisjoint(gap) or (
                len(gap) > 2 * MAX_WORDS_BETWEEN_LISTED_VALUES  # room for more words, each after a separator
                and len(_WORD_RUN.findall(gap)) > MAX_WORDS_BETWEEN_LISTED_VALUES):
            cluster = []
        if value not in cluster:
            cluster.append(value)
        previous_end = end
        if len(cluster) > len(best):
            best = list(cluster)
    return best if len(best) >= 2 else []


_DEFAULT_CUES = Cues([(word,) for word in words.DEFAULT_WORDS] + list(words.OMISSION_PHRASES))  # "if omitted"


def _sentence_defaults(text: str, sentence: list[Token]) -> list[Statement]:
    found: list[Statement] = []
    for index, token in enumerate(sentence):
        if token.lower in words.DEFAULT_WORDS:
            statement = _default_after(text, sentence, index)
            if statement is not None:
                found.append(statement)
        elif token.lower in ("if", "when") and (statement := _omission_default(text, sentence, index)) is not None:
            found.append(statement)
        elif token.lower == "by" and index + 1 < len(sentence) and sentence[index + 1].lower == "default" \
                and index > 0 and (sentence[index - 1].is_literal or sentence[index - 1].lower in ("true", "false")):
            found.append(Statement(_phrase(text, sentence[index - 1], sentence[index + 1]), [sentence[index - 1].text]))
    return found


_DEFAULT_CONNECTORS = (("value", "is"), ("value", ":"), ("is",), ("to",), ("of",), (":",), ("=",), ("value",),
                       ("will", "be"), ("being",))


DEFAULT_WINDOW_WORDS = 4


def _default_neighbours(sentence: list[Token]) -> list[str]:
    spoken = [token for token in sentence if token.kind != "punct"]
    near: set[int] = set()
    for anchor, token in enumerate(spoken):
        if token.lower in words.DEFAULT_WORDS:
            near.update(range(anchor - DEFAULT_WINDOW_WORDS, anchor + DEFAULT_WINDOW_WORDS + 1))
    return [spoken[index].text for index in sorted(near) if 0 <= index < len(spoken)]


def _default_after(text: str, sentence: list[Token], index: int) -> Statement | None:
    position = index + 1
    connected = False
    for connector in _DEFAULT_CONNECTORS:
        if _follows(sentence, position, connector):
            position += len(connector)
            connected = True
            break
    if position >= len(sentence):
        return None
    value = sentence[position]
    in_parentheses = index > 0 and sentence[index - 1].text == "("
    after_comma = index > 0 and sentence[index - 1].text == ","
    if not connected and not (in_parentheses or after_comma) and not value.is_literal:
        return None
    if not connected and not value.is_literal and value.lower not in ("true", "false", "null"):
        return None
    if not _is_default_value(value):
        return None
    if value.kind == "word" and position + 1 < len(sentence) and sentence[position + 1].is_word \
            and sentence[position + 1].lower not in ("if", "when", "unless", "for", "and", "or"):
        return None  # "defaults to current location": prose, not a value
    return Statement(_phrase(text, sentence[index], value), [value.text])


def _by_first_two_words(phrases: Sequence[tuple[str, ...]]) -> dict[tuple[str, ...], list[tuple[str, ...]]]:
    """Phrases grouped by their first two words, in their order, so a token is only compared with phrases it can
    start."""
    grouped: dict[tuple[str, ...], list[tuple[str, ...]]] = {}
    for phrase in phrases:
        grouped.setdefault(phrase[:2], []).append(phrase)
    return grouped


_OMISSIONS_BY_START = _by_first_two_words(words.OMISSION_PHRASES)


def _omission_default(text: str, sentence: list[Token], index: int) -> Statement | None:
    """A default stated by what happens without a value: "(celsius if omitted)", "'relevance' when not given",
    "If not given, today's date is used"."""
    start = (sentence[index].lower, sentence[index + 1].lower) if index + 1 < len(sentence) else None
    phrase = next((phrase for phrase in _OMISSIONS_BY_START.get(start, ()) if _follows(sentence, index, phrase)), None)
    if phrase is None:
        return None
    end = index + len(phrase)
    if index > 0:  # the value just before: a literal, or a lone word opening a parenthesis or clause
        value = sentence[index - 1]
        opens_clause = index > 1 and sentence[index - 2].text in ("(", ",", ":", "-", "–", "—")
        if _is_default_value(value) and (value.is_literal or opens_clause):
            return Statement(_phrase(text, value, sentence[end - 1]), [value.text])
        return None
    position = end + (1 if end < len(sentence) and sentence[end].text == "," else 0)
    for stop in range(position + 1, len(sentence)):
        used = next((used for used in words.DEFAULT_USED_PHRASES if _follows(sentence, stop, used)), None)
        if used is not None:
            if any(token.lower in words.DEFAULT_WORDS for token in sentence[position:stop]):
                return None  # "If omitted, the default is used": no value stated
            value = text[sentence[position].start:sentence[stop - 1].end]
            return Statement(_phrase(text, sentence[index], sentence[stop + len(used) - 1]), [value])
    return None


def _is_default_value(token: Token) -> bool:
    if token.kind == "punct":
        return False
    return token.is_literal or (token.kind == "word" and token.lower not in words.NOT_DEFAULT_VALUES)


def _by_first_word(phrases: dict[tuple[str, ...], str]) -> dict[str, list[tuple[tuple[str, ...], str]]]:
    """Phrases grouped by their first word, so a token is only compared with phrases it can start."""
    grouped: dict[str, list[tuple[tuple[str, ...], str]]] = {}
    for phrase, kind in phrases.items():
        grouped.setdefault(phrase[0], []).append((phrase, kind))
    return grouped


_BOUND_PHRASES_BY_FIRST_WORD = _by_first_word(words.BOUND_PHRASES)
_BOUND_SUFFIXES_BY_FIRST_WORD = _by_first_word(words.BOUND_SUFFIXES)
_LEADS_BY_FIRST_WORD = _by_first_word(words.ALLOWED_VALUE_LEADS)


def _sentence_bounds(text: str, sentence: list[Token]) -> list[Statement]:
    found: list[Statement] = []
    index = 0
    while index < len(sentence):
        statement, consumed = _bound_at(text, sentence, index)
        if statement is not None:
            found.append(statement)
            index += max(consumed, 1)
        else:
            index += 1
    return found


def _number(token: Token) -> float | None:
    if token.kind != "number" or "-" in token.text[1:]:  # a date such as 2024-01-15 is no bound
        return None
    try:
        return float(token.text.replace(",", ""))
    except ValueError:
        return None


def _unit(sentence: list[Token], index: int) -> str | None:
    return sentence[index].lower if index < len(sentence) and sentence[index].is_word else None


def _bound_at(text: str, sentence: list[Token], index: int) -> tuple[Statement | None, int]:
    token = sentence[index]
    lower = token.lower
    # between X and Y / from X to Y
    if lower in ("between", "from") and index + 3 < len(sentence):
        low, joiner, high = sentence[index + 1], sentence[index + 2].lower, sentence[index + 3]
        if _number(low) is not None and _number(high) is not None and joiner in ("and", "to", "-", "–"):
            return Statement(_phrase(text, token, high), [low.text, high.text], "range",
                             _unit(sentence, index + 4)), 4
    # X to Y, X-Y (a range, low before high)
    if _number(token) is not None and index + 2 < len(sentence):
        joiner, high = sentence[index + 1], sentence[index + 2]
        high_number = _number(high)
        hyphenated = joiner.text in ("-", "–") and joiner.start == token.end and high.start == joiner.end
        if hyphenated and not (_parenthesised(sentence, index) is not None
                               or (_unit(sentence, index + 3) or "").endswith("s")):
            hyphenated = (_number(token) or 0) <= 1  # "call 555-1234" is no range; "(1-100)", "1-100 items", "1-5" are
        if high_number is not None and high_number > (_number(token) or 0) and (joiner.lower == "to" or hyphenated):
            before = sentence[index - 1].lower if index else ""
            if before not in ("iso", "rfc", "utf", "version", "v", "page", "pages", "chapter", "section"):
                return Statement(_phrase(text, token, high), [token.text, high.text], "range",
                                 _unit(sentence, index + 3)), 3
    # X or more / X max
    if _number(token) is not None:
        position = index + 1
        unit = _unit(sentence, position)
        if unit is not None and unit not in ("or", "max", "maximum", "min", "minimum", "at"):
            position += 1
        else:
            unit = None
        first = sentence[position].lower if position < len(sentence) else ""
        for suffix, kind in _BOUND_SUFFIXES_BY_FIRST_WORD.get(first, ()):
            if _follows(sentence, position, suffix):
                end = position + len(suffix)
                last = sentence[end - 1]
                return Statement(_phrase(text, token, last), [token.text], kind, unit or _unit(sentence, end)), end - index
    # at most X, up to X, max X, maximum length of X, <= X
    for phrase, kind in _BOUND_PHRASES_BY_FIRST_WORD.get(lower, ()):
        if not _follows(sentence, index, phrase):
            continue
        position = index + len(phrase)
        skipped = 0
        while position < len(sentence) and skipped < 2 and sentence[position].lower in (
                "length", "size", "value", "count", "of", ":", "is", "number", "=", "len"):
            position += 1
            skipped += 1
        if position < len(sentence) and _number(sentence[position]) is not None:
            number = sentence[position]
            return Statement(_phrase(text, token, number), [number.text], kind, _unit(sentence, position + 1)), \
                position + 1 - index
    if token.text in ("<", ">", "≤", "≥") and index + 1 < len(sentence):
        position = index + 1
        if sentence[position].text == "=" and position + 1 < len(sentence):
            position += 1
        if _number(sentence[position]) is not None:
            kind = "max" if token.text in ("<", "≤") else "min"
            return Statement(_phrase(text, token, sentence[position]), [sentence[position].text], kind,
                             _unit(sentence, position + 1)), position + 1 - index
    return None, 0


_LIST_SEPARATORS = frozenset({",", "/", "|", "or", "and"})
EXAMPLE_REACH = 3  # a list starting this many tokens after "e.g."/"such as"/"like" is an example


# A list is announced by a lead, follows a colon, is piped or parenthesised (or quoted: see value_lists_by_sentence).
_LIST_CUES = Cues(list(words.ALLOWED_VALUE_LEADS) + [(":",), ("|",), ("(",)])
_BARE_LIST_JOINERS = frozenset({"or", "|", "/"})


def _sentence_value_lists(text: str, sentence: list[Token]) -> list[Statement]:
    """Lists of allowed values: "one of: a, b, c", "either 'x' or 'y'", "(asc/desc)", "a|b|c",
    "'x', 'y' or 'z'". Lists after "e.g."/"such as"/"like" are examples and do not count."""
    openers = _list_openers(sentence)
    if not openers:
        return []  # most sentences open no list: no example leads to look for
    found: list[Statement] = []
    claimed: set[int] = set()
    for index in openers:
        if index in claimed or any(token.lower in words.EXAMPLE_LEADS
                                   for token in sentence[max(0, index - EXAMPLE_REACH):index + 1]):
            continue
        statement = _listed_values(text, sentence, index)
        if statement is not None:
            found.append(statement)
            claimed.update(range(index, index + 2 * len(statement.values) + 3))
    return found


_LIST_OPENERS = frozenset(_LEADS_BY_FIRST_WORD) | {":", "("}


def _list_openers(sentence: Sequence[Token]) -> list[int]:
    """Where a list can start, by the first check of each finder of ``_listed_values`` at once: a lead, a colon,
    a quoted span, a piped word or a parenthesis."""
    last = len(sentence) - 1
    return [index for index, token in enumerate(sentence)
            if token.lower in _LIST_OPENERS or token.kind in ("quoted", "code")
            or (token.is_word and index < last and sentence[index + 1].text == "|")]


def _bare_value_list(text: str, sentence: list[Token]) -> Statement | None:
    items, last = _list_items(sentence, 0)
    joined_by_or = any(token.lower in ("or", "|", "/") for token in sentence)
    written_as_values = all(item.is_literal or item.text == item.lower for item in items)  # not "City, region"
    if 2 <= len(items) <= 6 and last is sentence[-1] and joined_by_or and written_as_values \
            and not all(item.lower in ("true", "false") for item in items):
        return Statement(_phrase(text, sentence[0], last), [item.text for item in items])
    return None


def _listed_values(text: str, sentence: Sequence[Token], index: int) -> Statement | None:
    for finder in (_announced_list, _list_after_colon, _quoted_or_piped_list, _parenthesised_list):
        found = finder(sentence, index)
        if found is not None:
            first, items, last = found
            if len(items) >= 2 and not all(item.lower in ("true", "false") for item in items):
                return Statement(_phrase(text, first, last), [item.text for item in items])
    return None


ListMatch = tuple[Token, list[Token], Token]


def _announced_list(sentence: Sequence[Token], index: int) -> ListMatch | None:
    """"one of small, medium", "allowed values: a, b", "either 'x' or 'y'" (vocabulary.ALLOWED_VALUE_LEADS)."""
    for lead, strength in _LEADS_BY_FIRST_WORD.get(sentence[index].lower, ()):
        if not _follows(sentence, index, lead):
            continue
        position = index + len(lead)
        has_colon = position < len(sentence) and sentence[position].text in (":", "=")
        if has_colon:
            position += 1
        elif strength == "weak":
            if not (_follows(sentence, position, ("are",)) or _follows(sentence, position, ("include",))):
                continue
            position += 1
        items, last = _list_items(sentence, position)
        if len(items) < 2 or last is None:
            continue
        if strength == "modal" and not has_colon and not (all(item.is_literal for item in items) or len(items) >= 3):
            continue
        return sentence[index], items, last
    return None


def _list_after_colon(sentence: Sequence[Token], index: int) -> ListMatch | None:
    """"Unit: celsius or fahrenheit." -- a short list that fills the rest of the sentence after a colon."""
    if sentence[index].text != ":" or index == 0:
        return None
    items, last = _list_items(sentence, index + 1)
    has_or = any(token.lower == "or" for token in sentence[index + 1:])
    announced = sentence[index - 1].lower in ("following", "values", "options", "choices")
    if 2 <= len(items) <= 8 and last is sentence[-1] and (has_or or announced):
        return sentence[index - 1], items, last
    return None


def _quoted_or_piped_list(sentence: Sequence[Token], index: int) -> ListMatch | None:
    """'"asc" or "desc"', "`a`, `b`", "pickup|delivery"."""
    token = sentence[index]
    piped = token.is_word and index + 1 < len(sentence) and sentence[index + 1].text == "|"
    if token.kind not in ("quoted", "code") and not piped:
        return None
    items, last = _list_items(sentence, index)
    if last is None:
        return None
    if all(item.kind in ("quoted", "code") for item in items):
        return token, items, last
    between = sentence[index + 1:_index_of(sentence, last)]
    if all(separator.text == "|" for separator in between[::2]):
        return token, items, last
    return None


def _parenthesised_list(sentence: Sequence[Token], index: int) -> ListMatch | None:
    """"(asc/desc)", "(low, medium, high)": a parenthesised group holding only short values."""
    if sentence[index].text != "(":
        return None
    items, last = _list_items(sentence, index + 1)
    if last is None:
        return None
    closing = _index_of(sentence, last) + 1
    if closing >= len(sentence) or sentence[closing].text != ")":
        return None
    if any(item.lower in words.STOP_WORDS for item in items):
        return None
    separators = {token.text for token in sentence[index + 1:closing] if token.kind == "punct"}
    if not separators & {"/", "|", ","}:
        return None
    return sentence[index], items, sentence[closing]


def _index_of(sentence: Sequence[Token], token: Token) -> int:
    return next(position for position, candidate in enumerate(sentence) if candidate is token)


def _list_items(sentence: list[Token], position: int) -> tuple[list[Token], Token | None]:
    """Single-token items separated by , / | "or" "and" (", or" too), starting at ``position``."""
    items: list[Token] = []
    last: Token | None = None
    while position < len(sentence):
        item = sentence[position]
        if item.kind == "punct" or (item.kind == "word" and item.lower in words.PROSE_ITEM_WORDS):
            break
        items.append(item)
        last = item
        position += 1
        separated = False
        while position < len(sentence) and sentence[position].lower in _LIST_SEPARATORS:
            separated = True
            position += 1
        if not separated:
            break
    return items, last


# --- schema facts ---------------------------------------------------------------------------------

BOUND_KEYWORDS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minLength", "maxLength",
                  "minItems", "maxItems")
_BOUND_KEYWORD_SET = frozenset(BOUND_KEYWORDS)
# The ``types`` of a property that declares one JSON type, made once: most properties declare one of these.
_JSON_TYPE_SETS = {name: frozenset((name,)) for name in ("string", "number", "integer", "boolean", "object", "array",
                                                         "null")}
_NO_KEYWORDS: Mapping[str, Prop] = MappingProxyType({})  # the keywords of a property whose schema is not static
_NO_BOUNDS: Mapping[str, float] = MappingProxyType({})  # the bounds of most properties, shared: read-only


class SchemaProperty:
    """One property of an inputSchema, at any depth. Its facts are read once, when the schema is walked:
    about ten rules ask for them."""

    __slots__ = ("name", "prop", "schema", "types", "enum_values", "default_text", "bounds", "description")

    def __init__(self, name: str, prop: Prop, schema: JSObject | None) -> None:
        self.name = name
        self.prop = prop  # the key/value pair in its ``properties`` object
        self.schema = schema  # None when the property's schema is not a static object
        keywords = schema.props if schema is not None else _NO_KEYWORDS
        declared = keywords.get("type")
        declared = declared.value if declared is not None else None
        if isinstance(declared, str):
            self.types: frozenset[str] = _JSON_TYPE_SETS.get(declared) or frozenset((declared,))
        elif isinstance(declared, JSArray):
            self.types = frozenset(item.value for item in declared.items if isinstance(item.value, str))
        else:
            self.types = frozenset()
        enum = keywords.get("enum")
        enum = enum.value if enum is not None else None
        self.enum_values: tuple[str, ...] = _texts(enum.items) if isinstance(enum, JSArray) else ()
        default = keywords.get("default")
        self.default_text: str | None = None
        if default is not None:
            self.default_text = to_js_string(default.value)
        self.bounds: Mapping[str, float] = _NO_BOUNDS
        if not _BOUND_KEYWORD_SET.isdisjoint(keywords):
            bounds = {}
            for key in BOUND_KEYWORDS:
                bound = keywords.get(key)
                if bound is not None and isinstance(bound.value, (int, float)) and not isinstance(bound.value, bool):
                    bounds[key] = float(bound.value)
            self.bounds = bounds
        self.description: Prop | None = keywords.get("description")

    def get(self, key: str) -> Value:
        return self.schema.get(key) if self.schema is not None else None

    def keyword_node(self, key: str) -> Node | None:
        prop = self.schema.props.get(key) if self.schema is not None else None
        return prop.value_node if prop is not None else None

    def has(self, key: str) -> bool:
        return self.schema is not None and (self.schema.has(key) or self.schema.open)


def _texts(items: list[Element]) -> tuple[str, ...]:
    """The static string forms of an array's items (most are strings already: no call for those)."""
    texts = []
    for item in items:
        value = item.value
        text = value if type(value) is str else to_js_string(value)
        if text is not None:
            texts.append(text)
    return tuple(texts)


def _walk_properties(schema: JSObject) -> tuple[SchemaProperty, ...]:
    found: list[SchemaProperty] = []
    for entry in walk_schema(schema):
        properties = entry.schema.props.get("properties")
        if properties is not None and isinstance(properties.value, JSObject):
            for name, prop in properties.value.props.items():
                found.append(SchemaProperty(name, prop, prop.value if isinstance(prop.value, JSObject) else None))
    if len(found) > 1:
        found.sort(key=_source_position)
    return tuple(found)


def _source_position(item: SchemaProperty) -> int:
    return item.prop.key_node.start_byte if item.prop.key_node is not None else 0


_properties = per_object(_walk_properties)  # per schema: tools can share one


def _input_properties(tool: ToolDefinition) -> tuple[SchemaProperty, ...]:
    """Every property of the tool's inputSchema at any depth (nested objects, array items, ``anyOf``
    branches...), in source order; a property whose own schema is not static still counts, by its name."""
    schema = tool.get("inputSchema")
    return _properties(schema) if isinstance(schema, JSObject) else ()


input_properties = per_object(_input_properties)  # about ten rules ask for each tool's parameters, some often


def _is_infinite(value: str) -> bool:
    """``value`` reads as an infinite number, which a word without digits ("infinity") may equal."""
    try:
        return math.isinf(float(value))
    except ValueError:
        return False


@lru_cache(maxsize=4096)
def same_value(stated: str, declared: str) -> bool:
    """A stated value equals a declared one (case-insensitively; numbers by value). Remembered: the rules
    compare the same few words and schema values over and over."""
    if stated.lower() == declared.lower():
        return True
    try:
        return float(stated.replace(",", "")) == float(declared)
    except ValueError:
        return False


# --- identifiers behind a description ---------------------------------------------------------------

MAX_REFERENCE_STEPS = 200


def referenced_identifiers(node: Node | None, tool: ToolDefinition) -> set[str]:
    """Identifier names a description expression uses, following ``const`` names it refers to."""
    names: set[str] = set()
    if node is None or node.type == "string" or tool.script is None:  # a string literal names nothing
        return names
    scopes = (tool.script_holding(node) or tool.script).scopes  # names resolve where the text is written
    work = Worklist(node, MAX_REFERENCE_STEPS)
    for current in work:
        if current.type == "identifier":
            names.add(current.text.decode("utf-8", errors="replace"))
            binding = scopes.resolve(current)
            if binding is not None and binding.kind == "const" and binding.init is not None and not binding.path:
                work.append(binding.init)
        elif current.type not in ("property_identifier", "comment"):
            work.extend(current.named_children)
    return names


UNKNOWN_PART = " \u2026 "
MAX_PARTIAL_DEPTH = 16


def partial_text(node: Node | None, tool: ToolDefinition) -> str | None:
    """The static text of a description whose value is not fully known, with ``…`` for unknown parts:
    `Sort by ${SORT_ORDERS.join(", ")}.` reads "Sort by … ." so the known words can still be checked."""
    if node is None or tool.script is None:
        return None
    script = tool.script_holding(node) or tool.script  # an imported schema's names are its module's
    evaluator = script.evaluator
    parts: list[str] = []
    stack: list[tuple[Node | str, int]] = [(node, 0)]
    while stack:
        current, depth = stack.pop()
        if isinstance(current, str):
            parts.append(current)
            continue
        value = evaluator.value(current)
        text = to_js_string(value) if not isinstance(value, (JSObject, JSArray)) else None
        if text is not None and not isinstance(value, Unknown):
            parts.append(text)
        elif depth < MAX_PARTIAL_DEPTH and current.type == "template_string":
            stack.extend(reversed(_template_parts(current, depth)))
        elif depth < MAX_PARTIAL_DEPTH and current.type == "binary_expression" and \
                current.child_by_field_name("operator") is not None and current.child_by_field_name("operator").type == "+":
            stack.append((current.child_by_field_name("right"), depth + 1))
            stack.append((current.child_by_field_name("left"), depth + 1))
        elif depth < MAX_PARTIAL_DEPTH and current.type in ("identifier", "parenthesized_expression"):
            target = _const_init(current, script) if current.type == "identifier" else current.named_children[0]
            if target is None:
                parts.append(UNKNOWN_PART)
            else:
                stack.append((target, depth + 1))
        else:
            parts.append(UNKNOWN_PART)
    return "".join(parts)


def _template_parts(node: Node, depth: int) -> list[tuple[Node | str, int]]:
    parts: list[tuple[Node | str, int]] = []
    raw_start = node.start_byte + 1
    for child in node.children:
        if child.type == "template_substitution":
            parts.append((decode_escapes(node.text[raw_start - node.start_byte:child.start_byte - node.start_byte]
                                         .decode("utf-8", errors="replace")), depth))
            raw_start = child.end_byte
            if child.named_children:
                parts.append((child.named_children[0], depth + 1))
    parts.append((decode_escapes(node.text[raw_start - node.start_byte:len(node.text) - 1]
                                 .decode("utf-8", errors="replace")), depth))
    return parts


def _const_init(identifier: Node, script: Script) -> Node | None:
    binding = script.scopes.resolve(identifier)
    if binding is None or binding.kind != "const" or binding.path or binding.init is None:
        return None
    return binding.init


# --- what a tool's name and description say it does (WM602, WM604, WM606) ----------------------------

def _third_person(verb: str) -> str:
    if verb.endswith(("s", "sh", "ch", "x", "z")):
        return verb + "es"
    if verb.endswith("y") and verb[-2:-1] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


_CONSEQUENTIAL_FORMS = {_third_person(verb): verb for verb in words.CONSEQUENTIAL_VERBS}
_LIGHT_VERB_FORMS = {form: verb for verb in words.LIGHT_VERBS for form in (verb, _third_person(verb))}
_DETERMINERS = frozenset({"a", "an", "the", "this", "that", "these", "those", "your", "my", "our", "their", "his",
                          "her", "its", "it", "them", "one", "all", "any", "every", "each", "some", "new", "up",
                          "money", "funds"})


def singular(word: str) -> str:
    # Slices compared, not str.endswith: its argument parsing costs more than the test (many calls a tool).
    return word[:-1] if word[-1:] == "s" and word[-2:] != "ss" else word


def _is_information_noun(word: str) -> bool:
    return word in words.INFORMATION_NOUNS or singular(word) in words.INFORMATION_NOUNS


@lru_cache(maxsize=4096)
def consequential_action(name: str | None, description: str | None) -> str | None:
    """The consequential action a tool's name or description names ("book", "send"...), or None.

    In a name, the action is any consequential verb (``book_flight``, ``cart.checkout``, ``bulk_delete``; one
    that is also a noun, such as "order", only with an object after it), or a light verb with a consequential noun
    (``place_order``); a name that starts with a query verb (``get_order_status``), or a noun-like verb before
    an information noun (``order_history``), is about the thing, not the act. In a description,
    the word must be used as a verb: at the start of a sentence ("Books a flight") or after "to"/"will"."""
    for segment in (name or "").split("."):
        parts = name_words(segment)
        if not parts or parts[0] in words.QUERY_VERBS:
            continue
        for index, part in enumerate(parts):
            if part not in words.CONSEQUENTIAL_VERBS:
                continue
            if part not in words.NOUN_LIKE_VERBS:
                return part  # "delete_account", "cart_submit", "bulk_cancel"
            has_object = index + 1 < len(parts) and not _is_information_noun(parts[index + 1])
            if has_object or (index == 0 and len(parts) == 1):
                return part  # "order_pizza", "calendar_book_meeting", but not "order_status", "sort_order"
        first = parts[0]
        if first in words.LIGHT_VERBS:
            noun = next((singular(part) for part in parts[1:] if singular(part) in words.CONSEQUENTIAL_NOUNS), None)
            if noun is not None:
                return f"{first} {noun}"
    return _described_action(description or "")


@lru_cache(maxsize=4096)
def _described_action(description: str) -> str | None:
    """The description's part of ``consequential_action``: names are unique, descriptions repeat."""
    facts = describe(description)
    if facts.lowers.isdisjoint(_ACTION_WORDS):
        return None
    for sentence in facts.sentences:
        spoken = [token.lower for token in sentence if token.is_word]
        for index, word in enumerate(spoken):
            action = _verb_at(spoken, index)
            if action is not None:
                return action
    return None


# The words ``_verb_at`` starts from: a consequential verb (or its -s form) or a light verb.
_ACTION_WORDS = words.CONSEQUENTIAL_VERBS | frozenset(_CONSEQUENTIAL_FORMS) | frozenset(_LIGHT_VERB_FORMS)


def _verb_at(spoken: list[str], index: int) -> str | None:
    word = spoken[index]
    following = spoken[index + 1] if index + 1 < len(spoken) else ""
    previous = spoken[index - 1] if index else ""
    base = word if word in words.CONSEQUENTIAL_VERBS else _CONSEQUENTIAL_FORMS.get(word)
    if base is not None and base not in words.NAME_ONLY_CONSEQUENTIAL:
        inflected = base != word
        takes_object = following in _DETERMINERS or following.endswith("'s")  # "sends an", "deletes the user's"
        if index == 0 and not _is_information_noun(following) and following not in ("of", "is", "are", "was", "id", "ids") \
                and (not inflected or takes_object):
            return base
        if previous in ("and", "or", "then", "also") and takes_object:
            return base  # "Creates and sends an invoice"; not "Searches products and orders by date"
        if not inflected and previous in words.VERB_MARKERS:
            return base  # "to book", "will delete"
    light = _LIGHT_VERB_FORMS.get(word)
    if light is not None and (index == 0 or previous in words.VERB_MARKERS):
        for noun in spoken[index + 1:index + 4]:
            if noun in words.CONSEQUENTIAL_NOUNS:
                return f"{light} {noun}"
    return None


@lru_cache(maxsize=4096)
def developer_tooling(name: str | None, description: str | None) -> str | None:
    """The developer-tooling words a name or description uses ("debug", "feature flag", "reset store")."""
    named = name_words(name or "")
    if named and named[0] in words.NAME_DEVELOPER_WORDS:
        return named[0]  # the name's action: "seed_test_orders", not "get_seed_catalog"
    # Most names hold no cue word (nor every word of a cue pair): no pairs of words to build.
    in_name = _developer_words(named) if _DEVELOPER_CUES.may_occur_in(frozenset(named)) else None
    return in_name or _described_developer_tooling(description or "")


@lru_cache(maxsize=4096)
def _described_developer_tooling(description: str) -> str | None:
    """The description's part of ``developer_tooling``: names are unique, descriptions repeat."""
    facts = describe(description)
    if not _DEVELOPER_CUES.may_occur_in(facts.lowers):
        return None
    for sentence in facts.sentences:
        found = _developer_words([token.lower for token in sentence if token.is_word])
        if found is not None:
            return found
    return None


_DEVELOPER_CUES = Cues([(word,) for word in words.DEVELOPER_WORDS] + list(words.DEVELOPER_PAIRS))


def _developer_words(spoken: Sequence[str]) -> str | None:
    content = [word for word in spoken if word not in words.ARTICLES and word != "of"]
    for index, word in enumerate(content):
        if word in words.DEVELOPER_WORDS:
            return word
        if index + 1 < len(content) and (word, content[index + 1]) in words.DEVELOPER_PAIRS:
            return f"{word} {content[index + 1]}"
    return None


def reads_like_query(name: str | None) -> bool:
    """The name's action is a query verb: ``get_store_hours``, ``searchProducts``, ``cart.list``."""
    segments = [name_words(segment) for segment in (name or "").split(".")]
    return any(parts and parts[0] in words.QUERY_VERBS for parts in segments)

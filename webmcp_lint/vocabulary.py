"""Word lists and budgets the description and security rules read, as data in one place.

Changing what counts as a consequential action, a secret or an instruction
to the agent is an edit here, never in a rule. Words are lower case; the
matchers compare them with the words of a name (split on ``_``, ``-``,
``.`` and case changes) or of a description.
"""

from __future__ import annotations

# Chrome's authoring budgets (WM305).
TOOL_DESCRIPTION_BUDGET = 500
PARAMETER_DESCRIPTION_BUDGET = 150
MIN_DESCRIPTION_WORDS = 3  # WM304: fewer words than this say nothing

# --- WM602: consequential, real-world or irreversible actions -------------------------------------
CONSEQUENTIAL_VERBS = frozenset({
    "book", "buy", "purchase", "pay", "order", "checkout", "transfer", "send", "email", "message",
    "post", "publish", "delete", "remove", "cancel", "submit", "refund", "withdraw", "reserve",
    "subscribe", "unsubscribe", "invite", "approve", "reject", "decline", "charge", "donate", "sell",
    "tweet", "reply", "erase", "destroy", "wipe", "purge", "revoke", "terminate", "deactivate",
    "unpublish", "deploy", "merge", "schedule", "rsvp", "enroll", "register", "upgrade", "downgrade",
    "pledge", "ship", "dispatch", "trade", "sms", "dm", "forward", "accept",
})
# Verbs that only count in a tool name or at the head of a phrase, never as a lone noun in prose.
NAME_ONLY_CONSEQUENTIAL = frozenset({"register", "schedule", "trade", "ship", "merge", "forward", "accept"})
# Nouns that make an action consequential after a light verb: "places an order", "makes a payment".
CONSEQUENTIAL_NOUNS = frozenset({
    "order", "payment", "purchase", "booking", "reservation", "transfer", "refund", "donation",
    "subscription", "withdrawal", "deposit", "transaction", "appointment",
})
LIGHT_VERBS = frozenset({"place", "make", "complete", "process", "create", "finalize", "execute", "initiate",
                         "issue", "submit", "confirm", "send"})
# Consequential verbs that are nouns too: "order_status" is about an order, "message_templates" about messages.
NOUN_LIKE_VERBS = frozenset({"order", "email", "message", "post", "book", "transfer", "purchase", "refund",
                             "invite", "tweet", "reply", "charge", "trade", "schedule", "dm", "sms"})
# A name made of a noun-like verb and one of these is about the thing, not the act: "order_status".
INFORMATION_NOUNS = frozenset({
    "status", "history", "details", "detail", "summary", "info", "information", "count", "total",
    "preview", "estimate", "options", "settings", "preferences", "state", "list", "lists", "log", "logs",
    "tracking", "policy", "quote", "quotes", "availability", "form", "template", "date", "id", "number",
    "amount", "time", "type", "confirmation", "reference", "lookup", "search", "draft",
})
# Words that mark a consequential word in prose as a verb: "to send", "will delete", "and pay".
VERB_MARKERS = frozenset({
    "to", "will", "can", "may", "and", "or", "then", "also", "permanently", "immediately", "instantly",
    "automatically", "actually", "directly", "irreversibly", "please",
})

# --- WM604: names that read like a query --------------------------------------------------------
QUERY_VERBS = frozenset({
    "get", "list", "search", "find", "read", "lookup", "fetch", "count", "check", "calculate",
    "query", "retrieve", "show", "view", "describe", "browse", "compute", "estimate", "preview", "look",
})

# --- WM606: developer tooling -------------------------------------------------------------------
DEVELOPER_WORDS = frozenset({
    "debug", "debugging", "debugger", "dump", "devtools", "devtool", "mock", "mocks", "fixture", "fixtures",
    "introspect", "introspection",
})
# Developer words only as a tool name's first word ("seed_test_orders"; a garden shop sells seeds).
NAME_DEVELOPER_WORDS = frozenset({"seed", "reseed", "stub"})
# Word pairs (first, second) that are developer tooling together but not apart: "feature flag", "reset store".
DEVELOPER_PAIRS = frozenset({
    ("feature", "flag"), ("feature", "flags"), ("feature", "toggle"), ("feature", "toggles"),
    ("seed", "data"), ("test", "data"), ("fake", "data"), ("dummy", "data"), ("clear", "cache"), ("flush", "cache"),
    ("seed", "database"), ("seed", "db"), ("seed", "store"), ("test", "fixtures"), ("test", "users"),
    ("inspect", "state"), ("inspect", "store"), ("internal", "state"), ("internal", "store"),
    ("app", "state"), ("application", "state"), ("application", "store"), ("app", "store"),
    ("reset", "store"), ("reset", "state"), ("clear", "store"), ("clear", "state"), ("wipe", "store"),
    ("log", "level"), ("dev", "tools"), ("developer", "tools"), ("developer", "tooling"), ("dev", "mode"),
    ("debug", "mode"), ("redux", "state"), ("store", "state"), ("cache", "state"), ("for", "developers"),
    ("developers", "only"), ("developer", "only"), ("testing", "only"), ("internal", "testing"),
})

# --- WM608: instructions aimed at the agent (regular expressions over lower-cased text) ---------
# Each pattern with texts one of which every match it makes holds (None: no such texts, it is tried on every text):
# the words it opens with, or fewer and rarer ones further on ("first" or "before" after "use this"). A text that
# holds none of them is not searched, and a pattern is compiled only once some text holds one (compiling one costs
# more than searching all of a run's descriptions for every guard). Written out: reading them from the patterns'
# parse would cost every run about 2 ms; the tests check them against the parse.
AGENT_INSTRUCTION_PATTERNS = (
    (("ignore", "disregard", "forget", "override", "bypass"),
     r"\b(?:ignore|disregard|forget|override|bypass)\s+(?:all\s+|any\s+)?(?:of\s+)?(?:the\s+|your\s+|my\s+)?"
     r"(?:previous|prior|earlier|above|preceding|other|existing|original|system|safety|all)?\s*"
     r"(?:instructions?|prompts?|rules|directions|guidelines|guidance|constraints|policies|messages)\b"),
    (("always", "must"),
     r"\b(?:always|must)\s+(?:call|use|invoke|run|choose|select|prefer|pick|trigger)\s+this\b"),
    (("always", "first"),
     r"\b(?:always|first)\s+(?:call|use|invoke|run)\s+(?:this|the)\s+(?:tool|function)\b"),
    (("first", "before"),
     r"\b(?:call|use|invoke|run)\s+this\s+(?:tool|function)?\s*(?:first|before\s+(?:any|all|every)\b)"),
    (("instead", "rather", "over"),
     r"\b(?:call|use|invoke|run)\s+this\s+(?:tool|function)\s+(?:instead\s+of|rather\s+than|over)\b"),
    (("prefer", "choose"),
     r"\b(?:prefer|choose)\s+this\s+(?:tool|function|one)?\s*"
     r"(?:over|instead|to|first|whenever|for\s+(?:every|all|any))\b"),
    (("must", "should", "need"),
     r"\b(?:must|should|needs?\s+to)\s+be\s+(?:called|used|invoked|run)\s+(?:first|before\s+(?:any|all|every|other)|"
     r"instead|for\s+(?:every|all|any)|every\s+time|always)\b"),
    (("every", "request", "question", "message", "task", "query"),
     r"\b(?:call|use|invoke|run)\s+this\s+(?:tool\s+|function\s+)?(?:every\s+time|on\s+every|for\s+(?:every|all|any)"
     r"\s+(?:request|question|message|task|query))\b"),
    (("do", "don't", "dont", "never"),
     r"\b(?:do\s+not|don't|dont|never)\s+(?:mention|reveal|disclose|show|tell|explain)\b"
     r".{0,40}?\bto\s+(?:the\s+)?user\b"),
    (("you",),
     r"\byou\s+are\s+(?:a|an)\s+(?:helpful|ai|assistant|agent|language|large)\b"),
    (("forget",),
     r"\bforget\s+(?:everything|all\s+(?:previous|prior|your))\b"),
    (("already",),
     r"\b(?:the\s+)?user\s+has\s+already\s+(?:approved|consented|authori[sz]ed|confirmed|agreed)\b"),
    (("never", "do", "don't", "dont"),
     r"\b(?:never|do\s+not|don't|dont)\s+(?:call|use|invoke|run|trust)\s+(?:any\s+)?"
     r"(?:other|another|the\s+other)\s+tools?\b"),
    (("never", "do", "don't", "dont", "without"),
     r"\b(?:never|do\s+not|don't|dont|without)\s+(?:tell|telling|inform|informing|ask|asking|notify|notifying|"
     r"alert|alerting|warn|warning|mention|mentioning|show|showing|consult|consulting|confirm(?:ing)?\s+with|"
     r"check(?:ing)?\s+with|let|letting)\s+(?:the\s+|your\s+)?(?:user|users|human|customer|person)\b"),
    (("without", "before"),
     r"\b(?:without|before)\s+(?:the\s+)?(?:user|user's|users'|customer's)\s+"
     r"(?:knowing|knowledge|consent|noticing|permission)\b"),
    (("do", "don't", "dont", "never", "no"),
     r"\b(?:do\s+not|don't|dont|never|no\s+need\s+to)\s+(?:ask|wait)\s+for\s+"
     r"(?:confirmation|permission|approval|consent)\b"),
    (("skip", "bypass", "avoid"),
     r"\b(?:skip|bypass|avoid)\s+(?:the\s+|any\s+|all\s+)?(?:user\s+)?"
     r"(?:confirmation|approval|consent|permission)s?\b"),
    (("you",),
     r"\byou\s+(?:must|shall|have\s+to|are\s+required\s+to|are\s+instructed\s+to|will\s+now|are\s+now)\b"),
    (("system", "developer", "hidden"),
     r"\b(?:system|developer|hidden)\s+(?:prompt|message|instructions?)\b"),
    (("instruction",),
     r"\b(?:new|updated|real|actual|secret|hidden)\s+instructions?\s*:"),
    (("ai", "language", "jailbreak", "pretend", "act"),
     r"\b(?:as\s+an\s+ai|language\s+model|jailbreak|pretend\s+(?:to\s+be|you)|act\s+as\s+(?:a|an|the)\b)"),
    (("secretly", "silently", "covertly"),
     r"\b(?:secretly|silently|covertly)\s+(?:send|call|forward|share|upload|post|include|append|add|copy|run)\b"),
    (("conversation", "chat", "credentials", "cookies", "session", "password", "api", "token"),
     r"\b(?:send|forward|share|upload|exfiltrate|leak|reveal|post)\s+(?:the\s+|all\s+|any\s+)?(?:user's\s+|users'\s+)?"
     r"(?:conversation|chat\s+history|credentials|cookies|session|passwords?|api\s+keys?|tokens?)\b"
     r"(?:\s+\w+){0,4}\s+to\b"),
    (("<", "[", "<|im_start|>"),
     r"<\s*/?\s*(?:system|im_start|im_end|instructions?)\s*>|\[/?inst\]|<\|im_start\|>"),
    (("important",),
     r"\bimportant\s*:\s*(?:ignore|always|never|you|do\s+not|don't)\b"),
)

# --- WM609: secrets a schema property may ask for ------------------------------------------------
SENSITIVE_WORDS = frozenset({
    "password", "passwd", "pwd", "passcode", "passphrase", "pin", "otp", "totp", "cvv", "cvv2", "cvc",
    "csc", "iban", "ssn", "secret", "apikey", "privatekey", "pincode", "mfa", "2fa",
})
SENSITIVE_PHRASES = (
    ("card", "number"), ("credit", "card"), ("debit", "card"), ("cc", "number"), ("security", "code"),
    ("card", "verification"), ("api", "key"), ("private", "key"), ("secret", "key"), ("social", "security"),
    ("one", "time", "code"), ("one", "time", "password"), ("verification", "code"), ("auth", "code"),
    ("bank", "account"), ("routing", "number"), ("account", "password"), ("client", "secret"),
    ("access", "token"), ("auth", "token"), ("bearer", "token"), ("refresh", "token"), ("session", "token"),
    ("api", "token"), ("id", "token"), ("jwt",), ("token",), ("credentials",), ("credential",),
    ("sort", "code"),
)
# In descriptions, these count only written in this case ("PIN", not "pin the note to the top").
CASE_SENSITIVE_SENSITIVE_WORDS = frozenset({"PIN"})
# A "token" next to these is a pagination cursor or a language-model count, not a secret.
NOT_SECRET_TOKEN_NEIGHBOURS = frozenset({
    "page", "next", "prev", "previous", "continuation", "cursor", "pagination", "sync", "max", "min",
    "count", "limit", "num", "tokens", "search", "resume",
})

# --- WM610: parameters that carry something executable or addressable ---------------------------
RISKY_PARAMETER_WORDS = {
    "url": "a URL", "urls": "URLs", "uri": "a URL", "href": "a URL", "endpoint": "a URL", "link": "a URL",
    "path": "a path", "filepath": "a path", "pathname": "a path", "filename": "a path", "dir": "a path",
    "directory": "a path", "selector": "a selector", "xpath": "a selector", "command": "a command",
    "cmd": "a command", "shell": "a command", "script": "a script", "javascript": "code", "js": "code",
    "code": "code", "snippet": "code", "eval": "code", "expression": "code", "sql": "SQL", "html": "HTML",
    "markup": "HTML", "svg": "HTML", "css": "code",
}
# "code" is executable only as the whole name or after one of these ("sourceCode", not "zipCode").
CODE_QUALIFIERS = frozenset({"source", "js", "javascript", "python", "program", "script", "snippet", "css",
                             "html", "sql", "shell", "raw", "custom", "user"})
# "link" is addressable only as the last word ("profileLink"), not "linkText".
LAST_WORD_ONLY = frozenset({"link", "code", "expression", "directory", "dir"})

# --- WM301/WM302/WM303: words of the description matchers ---------------------------------------
JSON_TYPE_WORDS = frozenset({"string", "number", "integer", "boolean", "bool", "object", "array", "null", "int",
                             "float", "str"})
PLURAL_TYPE_WORDS = {"strings": "string", "numbers": "number", "integers": "integer", "booleans": "boolean",
                     "objects": "object", "arrays": "array", "ints": "integer", "floats": "number"}
# Verbs that introduce a type: "takes a string", "accepts an integer", "must be a boolean".
TYPE_INTRODUCERS = frozenset({"takes", "take", "accepts", "accept", "expects", "expect", "requires",
                              "receives", "receive", "as", "type", "typed", "be", "is", "are", "pass",
                              "passes", "provide", "supply", "needs", "wants"})
ARTICLES = frozenset({"a", "an", "the", "one", "single", "any"})
TYPE_ADJECTIVES = frozenset({"optional", "required", "non-empty", "nonempty", "positive", "negative",
                             "valid", "plain", "single", "json", "nullable", "free-form", "freeform",
                             "free", "text", "whole", "signed", "unsigned", "numeric", "short", "long",
                             "simple", "literal", "raw", "utf-8", "iso", "date", "lowercase", "uppercase",
                             "non-negative", "comma-separated", "decimal", "floating-point", "float",
                             "32-bit", "64-bit"})
# Nouns that make a type word a type: "boolean flag", "string value".
TYPE_NOUNS = frozenset({"flag", "value", "values", "type", "field", "parameter", "param", "argument", "arg",
                        "input", "literal", "property", "variable", "toggle"})
# Words next to which a parameter name is a name: "the query parameter".
PARAMETER_WORDS = frozenset({"parameter", "parameters", "param", "params", "argument", "arguments", "arg",
                             "args", "field", "fields", "input", "inputs"})
DEFAULT_WORDS = frozenset({"default", "defaults", "defaulting", "defaulted"})
# "X if omitted", "If not given, X is used": a default stated by what happens without a value.
OMISSION_PHRASES = tuple(tuple(phrase.split()) for phrase in (
    "if omitted", "when omitted", "if absent", "when absent", "if missing", "when missing", "if unset",
    "if not given", "when not given", "if not provided", "when not provided", "if not specified",
    "when not specified", "if not set", "when not set", "if left empty", "if left blank", "when left empty",
    "if empty", "when empty", "if none is given", "if none is provided",
))
DEFAULT_USED_PHRASES = tuple(tuple(phrase.split()) for phrase in (
    "is used", "will be used", "is assumed", "will be assumed", "applies", "is applied",
))
# "default" followed by these does not announce a value: "the default is used".
NOT_DEFAULT_VALUES = frozenset({"used", "applied", "assumed", "taken", "chosen", "selected", "set", "shown",
                                "behavior", "behaviour", "one", "value", "values", "settings", "setting",
                                "address", "account", "card", "option", "options", "for", "if", "when",
                                "the", "a", "an", "this", "that", "it", "is", "will", "when", "unless",
                                "and", "or", "none", "nothing", "empty", "no", "otherwise", "in",
                                "on", "of", "by", "with", "currency", "language", "locale", "page",
                                "sort", "order", "view", "mode", "which", "what", "user's", "your", "their", "today",
                                "now", "tomorrow", "yesterday", "current", "whatever"})
# Words before a number that state a bound: kind is "max", "min" or "range".
BOUND_PHRASES = {
    ("at", "most"): "max", ("up", "to"): "max", ("no", "more", "than"): "max", ("not", "more", "than"): "max",
    ("max",): "max", ("maximum",): "max", ("maximum", "of"): "max", ("max", "of"): "max",
    ("less", "than"): "max", ("fewer", "than"): "max", ("under",): "max", ("below",): "max",
    ("no", "longer", "than"): "max", ("not", "longer", "than"): "max", ("no", "greater", "than"): "max",
    ("limited", "to"): "max", ("capped", "at"): "max", ("at", "least"): "min", ("min",): "min",
    ("minimum",): "min", ("minimum", "of"): "min", ("min", "of"): "min", ("no", "less", "than"): "min",
    ("not", "less", "than"): "min", ("more", "than"): "min", ("greater", "than"): "min",
    ("no", "fewer", "than"): "min", ("above",): "min", ("over",): "min",
}
# Words after a number that state a bound: "10 or more", "50 max".
BOUND_SUFFIXES = {("or", "more"): "min", ("or", "greater"): "min", ("or", "higher"): "min",
                  ("or", "above"): "min", ("or", "older"): "min", ("or", "over"): "min",
                  ("or", "longer"): "min", ("or", "shorter"): "max", ("or", "under"): "max", ("or", "less"): "max", ("or", "fewer"): "max",
                  ("or", "lower"): "max", ("or", "below"): "max", ("max",): "max", ("maximum",): "max",
                  ("at", "most"): "max", ("min",): "min", ("minimum",): "min", ("at", "least"): "min"}
LENGTH_UNITS = frozenset({"character", "characters", "chars", "char", "letters", "letter", "symbols",
                          "digits", "bytes"})
ITEM_UNITS = frozenset({"items", "item", "entries", "entry", "elements", "element", "values", "ids",
                        "tags", "ids", "urls", "names"})
# Words that make a list of values one of allowed values: "one of: a, b", "allowed values: ...".
# Words that announce a list of allowed values, and how strongly: a "strong" lead needs nothing more ("one of
# small, medium"); a "weak" one a colon or "are" ("values: a, b"); a "modal" one quoted values or three items.
ALLOWED_VALUE_LEADS = {
    ("one", "of"): "strong", ("choose", "from"): "strong", ("pick", "from"): "strong", ("select", "from"): "strong",
    ("allowed", "values"): "strong", ("valid", "values"): "strong", ("accepted", "values"): "strong",
    ("supported", "values"): "strong", ("possible", "values"): "strong", ("permitted", "values"): "strong",
    ("valid", "options"): "strong", ("available", "values"): "strong", ("allowed", "options"): "strong",
    ("options",): "weak", ("choices",): "weak", ("values",): "weak", ("allowed",): "weak", ("supported",): "weak",
    ("accepts",): "weak", ("modes",): "weak", ("accepted",): "weak", ("valid",): "weak",
    ("must", "be"): "modal", ("can", "be"): "modal", ("should", "be"): "modal", ("either",): "modal",
    ("is", "either"): "modal",
}
# Lists after these are examples, not allowed values.
EXAMPLE_LEADS = frozenset({"e.g.", "eg", "e.g", "i.e.", "example", "examples", "like", "such", "including",
                           "includes", "include", "say"})
# First words of a list item that make it prose, not a value: "one of the user's orders".
PROSE_ITEM_WORDS = frozenset({"the", "a", "an", "your", "our", "my", "his", "her", "their", "its", "these",
                              "those", "this", "that", "them", "several", "many", "some", "each", "every",
                              "more", "all", "both", "any", "which", "what", "not", "two", "three"})
STOP_WORDS = frozenset({"a", "an", "the", "and", "or", "of", "to", "in", "on", "for", "by", "with", "is",
                        "be", "it", "at", "as", "if", "no", "not", "all", "any", "from", "this", "that"})

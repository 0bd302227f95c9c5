"""Facts about web APIs that several rules share, as data in one place.

WM403 reads ``SIGNAL_APIS``, WM404 ``INSTANT_CALLS``, WM603/WM604 ``WRITES``;
changing what counts is a data edit here, never a rule edit.
"""

from __future__ import annotations

# Calls that accept an AbortSignal, and where it goes.
# callee -> (argument index of the options/init object, key inside it)
SIGNAL_APIS: dict[str, tuple[int, str]] = {
    "fetch": (1, "signal"),
    "axios": (1, "signal"),  # axios(url, config) / axios(config) handled by the rule
    "axios.get": (1, "signal"),
    "axios.delete": (1, "signal"),
    "axios.head": (1, "signal"),
    "axios.options": (1, "signal"),
    "axios.request": (0, "signal"),
    "axios.post": (2, "signal"),
    "axios.put": (2, "signal"),
    "axios.patch": (2, "signal"),
    "ky": (1, "signal"),
    "ky.get": (1, "signal"),
    "ky.post": (1, "signal"),
    "ky.put": (1, "signal"),
    "ky.patch": (1, "signal"),
    "ky.delete": (1, "signal"),
    "ky.head": (1, "signal"),
    "new Request": (1, "signal"),
}
# Methods (on any receiver) whose options object takes a signal.
SIGNAL_METHODS: dict[str, tuple[int, str]] = {
    "addEventListener": (2, "signal"),
    "pipeTo": (1, "signal"),
    "pipeThrough": (1, "signal"),
}

# Awaited calls that complete at once or only combine other promises: not "work" to forward a signal to.
INSTANT_METHODS = frozenset({"json", "text", "blob", "arrayBuffer", "formData", "bytes", "clone"})
INSTANT_CALLS = frozenset({
    "Promise.resolve", "Promise.reject", "Promise.all", "Promise.race", "Promise.allSettled", "Promise.any",
    "structuredClone", "JSON.parse", "JSON.stringify",
})

# Writes to persistent or remote state (WM603 contradicts readOnlyHint with them; WM604 needs none).
STORAGE_OBJECTS = frozenset({"localStorage", "sessionStorage"})
STORAGE_WRITE_METHODS = frozenset({"setItem", "removeItem", "clear"})
INDEXEDDB_WRITE_METHODS = frozenset({"put", "add", "delete", "clear"})
WRITE_HTTP_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
WRITE_CALLS = frozenset({"navigator.sendBeacon"})
WRITE_ASSIGNMENTS = frozenset({"document.cookie"})

# Calls returning DOM nodes, which do not survive JSON (WM409).
DOM_NODE_CALLS = frozenset({
    "querySelector", "getElementById", "createElement", "closest", "createTextNode",
    "getElementsByClassName", "getElementsByTagName", "querySelectorAll", "cloneNode",
})

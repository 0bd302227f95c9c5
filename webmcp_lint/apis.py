"""Facts about web APIs that several rules share, as data in one place.

WM403 reads ``SIGNAL_APIS``/``SIGNAL_METHODS``, WM404 ``INSTANT_*`` and
``UNCANCELLABLE_*``, WM408 ``VALIDATION_*``, WM603/WM604 the write lists
(``STORAGE_*``, ``INDEXEDDB_*``, ``WRITE_*``), all through
``webmcp_lint.execute``; changing what counts is a data edit here, never a
rule edit.
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
# How a caught error shows the run was cancelled, so a throw guarded by it is allowed (WM401) like one guarded by
# ``signal.aborted``: the error's name or code compared with one of these strings (``fetch``/``ky`` reject with an
# "AbortError"; axios with a CanceledError, code "ERR_CANCELED"), or one of these calls (``axios.isCancel(err)``).
CANCELLATION_ERROR_STRINGS = ("AbortError", "CanceledError", "ERR_CANCELED")
CANCELLATION_CHECK_CALLS = frozenset({"axios.isCancel", "isCancel"})
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
# Browser APIs that take no AbortSignal at all: asking to forward one to them (WM404) would be wrong.
UNCANCELLABLE_RECEIVERS = frozenset({
    "navigator.clipboard", "navigator.permissions", "navigator.storage", "navigator.serviceWorker",
    "crypto.subtle", "caches", "document.fonts", "customElements", "navigator.mediaDevices", "navigator.wakeLock",
    "screen.orientation",
})
UNCANCELLABLE_CALLS = frozenset({
    "navigator.share", "Notification.requestPermission", "createImageBitmap", "document.requestStorageAccess",
    "document.hasStorageAccess", "document.exitFullscreen", "navigator.getBattery", "showOpenFilePicker",
    "showSaveFilePicker", "showDirectoryPicker", "nextTick", "openDB", "deleteDB",
})
UNCANCELLABLE_METHODS = frozenset({"requestFullscreen", "requestPointerLock", "decode"})
# Objects none of whose methods takes a signal, told by what makes them: the receiver, or what its name is bound to,
# spells one of these (``const cache = await caches.open("v1"); await cache.match(url)``: a Cache).
UNCANCELLABLE_OBJECT_EVIDENCE = ("caches.open",)
# Media element methods that take no signal (``await video.play()``), counted on a receiver that shows it is one. A
# heuristic: the evidence is a word in the receiver's text or its binding's (``videoRef.current``, ``new Audio(...)``),
# so a ``mediaService.play()`` that could take a signal is left alone too; a WM404 miss, never a false finding.
MEDIA_METHODS = frozenset({"play"})
MEDIA_EVIDENCE = ("video", "Video", "audio", "Audio", "media", "Media")

# Writes to persistent or remote state (WM603 contradicts readOnlyHint with them; WM604 needs none).
STORAGE_OBJECTS = frozenset({"localStorage", "sessionStorage"})
STORAGE_WRITE_METHODS = frozenset({"setItem", "removeItem", "clear"})
INDEXEDDB_WRITE_METHODS = frozenset({"put", "add", "delete", "clear"})
# put/add/delete/clear count as IndexedDB writes only on a receiver that shows one of these
# (``tx.objectStore("cart").put(...)``, ``const db = await openDB(...)``): Map and Set have the same methods.
INDEXEDDB_EVIDENCE = ("objectStore", "openDB", "indexedDB", "IDBDatabase", "transaction(")
WRITE_HTTP_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
WRITE_CALLS = frozenset({"navigator.sendBeacon"})
WRITE_ASSIGNMENTS = frozenset({"document.cookie"})

# Calls returning DOM nodes, which do not survive JSON (WM409).
DOM_NODE_CALLS = frozenset({
    "querySelector", "getElementById", "createElement", "closest", "createTextNode",
    "getElementsByClassName", "getElementsByTagName", "querySelectorAll", "cloneNode",
})

# Input validation in execute (WM408): calls by dotted name, methods on any receiver, and helper-name prefixes
# (``validateInput``, ``assertRange``, ``checkArgs``, ``parseQuery``).
VALIDATION_CALLS = frozenset({
    "Number.isFinite", "Number.isInteger", "Number.isSafeInteger", "Number.isNaN", "isNaN", "isFinite",
    "Array.isArray", "parse", "safeParse", "parseAsync", "safeParseAsync", "validate", "is",
})
VALIDATION_METHODS = frozenset({
    "includes", "has", "test", "parse", "safeParse", "parseAsync", "safeParseAsync", "validate", "assert",
    "is", "check",
})
VALIDATION_PREFIXES = ("validate", "assert", "check", "parse")
NOT_VALIDATION_CALLS = frozenset({"JSON.parse", "Date.parse", "parseInt", "parseFloat", "Number.parseInt",
                                  "Number.parseFloat", "URL.parse"})
# Conversions that keep a value derived from the input (``const limit = Number(input.limit)``).
COERCIONS = frozenset({"Number", "String", "Boolean", "parseInt", "parseFloat", "Number.parseInt",
                       "Number.parseFloat", "Math.trunc", "Math.round", "Math.floor", "Math.ceil"})

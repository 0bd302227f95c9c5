"""Is an ``exposedTo`` / ``fromOrigins`` entry a potentially trustworthy origin?

registerTool rejects with a SecurityError any entry that does not parse as
an origin or is not potentially trustworthy (secure contexts spec: https and
wss, and loopback hosts over http: ``localhost``, ``*.localhost``,
``127.0.0.0/8``, ``[::1]``). ``file:`` URLs have opaque origins and are not
accepted here.
"""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

SECURE_SCHEMES = frozenset({"https", "wss"})
LOOPBACK_SCHEMES = frozenset({"http", "ws"})


def origin_problem(entry: str) -> str | None:
    """Why ``entry`` is not a potentially trustworthy origin, or None when it is one."""
    value = entry.strip()
    if value == "*" or "*" in value:
        return "a wildcard (there are none: list each origin)"
    if value.lower() == "null":
        return "the opaque origin \"null\""
    if "://" not in value:
        return "not an origin (no scheme: write https://host)"
    try:
        parts = urlsplit(value)
        parts.port  # noqa: B018 - raises ValueError for a port that is not a number in range
    except ValueError:
        return "not a valid URL"
    scheme = parts.scheme.lower()
    host = (parts.hostname or "").lower()
    if "@" in parts.netloc:
        return "more than an origin (it has userinfo)"
    if parts.path not in ("", "/"):
        return f"more than an origin (it has the path {parts.path})"
    if parts.query or "?" in value:
        return "more than an origin (it has a query)"
    if parts.fragment or "#" in value:
        return "more than an origin (it has a fragment)"
    if not host:
        return "not an origin (no host)"
    if scheme in SECURE_SCHEMES:
        return None
    if scheme in LOOPBACK_SCHEMES:
        return None if is_loopback_host(host) else f"not secure ({scheme}: is only trustworthy for localhost)"
    return f"not a potentially trustworthy origin (scheme {scheme}:)"


def is_loopback_host(host: str) -> bool:
    """``localhost``, ``*.localhost``, 127.0.0.0/8 and ``::1``."""
    host = host.rstrip(".")
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False

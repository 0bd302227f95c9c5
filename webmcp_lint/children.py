"""Waiting for forked children (the command-line parser, the unit workers)."""

from __future__ import annotations

import os


def reap(child: int) -> None:
    """Wait for ``child`` to end. A caller that ignores SIGCHLD passes that on, and the system then reaps
    children itself: waitpid waits for them all to end, then finds none (ChildProcessError)."""
    try:
        os.waitpid(child, 0)
    except ChildProcessError:
        pass

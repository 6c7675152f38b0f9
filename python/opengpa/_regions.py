"""The profiles active on each thread and `opengpa.region(name)`: what region and per-kernel profiles
(profiling.py, kernels.py) and torch_ops.py share, so that none of them imports another for it."""

from __future__ import annotations

import contextlib
import threading
from typing import Iterator

_active = threading.local()


def _current_profile():
    stack = getattr(_active, "stack", None)
    return stack[-1] if stack else None


def _push_profile(profile):
    stack = getattr(_active, "stack", None)
    if stack is None:
        stack = _active.stack = []
    stack.append(profile)


def _pop_profile(profile):
    _active.stack.remove(profile)


@contextlib.contextmanager
def region(name: str) -> Iterator[None]:
    """One sample named `name` of the innermost active profile on this thread (no-op without one); in a
    per-kernel profile, a label of the kernels launched inside it (regions may nest there)."""
    profile = _current_profile()
    if profile is None:
        yield
        return
    profile._begin_region(str(name))
    try:
        yield
    finally:
        profile._end_region()

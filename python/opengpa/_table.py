"""Plain-text tables that fit a width: `Results.table()` and `KernelResults.table()` (torch.profiler's
`key_averages().table()` habit). One row per region or kernel name, sorted by time, numbers right-aligned;
the name column takes the room left and is cut with "..." past it, and counter columns that do not fit are
left out and named under the table (every line is at most `width` characters)."""

from __future__ import annotations

import math
import shutil
from typing import List, Optional, Sequence

_SEPARATOR = "  "
_MIN_NAME_WIDTH = 12
_ELLIPSIS = "..."


def terminal_width() -> int:
    """The terminal's columns ($COLUMNS first), 120 when output is not a terminal."""
    return shutil.get_terminal_size((120, 24)).columns


def format_duration(nanoseconds: float) -> str:
    """A time in ns as torch.profiler writes one: 950ns, 90.016us, 1.401ms, 2.000s; "-" for none."""
    if nanoseconds is None or not math.isfinite(nanoseconds):
        return "-"
    for scale, unit in ((1e9, "s"), (1e6, "ms"), (1e3, "us")):
        if abs(nanoseconds) >= scale:
            return f"{nanoseconds / scale:.3f}{unit}"
    return f"{nanoseconds:.0f}ns"


def format_number(value: float) -> str:
    """Integers as integers (123, not 123.000), other values to 6 significant digits; "-" for NaN."""
    if value is None or not math.isfinite(value):
        return "-"
    if float(value).is_integer() and abs(value) < 1e15:
        return str(int(value))
    return f"{value:.6g}"


def cut(text: str, width: int) -> str:
    """`text` in at most `width` characters, its end replaced by "..." when longer."""
    if len(text) <= width:
        return text
    return text[: max(width - len(_ELLIPSIS), 0)] + _ELLIPSIS[: width]


def render(header: Sequence[str], rows: Sequence[Sequence[str]], fixed: int, width: int,
           footer: Sequence[str] = ()) -> str:
    """Column 0 is the name (left-aligned, cut to fit), the others numbers (right-aligned). The first `fixed`
    columns after the name are always shown; later ones are dropped from the right until the name column has
    at least _MIN_NAME_WIDTH characters. ValueError when even the fixed columns do not fit `width`."""
    columns = len(header)
    widths = [max([len(header[i])] + [len(row[i]) for row in rows]) for i in range(columns)]
    shown = columns
    name_room = width - sum(widths[1:shown]) - len(_SEPARATOR) * (shown - 1)
    while name_room < min(_MIN_NAME_WIDTH, widths[0]) and shown > 1 + fixed:
        shown -= 1
        name_room = width - sum(widths[1:shown]) - len(_SEPARATOR) * (shown - 1)
    needed = min(_MIN_NAME_WIDTH, widths[0])
    if name_room < needed:
        raise ValueError(f"width {width} is too narrow: this table needs at least {width - name_room + needed} "
                         "characters")
    name_width = min(widths[0], name_room)

    def line(cells: Sequence[str]) -> str:
        parts = [cut(cells[0], name_width).ljust(name_width)]
        parts += [cells[i].rjust(widths[i]) for i in range(1, shown)]
        return _SEPARATOR.join(parts).rstrip()

    lines = [line(header), _SEPARATOR.join("-" * w for w in [name_width] + widths[1:shown])]
    lines += [line(row) for row in rows]
    notes: List[str] = list(footer)
    if shown < columns:
        notes.append(f"{columns - shown} column(s) left out to fit {width} characters: "
                     f"{', '.join(header[shown:])} (pass width= or use to_dataframe())")
    lines += [cut(note, width) for note in notes]
    return "\n".join(lines)


def sort_order(keys: Sequence[float], descending: bool = True) -> List[int]:
    """Row positions sorted by `keys` (NaN last), ties in their first-seen order."""
    def key(position: int):
        value = keys[position]
        missing = value is None or not math.isfinite(value)
        return (missing, -value if (descending and not missing) else (value if not missing else 0), position)
    return sorted(range(len(keys)), key=key)


def clamp_rows(order: List[int], row_limit: Optional[int]) -> List[int]:
    """The first `row_limit` positions (all of them for None or a negative limit)."""
    if row_limit is None or row_limit < 0:
        return order
    return order[:row_limit]

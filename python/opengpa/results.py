"""A profile's results: one row per sample (region), one column per counter, as numpy and pandas."""

from __future__ import annotations

from typing import Any, Dict, Iterable, List, Optional, Sequence

import numpy as np

from . import _table


class Results:
    """Counter values of a profile.

    - ``regions``: the sample names, in recording order (a name may repeat: a region entered in a loop);
    - ``counters``: the enabled counters (opengpa.Counter: name, usage, description, ...), in column order;
    - ``values``: a float64 numpy array of shape (len(regions), len(counters));
    - ``results["GPUTime"]``: one counter's column; ``results.to_dataframe()`` the table as a pandas DataFrame.
    """

    def __init__(self, regions: Iterable[str], counters: Iterable[Any], values: Any, device_name: str = "",
                 pass_count: int = 1) -> None:
        """`counters`: opengpa.Counter values in column order; `values`: rows x counters (array-like)."""
        self.regions = list(regions)
        self.counters = list(counters)
        self.values = np.asarray(values, dtype=np.float64).reshape(len(self.regions), len(self.counters))
        self.device_name = device_name
        self.pass_count = pass_count

    @property
    def counter_names(self) -> List[str]:
        """The collected counters' names, in column order."""
        return [counter.name for counter in self.counters]

    def _column_index(self, name):
        wanted = name.lower()
        for i, counter in enumerate(self.counters):
            if counter.name.lower() == wanted:
                return i
        raise KeyError(f"{name!r} was not collected (collected: {', '.join(self.counter_names)})")

    def __getitem__(self, counter_name: str) -> np.ndarray:
        """One counter's column (name in any case); KeyError naming the collected ones if absent."""
        return self.values[:, self._column_index(counter_name)]

    def __contains__(self, counter_name: str) -> bool:
        return any(counter.name.lower() == counter_name.lower() for counter in self.counters)

    def __len__(self) -> int:
        return len(self.regions)

    def region(self, name: str) -> Dict[str, float]:
        """{counter: value} of the first sample called `name`."""
        try:
            row = self.regions.index(name)
        except ValueError:
            raise KeyError(f"no region {name!r} (regions: {', '.join(self.regions)})") from None
        return dict(zip(self.counter_names, self.values[row].tolist()))

    # Usages whose values add up over samples; the others (percentages, ratios) are averaged, weighted
    # by the samples' GPUTime when it was collected (a percentage of busy time), else plainly.
    ADDITIVE_USAGES = ("nanoseconds", "milliseconds", "cycles", "bytes", "kilobytes", "items")
    # Raw CUPTI metrics say how they roll up in their name: a ".sum" adds up, ".avg", ".max", ".pct" and
    # ratios do not.
    # "duration": a sampled profile's kernel rows, whose time is their own device start and end (kernels.py).
    TIME_COLUMNS = ("GPUTime", "gpu__time_duration.sum", "duration")

    @classmethod
    def _is_additive(cls, counter):
        if counter.usage in cls.ADDITIVE_USAGES:
            return True
        return counter.name.endswith(".sum") and counter.usage not in ("percentage", "ratio", "%")

    def aggregate(self) -> "Results":
        """One row per distinct region name (first-seen order): amounts summed, percentages and ratios
        averaged over the samples (weighted by their time where collected); a "count" of samples per name."""
        names = list(dict.fromkeys(self.regions))
        time = next((name for name in self.TIME_COLUMNS if name in self), None)
        weights = self[time] if time else np.ones(len(self.regions))
        rows, counts = [], []
        for name in names:
            mask = np.array([region == name for region in self.regions])
            counts.append(int(mask.sum()))
            row = []
            for column, counter in enumerate(self.counters):
                values = self.values[mask, column]
                if self._is_additive(counter):
                    row.append(values.sum())
                else:
                    w = weights[mask]
                    row.append(float((values * w).sum() / w.sum()) if w.sum() > 0 else float(values.mean()))
            rows.append(row)
        aggregated = Results(names, self.counters, rows, self.device_name, self.pass_count)
        aggregated.counts = counts
        return aggregated

    def to_dataframe(self) -> Any:
        """A pandas DataFrame: a "region" column, then one column per counter (needs pandas)."""
        try:
            import pandas
        except ImportError:
            raise ImportError("to_dataframe needs pandas (Debian: apt-get install python3-pandas)") from None
        frame = pandas.DataFrame(self.values, columns=self.counter_names)
        frame.insert(0, "region", self.regions)
        if getattr(self, "counts", None) is not None:
            frame.insert(1, "count", self.counts)
        frame.attrs["units"] = {counter.name: counter.usage for counter in self.counters}
        frame.attrs["device"] = self.device_name
        return frame

    def table(self, sort_by: Optional[str] = None, row_limit: Optional[int] = None,
              width: Optional[int] = None) -> str:
        """A printable table of `aggregate()`: one line per region name with its sample count, time total, share
        and average (when GPUTime or gpu__time_duration.sum was collected) and each other counter as aggregate()
        rolls it up, sorted by `sort_by` (a counter name or "calls"; default the time, else the calls), largest
        first. `row_limit`: the most rows shown. `width`: the most characters per line (default: the terminal's):
        names are cut with "..." and counter columns that do not fit are left out and named below the table."""
        return self._grouped_table(self.aggregate(), "region", sort_by, row_limit, width)

    def _grouped_table(self, grouped: "Results", name_header: str, sort_by: Optional[str],
                       row_limit: Optional[int], width: Optional[int]) -> str:
        width = _table.terminal_width() if width is None else int(width)
        counts = list(getattr(grouped, "counts", None) or [1] * len(grouped))
        time = next((name for name in self.TIME_COLUMNS if name in grouped), None)
        time_column = grouped[time] if time else None
        if sort_by is None:
            keys: Sequence[float] = time_column if time is not None else counts
        elif sort_by.lower() == "calls":
            keys = counts
        elif sort_by in grouped:
            keys = grouped[sort_by]
        else:
            raise ValueError(f"sort_by {sort_by!r} is neither \"calls\" nor a collected counter "
                             f"({', '.join(self.counter_names)})")
        order = _table.clamp_rows(_table.sort_order(list(keys)), row_limit)
        header = [name_header, "calls"]
        others = [(i, c) for i, c in enumerate(grouped.counters) if c.name != time]
        if time is not None:
            header += ["time", "%", "avg"]
            total = float(np.nansum(time_column))
        header += [counter.name for _, counter in others]
        rows = []
        for position in order:
            row = [grouped.regions[position], str(counts[position])]
            if time is not None:
                value = float(time_column[position])
                share = 100.0 * value / total if total > 0 and np.isfinite(value) else float("nan")
                row += [_table.format_duration(value), "-" if np.isnan(share) else f"{share:.1f}",
                        _table.format_duration(value / counts[position])]
            row += [_table.format_number(float(grouped.values[position, i])) for i, _ in others]
            rows.append(row)
        footer = [f"{len(self)} rows in {len(grouped)} {name_header}s" +
                  (f", shown {len(order)}" if len(order) < len(grouped) else "") +
                  (f"; time ({time}) total {_table.format_duration(total)}" if time is not None else "") +
                  (f"; on {self.device_name}" if self.device_name else "")]
        return _table.render(header, rows, 1 + (3 if time is not None else 0), width, footer)

    def __repr__(self) -> str:
        header = ["region"] + [f"{c.name} [{c.usage}]" for c in self.counters]
        rows = [[name] + [f"{value:.6g}" for value in row] for name, row in zip(self.regions, self.values)]
        widths = [max(len(line[i]) for line in [header] + rows) for i in range(len(header))]
        lines = ["  ".join(cell.ljust(width) for cell, width in zip(line, widths)) for line in [header] + rows]
        return f"<opengpa.Results on {self.device_name}, {self.pass_count} pass(es)>\n" + "\n".join(lines)

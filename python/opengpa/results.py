"""A profile's results: one row per sample (region), one column per counter, as numpy and pandas."""

import numpy as np


class Results:
    """Counter values of a profile.

    - ``regions``: the sample names, in recording order (a name may repeat: a region entered in a loop);
    - ``counters``: the enabled counters (opengpa.Counter: name, usage, description, ...), in column order;
    - ``values``: a float64 numpy array of shape (len(regions), len(counters));
    - ``results["GPUTime"]``: one counter's column; ``results.to_dataframe()`` the table as a pandas DataFrame.
    """

    def __init__(self, regions, counters, values, device_name="", pass_count=1):
        self.regions = list(regions)
        self.counters = list(counters)
        self.values = np.asarray(values, dtype=np.float64).reshape(len(self.regions), len(self.counters))
        self.device_name = device_name
        self.pass_count = pass_count

    @property
    def counter_names(self):
        return [counter.name for counter in self.counters]

    def _column_index(self, name):
        wanted = name.lower()
        for i, counter in enumerate(self.counters):
            if counter.name.lower() == wanted:
                return i
        raise KeyError(f"{name!r} was not collected (collected: {', '.join(self.counter_names)})")

    def __getitem__(self, counter_name):
        return self.values[:, self._column_index(counter_name)]

    def __contains__(self, counter_name):
        return any(counter.name.lower() == counter_name.lower() for counter in self.counters)

    def __len__(self):
        return len(self.regions)

    def region(self, name):
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
    TIME_COLUMNS = ("GPUTime", "gpu__time_duration.sum")

    @classmethod
    def _is_additive(cls, counter):
        if counter.usage in cls.ADDITIVE_USAGES:
            return True
        return counter.name.endswith(".sum") and counter.usage not in ("percentage", "ratio", "%")

    def aggregate(self):
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

    def to_dataframe(self):
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

    def __repr__(self):
        header = ["region"] + [f"{c.name} [{c.usage}]" for c in self.counters]
        rows = [[name] + [f"{value:.6g}" for value in row] for name, row in zip(self.regions, self.values)]
        widths = [max(len(line[i]) for line in [header] + rows) for i in range(len(header))]
        lines = ["  ".join(cell.ljust(width) for cell, width in zip(line, widths)) for line in [header] + rows]
        return f"<opengpa.Results on {self.device_name}, {self.pass_count} pass(es)>\n" + "\n".join(lines)

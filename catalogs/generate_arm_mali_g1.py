#!/usr/bin/env python3
"""Regenerates catalogs/arm_mali_g1.json from Arm's Mali G1 counter reference (the seed arm-mali-g1-counters.txt).

    python3 catalogs/generate_arm_mali_g1.py ../shared/seeds/arm-mali-g1-counters.txt > catalogs/arm_mali_g1.json

The JSON is committed, so a clone builds and tests without the seed; run this only when the seed changes, and
review the diff. Python 3, standard library only.

What the seed's text looks like (one item per line): section headings ("GPU Front-end") each with prose, counter
groups ("GPU Cycles", the line before "This counter group ..."), then per counter a title, description
paragraphs, the libGPUCounters name (Mali...), and either the Streamline name ($Mali...) and the hardware name
(GPU_ACTIVE) of a raw counter, or three "... derivation:" headings each followed by one formula.

What the catalog keeps (catalogs/README.md, "Mali G1"):
  - every raw counter as a hardware counter: libGPUCounters name, section as group, a one-line description,
    unit, hardware name;
  - every derived counter with the seed's libGPUCounters formula, character for character;
  - the raw counters the formulas name but the (filtered) reference does not describe, with the hardware name
    the seed's "Hardware derivation" uses in their place;
  - MALI_CONFIG_TIME_SPAN, the sample's duration, as an input (docs/arm-mali.md says why it is not a constant).
"""
import collections
import json
import re
import sys

COUNTER_NAME = re.compile(r"^Mali[A-Za-z0-9]+$")
NAME_TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*")
GROUP_LEAD = ("This counter group", "This constants group")
CLAMPED_PERCENT = re.compile(r"^max\(min\(.*\* 100, 100\), 0\)$")

# The seed's opening phrases, rewritten so that each description is a short line of our own.
OPENINGS = [
    ("This counter increments every clock cycle when ", "Cycles when "),
    ("This expression increments every clock cycle when ", "Cycles when "),
    ("This counter increments every clock cycle ", "Cycles "),
    ("This counter increments for every clock cycle when ", "Cycles when "),
    ("This expression increments for every clock cycle when ", "Cycles when "),
    ("This counter increments for every ", "Counts each "),
    ("This expression increments for every ", "Counts each "),
    ("This counter increments for each ", "Counts each "),
    ("This expression defines the ", ""),
    ("This expression computes the ", ""),
    ("This expression measures the ", ""),
    ("This counter defines the ", ""),
    ("This configuration constant defines the ", ""),
    ("This constant defines the ", ""),
]


def fail(message):
    sys.exit("generate_arm_mali_g1.py: " + message)


def is_paragraph(line):
    return line.endswith((".", ":")) or line.startswith("- ")


def summary(paragraph):
    """The first sentence of the counter's description, its boilerplate opening rewritten, as one line."""
    sentence = re.split(r"(?<!e\.g)(?<!i\.e)\. (?=[A-Z0-9])", paragraph, maxsplit=1)[0].rstrip(".")
    for old, new in OPENINGS:
        if sentence.startswith(old):
            sentence = new + sentence[len(old):]
            break
    return sentence[0].upper() + sentence[1:] + "."


def raw_usage(name):
    return "cycles" if name.endswith("Cy") else "items"


def derived_usage(name, formula):
    """GPA's usage for what the seed's formula yields (catalogs/README.md, "Mali G1", has the table)."""
    percent = bool(CLAMPED_PERCENT.match(formula))
    if name.endswith(("Util", "Rate", "Occ")) != percent:
        fail(f"{name}: the name and the formula disagree about being a percentage: {formula}")
    if percent:
        return "percentage"
    # Per-item quantities: bytes per second, bytes per access or pixel, cycles per thread or instruction.
    if re.search(r"(BPS|PerRd|PerWr|PerPx|PerPix|PerPrim|PerCy|CPI|Overdraw|ThroughputCy)$", name):
        return "ratio"
    if name.endswith("Cy"):
        return "cycles"
    if name.endswith(("By", "BeatSize")):
        return "bytes"
    return "items"


class Seed:
    def __init__(self, lines):
        self.lines = lines
        self.names = [i for i, line in enumerate(lines) if COUNTER_NAME.match(line)]
        self.end = {}  # index of a counter's name line -> index of its last line
        for i in self.names:
            if lines[i + 1] == "libGPUCounters derivation:":
                if lines[i + 3] != "Streamline derivation:" or lines[i + 5] != "Hardware derivation:":
                    fail(f"line {i + 1}: {lines[i]} lacks the three derivations")
                self.end[i] = i + 6
            elif lines[i + 1].startswith("$Mali"):
                self.end[i] = i + 2
            else:
                fail(f"line {i + 2}: neither a Streamline name nor a derivation after {lines[i]}")
        ends = set(self.end.values())
        self.groups = [i for i, line in enumerate(lines[:-1]) if lines[i + 1].startswith(GROUP_LEAD)]
        group_set = set(self.groups)
        # A section heading: the heading-like line that opens the prose just before a counter group.
        self.sections = []
        for g in self.groups:
            j = g - 1
            while j >= 0 and is_paragraph(lines[j]) and not lines[j].startswith(GROUP_LEAD):
                j -= 1
            if j < g - 1 and j not in ends and j not in group_set and not lines[j].startswith(GROUP_LEAD):
                self.sections.append(j)

    def last_before(self, indices, i):
        found = [k for k in indices if k < i]
        return found[-1] if found else None

    def counters(self):
        previous_end = -1
        for n in self.names:
            section = self.last_before(self.sections, n)
            group = self.last_before(self.groups, n)
            start = max(previous_end, group + 1 if group is not None else -1, section if section is not None else -1)
            title = next(k for k in range(start + 1, n)
                         if not is_paragraph(self.lines[k]) and not self.lines[k].startswith(GROUP_LEAD))
            description = self.lines[title + 1]
            if title + 1 >= n:
                fail(f"line {n + 1}: {self.lines[n]} has no description")
            entry = {
                "name": self.lines[n],
                "section": self.lines[section],
                "title": self.lines[title],
                "description": summary(description),
            }
            if self.end[n] == n + 2:
                entry["hardware_name"] = self.lines[n + 2]
            else:
                entry["formula"] = self.lines[n + 2]
                entry["hardware_formula"] = self.lines[n + 6]
            previous_end = self.end[n]
            yield entry


def implied_hardware_names(derived):
    """name -> hardware name for the Mali* names a formula uses, aligning its tokens with the hardware derivation."""
    names = {}
    for counter in derived:
        ours = NAME_TOKEN.findall(counter["formula"])
        theirs = NAME_TOKEN.findall(counter["hardware_formula"])
        if len(ours) != len(theirs):
            fail(f"{counter['name']}: the libGPUCounters and hardware derivations have different shapes")
        for a, b in zip(ours, theirs):
            if a.startswith("Mali"):
                if names.setdefault(a, b) != b:
                    fail(f"{a} stands for both {names[a]} and {b} in the hardware derivations")
    return names


def build(seed_text):
    seed = Seed(seed_text.splitlines())
    entries = list(seed.counters())
    raw = [e for e in entries if "hardware_name" in e]
    derived = [e for e in entries if "formula" in e]
    known = {e["name"] for e in entries}
    hardware = [
        collections.OrderedDict(name=e["name"], group=e["section"], description=e["description"], type="uint64",
                                usage=raw_usage(e["name"]), hardware_name=e["hardware_name"])
        for e in raw
    ]
    # Raw counters the formulas read that the filtered reference leaves out, in order of first use.
    hardware_of = implied_hardware_names(derived)
    for counter in derived:
        for token in NAME_TOKEN.findall(counter["formula"]):
            if token.startswith("Mali") and token not in known:
                known.add(token)
                hardware.append(collections.OrderedDict(
                    name=token, group=counter["section"],
                    description=f"Raw counter {hardware_of[token]}, read by {counter['name']}'s formula.",
                    type="uint64", usage=raw_usage(token), hardware_name=hardware_of[token],
                    comment="named by the seed's formulas, not described by its filtered reference"))
    hardware.append(collections.OrderedDict(
        name="MALI_CONFIG_TIME_SPAN", group="Constants",
        description="The sample's duration in seconds, which the bandwidth counters divide by.",
        type="float64", usage="ratio",
        comment="an input per sample, as Streamline's $ZOOM: the caller supplies it with the raw values"))
    counters = [
        collections.OrderedDict(name=e["name"], group=e["section"], description=e["description"], type="float64",
                                usage=derived_usage(e["name"], e["formula"]), formula=e["formula"])
        for e in derived
    ]
    catalog = collections.OrderedDict()
    catalog["comment"] = (
        f"Arm Mali G1 counters from Arm's Mali G1 performance counter reference (arm-mali-g1-counters.txt): "
        f"{len(entries)} counters, {len(raw)} raw and {len(derived)} derived with the reference's libGPUCounters "
        f"formulas; hardware_counters also has the {len(hardware) - len(raw) - 1} raw counters the formulas read "
        f"that the reference does not describe, and MALI_CONFIG_TIME_SPAN. Generated by "
        f"catalogs/generate_arm_mali_g1.py; do not edit by hand.")
    catalog["hardware_counters"] = hardware
    catalog["counters"] = counters
    return catalog


def main():
    if len(sys.argv) != 2:
        fail("usage: generate_arm_mali_g1.py <arm-mali-g1-counters.txt>")
    with open(sys.argv[1], encoding="utf-8") as seed:
        catalog = build(seed.read())
    json.dump(catalog, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()

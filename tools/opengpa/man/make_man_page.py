#!/usr/bin/env python3
"""Writes opengpa(1) from the CLI's own --help, so the man page says what the program says.

usage: make_man_page.py OPENGPA_EXECUTABLE OUTPUT.1.gz

It runs `opengpa --version`, `opengpa --help` and `opengpa <command> --help` for every command that --help lists,
and turns CLI11's layout (a summary line, "Usage:", "Options:" and "Subcommands:" blocks whose entries are an option
column and a description column) into roff. The output is gzipped without a name or time stamp, so the same
program always gives the same bytes (Debian's reproducible-builds rule). Exit 1, with a message, when the program
does not run or its help has no usage line.
"""

import gzip
import re
import subprocess
import sys

# An entry line: two spaces of indent, the option or command, two or more spaces, its description.
ENTRY = re.compile(r"^  (\S.*?)(?:\s{2,}(\S.*))?$")
# A continuation line of a description: indented past the option column.
CONTINUATION = re.compile(r"^\s{6,}(\S.*)$")


def run(program, *arguments):
    done = subprocess.run([program, *arguments], capture_output=True, text=True, timeout=60)
    if done.returncode != 0:
        raise SystemExit(f"make_man_page: `{program} {' '.join(arguments)}` exited {done.returncode}: "
                         f"{done.stderr.strip()[:300]}")
    return done.stdout


def text(line):
    """Roff-safe text: backslashes escaped, and a line that starts with a control character kept as text."""
    line = line.replace("\\", "\\e")
    return "\\&" + line if line.startswith((".", "'")) else line


def option(name):
    """An option column in bold, its dashes as minus signs (what a user types)."""
    return "\\fB" + text(name).replace("-", "\\-") + "\\fR"


def parse_help(help_text):
    """(summary, usage, {block title: [(entry, description)]}) of one CLI11 --help."""
    lines = help_text.splitlines()
    summary = lines[0].strip() if lines else ""
    usage = ""
    blocks = {}
    current = None
    for line in lines[1:]:
        if line.startswith("Usage:"):
            usage = line[len("Usage:"):].strip()
        elif re.match(r"^\S.*:$", line):
            current = blocks.setdefault(line[:-1], [])
        elif current is not None and line.strip():
            continued = CONTINUATION.match(line)
            entry = ENTRY.match(line)
            if continued and current:
                name, description = current[-1]
                current[-1] = (name, f"{description} {continued.group(1)}".strip())
            elif entry:
                current.append((entry.group(1).strip(), (entry.group(2) or "").strip()))
    if not usage:
        raise SystemExit("make_man_page: the help has no 'Usage:' line:\n" + help_text[:500])
    return summary, usage, blocks


def entries(block):
    out = []
    for name, description in block:
        out += [".TP", option(name), text(description) if description else ""]
    return [line for line in out if line != ""]


def man_page(program):
    version_line = run(program, "--version").strip()
    summary, usage, blocks = parse_help(run(program, "--help"))
    tagline = summary.split(":", 1)[1].strip() if ":" in summary else summary
    version = version_line.split()[1] if len(version_line.split()) > 1 else version_line
    page = [f'.TH OPENGPA 1 "" "opengpa {text(version)}" "User Commands"',
            ".SH NAME", "opengpa \\- " + text(tagline),
            ".SH SYNOPSIS", ".B opengpa", text(usage.split(" ", 1)[1] if " " in usage else ""),
            ".SH DESCRIPTION", "\\fBopengpa\\fR: " + text(tagline) + ".",
            "Each command below has its own options; \\fBopengpa\\fR \\fIcommand\\fR \\fB\\-\\-help\\fR prints them.",
            ".SH OPTIONS"] + entries(blocks.get("Options", []))
    commands = blocks.get("Subcommands", [])
    if commands:
        page.append(".SH COMMANDS")
    for command, _ in commands:
        command_summary, command_usage, command_blocks = parse_help(run(program, command, "--help"))
        page += [f'.SS "opengpa {text(command)}"', text(command_summary),
                 ".PP", "Usage: " + text(command_usage)]
        for title, block in command_blocks.items():
            page += [".PP", f"{text(title)}:", ".RS"] + entries(block) + [".RE"]
    page += [".SH EXIT STATUS", "0 on success (and for \\fB\\-\\-help\\fR and \\fB\\-\\-version\\fR), 2 for a usage "
             "error, 1 for any other failure.",
             ".SH SEE ALSO", "The OpenGPA documentation in /usr/share/doc/opengpa and the project's docs/cli.md."]
    return "\n".join(page) + "\n"


def main(argv):
    if len(argv) != 3:
        raise SystemExit("usage: make_man_page.py OPENGPA_EXECUTABLE OUTPUT.1.gz")
    page = man_page(argv[1]).encode("utf-8")
    with open(argv[2], "wb") as output, gzip.GzipFile(filename="", mode="wb", fileobj=output, mtime=0,
                                                      compresslevel=9) as compressed:
        compressed.write(page)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Clumsy authors
# SPDX-License-Identifier: GPL-3.0-or-later

"""Writes clumsy(1) and one page per subcommand (clumsy-run(1), …) into a directory.

The NAME, SYNOPSIS, DESCRIPTION and OPTIONS come from the argument definitions themselves
(`clumsy --experimental-dump-help`, swift-argument-parser's description of every command);
EXIT STATUS, ENVIRONMENT and FILES from docs/reference.md (they hold for every subcommand), and
EXAMPLES (or any section that replaces the reference's) from Tools/man/<command>.md.

Usage: manpages.py CLUMSY OUTPUT_DIRECTORY
"""
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SECTION_ORDER = ["EXIT STATUS", "ENVIRONMENT", "FILES", "EXAMPLES"]


def roff(text):
    """Escapes plain text for roff: backslashes, leading dots and quotes, dashes in options."""
    text = text.replace("\\", "\\e")
    text = text.replace("-", "\\-")
    lines = []
    for line in text.split("\n"):
        if line.startswith((".", "'")):
            line = "\\&" + line
        lines.append(line)
    return "\n".join(lines)


def inline(text):
    """Markdown `code` and **bold** to roff fonts."""
    text = roff(text)
    text = re.sub(r"`([^`]+)`", r"\\fB\1\\fR", text)
    return re.sub(r"\*\*([^*]+)\*\*", r"\\fB\1\\fR", text)


def sections(path):
    """A Markdown file of `## NAME` sections: paragraphs, `- ` items, and ```sh examples."""
    found = {}
    if not os.path.exists(path):
        return found
    name = None
    for line in open(path, encoding="utf-8").read().split("\n"):
        if line.startswith("## "):
            name = line[3:].strip().upper()
            found[name] = []
        elif name is not None:
            found[name].append(line)
    return {k: "\n".join(v).strip("\n") for k, v in found.items()}


def plain_items(markdown):
    """Markdown as manual pages take it: a table's rows become `- first: rest` items, a
    bullet's indented continuation lines join it, links keep their text."""
    lines, in_code = [], False
    for line in markdown.split("\n"):
        if line.startswith("```"):
            in_code = not in_code
            lines.append(line)
            continue
        if in_code:
            lines.append(line)
            continue
        line = re.sub(r"\[([^\]]+)\]\([^)]+\)", r"\1", line)
        if line.startswith("|"):
            cells = [c.strip().replace("\0", "|") for c in line.replace("\\|", "\0").strip().strip("|").split("|")]
            if all(re.fullmatch(r":?-+:?", c) for c in cells) or cells[0] in ("status", "variable"):
                continue
            lines.append("- " + cells[0] + ": " + " ".join(cells[1:]))
        elif line.startswith("  ") and lines and lines[-1].startswith("- "):
            lines[-1] += " " + line.strip()
        else:
            lines.append(line)
    return "\n".join(lines)


def body(markdown):
    """The roff of one section's Markdown."""
    out, in_code = [], False
    for line in plain_items(markdown).split("\n"):
        if line.startswith("```"):
            out.append(".EX" if not in_code else ".EE")
            in_code = not in_code
        elif in_code:
            out.append(roff(line) if line else "")
        elif line.startswith("- "):
            term, _, rest = line[2:].partition(": ")
            out += [".TP", inline(term), inline(rest)] if rest else [".IP \\(bu 2", inline(line[2:])]
        elif not line.strip():
            out.append(".PP")
        else:
            out.append(inline(line))
    return "\n".join(out)


def option_names(argument):
    names = []
    for n in argument.get("names", []):
        names.append(("-" if n["kind"] == "short" else "--") + n["name"])
    return names


def synopsis(command, path):
    parts = [path]
    for a in command.get("arguments", []):
        if a["kind"] != "positional" or not a.get("shouldDisplay", True):
            continue
        item = "<" + a.get("valueName", "value") + ">" + ("..." if a.get("isRepeating") else "")
        parts.append("[" + item + "]" if a.get("isOptional") else item)
    if any(a["kind"] != "positional" for a in command.get("arguments", [])):
        parts.append("[options]")
    if command.get("subcommands"):
        parts.append("<subcommand>")
    return " ".join(parts)


def options(command):
    groups = {}
    for a in command.get("arguments", []):
        if not a.get("shouldDisplay", True):
            continue
        title = a.get("sectionTitle") or ("ARGUMENTS" if a["kind"] == "positional" else "OPTIONS")
        groups.setdefault(title.upper(), []).append(a)
    out = []
    for title, arguments in groups.items():
        out.append(".SH " + roff(title))
        for a in arguments:
            if a["kind"] == "positional":
                label = "<" + a.get("valueName", "value") + ">"
            else:
                label = ", ".join(option_names(a))
                if a["kind"] == "option":
                    label += " <" + a.get("valueName", "value") + ">"
            text = a.get("abstract", "")
            if a.get("discussion"):
                text += "\n" + a["discussion"]
            if a.get("defaultValue") and "default" not in text:
                text += " (default: " + a["defaultValue"] + ")"
            out += [".TP", "\\fB" + roff(label) + "\\fR", inline(text)]
    return "\n".join(out)


def page(command, path, common, version):
    name = path.replace(" ", "-")
    own = sections(os.path.join(HERE, "man", name + ".md"))
    lines = [
        '.\\" -*- coding: UTF-8 -*-',
        '.TH "%s" "1" "" "%s" "User Commands"' % (name.upper(), roff(version)),
        ".SH NAME",
        roff(name) + " \\- " + inline(command.get("abstract", "")),
        ".SH SYNOPSIS",
        ".B " + roff(synopsis(command, path)),
        ".SH DESCRIPTION",
        inline(command.get("abstract", "")),
    ]
    if command.get("discussion"):
        lines += [".PP", body(command["discussion"])]
    if own.get("DESCRIPTION"):
        lines += [".PP", body(own["DESCRIPTION"])]
    subcommands = [s for s in command.get("subcommands", []) if s.get("shouldDisplay", True) and s["commandName"] != "help"]
    if subcommands:
        lines.append(".SH COMMANDS")
        for s in subcommands:
            lines += [".TP", "\\fB%s\\-%s\\fR(1)" % (roff(path), roff(s["commandName"])), inline(s.get("abstract", ""))]
    lines.append(options(command))
    for title in SECTION_ORDER:
        text = own.get(title, common.get(title))
        if text:
            lines += [".SH " + title, body(text)]
    see = ["clumsy(1)"] if path != "clumsy" else []
    see += ["clumsy-%s(1)" % s["commandName"] for s in subcommands]
    if see:
        lines += [".SH SEE ALSO", ", ".join("\\fB%s\\fR(1)" % roff(s[:-3]) for s in see)]
    return name, "\n".join(lines) + "\n"


def main():
    clumsy, output = sys.argv[1], sys.argv[2]
    dump = json.loads(subprocess.run([clumsy, "--experimental-dump-help"], check=True, capture_output=True).stdout)
    version = subprocess.run([clumsy, "--version"], check=True, capture_output=True, text=True).stdout.strip()
    # EXIT STATUS, FILES and ENVIRONMENT hold for every subcommand: the reference's own sections.
    reference = sections(os.path.join(HERE, "..", "docs", "reference.md"))
    common = {title: reference[title] for title in ("EXIT STATUS", "FILES", "ENVIRONMENT") if title in reference}
    root = dump["command"]
    os.makedirs(output, exist_ok=True)
    commands = [(root, "clumsy")] + [(s, "clumsy " + s["commandName"]) for s in root.get("subcommands", [])
                                      if s.get("shouldDisplay", True) and s["commandName"] != "help"]
    for command, path in commands:
        name, text = page(command, path, common, version)
        with open(os.path.join(output, name + ".1"), "w", encoding="utf-8") as f:
            f.write(text)
    print("wrote %d manual pages to %s" % (len(commands), output))


if __name__ == "__main__":
    main()

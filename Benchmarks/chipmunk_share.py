#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Clumsy authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The share of a callgrind profile's instructions inside Chipmunk (make bench, row 0).

chipmunk_share.py CALLGRIND.OUT [--all]
    Prints the share (0…1, three decimals) of the profile's instructions executed inside
    libchipmunk itself (its own code, exclusive: not the collision callbacks it calls back
    into Clumsy, nor libm's sines it asks for). With --all, also the instructions by object
    file and the share of cpSpaceStep's inclusive cost (callbacks and libm included).
"""
import collections
import re
import subprocess
import sys

LINE = re.compile(r"\s*([\d,]+) \(\s*[\d.]+%\)\s+(.*?)\s+\[(.*)\]\s*$")
TOTAL = re.compile(r"\s*([\d,]+) \(.*PROGRAM TOTALS")


def annotate(path, inclusive):
    text = subprocess.run(["callgrind_annotate", f"--inclusive={'yes' if inclusive else 'no'}", "--threshold=100", path],
                          capture_output=True, text=True, check=True).stdout
    total, rows = 0, []
    for line in text.splitlines():
        if m := TOTAL.match(line):
            total = int(m.group(1).replace(",", ""))
        elif m := LINE.match(line):
            rows.append((int(m.group(1).replace(",", "")), m.group(2), m.group(3).rsplit("/", 1)[-1]))
    return total, rows


def main():
    if len(sys.argv) not in (2, 3) or (len(sys.argv) == 3 and sys.argv[2] != "--all"):
        sys.exit(__doc__)
    total, rows = annotate(sys.argv[1], inclusive=False)
    if total == 0:
        sys.exit(f"chipmunk_share.py: no instructions in {sys.argv[1]}")
    objects = collections.Counter()
    for ir, _, obj in rows:
        objects[obj] += ir
    chipmunk = sum(ir for obj, ir in objects.items() if obj.startswith("libchipmunk"))
    print(f"{chipmunk / total:.3f}")
    if len(sys.argv) == 3:
        for obj, ir in objects.most_common(6):
            print(f"  {obj}: {ir:,} ({ir / total:.3f})")
        _, inclusive = annotate(sys.argv[1], inclusive=True)
        step = max((ir for ir, name, _ in inclusive if name.endswith(":cpSpaceStep")), default=0)
        print(f"  cpSpaceStep inclusive: {step:,} ({step / total:.3f}); total {total:,}")


if __name__ == "__main__":
    main()

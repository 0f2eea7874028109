#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Clumsy authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The benchmark gate's ratios (make bench writes them, make bench-check compares them).

ratios.py write OUT.json RAW.tsv MODE
    RAW.tsv holds one row a line, tab-separated: key, what is measured, Clumsy's value, the
    baseline's value (measured in the same run), the unit. Writes OUT.json: each row with its
    value, baseline and ratio = value / baseline (lower is better for every row).
ratios.py check LAST.json NEW.json [TOLERANCE] [--unit UNIT]
    Fails (exit 1) when a row's ratio in NEW is worse than LAST's by more than TOLERANCE
    (default 0.15, i.e. 15 %; for rows counted in instructions 0.03), printing every row either
    way. Rows missing from NEW fail too. --unit: only LAST's rows of that unit.
ratios.py merge LAST.json NEW.json
    Writes NEW's rows into LAST (same mode), keeping LAST's other rows: make bench-counts
    records the instruction counts without timing the other rows again.

Ratios, not seconds: on these machines a whole run is 15-70 % slower when another process holds
a core, and Clumsy and its baseline (fluidsynth, bare Chipmunk, /bin/true) slow down together.
Instructions (Benchmarks/counts.sh) do not move with the machine's load at all: their rows, the
count per simulated second or per block, are held to 3 %.
"""
import json
import sys

# The tolerance of a row counted in instructions (unit "instructions"): a count repeats to a few
# parts in a billion, so 3 % is a real change of the code, not of the machine.
INSTRUCTIONS_TOLERANCE = 0.03


def write(out_path, raw_path, mode):
    rows = {}
    with open(raw_path, encoding="utf-8") as raw:
        for line in raw:
            # A sixth field, when given, is the ratio measured pair by pair (the median of each
            # run's ratio to the baseline run beside it); else value / baseline.
            key, what, value, baseline, unit, *paired = line.rstrip("\n").split("\t")
            value, baseline = float(value), float(baseline)
            if baseline <= 0:
                sys.exit(f"ratios.py: row {key}: baseline {baseline} {unit} is not positive")
            ratio = float(paired[0]) if paired and paired[0] else value / baseline
            rows[key] = {"what": what, "value": value, "baseline": baseline, "unit": unit,
                         "ratio": round(ratio, 4)}
    with open(out_path, "w", encoding="utf-8") as out:
        json.dump({"mode": mode, "rows": rows}, out, indent=2, sort_keys=True)
        out.write("\n")


def load_pair(last_path, new_path):
    last = json.load(open(last_path, encoding="utf-8"))
    new = json.load(open(new_path, encoding="utf-8"))
    if last.get("mode") != new.get("mode"):
        sys.exit(f"ratios.py: {last_path} is a {last.get('mode')} run, {new_path} a {new.get('mode')} run: not comparable")
    return last, new


def merge(last_path, new_path):
    last, new = load_pair(last_path, new_path)
    last["rows"].update(new["rows"])
    with open(last_path, "w", encoding="utf-8") as out:
        json.dump(last, out, indent=2, sort_keys=True)
        out.write("\n")


def check(last_path, new_path, tolerance, unit=None):
    last, new = load_pair(last_path, new_path)
    worse = []
    tolerances = set()
    for key in sorted(last["rows"]):
        before = last["rows"][key]
        if unit is not None and before["unit"] != unit:
            continue
        allowed = INSTRUCTIONS_TOLERANCE if before["unit"] == "instructions" else tolerance
        tolerances.add(allowed)
        after = new["rows"].get(key)
        if after is None:
            worse.append(key)
            print(f"{key}: missing from the new run ({before['what']})")
            continue
        change = after["ratio"] / before["ratio"] - 1
        verdict = "WORSE" if change > allowed else "ok"
        if verdict == "WORSE":
            worse.append(key)
        print(f"{key}: ratio {before['ratio']:.3f} -> {after['ratio']:.3f} ({change:+.1%}, at most {allowed:+.0%}) {verdict}  [{after['what']}]")
    if not tolerances:
        print(f"bench-check: {last_path} has no row" + (f" of unit {unit}" if unit else "") + ": nothing to compare")
        return 1
    limits = " / ".join(f"{t:.0%}" for t in sorted(tolerances))
    if worse:
        print(f"bench-check: {len(worse)} row(s) worse than {last_path} by more than {limits}: {', '.join(worse)}")
        return 1
    print(f"bench-check: every ratio within {limits} of {last_path}")
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "write":
        write(sys.argv[2], sys.argv[3], sys.argv[4])
    elif len(sys.argv) == 4 and sys.argv[1] == "merge":
        merge(sys.argv[2], sys.argv[3])
    elif len(sys.argv) in (4, 5, 6, 7) and sys.argv[1] == "check":
        arguments = sys.argv[4:]
        only = None
        if "--unit" in arguments:
            at = arguments.index("--unit")
            if at + 1 >= len(arguments):
                sys.exit(__doc__)
            only = arguments[at + 1]
            del arguments[at:at + 2]
        if len(arguments) > 1:
            sys.exit(__doc__)
        sys.exit(check(sys.argv[2], sys.argv[3], float(arguments[0]) if arguments else 0.15, only))
    else:
        sys.exit(__doc__)

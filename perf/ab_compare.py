#!/usr/bin/env python3
"""Compares tessera-bench CSVs of the same section row by row: one column of GCell/s per file,
then the last file's rate over the first's, flagged where it moved by the tolerance or more.

    python3 perf/ab_compare.py base.csv new.csv [base2.csv new2.csv ...] [--tolerance 0.02]

Rows are matched by kernel or shape, precision, size, policy and the note's first 30
characters (the note names the steps of a fused pass); rows missing from any file are
listed at the end. Exit status 0 always: a comparison reports, it does not judge noise.
"""
import argparse
import csv
import sys


def load(path):
    rows = {}
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            key = (r.get("shape") or r.get("kernel") or "", r.get("precision", ""), r.get("size", ""),
                   r.get("policy", ""), (r.get("note") or "")[:30])
            try:
                rows[key] = float(r.get("gcells_per_s") or 0)
            except ValueError:
                rows[key] = 0.0
    return rows


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("csv", nargs="+", help="tessera-bench --csv files, base first")
    ap.add_argument("--tolerance", type=float, default=0.02, help="relative change flagged (0.02)")
    a = ap.parse_args(argv)
    tables = [load(p) for p in a.csv]
    first = tables[0]
    common = [k for k in first if all(k in t for t in tables[1:])]
    moved = 0
    for k in common:
        rates = [t[k] for t in tables]
        ratio = rates[-1] / rates[0] if rates[0] > 0 else float("nan")
        flag = ""
        if rates[0] > 0 and abs(ratio - 1) >= a.tolerance:
            flag = "  faster" if ratio > 1 else "  SLOWER"
            moved += 1
        print(" ".join(x for x in k[:4] if x), k[4], " ".join(f"{x:9.1f}" for x in rates), f"{ratio:6.3f}{flag}")
    missing = sorted(set().union(*tables) - set(common))
    print(f"# {len(common)} rows in every file, {moved} moved by {a.tolerance:.0%} or more (last file / first)")
    for k in missing:
        print("# not in every file:", " ".join(x for x in k if x))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

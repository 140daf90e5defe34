#!/usr/bin/env python3
"""Line coverage per folder from gcovr's JSON summary (scripts/coverage.sh).

A folder is a file's directory below src/ (src/backend/db/postgres, src/cli, ...) or include/;
the last line is the whole of src/ and include/.
"""
import collections
import json
import os
import sys


def main():
    with open(sys.argv[1]) as f:
        summary = json.load(f)
    folders = collections.defaultdict(lambda: [0, 0])
    for entry in summary["files"]:
        folder = os.path.dirname(entry["filename"])
        folders[folder][0] += entry["line_covered"]
        folders[folder][1] += entry["line_total"]
    print(f"{'folder':<34} {'lines':>7} {'covered':>8} {'%':>6}")
    covered = total = 0
    for folder in sorted(folders):
        c, t = folders[folder]
        covered += c
        total += t
        print(f"{folder:<34} {t:>7} {c:>8} {100.0 * c / t if t else 0.0:>6.1f}")
    print(f"{'all':<34} {total:>7} {covered:>8} {100.0 * covered / total if total else 0.0:>6.1f}")


if __name__ == "__main__":
    main()

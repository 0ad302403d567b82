#!/usr/bin/env python3
"""Normalise a CSV file and write the result to standard output."""
import argparse
import csv
import re
import sys


def normalise_header(name):
    name = re.sub(r"[^0-9a-zA-Z]+", "_", name.strip().lower())
    return name.strip("_") or "column"


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("path")
    parser.add_argument("--delimiter", default=",")
    parser.add_argument("--encoding", default="utf-8-sig")
    args = parser.parse_args()

    try:
        with open(args.path, newline="", encoding=args.encoding) as f:
            rows = list(csv.reader(f, delimiter=args.delimiter))
    except (OSError, UnicodeDecodeError) as err:
        sys.exit(f"clean.py: {args.path}: {err}")
    if not rows:
        sys.exit(f"clean.py: {args.path}: file is empty")

    header = [normalise_header(h) for h in rows[0]]
    seen, kept, empty, dupes = set(), [], 0, 0
    for row in rows[1:]:
        cells = tuple(cell.strip() for cell in row)
        if not any(cells):
            empty += 1
        elif cells in seen:
            dupes += 1
        else:
            seen.add(cells)
            kept.append(cells)

    writer = csv.writer(sys.stdout)
    writer.writerow(header)
    writer.writerows(kept)
    print(f"kept {len(kept)} rows, dropped {empty} empty and {dupes} duplicate",
          file=sys.stderr)


if __name__ == "__main__":
    main()

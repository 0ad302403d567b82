#!/usr/bin/env python3
"""Print the text of a PDF page by page, or list its form fields as JSON.

Usage:
    extract.py FILE.pdf            text of every page
    extract.py --fields FILE.pdf   fillable fields and their current values
"""
import argparse
import json
import sys

try:
    from pypdf import PdfReader
except ImportError:
    sys.exit("extract.py: pypdf is not installed; run: pip install pypdf")


def print_text(reader):
    for number, page in enumerate(reader.pages, start=1):
        text = (page.extract_text() or "").strip()
        print(f"--- page {number} ---")
        print(text if text else "(no text layer; the page may be scanned)")


def print_fields(reader):
    fields = reader.get_fields() or {}
    out = {name: field.get("/V") for name, field in sorted(fields.items())}
    json.dump(out, sys.stdout, indent=2, default=str)
    print()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pdf", help="path to the PDF file")
    parser.add_argument("--fields", action="store_true", help="list form fields")
    args = parser.parse_args()
    try:
        reader = PdfReader(args.pdf)
    except (OSError, ValueError) as err:
        sys.exit(f"extract.py: cannot read {args.pdf}: {err}")
    if args.fields:
        print_fields(reader)
    else:
        print_text(reader)


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""Record how Python's csv module reads core/dataset's CSV cases, the reference its reader follows.

For every case in core/dataset/testdata/csv/cases.json ({name, delim, text[, sniff]}) this writes,
to expected.json, the records csv.reader gives (default dialect, not strict, the text opened with
newline="" as the csv docs require; the empty records of blank lines left out, as DictReader and
pandas skip them) and the delimiter csv.Sniffer picks among comma, semicolon and tab (null when
it gives up).

    csv_goldens.py            rewrite expected.json
    csv_goldens.py --check    exit 1 if expected.json differs from what Python says now
"""
import csv
import io
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DIR = os.path.join(ROOT, "core", "dataset", "testdata", "csv")


def read(case):
    reader = csv.reader(io.StringIO(case["text"], newline=""), delimiter=case["delim"])
    records = [r for r in reader if r != []]
    try:
        sniffed = csv.Sniffer().sniff(case["text"], delimiters=",;\t").delimiter
    except csv.Error:
        sniffed = None
    return {"name": case["name"], "records": records, "sniffed": sniffed}


def main():
    with open(os.path.join(DIR, "cases.json"), encoding="utf-8") as f:
        cases = json.load(f)
    out = {"python": sys.version.split()[0], "cases": [read(c) for c in cases]}
    # One case a line, so that a change shows as the cases it touches.
    text = '{"python": %s, "cases": [\n%s\n]}\n' % (
        json.dumps(out["python"]),
        ",\n".join(json.dumps(c, ensure_ascii=False) for c in out["cases"]),
    )
    path = os.path.join(DIR, "expected.json")
    if "--check" in sys.argv:
        with open(path, encoding="utf-8") as f:
            old = json.load(f)
        old.pop("python", None)
        out.pop("python", None)
        if old != out:
            print("expected.json differs from what Python's csv module says now: run scripts/csv_goldens.py", file=sys.stderr)
            sys.exit(1)
        return
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


if __name__ == "__main__":
    main()

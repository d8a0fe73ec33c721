#!/usr/bin/env python3
"""Regenerates the rag-recall render goldens with Python's own str.format, the oracle.

Reads core/judge/testdata/rag-recall/cases.json ([{"name", "passage_gt", "passage_llm"}]) and
prompts/rag-recall.md, and writes <name>.golden beside cases.json (or in the directory given as
the first argument, which the drift test uses).

    python3 scripts/rag_recall_golden.py [outdir]
"""
import json
import os
import sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
cases_dir = os.path.join(root, "core", "judge", "testdata", "rag-recall")
out_dir = sys.argv[1] if len(sys.argv) > 1 else cases_dir

with open(os.path.join(root, "prompts", "rag-recall.md"), encoding="utf-8", newline="") as f:
    prompt = f.read()
with open(os.path.join(cases_dir, "cases.json"), encoding="utf-8") as f:
    cases = json.load(f)

for case in cases:
    out = prompt.format(passage_gt=case["passage_gt"], passage_llm=case["passage_llm"])
    with open(os.path.join(out_dir, case["name"] + ".golden"), "w", encoding="utf-8", newline="") as f:
        f.write(out)

#!/usr/bin/env python3
"""judge_goldens.py writes the expected rendered prompts of the built-in evaluators.

For each case in core/judge/testdata/render/cases.json ({name, evaluator, inputs}) it builds the
template variables from the inputs by the rules in docs/ARCHITECTURE.md, "Rendering prompts"
(independently of the Go code under test), renders prompts/<evaluator>.md with real Jinja2
(default Environment, StrictUndefined) or Python's str.format, and writes
core/judge/testdata/render/<name>.golden, byte for byte.

    python3 scripts/judge_goldens.py          # regenerate
    python3 scripts/judge_goldens.py --check  # exit 1 if any golden differs from what it would write
"""
import json
import os
import sys

import jinja2

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DIR = os.path.join(ROOT, "core", "judge", "testdata", "render")


def claim_vars(inp):
    reports = []
    for i, c in enumerate(inp["claims"]):
        if isinstance(c, str):
            cid, text = "c%d" % (i + 1), c
        else:
            cid = c.get("id")
            cid = "c%d" % (i + 1) if cid is None else str(cid)
            text = c["text"]
        reports.append("Claim %s: %s" % (cid, text))
    blocks = []
    for n, e in enumerate(inp["evidence"], 1):
        if isinstance(e, str):
            title, text = "", e
        else:
            title, text = e.get("title") or "", e["text"]
        head = "ID: %d" % n + (" | " + title if title else "")
        blocks.append(head + "\n" + text)
    return {"question": inp["question"], "reports": "\n".join(reports), "evidence": "\n\n".join(blocks)}


def grounding_vars(inp):
    facts = inp["facts"]
    if not isinstance(facts, str):
        facts = "\n".join("%d. %s" % (i + 1, f) for i, f in enumerate(facts))
    mode = (inp.get("mode") or "").strip().lower()
    if mode not in ("strict", "lenient"):
        mode = "strict"
    return {"mode": mode, "answer": inp["answer"], "facts": facts}


def pairwise_vars(inp):
    return {k: inp[k] for k in ("contexts", "expected_output", "actual_output")}


def rag_recall_vars(inp):
    return {"passage_gt": inp["passage_gt"], "passage_llm": inp["passage_llm"]}


EVALUATORS = {
    "claim-groundedness": ("jinja", claim_vars),
    "answer-grounding": ("format", grounding_vars),
    "pairwise-faithfulness": ("jinja", pairwise_vars),
    "rag-recall": ("format", rag_recall_vars),
}


def render(case):
    dialect, make_vars = EVALUATORS[case["evaluator"]]
    with open(os.path.join(ROOT, "prompts", case["evaluator"] + ".md"), encoding="utf-8", newline="") as f:
        src = f.read()
    variables = make_vars(case["inputs"])
    if dialect == "jinja":
        env = jinja2.Environment(undefined=jinja2.StrictUndefined)
        return env.from_string(src).render(**variables)
    return src.format(**variables)


def main():
    check = "--check" in sys.argv[1:]
    with open(os.path.join(DIR, "cases.json"), encoding="utf-8") as f:
        cases = json.load(f)
    drift = []
    for case in cases:
        path = os.path.join(DIR, case["name"] + ".golden")
        want = render(case).encode("utf-8")
        if check:
            try:
                with open(path, "rb") as f:
                    have = f.read()
            except FileNotFoundError:
                have = None
            if have != want:
                drift.append(case["name"])
        else:
            with open(path, "wb") as f:
                f.write(want)
    if drift:
        print("judge_goldens: these goldens differ from Jinja2/str.format: " + ", ".join(drift), file=sys.stderr)
        print("regenerate with: python3 scripts/judge_goldens.py", file=sys.stderr)
        sys.exit(1)
    if not check:
        print("judge_goldens: wrote %d goldens" % len(cases))


if __name__ == "__main__":
    main()

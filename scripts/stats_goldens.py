#!/usr/bin/python3
"""Compute core/stats' statistics independently, the reference its Go code is tested against.

Reads core/stats/testdata/cases.json and writes core/stats/testdata/expected.json:

- agreement (Cohen's kappa, its Fleiss-Cohen-Everitt 1969 standard error, accuracy, precision and
  recall at finding failures): exact rational arithmetic with fractions.Fraction, the formulas
  written out here from the papers, one square root at the end;
- correlation: Python's statistics.correlation (Pearson) on the pairs without a null, the same on
  average ranks for Spearman (Python 3.11 has no method='ranked'; the ranks are computed here),
  statistics.fmean of the absolute differences for the mean absolute error; None wherever
  statistics raises StatisticsError (fewer than two pairs, a constant side);
- consistency (Fleiss' kappa, three categories: passed, failed, undetermined; over the rows with
  the most common number of verdicts): exact fractions, in Fleiss' (1971) own notation;
- proportion (a share k/n and its 95% Wilson score interval): in the centre-and-half-width form
  (p + z^2/2n +- z*sqrt(p(1-p)/n + z^2/4n^2)) / (1 + z^2/n), with decimal.Decimal at 50 digits, so
  that the Go code's other algebraic form is checked against an independent computation.
- calibration (Brier score, expected calibration error over ten equal-width bins, each bin's mean
  probability and rate of human passes): exact fractions of the probabilities as given, the bin of
  p the last k with float(k)/10 <= p, as a caller writing 0.7 means bin [0.7, 0.8);
- jury (one row's verdict from several judges' by a rule): majority by collections.Counter over
  passed, failed and undetermined; "all" and "any" by Kleene's three-valued logic; "mean" with
  statistics.fmean over the scores given.

Undefined statistics are null. The Go test compares numbers to within 1e-12.

    stats_goldens.py            rewrite expected.json
    stats_goldens.py --check    exit 1 if expected.json differs from what this computes now
"""
import json
import math
import os
import statistics
import sys
from decimal import Decimal, getcontext
from collections import Counter
from fractions import Fraction

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DIR = os.path.join(ROOT, "core", "stats", "testdata")
Z975 = 1.959963984540054  # statistics.NormalDist().inv_cdf(0.975), checked below


def agreement(judge, human):
    cells = {"tt": 0, "tf": 0, "ft": 0, "ff": 0, "nt": 0, "nf": 0}
    no_label = 0
    for j, h in zip(judge, human):
        if h is None:
            no_label += 1
            continue
        key = ("n" if j is None else "t" if j else "f") + ("t" if h else "f")
        cells[key] += 1
    # p[i][j]: judge class i, human class j; 0 = passed, 1 = failed.
    counts = [[cells["tt"], cells["tf"]], [cells["ft"], cells["ff"]]]
    n = sum(map(sum, counts))
    out = {
        "pairs": len(judge),
        "compared": n,
        "no_label": no_label,
        "undetermined": cells["nt"] + cells["nf"],
        "agree": cells["tt"] + cells["ff"],
        "matrix": cells,
        "accuracy": None,
        "kappa": None,
        "kappa_se": None,
        "kappa_ci": None,
        "expected_agreement": None,
    }
    judge_failed = cells["ff"] + cells["ft"]
    human_failed = cells["ff"] + cells["tf"]
    out["judge_fail_precision"] = float(Fraction(cells["ff"], judge_failed)) if judge_failed else None
    out["judge_fail_recall"] = float(Fraction(cells["ff"], human_failed)) if human_failed else None
    if n == 0:
        return out
    p = [[Fraction(c, n) for c in row] for row in counts]
    row = [p[i][0] + p[i][1] for i in range(2)]  # the judge's marginals
    col = [p[0][j] + p[1][j] for j in range(2)]  # the human's marginals
    po = p[0][0] + p[1][1]
    pe = row[0] * col[0] + row[1] * col[1]
    out["accuracy"] = float(po)
    out["expected_agreement"] = float(pe)
    if pe == 1:
        return out
    kappa = (po - pe) / (1 - pe)
    # Fleiss, Cohen & Everitt (1969), the large-sample variance of kappa-hat (kappa not assumed 0):
    # [sum_i p_ii((1-pe) - (p.i + pi.)(1-po))^2 + (1-po)^2 sum_{i!=j} p_ij (p.i + pj.)^2
    #  - (po pe - 2 pe + po)^2] / (n (1-pe)^4)
    a = sum(p[i][i] * ((1 - pe) - (col[i] + row[i]) * (1 - po)) ** 2 for i in range(2))
    b = (1 - po) ** 2 * sum(p[i][j] * (col[i] + row[j]) ** 2 for i in range(2) for j in range(2) if i != j)
    c = (po * pe - 2 * pe + po) ** 2
    var = (a + b - c) / (n * (1 - pe) ** 4)
    assert var >= 0, var
    se = math.sqrt(var)
    k = float(kappa)
    out["kappa"] = k
    out["kappa_se"] = se
    out["kappa_ci"] = [max(-1.0, k - Z975 * se), min(1.0, k + Z975 * se)]
    return out


def average_ranks(v):
    order = sorted(range(len(v)), key=lambda i: v[i])
    ranks = [0.0] * len(v)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and v[order[j + 1]] == v[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + 1 + j + 1) / 2
        i = j + 1
    return ranks


def pearson(x, y):
    try:
        return statistics.correlation(x, y)
    except statistics.StatisticsError:
        return None


def correlation(xs, ys):
    pairs = [(x, y) for x, y in zip(xs, ys) if x is not None and y is not None]
    x = [float(a) for a, _ in pairs]
    y = [float(b) for _, b in pairs]
    return {
        "n": len(pairs),
        "pearson": pearson(x, y),
        "spearman": pearson(average_ranks(x), average_ranks(y)) if len(pairs) >= 2 else None,
        "mae": statistics.fmean(abs(a - b) for a, b in zip(x, y)) if pairs else None,
    }


def consistency(rows):
    per_row = []
    unanimous = split = 0
    for row in rows:
        counts = {True: row.count(True), False: row.count(False), None: sum(v is None for v in row)}
        m = len(row)
        top = max(counts.values())
        leaders = [k for k, c in counts.items() if c == top]
        majority = leaders[0] if m and len(leaders) == 1 else None
        is_unanimous = m > 0 and top == m
        if is_unanimous:
            unanimous += 1
        elif m >= 2:
            split += 1
        per_row.append({"majority": majority, "unanimous": is_unanimous, "n": m, "counts": counts})
    out = {"rows": len(rows), "unanimous": unanimous, "split": split, "fleiss_kappa": None,
           "fleiss_rows": 0, "fleiss_repeats": 0}
    # Fleiss (1971) needs one number m of verdicts per row: the most common count of two or
    # more, the larger on a tie; the other rows are left out.
    sizes = [r["n"] for r in per_row if r["n"] >= 2]
    if sizes:
        m = max(set(sizes), key=lambda n: (sizes.count(n), n))
        kept = [r["counts"] for r in per_row if r["n"] == m]
        out["fleiss_rows"] = len(kept)
        out["fleiss_repeats"] = m
        # P_i = (sum_j n_ij^2 - m) / (m(m-1)), P-bar their mean, p_j = sum_i n_ij / (R m),
        # P_e = sum_j p_j^2: Fleiss' own notation.
        p_bar = sum(Fraction(sum(v * v for v in c.values()) - m, m * (m - 1)) for c in kept) / len(kept)
        shares = [Fraction(sum(c[k] for c in kept), len(kept) * m) for k in (True, False, None)]
        pe = sum(s * s for s in shares)
        if pe != 1:
            out["fleiss_kappa"] = float((p_bar - pe) / (1 - pe))
    for r in per_row:
        del r["counts"]
    out["per_row"] = per_row
    return out


def proportion(k, n):
    if n == 0:
        return {"k": k, "n": n, "rate": None, "ci": None}
    getcontext().prec = 50
    z = Decimal(repr(Z975))
    dk, dn = Decimal(k), Decimal(n)
    p = dk / dn
    centre = p + z * z / (2 * dn)
    half = z * (p * (1 - p) / dn + z * z / (4 * dn * dn)).sqrt()
    scale = 1 + z * z / dn
    return {"k": k, "n": n, "rate": float(p), "ci": [float((centre - half) / scale), float((centre + half) / scale)]}
def calibration(ps, human):
    pairs = [(Fraction(p), Fraction(1 if h else 0)) for p, h in zip(ps, human) if p is not None and h is not None]
    edges = [float(k) / 10 for k in range(10)]
    bins = [[] for _ in range(10)]
    for p, y in pairs:
        k = max(i for i, e in enumerate(edges) if p >= Fraction(e))
        bins[k].append((p, y))
    out = {"n": len(pairs), "skipped": len(ps) - len(pairs), "brier": None, "ece": None, "bins": []}
    for k, b in enumerate(bins):
        out["bins"].append({
            "lo": k / 10, "hi": (k + 1) / 10, "n": len(b),
            "mean_p": float(sum(p for p, _ in b) / len(b)) if b else None,
            "rate": float(sum(y for _, y in b) / len(b)) if b else None,
        })
    if pairs:
        out["brier"] = float(sum((p - y) ** 2 for p, y in pairs) / len(pairs))
        out["ece"] = float(sum(Fraction(len(b), len(pairs)) * abs(sum(p for p, _ in b) / len(b) - sum(y for _, y in b) / len(b))
                               for b in bins if b))
    return out


def jury(rule, verdicts, pass_at=None):
    passed = [v["passed"] for v in verdicts]
    scores = [v["score"] for v in verdicts if v["score"] is not None]
    votes = Counter(passed)
    out = {"members": len(verdicts), "votes": {"passed": votes[True], "failed": votes[False], "undetermined": votes[None]},
           "scored": len(scores), "passed": None, "score": None, "code": None}

    def decided(p):
        out["passed"], out["score"] = p, 1.0 if p else 0.0

    if rule == "majority":
        top = max(votes.values())
        leaders = [v for v in (True, False, None) if votes[v] == top]
        if leaders in ([True], [False]):
            decided(leaders[0])
        else:
            out["code"] = "jury.tie" if leaders == [True, False] else "jury.undetermined"
    elif rule in ("all", "any"):
        # Kleene: all is the three-valued and of the verdicts, any their or; None is unknown.
        absorbing, neutral = (False, True) if rule == "all" else (True, False)
        if absorbing in passed:
            decided(absorbing)
        elif None in passed:
            out["code"] = "jury.undetermined"
        else:
            decided(neutral)
    else:
        if scores:
            out["score"] = statistics.fmean(scores)
            if pass_at is not None:
                out["passed"] = out["score"] >= pass_at
        else:
            out["code"] = "jury.undetermined"
    return out


def main():
    assert abs(statistics.NormalDist().inv_cdf(0.975) - Z975) < 1e-15
    with open(os.path.join(DIR, "cases.json"), encoding="utf-8") as f:
        cases = json.load(f)
    expected = {
        "agreement": [{"name": c["name"], **agreement(c["judge"], c["human"])} for c in cases["agreement"]],
        "correlation": [{"name": c["name"], **correlation(c["x"], c["y"])} for c in cases["correlation"]],
        "consistency": [{"name": c["name"], **consistency(c["rows"])} for c in cases["consistency"]],
        "proportion": [{"name": c["name"], **proportion(c["k"], c["n"])} for c in cases["proportion"]],
        "calibration": [{"name": c["name"], **calibration(c["p"], c["human"])} for c in cases["calibration"]],
        "jury": [{"name": c["name"], "rule": c["rule"], **jury(c["rule"], c["verdicts"], c.get("pass_at"))} for c in cases["jury"]],
    }
    text = json.dumps(expected, indent=1, ensure_ascii=False) + "\n"
    path = os.path.join(DIR, "expected.json")
    if sys.argv[1:] == ["--check"]:
        with open(path, encoding="utf-8") as f:
            if f.read() != text:
                print("expected.json differs from what scripts/stats_goldens.py computes: rerun it", file=sys.stderr)
                sys.exit(1)
        return
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


if __name__ == "__main__":
    main()

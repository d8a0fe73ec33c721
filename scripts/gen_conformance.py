#!/usr/bin/python3
"""Generate the golden outputs of core/template's conformance corpus from the real oracles.

Every case in core/template/testdata/conformance/cases.jsonl ({name, dialect, template or
template_file, vars[, unsupported]}) is rendered by real Jinja2 (Environment(undefined=
StrictUndefined), the default otherwise) or by Python's str.format(**vars), and the result is
written to expected.jsonl: {name, output} or {name, error, message, line}, where line is the
template line Jinja2 reports (null when it reports none, and for str.format). Cases marked
unsupported (valid Python outside the subset) record only {name, unsupported, python_ok}.

    gen_conformance.py            rewrite expected.jsonl
    gen_conformance.py --check    exit 1 if expected.jsonl differs from what the oracles say now
    gen_conformance.py --casing   rewrite core/template/casing_table.go from CPython's str.upper
                                  (with --check: verify it instead)

Needs Debian's python3-jinja2 (apt-get install -y python3-jinja2): run it with /usr/bin/python3, not a
python3 from pyenv or a virtualenv whose Jinja2 may be another 3.1.x (3.1.2 and 3.1.6 differ on
which names an {% if %} assigns in every branch). The first line of expected.jsonl records the
oracle's versions.
"""
import copy
import json
import os
import sys
import traceback

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "core", "template", "testdata", "conformance")
CASES = os.path.join(CORPUS, "cases.jsonl")
EXPECTED = os.path.join(CORPUS, "expected.jsonl")
CASING = os.path.join(ROOT, "core", "template", "casing_table.go")


def load_jinja():
    try:
        import jinja2
    except ImportError:
        sys.exit("gen_conformance: Jinja2 is missing; install it with: apt-get install -y python3-jinja2")
    if not jinja2.__version__.startswith("3.1"):
        sys.exit("gen_conformance: want Jinja2 3.1, found %s" % jinja2.__version__)
    return jinja2


def template_line(exc):
    """The template line Jinja2 gives an exception: its lineno, else its traceback's template frame."""
    line = getattr(exc, "lineno", None)
    if line is not None:
        return line
    for frame in traceback.extract_tb(exc.__traceback__):
        if frame.filename == "<template>":
            line = frame.lineno
    return line


def render(case, jinja2):
    if "template_file" in case:
        with open(os.path.join(ROOT, case["template_file"]), encoding="utf-8", newline="") as fh:
            source = fh.read()
    else:
        source = case["template"]
    result = {"name": case["name"]}
    try:
        if case["dialect"] == "jinja":
            env = jinja2.Environment(undefined=jinja2.StrictUndefined)
            # A copy: a template may call a list's or a dict's methods (xs.append(1), Python
            # accepts them), which must not change what the next case is given or what is written.
            result["output"] = env.from_string(source).render(**copy.deepcopy(case["vars"]))
        elif case["dialect"] == "format":
            result["output"] = source.format(**case["vars"])
        else:
            raise SystemExit("gen_conformance: %s: unknown dialect %r" % (case["name"], case["dialect"]))
    except SystemExit:
        raise
    except Exception as exc:  # the oracle's error is the expected result
        result = {"name": case["name"], "error": type(exc).__name__, "message": str(exc),
                  "line": template_line(exc) if case["dialect"] == "jinja" else None}
    if case.get("unsupported"):
        # Outside the subset: we only record that Python accepts it (its output may hold a
        # memory address); the engine must answer "not supported".
        result = {"name": case["name"], "unsupported": True, "python_ok": "output" in result}
    return result


def generate():
    jinja2 = load_jinja()
    # The first line names the oracle, so that a drift report can say which Jinja2 made the goldens.
    lines = [json.dumps({"oracle": {"jinja2": jinja2.__version__, "python": sys.version.split()[0]}}, sort_keys=True)]
    names = set()
    with open(CASES, encoding="utf-8") as fh:
        for n, raw in enumerate(fh, 1):
            if not raw.strip():
                continue
            case = json.loads(raw)
            if case["name"] in names:
                raise SystemExit("gen_conformance: cases.jsonl:%d: duplicate name %s" % (n, case["name"]))
            names.add(case["name"])
            lines.append(json.dumps(render(case, jinja2), ensure_ascii=True, sort_keys=True))
    return "\n".join(lines) + "\n"


def casing_go():
    """Go source holding the code points whose str.upper() is more than one code point, as one
    constant string (a map would be built at init and cost code size in the wasm)."""
    entries = []
    for c in range(0x110000):
        if 0xD800 <= c < 0xE000:
            continue
        u = chr(c).upper()
        if len(u) > 1:
            if 0x2000 <= c < 0xFB00:
                raise SystemExit("gen_conformance: U+%04X upper-cases to several code points; pyUpper skips 0x2000-0xFAFF" % c)
            entries.append("\\x00%s\\x01%s" % (esc(chr(c)), esc(u)))
    lines = ["// Code generated by scripts/gen_conformance.py --casing from CPython's str.upper; DO NOT EDIT.", "",
             "package template", "",
             "// specialUpper holds the code points whose str.upper() is more than one code point: for each,",
             "// \"\\x00\", the code point, \"\\x01\", its uppercase. None lies in 0x2000-0xFAFF.",
             "const specialUpper = \"\" +"]
    for k in range(0, len(entries), 4):
        lines.append("\t\"" + "".join(entries[k:k + 4]) + "\" +")
    lines[-1] = lines[-1][:-2]
    return "\n".join(lines) + "\n"


def esc(s):
    return "".join("\\u%04X" % ord(x) if ord(x) <= 0xFFFF else "\\U%08X" % ord(x) for x in s)


def sync(path, text, check, what):
    if check:
        try:
            with open(path, encoding="utf-8") as fh:
                current = fh.read()
        except FileNotFoundError:
            current = None
        if current != text:
            made_by = (current or "").split("\n", 1)[0] if what != "casing" else ""
            now = text.split("\n", 1)[0] if what != "casing" else ""
            hint = " (goldens: %s; now: %s)" % (made_by, now) if made_by != now else ""
            sys.exit("gen_conformance: %s is out of date with the oracle%s; run: /usr/bin/python3 scripts/gen_conformance.py%s"
                     % (os.path.relpath(path, ROOT), hint, " --casing" if what == "casing" else ""))
        return
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)


def main(argv):
    check = "--check" in argv
    if "--casing" in argv:
        sync(CASING, casing_go(), check, "casing")
    else:
        sync(EXPECTED, generate(), check, "goldens")


if __name__ == "__main__":
    main(sys.argv[1:])

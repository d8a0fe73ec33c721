#!/usr/bin/python3
"""Differential test data for core/template and core/judge: random but deterministic cases, each
with what the real oracle (Jinja2 3.1 with StrictUndefined, Python's str.format) answers.

A separate script from gen_conformance.py because its input is a seed, not a hand-written corpus:
the cases are drawn here by a grammar of the supported subset, and each output line holds the case
together with the oracle's answer (gen_conformance.py keeps hand-written cases.jsonl and generated
expected.jsonl apart, so that humans edit one and never the other). It reuses gen_conformance's
rendering (so the two agree on what "the oracle's answer" is) and judge_goldens' rendering
conventions for the evaluators.

    core/template/testdata/differential/cases.jsonl   family a: templates (jinja and format)
        {name, dialect, template, vars} + {output} | {error, message, line} | {unsupported, python_ok}
    core/judge/testdata/differential/renders.jsonl    family b: the four evaluators' renders
        {name, evaluator, inputs, prompt}

    gen_differential.py           rewrite both files
    gen_differential.py --check   exit 1 if either differs from what the oracles say now
    gen_differential.py --hunt SEED SCALE DIR
                                  write SCALE times as many cases drawn from SEED to DIR/cases.jsonl
                                  and DIR/renders.jsonl, for a one-off search for differences: run
                                  DIFFERENTIAL_CASES=DIR/cases.jsonl go test ./core/template -run Differential
                                  (DIFFERENTIAL_RENDERS=DIR/renders.jsonl for ./core/judge)

Run it with /usr/bin/python3 (Debian's python3-jinja2 3.1.2; see gen_conformance.py for why).
Changing the seed, the counts or the grammar rewrites every case: keep them stable and add new
kinds of case at the end of a generator's choices only when a rewrite is wanted.
"""
import json
import os
import random
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_conformance  # noqa: E402
import judge_goldens  # noqa: E402

ROOT = gen_conformance.ROOT
TEMPLATE_OUT = os.path.join(ROOT, "core", "template", "testdata", "differential", "cases.jsonl")
JUDGE_OUT = os.path.join(ROOT, "core", "judge", "testdata", "differential", "renders.jsonl")
SEED = 20261130
N_JINJA = 450
N_FORMAT = 100
N_UNSUPPORTED = 30
N_JUDGE = 25  # per evaluator

# Values ---------------------------------------------------------------------------------------

STRINGS = [
    "", "a", "Ada", "héllo wörld", "😀👍🏽", "e\u0301", "Å", "{{ x }}", "{% if %}", "}}", "{", "}",
    "{name}", "{{", "{#", "#}", "a\nb", " pad ", "\ttab\t", "ß", "ﬁ", "İ", "ΣΑΣ", "ὈΔΥΣΣΕΎΣ",
    "quote'\"", "back\\slash", "\u2028", "\U0001F600", "x\r\ny", "0", "1.5", "none", "True",
    "𝔘𝔫𝔦", "\u00a0nbsp\u00a0", "日本語", "a,b", "\x7f", "\u0085", "ǅ", "ŉ", "ΐ",
]
INTS = [0, 1, 2, 3, -1, -7, 42, 10, 2 ** 53 + 1, 2 ** 63 - 1, -2 ** 63]
FLOATS = [1.0, 1e20, -0.0, 0.1 + 0.2, 2.5, -1.5, 1e16, 1e-7, 123456789.0, 1e22, 5e-324, 0.5, 3.0, 1.7976931348623157e308]
KEYS = ["a", "b", "name", "x y", "ü", "items", "0", "text", "title", "id"]


def gen_value(r, depth=0):
    k = r.random()
    if depth >= 2 or k < 0.55:
        return gen_scalar(r)
    if k < 0.8:
        return [gen_value(r, depth + 1) for _ in range(r.randrange(0, 4))]
    d = {}
    for _ in range(r.randrange(0, 4)):
        d[r.choice(KEYS)] = gen_value(r, depth + 1)
    return d


def gen_scalar(r):
    k = r.randrange(10)
    if k == 0:
        return None
    if k == 1:
        return r.choice([True, False])
    if k < 4:
        return r.choice(INTS)
    if k < 6:
        return r.choice(FLOATS)
    return r.choice(STRINGS)


# The variables every Jinja case may use; each case draws values for all of them, with a bias
# towards the kinds the names suggest so that most expressions evaluate.
VAR_KINDS = {"s": "str", "t": "str", "n": "int", "m": "int", "f": "float", "xs": "list", "ws": "strlist",
             "d": "dict", "b": "bool", "z": "none", "v": "any", "w": "any"}
UNDEFINED_NAMES = ["undef", "missing", "nope"]


def gen_var(r, kind):
    if r.random() < 0.12:
        return gen_value(r)
    if kind == "str":
        return r.choice(STRINGS)
    if kind == "int":
        return r.choice(INTS[:8])
    if kind == "float":
        return r.choice(FLOATS)
    if kind == "list":
        return [gen_value(r, 1) for _ in range(r.randrange(0, 5))]
    if kind == "strlist":
        return [r.choice(STRINGS) for _ in range(r.randrange(0, 5))]
    if kind == "dict":
        d = {}
        for _ in range(r.randrange(0, 5)):
            d[r.choice(KEYS)] = gen_value(r, 1)
        return d
    if kind == "bool":
        return r.choice([True, False])
    if kind == "none":
        return None
    return gen_value(r)


def gen_vars(r):
    return {name: gen_var(r, kind) for name, kind in VAR_KINDS.items()}


# Jinja expressions ----------------------------------------------------------------------------

STRING_LITERALS = [
    "'a'", '"b"', "''", "'a\\nb'", '"\\u00e9"', "'\\x41'", '"\\U0001F600"', "'it\\'s'", '"tab\\t"',
    "'héllo'", "'😀'", "'{{ x }}'", "'}}'", "', '", "'-'", "'\\\\'", "'\\é'",
    '"q\\"q"', "'a\\\nb'", "'%'", "'e\u0301'", "'x'", "'ß'", "'ΣΑΣ'",
]
INT_LITERALS = ["0", "1", "2", "3", "7", "42", "1_000", "0x1F", "0o17", "0b101", "00", "10"]
FLOAT_LITERALS = ["1.5", "1e3", "2.5e-3", "0.1", "1.0", "1e20", "1_0.5", "1E16", "0.0", "0.1e1", "12.50"]
CONSTANTS = ["true", "false", "none", "True", "False", "None"]
LOOP_ATTRS = ["index", "index0", "first", "last", "length"]
COMPARE_OPS = ["==", "!=", "<", "<=", ">", ">=", "in", "not in"]
ARITH_OPS = ["+", "-", "*", "/", "//", "%", "~"]


class Gen:
    def __init__(self, r, variables):
        self.r = r
        self.vars = variables
        self.loop_vars = []  # names bound by enclosing for loops
        self.in_loop = 0
        self.set_names = []

    def name(self):
        r = self.r
        pool = list(VAR_KINDS) + self.loop_vars + self.set_names
        if r.random() < 0.04:
            return r.choice(UNDEFINED_NAMES)
        return r.choice(pool)

    def access(self, name):
        """name, often followed by an attribute, key or index its value really has."""
        r = self.r
        v = self.vars.get(name)
        if isinstance(v, dict) and v and r.random() < 0.6:
            k = r.choice(list(v))
            if k.isidentifier() and r.random() < 0.6:
                return "%s.%s" % (name, k)
            return "%s[%s]" % (name, json.dumps(k, ensure_ascii=False))
        if isinstance(v, (list, str)) and v and r.random() < 0.4:
            i = r.randrange(-len(v), len(v))
            return "%s.%d" % (name, i) if i >= 0 and r.random() < 0.3 else "%s[%d]" % (name, i)
        return name

    def literal(self):
        r = self.r
        k = r.randrange(10)
        if k < 4:
            return r.choice(STRING_LITERALS)
        if k < 6:
            return r.choice(INT_LITERALS)
        if k < 8:
            return r.choice(FLOAT_LITERALS)
        return r.choice(CONSTANTS)

    def primary(self, depth):
        r = self.r
        k = r.random()
        if self.in_loop and k < 0.12:
            return "loop." + r.choice(LOOP_ATTRS)
        if k < 0.55:
            return self.access(self.name())
        if k < 0.85 or depth <= 0:
            return self.literal()
        if k < 0.93:
            return "[" + ", ".join(self.expr(depth - 1) for _ in range(r.randrange(0, 4))) + "]"
        return "(" + self.expr(depth - 1) + ")"

    def postfix(self, x, depth):
        r = self.r
        if r.random() < 0.92:
            return x
        k = r.randrange(4)
        if k == 0:
            return x + "." + r.choice(["a", "b", "name", "text", "title"])
        if k == 1:
            return x + "[" + r.choice(["'a'", "'b'", "'name'", "'x y'", "'ü'"]) + "]"
        if k == 2:
            return x + "[" + r.choice(["0", "1", "-1", "n", "m"]) + "]"
        return x + ("[" + self.expr(depth - 1) + "]" if depth > 0 else "[0]")

    def filter(self, depth):
        r = self.r
        arg = (lambda: self.expr(depth - 1)) if depth > 0 else self.literal
        choices = [
            lambda: "upper", lambda: "lower", lambda: "trim", lambda: "trim(%s)" % r.choice(["'x'", "'a '", "' '", "s"]),
            lambda: "length", lambda: "count", lambda: "join",
            lambda: "join(%s)" % r.choice(["', '", "'-'", "''", "s", "1"]),
            lambda: "join(%s, %s)" % (r.choice(["', '", "'|'"]), r.choice(["'a'", "'name'", "0"])),
            lambda: "replace(%s, %s)" % (r.choice(["'a'", "''", "'l'", "'{'", "'é'"]), r.choice(["'b'", "''", "'XY'", "s"])),
            lambda: "replace(%s, %s, %s)" % (r.choice(["'a'", "''", "'l'"]), r.choice(["'b'", "'-'"]), r.choice(["1", "0", "-1", "2"])),
            lambda: "default(%s)" % arg(), lambda: "default(%s, true)" % arg(), lambda: "d", lambda: "default",
            lambda: "first", lambda: "last", lambda: "tojson", lambda: "tojson(%s)" % r.choice(["2", "0", "'  '", "none"]),
        ]
        return r.choice(choices)()

    def unary(self, depth):
        r = self.r
        x = self.primary(depth)
        if x[:1].isalpha() and x not in CONSTANTS:
            # Not on literals: Jinja's optimizer folds a literal's missing attribute at compile
            # time and raises for code that never runs (a quirk outside what we model).
            x = self.postfix(x, depth)
        v = self.vars.get(x, "")  # the value of a bare variable; else treated as a string
        for _ in range(r.choice([0, 0, 0, 1, 1, 2])):
            if isinstance(v, (list, dict, str)) or r.random() < 0.2:
                x += "|" + self.filter(depth)
            else:
                # length, join, first and last want a sequence: keep to filters any value takes.
                x += "|" + r.choice(["upper", "lower", "trim", "tojson", "default('-')", "replace('1', 'one')"])
            v = ""
        if r.random() < 0.08 and (isinstance(self.vars.get(x), (int, float)) or x[:1].isdigit()):
            x = "-" + x
        return x

    def operand(self, depth):
        """An operand of a binary operator: a unary expression, or any expression in parentheses."""
        if depth <= 0 or self.r.random() < 0.7:
            return self.unary(depth)
        return "(" + self.expr(depth) + ")"

    def expr(self, depth=2):
        r = self.r
        k = r.random()
        if depth <= 0 or k < 0.45:
            return self.unary(depth)
        if k < 0.65:
            return "%s %s %s" % (self.operand(depth - 1), r.choice(ARITH_OPS), self.operand(depth - 1))
        if k < 0.7:
            # ** with a small exponent: a huge one would have Python compute for ever.
            return "%s ** %s" % (self.unary(depth - 1), r.choice(["0", "2", "3", "-1", "0.5", "64", "100"]))
        if k < 0.82:
            return "%s %s %s" % (self.operand(depth - 1), r.choice(COMPARE_OPS), self.operand(depth - 1))
        if k < 0.92:
            return "%s %s %s" % (self.expr(depth - 1), r.choice(["and", "or"]), self.expr(depth - 1))
        if k < 0.96:
            return "not " + self.operand(depth - 1)
        return "%s is %s" % (self.unary(depth - 1), r.choice(["defined", "not defined", "undefined"]))


TEXTS = ["Hello ", "\n", "  ", "x", " - ", "é", "😀", "}", "} }", "{ x }", "#}", "%}", "text\n  ", "\n\n", "a{b", ")", "\t", "e\u0301",
         "\r\n", "a\rb", " \n "]


def tag(r, body, kind):
    """A {% %} or {{ }} tag with random whitespace control."""
    left = r.choice(["", "", "", "-", "+"] if kind == "%" else ["", "", "-"])
    right = r.choice(["", "", "", "-"] + (["+"] if kind == "%" else []))
    sp = r.choice([" ", " ", "", "  ", "\n"])
    if kind == "%":
        return "{%" + left + sp + body + sp + right + "%}"
    return "{{" + left + sp + body + sp + right + "}}"


def gen_body(g, depth, n=None):
    r = g.r
    parts = []
    for _ in range(n if n is not None else r.randrange(1, 5)):
        k = r.random()
        if k < 0.3:
            parts.append(r.choice(TEXTS))
        elif k < 0.62 or depth <= 0:
            parts.append(tag(r, g.expr(2), "{"))
        elif k < 0.72:
            branches = [tag(r, "if " + g.expr(1), "%") + gen_body(g, depth - 1)]
            for _ in range(r.choice([0, 0, 1, 2])):
                branches.append(tag(r, "elif " + g.expr(1), "%") + gen_body(g, depth - 1))
            if r.random() < 0.5:
                branches.append(tag(r, "else", "%") + gen_body(g, depth - 1))
            parts.append("".join(branches) + tag(r, "endif", "%"))
        elif k < 0.84:
            parts.append(gen_for(g, depth))
        elif k < 0.9:
            if r.random() < 0.8:
                names = [r.choice(["a1", "s", "tmp", "n"])]
                parts.append(tag(r, "set %s = %s" % (names[0], g.expr(1)), "%"))
            else:
                names = ["a1", "tmp"]
                parts.append(tag(r, "set a1, tmp = %s" % r.choice(["[1, 2]", "xs", "ws", "'ab'", "[s, n]", "d"]), "%"))
            for name in names:
                if name not in g.set_names:
                    g.set_names.append(name)
        elif k < 0.94:
            parts.append(r.choice(["{# c #}", "{#- strip -#}", "{# {{ x }} {% if %} #}", "{#\nmulti\n#}"]))
        else:
            raw_open, raw_close = r.choice([("{% raw %}", "{% endraw %}"), ("{%- raw -%}", "{%- endraw -%}"), ("{%raw%}", "{%endraw%}"),
                                            ("{%+ raw %}", "{% endraw %}"), ("{% raw -%}", "{%\nendraw\n%}")])
            parts.append(raw_open + r.choice(["{{ x }}", "{% if %}", " a }} ", "{#", "\n", "{% endif %}"]) + raw_close)
    return "".join(parts)


def gen_for(g, depth):
    r = g.r
    if r.random() < 0.25:
        tgt, it = "k, v", r.choice(["d.items()", "d.items()", "{}.items()".format(r.choice(["xs", "s"]))])
        names = ["k", "v"]
    else:
        tgt = r.choice(["x", "item", "c"])
        it = r.choice(["xs", "ws", "s", "d", "t", "[1, 2, 3]", "'ab'", "xs", "ws", "[]", "xs|join"] + (["n", "z"] if r.random() < 0.2 else []))
        names = [tgt]
    g.loop_vars += names
    g.in_loop += 1
    body = gen_body(g, depth - 1)
    g.in_loop -= 1
    del g.loop_vars[-len(names):]
    els = tag(r, "else", "%") + gen_body(g, depth - 1, 1) if r.random() < 0.3 else ""
    return tag(r, "for %s in %s" % (tgt, it), "%") + body + els + tag(r, "endfor", "%")


def mutate(r, src):
    """Breaks a template the way a typo would: drops, doubles or truncates a character."""
    if not src:
        return src
    i = r.randrange(len(src))
    k = r.randrange(4)
    if k == 0:
        return src[:i] + src[i + 1:]
    if k == 1:
        return src[:i] + src[i] + src[i:]
    if k == 2:
        return src[:i]
    return src[:i] + r.choice(["{{", "}}", "{%", "%}", "(", ")", "[", "'", "|", "{% endif %}", "{% endfor %}"]) + src[i:]


UNSUPPORTED = [
    "{{ lipsum() }}", "{% autoescape true %}{{ s }}{% endautoescape %}", "{{ xs.append(1) }}", "{{ {1: 'a'} }}",
    "{{ (1, 2) + (3,) }}", "{{ xs|random }}", "{{ s.title() }}", "{{ {(1, 2): 3} }}",
    "{% block b %}x{% endblock %}", "{{ ws.index('a') }}", "{{ xs|random(2) }}", "{{ cycler(1, 2) }}",
    "{{ 1 is sameas 1 }}", "{{ 'AT&T'|striptags }}", "{{ 'a-b c'|wordwrap(3) }}", "{{ lipsum }}", "{{ s.format(1) }}",
    "{{ s.zfill(3) }}", "{{ xs.pop() }}", "{{ '%a'|format(1) }}", "{{ '١'|int }}", "{{ '٣.5'|float }}",
    "{{ ['a' * 50, 'b' * 50]|pprint }}", "{{ xs|random(1) }}", "{{ d.update(a=1) }}", "{{ '\\N{BULLET}' }}",
    "{{ joiner() }}", "{{ range(3).index(1) }}", "{{ s.encode() }}", "{{ 'a'.partition('b') }}",
]


def jinja_cases(r):
    cases = []
    for i in range(N_JINJA):
        variables = gen_vars(r)
        g = Gen(r, variables)
        src = gen_body(g, 2, r.randrange(1, 4))
        if r.random() < 0.1:
            src = r.choice(["line one\n", "\n", "a\nb\n  "]) + src
        if r.random() < 0.15:
            src = mutate(r, src)
        if r.random() < 0.08:
            src += "\n"
        cases.append({"name": "jinja-%03d" % i, "dialect": "jinja", "template": src, "vars": variables})
    for i in range(N_UNSUPPORTED):
        src = UNSUPPORTED[i % len(UNSUPPORTED)]
        if r.random() < 0.5:
            src = r.choice(["a\n", "x {{ s }}\n\n", "{% if true %}\n"]) + src + ("{% endif %}" if False else "")
        cases.append({"name": "unsupported-%03d" % i, "dialect": "jinja", "template": src, "vars": gen_vars(r),
                      "unsupported": True})
    return cases


# The whole language: macros, call blocks, keyword arguments, tuples, dicts, inline if, slices,
# set/with/filter blocks, recursive and filtered loops, the loop's attributes, range, namespace,
# and their errors, mixed with the scoping and whitespace control above. Drawn from a random
# source of its own (seed + 3) so that adding it left the cases above as they were.

N_LANG = 400
LOOP_ATTRS_MORE = ["revindex", "revindex0", "previtem", "nextitem", "depth", "depth0", "index", "length", "first", "last"]
SLICE_BOUNDS = ["", "", "0", "1", "2", "-1", "-2", "5", "-9", "n", "m", "none", "1.5", "undef"]
FILTERS_KW = [
    "default('-', boolean=true)", "default(default_value='x')", "join(d='-')", "join(', ', attribute='a')",
    "replace(old='a', new='b')", "replace('a', 'b', count=1)", "trim(chars=' x')", "tojson(indent=2)",
    "default(boolean=true)", "join(sep='-')", "replace('a', old='b')", "trim(value='x')", "upper(1)",
    "join('-', 'a', 'b')", "replace(new='b')", "join(*['-'])", "replace(*['a', 'b'], **{'count': 1})",
    "default(**{'boolean': true})", "join(**d)", "join(*n)", "trim(*xs)",
]


class LangGen(Gen):
    def __init__(self, r, variables):
        super().__init__(r, variables)
        self.macros = []  # (name, params, defaults count, uses caller)

    def lexpr(self, depth=1):
        """An expression of the whole language, often built on one of the subset."""
        r = self.r
        k = r.random()
        sub = lambda: self.expr(max(depth - 1, 0)) if depth > 0 else self.literal()
        if k < 0.25:
            return self.expr(depth)
        if k < 0.33:
            items = [sub() for _ in range(r.randrange(0, 4))]
            return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
        if k < 0.41:
            keys = r.sample(["'a'", "'b'", "'name'", "'x y'", "'ü'", "s"], r.randrange(0, 3))
            return "{" + ", ".join("%s: %s" % (key, sub()) for key in keys) + "}"
        if k < 0.51:
            return "%s if %s%s" % (sub(), sub(), " else " + sub() if r.random() < 0.7 else "")
        if k < 0.6:
            base = r.choice(["xs", "ws", "s", "t", "'abcdef'", "[1, 2, 3, 4]", "(1, 2, 3)", "'😀é'", "d", "n", "z"])
            parts = [r.choice(SLICE_BOUNDS) for _ in range(r.choice([2, 2, 3]))]
            return "%s[%s]" % (base, ":".join(parts))
        if k < 0.68:
            args = r.choice(["3", "1, 4", "5, 0, -2", "0, 10, 3", "n", "-2", "0", "1, 2, 0", "'a'", "m, n"])
            x = "range(%s)" % args
            return x + r.choice(["", "|join(',')", "|length", "|first", "|last", "|list" if False else ""])
        if k < 0.76:
            x = r.choice(["d.items()", "d.keys()", "d.values()", "d.get('a')", "d.get('zz', %s)" % sub(), "d.get(s)",
                          "s.upper()", "s.lower()", "s.strip()", "'  a '.strip()", "dict(a=1, b=%s)" % sub(), "dict(d)", "dict()"])
            return x + r.choice(["", "", "|length", "|join('-')", "|first"])
        if k < 0.84 and self.macros:
            return self.macro_call()
        if k < 0.92:
            return "%s|%s" % (self.unary(0), r.choice(FILTERS_KW))
        return "%s is %s" % (sub(), r.choice(["defined", "undefined", "defined(1)", "undefined(x=1)"]))

    def macro_call(self):
        r = self.r
        name, params, ndef, caller = r.choice(self.macros)
        nargs = r.randrange(0, len(params) + 2)
        args = [self.expr(0) for _ in range(min(nargs, len(params) - ndef + r.randrange(0, 2)))]
        kwargs = []
        for p in params[len(args):]:
            if r.random() < 0.4:
                kwargs.append("%s=%s" % (p, self.expr(0)))
        if r.random() < 0.1:
            kwargs.append("%s=1" % r.choice(["zz", "caller", params[0] if params else "q"]))
        if r.random() < 0.1:
            kwargs.append(r.choice(["*xs", "*[1, 2]", "**{'a': 1}", "**d", "*()"]))
        return "%s(%s)" % (name, ", ".join(args + kwargs))

    def macro_def(self, depth):
        r = self.r
        name = r.choice(["m", "render", "item", "m2"])
        params = r.sample(["a", "b", "x", "s", "n"], r.randrange(0, 4))
        ndef = r.randrange(0, len(params) + 1)
        sig = []
        for i, p in enumerate(params):
            sig.append(p + ("=" + self.expr(0) if i >= len(params) - ndef else ""))
        saved = self.loop_vars
        self.loop_vars = saved + params
        body = []
        for _ in range(r.randrange(1, 4)):
            k = r.random()
            if k < 0.45:
                body.append(tag(r, self.lexpr(1), "{"))
            elif k < 0.6:
                body.append(tag(r, r.choice(["caller()", "caller(1)", "varargs", "kwargs", "varargs|length", "kwargs|length",
                                             "%s.name" % name, "%s.arguments" % name, "%s.catch_kwargs" % name]), "{"))
            elif k < 0.75:
                body.append(r.choice(TEXTS))
            elif k < 0.85:
                body.append(tag(r, "set %s = %s" % (r.choice(["a", "tmp", "n"]), self.expr(0)), "%"))
            else:
                body.append(gen_body(self, depth - 1, 1))
        self.loop_vars = saved
        body = "".join(body)
        self.macros.append((name, params, ndef, "caller" in body))
        return tag(r, "macro %s(%s)" % (name, ", ".join(sig)), "%") + body + tag(r, "endmacro", "%")

    def stmt(self, depth):
        r = self.r
        k = r.random()
        if k < 0.15 or depth <= 0:
            return tag(r, self.lexpr(1), "{")
        if k < 0.3:
            m = self.macro_def(depth)
            uses = "".join(tag(r, self.macro_call(), "{") for _ in range(r.randrange(1, 3)))
            return m + uses
        if k < 0.38 and self.macros:
            sig = r.choice(["", "", "(x)", "(x, y=2)", "(a, b)"])
            body = r.choice(["[", "<", ""]) + tag(r, r.choice(["x", "y", "a", "s", "1"]) if sig else "s", "{") + r.choice(["]", ">", ""])
            return tag(r, "call%s %s" % (sig, self.macro_call()), "%") + body + tag(r, "endcall", "%")
        if k < 0.46:
            tgt = r.choice(["x", "a1", "ns.x", "a1, tmp", "(a1, tmp)"])
            if tgt.startswith("ns") and r.random() < 0.8:
                pre = tag(r, "set ns = namespace(x=%s)" % self.expr(0), "%")
            else:
                pre = ""
            flt = r.choice(["", "", "| upper", "| trim", "|replace('a', 'b')", "| upper | trim", "|length"])
            self.set_names += [t for t in ("x", "a1", "tmp") if t in tgt and t not in self.set_names]
            return pre + tag(r, "set %s %s" % (tgt, flt), "%") + gen_body(self, depth - 1, r.randrange(1, 3)) + tag(r, "endset", "%") + tag(r, r.choice(["x", "a1", "ns.x", "tmp"]), "{")
        if k < 0.54:
            names = r.sample(["a", "b", "s", "n"], r.randrange(1, 3))
            sets = ", ".join("%s = %s" % (nm, self.expr(0)) for nm in names)
            self.loop_vars += names
            body = gen_body(self, depth - 1, r.randrange(1, 3))
            del self.loop_vars[-len(names):]
            return tag(r, "with " + sets, "%") + body + tag(r, "endwith", "%") + tag(r, r.choice(names), "{")
        if k < 0.6:
            flt = r.choice(["upper", "trim", "replace('a', 'X')", "upper|trim", "length", "default('x')", "join('-')", "nope"])
            return tag(r, "filter " + flt, "%") + gen_body(self, depth - 1, r.randrange(1, 3)) + tag(r, "endfilter", "%")
        if k < 0.7:
            it = r.choice(["xs", "[[1, [2, 3]], 4]", "[{'a': 1, 'c': [{'a': 2, 'c': []}]}]", "ws", "[[], [[]]]", "d"])
            body = tag(r, "x" if r.random() < 0.5 else "loop.depth", "{") + r.choice(["(", "[", ""]) + \
                tag(r, r.choice(["loop(x) if x is iterable" if False else "loop(x)", "loop(x.c)", "loop(x if x is not string else [])" if False else "loop([])", "loop.depth0"]), "{") + r.choice([")", "]", ""])
            return tag(r, "for x in %s recursive" % it, "%") + body + tag(r, "endfor", "%")
        if k < 0.8:
            it = r.choice(["xs", "ws", "[1, 2, 3, 2]", "s", "range(4)", "d.items()", "[(1, 'a'), (2, 'b')]", "'abc'"])
            tgt = "k, v" if "items" in it or "(1" in it else r.choice(["x", "c"])
            cond = " if " + r.choice(["x", "c", "k", "v", "loop", "x != 2", "c is defined", "n"]) if r.random() < 0.4 else ""
            names = [t.strip() for t in tgt.split(",")]
            self.loop_vars += names
            self.in_loop += 1
            attrs = tag(r, "loop." + r.choice(LOOP_ATTRS_MORE), "{") + tag(r, r.choice(
                ["loop.cycle('a', 'b')", "loop.cycle()", "loop.changed(%s)" % names[0], "loop.changed()", "loop.previtem", "loop.nextitem"]), "{")
            body = attrs + gen_body(self, depth - 1, r.randrange(0, 2))
            self.in_loop -= 1
            del self.loop_vars[-len(names):]
            els = tag(r, "else", "%") + "empty" if r.random() < 0.3 else ""
            return tag(r, "for %s in %s%s" % (tgt, it, cond), "%") + body + els + tag(r, "endfor", "%")
        if k < 0.88:
            return tag(r, "set %s = %s" % (r.choice(["a1, tmp", "(a1, (tmp, x))", "a1", "t1"]), self.lexpr(1)), "%") + tag(r, r.choice(["a1", "tmp", "x", "t1"]), "{")
        if k < 0.93:
            return tag(r, "set ns = namespace(%s)" % r.choice(["", "n=0", "a=s, b=n", "d"]), "%") + tag(r, "for x in xs", "%") + \
                tag(r, "set ns.n = %s" % r.choice(["loop.index", "x", "ns.n + 1" if False else "loop.length"]), "%") + tag(r, "endfor", "%") + tag(r, r.choice(["ns.n", "ns", "ns.a", "ns.zz"]), "{")
        return tag(r, "print " + ", ".join(self.lexpr(0) for _ in range(r.randrange(1, 3))), "%")


def lang_cases(r):
    cases = []
    for i in range(N_LANG):
        variables = gen_vars(r)
        g = LangGen(r, variables)
        parts = []
        for _ in range(r.randrange(1, 4)):
            parts.append(g.stmt(2) if r.random() < 0.8 else gen_body(g, 1, 1))
        src = "".join(parts)
        if r.random() < 0.12:
            src = mutate(r, src)
        cases.append({"name": "lang-%03d" % i, "dialect": "jinja", "template": src, "vars": variables})
    return cases


# Filters and tests ------------------------------------------------------------------------------
#
# Each case applies one to three built-in filters, or a test, to a variable or a literal, with
# arguments drawn from what each takes (and, now and then, what it does not), so that every
# filter and test meets its errors too. Its own random stream (seed + 2): adding these cases
# leaves the others as they were.

N_LIB = 400


def refused_filters():
    """The built-in filters the engine refuses (jinjaFilters in core/template/filters.go): a drawn
    case using one is outside the subset. Refusing one more filter (to save wasm size, say) is then
    a change to the engine and a rerun of this script."""
    with open(os.path.join(ROOT, "core", "template", "filters.go"), encoding="utf-8") as fh:
        m = re.search(r'jinjaFilters\s*=\s*"([^"]*)"', fh.read())
    return set(m.group(1).split()) if m else set()


REFUSED_FILTERS = refused_filters()
LIB_PEOPLE = [{"name": "Ann", "age": 30, "city": "NY"}, {"name": "bob", "age": 25, "city": "ny"},
              {"name": "Cy", "age": 30, "city": "LA", "tags": ["a", "b"]}, {"name": "dee", "age": 41.5}]
LIB_TEXTS = ["Hello wörld-foo bar", "a\nb\n\nc", "<p>Hi &amp; <b>bye</b></p> <!-- c -->", "The quick brown fox jumps over the lazy dog",
             "ǆungla ßtraße ΑΣ", "  x  ", "42", " -0x1A ", "1_000", "3.75", "1e3", "nan", "-inf", "0b101", "%s-%d", "%(a)s %(b)05.1f",
             "%x|%#o|%+.2e|%g", "AT&T &lt;ok&gt; &#65;", "it's-a tEST\tcase", "", "ÉCOLE", "abc",
             "see http://x.com/a, www.y.org. (https://z.io/(p)) mail a@b.co or tel:123 <www.q.com>"]


def lib_attr(r):
    return r.choice(["'name'", "'age'", "'city'", "'tags.0'", "'nope'", "0", "'age,name'", "'name.0'"])


def lib_value(r, g):
    k = r.random()
    if k < 0.5:
        return g.access(g.name())
    if k < 0.65:
        return "people"
    if k < 0.85:
        return json.dumps(r.choice(LIB_TEXTS), ensure_ascii=False)
    return g.literal() if r.random() < 0.6 else "[" + ", ".join(g.literal() for _ in range(r.randrange(0, 4))) + "]"


def lib_filter(r):
    num = lambda: r.choice(["0", "1", "2", "3", "-1", "10", "2.5", "'x'", "none", "true"])
    opt = lambda *alts: r.choice(("",) + alts)
    choices = [
        lambda: "abs", lambda: "attr(%s)" % r.choice(["'name'", "'real'", "'x'", "1"]),
        lambda: "batch(%s%s)" % (num(), opt(", 'x'", ", 0")), lambda: "capitalize", lambda: "center(%s)" % opt("9", "2", "1.5", "width=12"),
        lambda: "dictsort" + opt("(true)", "(by='value')", "(reverse=true)", "(false, 'x')"), lambda: "escape", lambda: "e",
        lambda: "filesizeformat" + opt("(true)", "(binary=true)"), lambda: "float" + opt("(1.5)", "(default='d')"),
        lambda: "forceescape", lambda: "format(%s)" % r.choice(["1", "'a', 2", "a=1, b=2.5", "", "n, f", "1, a=2"]),
        lambda: "groupby(%s%s)" % (lib_attr(r), opt(", default='?'", ", case_sensitive=true")),
        lambda: "indent" + opt("(2)", "(2, true)", "('> ', blank=true)", "(first=true)", "(1.5)"),
        lambda: "int" + opt("(7)", "(base=16)", "(0, 0)", "(base=2)", "(base=40)"), lambda: "items", lambda: "list",
        lambda: "map(%s)" % r.choice(["'upper'", "'string'", "attribute='name'", "attribute='x', default=0", "'round', 1", "'nope'", "", "'int'"]),
        lambda: r.choice(["max", "min"]) + opt("(attribute='age')", "(case_sensitive=true)", "(attribute='name')"),
        lambda: "reject(%s)" % opt("'odd'", "'none'", "'string'", "'eq', 2", "'nope'"),
        lambda: "rejectattr(%s)" % opt("'age'", "'age', 'gt', 26", "'city', 'defined'"),
        lambda: "reverse", lambda: "round" + opt("(1)", "(-1)", "(1, 'floor')", "(0, 'ceil')", "(2, 'x')"), lambda: "safe",
        lambda: "select(%s)" % opt("'odd'", "'even'", "'number'", "'>', 1", "'in', [1, 'a']", "'divisibleby', 2"),
        lambda: "selectattr(%s)" % opt("'age'", "'name', 'lower'", "'age', '==', 30", "'city', 'undefined'"),
        lambda: "slice(%s%s)" % (num(), opt(", 'f'")),
        lambda: "sort" + opt("(true)", "(attribute='age')", "(attribute='age,name')", "(case_sensitive=true)", "(reverse=true, attribute='name')"),
        lambda: "string", lambda: "striptags", lambda: "sum" + opt("(attribute='age')", "(start=10)", "(start=[])"),
        lambda: "title", lambda: "truncate(%s)" % r.choice(["5", "9", "10, true", "12, false, '…'", "2", "7, leeway=0", "3, end=''"]),
        lambda: "unique" + opt("(true)", "(attribute='city')", "(attribute='age')"), lambda: "urlencode",
        lambda: "wordcount", lambda: "wordwrap(%s)" % r.choice(["5", "10, false", "8, wrapstring='|'", "4, break_on_hyphens=false", "0"]),
        lambda: "xmlattr" + opt("(false)"), lambda: "pprint",
        lambda: "upper", lambda: "length", lambda: "first", lambda: "last", lambda: "join(',')", lambda: "tojson",
        lambda: "urlize" + opt("(10)", "(nofollow=true)", "(target='_blank', rel='me')", "(extra_schemes=['tel:'])", "(2.5)"),
    ]
    return r.choice(choices)()


LIB_TESTS = ["odd", "even", "divisibleby 2", "divisibleby(0)", "defined", "undefined", "none", "boolean", "false", "true",
             "integer", "float", "lower", "upper", "string", "mapping", "number", "sequence", "iterable", "callable",
             "sameas none", "sameas true", "escaped", "in xs", "in 'abc'", "eq 1", "equalto 'a'", "ne 2", "lt 3", "lessthan 'b'",
             "le 2.5", "gt 0", "greaterthan 1", "ge 1", "filter", "test", "odd(1)", "eq", "divisibleby", "callable(1)"]


def lib_cases(r):
    cases = []
    for i in range(N_LIB):
        variables = gen_vars(r)
        variables["people"] = LIB_PEOPLE
        g = Gen(r, variables)
        x = lib_value(r, g)
        if r.random() < 0.25:
            body = "%s is %s%s" % (x, r.choice(["", "", "not "]), r.choice(LIB_TESTS))
        else:
            body = x + "".join("|" + lib_filter(r) for _ in range(r.choice([1, 1, 2, 3])))
            if r.random() < 0.5:
                body += r.choice(["|list", "|join(', ')", "|length", "|first"])
        src = tag(r, body, "{")
        if r.random() < 0.15:
            src = "{% for x in " + x + "|" + lib_filter(r) + " %}[{{ x }}]{% endfor %}"
        if r.random() < 0.1:
            src = r.choice(["line\n", "a\n\n"]) + src
        case = {"name": "lib-%03d" % i, "dialect": "jinja", "template": src, "vars": variables}
        if set(re.findall(r"\|\s*(\w+)", src)) & REFUSED_FILTERS:
            case["unsupported"] = True
        cases.append(case)
    return cases


# str.format -------------------------------------------------------------------------------------

FORMAT_NAMES = ["s", "t", "n", "f", "xs", "d", "b", "z", "v", "x y", "ü", "_"]
FORMAT_TEXTS = ["Hello ", "\n", " ", "é", "😀", "{{", "}}", "{{}}", "x", ": ", "[ok]", "e\u0301", "\t"]
FORMAT_BROKEN = ["}", "{", "{0}", "{}", "{ s}", "{s", "{s!}", "{:}", "{-1}", "{s{t}}", "{ }"]
FORMAT_UNSUPPORTED = ["{s!r}", "{n:>5}", "{d.a}", "{xs[0]}", "{f:.2f}", "{s!s}", "{n:{n}}", "{d[a]}"]


def format_cases(r):
    cases = []
    for i in range(N_FORMAT):
        parts = []
        unsupported = False
        for _ in range(r.randrange(1, 7)):
            k = r.random()
            if k < 0.35:
                parts.append(r.choice(FORMAT_TEXTS))
            elif k < 0.85:
                parts.append("{%s}" % (r.choice(FORMAT_NAMES) if r.random() > 0.05 else r.choice(UNDEFINED_NAMES)))
            elif k < 0.9:
                parts.append("{%s:}" % r.choice(FORMAT_NAMES))
            elif k < 0.96:
                parts.append(r.choice(FORMAT_BROKEN))
            else:
                parts.append(r.choice(FORMAT_UNSUPPORTED))
                unsupported = True
        vars_ = {name: gen_var(r, VAR_KINDS.get(name, "any")) for name in FORMAT_NAMES}
        case = {"name": "format-%03d" % i, "dialect": "format", "template": "".join(parts), "vars": vars_}
        if unsupported:
            case["unsupported"] = True
        cases.append(case)
    return cases


def oracle_result(case, jinja2):
    res = gen_conformance.render(case, jinja2)
    text = (res.get("output", "") + res.get("message", "")).lower()
    if " at 0x" in text or "at0x" in "".join(c for c in text if c.isalnum()):
        # Python printed a bound method (such as 'a'.title) or a generator, maybe cut up by later
        # filters: outside the subset, and its address changes from run to run.
        case = dict(case, unsupported=True)
        res = gen_conformance.render(case, jinja2)
    out = dict(case)
    out.update({k: v for k, v in res.items() if k != "name"})
    if case.get("unsupported") and not res.get("python_ok"):
        # Python raises on it too: then it is an ordinary error case (we may say "not supported"
        # or what Python says; either is an error).
        res = gen_conformance.render(dict(case, unsupported=False), jinja2)
        out = dict(case)
        out.update({k: v for k, v in res.items() if k != "name"})
        out["unsupported"] = True
        out["python_ok"] = False
    return out


# Evaluator inputs -------------------------------------------------------------------------------

TEXT_PIECES = ["The patient", " was prescribed", " atorvastatin 20 mg", ".", " {{ user.name }}", " {% if x %}", " {name}",
               " {{", " }}", " {", " }", "\n", "\n\n", " é", " 😀", " e\u0301", " 日本語", " [1]", " [ESSENTIAL PASSAGE]",
               " [BONUS PASSAGE]", " Score: 4", "\t", " {# c #}", " \\n", " 100%", " \"q\"", " it's", " \u2028", " ß",
               "\r\n", "\r", " \x00", " \ufeff", " {{ '{{' }}", " {0}", " {}"]
MODES = [None, "strict", "lenient", "LENIENT", " Lenient ", "", "other", "Strict\n", "lenİent", "\u00a0lenient\u00a0",
         "lenient\x1c", "\u3000strict", "\u2028lenient"]


def gen_text(r, lo=1, hi=6):
    s = "".join(r.choice(TEXT_PIECES) for _ in range(r.randrange(lo, hi)))
    if not any(c.isalnum() for c in s):
        s = "x" + s
    return s


def gen_judge_inputs(r, evaluator):
    if evaluator == "claim-groundedness":
        claims, used = [], set()
        for i in range(r.randrange(1, 5)):
            k = r.randrange(4)
            if k < 2:
                claims.append(gen_text(r))
                used.add("c%d" % (i + 1))
                continue
            c = {"text": gen_text(r)}
            cid = r.choice([None, "q%d" % i, i + 10, "c%d" % (i + 1), "é%d" % i, "{{id}}%d" % i])
            if cid is not None and str(cid) not in used:
                c["id"] = cid
                used.add(str(cid))
            else:
                used.add("c%d" % (i + 1))
            claims.append(c)
        # An id given explicitly may collide with a later positional one: the Go code rejects
        # duplicates, so drop such cases' explicit ids.
        ids = []
        for i, c in enumerate(claims):
            ids.append(str(c["id"]) if isinstance(c, dict) and "id" in c else "c%d" % (i + 1))
        if len(set(ids)) != len(ids):
            claims = [c["text"] if isinstance(c, dict) else c for c in claims]
        evidence = []
        for _ in range(r.randrange(0, 4)):
            k = r.randrange(4)
            if k < 2:
                evidence.append(gen_text(r, 0, 6))
            else:
                e = {"text": gen_text(r, 0, 6)}
                t = r.choice([None, "", "README.md", "notes {{x}}", "Ünï", "missing"])
                if t != "missing":
                    e["title"] = t
                evidence.append(e)
        return {"question": gen_text(r), "claims": claims, "evidence": evidence}
    if evaluator == "answer-grounding":
        facts = gen_text(r) if r.random() < 0.4 else [gen_text(r, 0, 4) for _ in range(r.randrange(1, 5))]
        inp = {"answer": gen_text(r), "facts": facts}
        mode = r.choice(MODES)
        if mode is not None or r.random() < 0.5:
            inp["mode"] = mode
        return inp
    if evaluator == "pairwise-faithfulness":
        return {"contexts": [gen_text(r, 0, 5) for _ in range(r.randrange(0, 5))],
                "expected_output": gen_text(r), "actual_output": gen_text(r)}
    inp = {"passage_gt": gen_text(r, 1, 10), "passage_llm": gen_text(r)}
    if r.random() < 0.3:
        inp["threshold"] = r.choice([0, 3, 2.5, "4", None])
    return inp


def judge_cases(r):
    out = []
    for evaluator in ["claim-groundedness", "answer-grounding", "pairwise-faithfulness", "rag-recall"]:
        for i in range(N_JUDGE):
            case = {"name": "%s-%02d" % (evaluator, i), "evaluator": evaluator, "inputs": gen_judge_inputs(r, evaluator)}
            case["prompt"] = judge_goldens.render(case)
            out.append(case)
    return out


# Output -----------------------------------------------------------------------------------------

def dumps(obj):
    # Keys keep their order: it is the order dicts print in.
    return json.dumps(obj, ensure_ascii=True)


def rendered(cases, jinja2):
    """What the oracle answers for each case (output or error message), for comparing two runs."""
    out = []
    for c in cases:
        res = gen_conformance.render(c, jinja2)
        out.append([res.get("output"), res.get("error"), res.get("message")])
    return out


def second_opinion(cases):
    """The oracle's answers from another Python process. Where a memory address leaks into an
    output (a generator printed, then cut up or sorted by later filters, where no " at 0x" is left
    to see), the two processes differ: such a case is outside the subset, and would make the
    goldens drift."""
    import subprocess
    proc = subprocess.run([sys.executable, os.path.abspath(__file__), "--render"], input=json.dumps(cases),
                          capture_output=True, text=True, check=True)
    return json.loads(proc.stdout)


def generate(seed=SEED, scale=1, template_out=TEMPLATE_OUT, judge_out=JUDGE_OUT):
    global N_JINJA, N_FORMAT, N_UNSUPPORTED, N_JUDGE, N_LIB, N_LANG
    N_JINJA, N_FORMAT, N_UNSUPPORTED, N_JUDGE, N_LIB, N_LANG = (n * scale for n in (N_JINJA, N_FORMAT, N_UNSUPPORTED, N_JUDGE, N_LIB, N_LANG))
    jinja2 = gen_conformance.load_jinja()
    header = dumps({"oracle": {"jinja2": jinja2.__version__, "python": sys.version.split()[0]}, "seed": seed})
    r = random.Random(seed)
    tcases = jinja_cases(r) + format_cases(r)
    tcases += lib_cases(random.Random(seed + 2))
    tcases += lang_cases(random.Random(seed + 3))
    results = [oracle_result(c, jinja2) for c in tcases]
    here, there = rendered(tcases, jinja2), second_opinion(tcases)
    for i, c in enumerate(tcases):
        if here[i] != there[i] and not results[i].get("unsupported"):
            results[i] = oracle_result(dict(c, unsupported=True), jinja2)
    tlines = [header] + [dumps(res) for res in results]
    r = random.Random(seed + 1)
    jlines = [header] + [dumps(c) for c in judge_cases(r)]
    return {template_out: "\n".join(tlines) + "\n", judge_out: "\n".join(jlines) + "\n"}


def main(argv):
    if "--render" in argv:
        print(json.dumps(rendered(json.load(sys.stdin), gen_conformance.load_jinja())))
        return
    check = "--check" in argv
    if "--hunt" in argv:
        k = argv.index("--hunt")
        seed, scale, out = int(argv[k + 1]), int(argv[k + 2]), argv[k + 3]
        files = generate(seed, scale, os.path.join(out, "cases.jsonl"), os.path.join(out, "renders.jsonl"))
    else:
        files = generate()
    stale = []
    for path, text in files.items():
        if check:
            try:
                with open(path, encoding="utf-8") as fh:
                    current = fh.read()
            except FileNotFoundError:
                current = None
            if current != text:
                stale.append(os.path.relpath(path, ROOT))
            continue
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text)
    if stale:
        sys.exit("gen_differential: %s out of date with the oracle; run: /usr/bin/python3 scripts/gen_differential.py"
                 % ", ".join(stale))


if __name__ == "__main__":
    main(sys.argv[1:])

#!/usr/bin/python3
"""Measure ragjudge's Jinja engine against the templates of Jinja2's own test suite.

    /usr/bin/python3 scripts/jinja_suite.py JINJA_TESTS_DIR [--repo DIR] [--json OUT]
                                            [--baseline OLD.json] [--refused-list] [--brief]
    /usr/bin/python3 scripts/jinja_suite.py --cases CASES.jsonl [...]   (your own templates instead)

JINJA_TESTS_DIR is the tests/ directory of a checkout of Jinja2 at tag 3.1.2 (for instance
`git clone --branch 3.1.2 https://github.com/pallets/jinja`); nothing of it is copied here.

The script reads test_filters.py, test_core_tags.py, test_lexnparse.py, test_tests.py,
test_regression.py and test_api.py statically (Python's ast, never importing them) and keeps the
templates a test builds with the default environment (the `env` fixture, `Environment()`,
`Environment(undefined=...)` or `Template(source)`) from a source it can evaluate (string literals,
f-strings and `+`/`%` over literals, pytest parametrize values, loops over literal tuples), each
with the variables of every `render(...)` of it whose arguments are literals (an argument that is
not a literal is dropped when the template never names it; otherwise that render is skipped). A
template that is never rendered (a syntax error test) is rendered with no variables.

Each (template, variables) pair is rendered by real Jinja2 (the Jinja2 this python imports: run it
with Debian's /usr/bin/python3 and python3-jinja2 3.1.2) with StrictUndefined and the default
Environment, and by ragjudge's engine (`go run ./scripts/jinjasuite` in --repo, default this
checkout), both from the same JSON-decoded variables. Each is then:

    identical    both render the same bytes
    fail-alike   both raise an error
    refused      Jinja renders; ragjudge says "not supported"
    other-error  Jinja renders; ragjudge fails with another error
    DIVERGES     both render and the outputs differ, or ragjudge renders where Jinja raises

The report (markdown, on stdout) gives the counts, the refusals by construct (the first construct
ragjudge refuses in each template, from its "not supported: ..." message), every other error and
every divergence with its template (--brief: only the counts, divergences and other errors;
--strict: exit 1 when anything diverges). --wasm runs the engine compiled to wasm in Node, as the
page runs it, so that the renders taking over a second that the report lists are the page's.
--cases renders a JSON-lines file of {template, vars} cases instead of the suite's. --json writes every case with both answers; --baseline compares
with such a file from an earlier run. --refused-list prints only the constructs still refused, with
how many templates each stops (for the README).
"""
import argparse
import ast
import collections
import itertools
import json
import os
import re
import signal
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FILES = ["test_filters.py", "test_core_tags.py", "test_lexnparse.py", "test_tests.py",
         "test_regression.py", "test_api.py"]
ENV_CLASSES = {"Environment"}
MAX_LOOP = 500


class NotLiteral(Exception):
    """An expression the extractor cannot evaluate statically."""


# Values the extractor tracks for names: a literal value, an environment, or a template.
class Env:
    def __init__(self, default):
        self.default = default


class Tmpl:
    def __init__(self, source, where):
        self.source = source
        self.where = where
        self.renders = []  # dicts of variables
        self.skipped = 0  # renders whose arguments could not be evaluated


SAFE_STR_METHODS = {"join", "format", "replace", "strip", "lstrip", "rstrip", "lower", "upper",
                    "split", "splitlines", "encode", "decode"}


def literal(node, scope):
    """Evaluates node when it is built from literals and names bound to literals."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.JoinedStr):
        parts = []
        for v in node.values:
            if isinstance(v, ast.Constant):
                parts.append(v.value)
                continue
            x = literal(v.value, scope)
            if v.conversion == ord("r"):
                x = repr(x)
            elif v.conversion == ord("s"):
                x = str(x)
            elif v.conversion == ord("a"):
                x = ascii(x)
            spec = literal(v.format_spec, scope) if v.format_spec is not None else ""
            parts.append(format(x, spec))
        return "".join(parts)
    if isinstance(node, ast.Name):
        b = scope.get(node.id, None)
        if isinstance(b, tuple) and b[0] == "val":
            return b[1]
        raise NotLiteral(node.id)
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        items = []
        for e in node.elts:
            if isinstance(e, ast.Starred):
                items.extend(literal(e.value, scope))
            else:
                items.append(literal(e, scope))
        return {ast.List: list, ast.Tuple: tuple, ast.Set: set}[type(node)](items)
    if isinstance(node, ast.Dict):
        d = {}
        for k, v in zip(node.keys, node.values):
            if k is None:
                d.update(literal(v, scope))
            else:
                d[literal(k, scope)] = literal(v, scope)
        return d
    if isinstance(node, ast.UnaryOp):
        x = literal(node.operand, scope)
        if isinstance(node.op, ast.USub):
            return -x
        if isinstance(node.op, ast.UAdd):
            return +x
        if isinstance(node.op, ast.Not):
            return not x
        raise NotLiteral("unary")
    if isinstance(node, ast.BinOp):
        a, b = literal(node.left, scope), literal(node.right, scope)
        if isinstance(node.op, ast.Add):
            return a + b
        if isinstance(node.op, ast.Mod) and isinstance(a, str):
            return a % b
        if isinstance(node.op, ast.Mult) and isinstance(b, int) and b < 10000:
            return a * b
        if isinstance(node.op, ast.Pow) and isinstance(a, int) and isinstance(b, int) and b < 200:
            return a ** b
        raise NotLiteral("binop")
    if isinstance(node, ast.Subscript):
        return literal(node.value, scope)[literal(node.slice, scope)]
    if isinstance(node, ast.Call):
        f = node.func
        if isinstance(f, ast.Attribute) and f.attr in SAFE_STR_METHODS:
            recv = literal(f.value, scope)
            if isinstance(recv, (str, bytes)):
                args = [literal(a, scope) for a in node.args]
                kw = {k.arg: literal(k.value, scope) for k in node.keywords if k.arg}
                if len(kw) != len(node.keywords):
                    raise NotLiteral("**")
                return getattr(recv, f.attr)(*args, **kw)
        # range(), list(), tuple(), reversed() and sorted() of literals become lists: JSON has
        # nothing else, and both engines get the same list.
        if isinstance(f, ast.Name) and f.id in ("range", "list", "tuple", "reversed", "sorted") and not node.keywords:
            args = [literal(a, scope) for a in node.args]
            if f.id == "range":
                if len(args) > 3 or any(not isinstance(a, int) for a in args) or len(range(*args)) > 10000:
                    raise NotLiteral("range")
                return list(range(*args))
            if len(args) != 1:
                raise NotLiteral(f.id)
            return list({"list": list, "tuple": tuple, "reversed": reversed, "sorted": sorted}[f.id](args[0]))
        if isinstance(f, ast.Name) and f.id == "dict" and not node.args:
            return {k.arg: literal(k.value, scope) for k in node.keywords if k.arg}
        if isinstance(f, ast.Name) and f.id in ("dedent", "str") and len(node.args) == 1:
            import textwrap
            x = literal(node.args[0], scope)
            return textwrap.dedent(x) if f.id == "dedent" else str(x)
        raise NotLiteral("call")
    raise NotLiteral(type(node).__name__)


def jsonable(x):
    """x as JSON (tuples become lists), or NotLiteral when JSON cannot carry it faithfully."""
    try:
        s = json.dumps(x, allow_nan=False, ensure_ascii=False, sort_keys=False)
    except (TypeError, ValueError):
        raise NotLiteral("not JSON")

    def check(v):
        if isinstance(v, bool) or v is None or isinstance(v, (str, float)):
            return
        if isinstance(v, int):
            # ragjudge's JSON decoding reads integers beyond int64 as floats (core/value).
            if not -2 ** 63 <= v < 2 ** 63:
                raise NotLiteral("big int")
            return
        if isinstance(v, (list, tuple)):
            for e in v:
                check(e)
            return
        if isinstance(v, dict):
            for k, e in v.items():
                if not isinstance(k, str):
                    raise NotLiteral("non-string key")
                check(e)
            return
        raise NotLiteral("type")

    check(x)
    return json.loads(s)


def mentions(source, name):
    return re.search(r"(?<![A-Za-z0-9_])" + re.escape(name) + r"(?![A-Za-z0-9_])", source) is not None


class Walker:
    """Walks one test function (for one set of parametrize values) in statement order."""

    def __init__(self, where, scope):
        self.where = where
        self.scope = dict(scope)
        self.templates = []

    # Environments and templates --------------------------------------------------------------

    def env_of(self, node):
        """The Env node evaluates to, or None."""
        if isinstance(node, ast.Name):
            b = self.scope.get(node.id)
            return b if isinstance(b, Env) else None
        if isinstance(node, ast.Call):
            return self.env_call(node)
        return None

    def env_call(self, node):
        f = node.func
        name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None
        if name in ENV_CLASSES:
            ok = not node.args and all(k.arg == "undefined" for k in node.keywords)
            return Env(ok)
        if name and name.endswith("Environment"):
            return Env(False)
        return None

    def template_of(self, node):
        """The Tmpl node evaluates to (creating it for a from_string/Template call), or None."""
        if isinstance(node, ast.Name):
            b = self.scope.get(node.id)
            return b if isinstance(b, Tmpl) else None
        if not isinstance(node, ast.Call):
            return None
        f = node.func
        if isinstance(f, ast.Attribute) and f.attr == "from_string":
            env = self.env_of(f.value)
            if env is None or not env.default or len(node.args) != 1 or node.keywords:
                return None
            return self.new_template(node.args[0])
        if isinstance(f, ast.Name) and f.id == "Template":
            if len(node.args) != 1 or node.keywords:
                return None
            return self.new_template(node.args[0])
        return None

    def new_template(self, src_node):
        try:
            src = literal(src_node, self.scope)
        except NotLiteral:
            return None
        except Exception:
            return None
        if not isinstance(src, str):
            return None
        t = Tmpl(src, self.where)
        self.templates.append(t)
        return t

    def add_render(self, t, args, keywords):
        variables = {}
        try:
            for a in args:
                d = literal(a, self.scope)
                if not isinstance(d, dict):
                    raise NotLiteral("positional")
                variables.update(d)
        except Exception:
            t.skipped += 1
            return
        for k in keywords:
            if k.arg is None:
                try:
                    variables.update(literal(k.value, self.scope))
                except Exception:
                    t.skipped += 1
                    return
                continue
            try:
                variables[k.arg] = jsonable(literal(k.value, self.scope))
            except Exception:
                if mentions(t.source, k.arg):
                    t.skipped += 1
                    return
        try:
            variables = jsonable(variables)
        except NotLiteral:
            t.skipped += 1
            return
        t.renders.append(variables)

    # Expressions -----------------------------------------------------------------------------

    def expr(self, node):
        """Visits node for template creations and renders; returns the Tmpl it evaluates to."""
        if node is None:
            return None
        if isinstance(node, ast.Call):
            f = node.func
            # tmpl.render(...) / env.from_string(...).render(...) / tmpl.generate(...)
            if isinstance(f, ast.Attribute) and f.attr in ("render", "generate"):
                t = self.template_of(f.value)
                if t is not None:
                    self.add_render(t, node.args, node.keywords)
                    return None
            # pytest.raises(E, env.from_string, src) / pytest.raises(E, tmpl.render, **kw)
            if isinstance(f, ast.Attribute) and f.attr == "raises" and len(node.args) >= 2:
                fn = node.args[1]
                if isinstance(fn, ast.Attribute) and fn.attr == "from_string" and len(node.args) == 3:
                    env = self.env_of(fn.value)
                    if env is not None and env.default and not node.keywords:
                        self.new_template(node.args[2])
                        return None
                if isinstance(fn, ast.Attribute) and fn.attr == "render":
                    t = self.template_of(fn.value)
                    if t is not None:
                        self.add_render(t, node.args[2:], [k for k in node.keywords if k.arg != "match"])
                        return None
            t = self.template_of(node)
            if t is not None:
                return t
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.AST) and not isinstance(child, (ast.FunctionDef, ast.Lambda)):
                self.expr(child)
        return None

    # Statements ------------------------------------------------------------------------------

    def bind(self, target, value_node):
        """Binds target (an assignment's target) to what value_node evaluates to."""
        if isinstance(target, ast.Name):
            env = self.env_call(value_node) if isinstance(value_node, ast.Call) else None
            if env is not None:
                self.scope[target.id] = env
                return
            t = self.expr(value_node)
            if t is not None:
                self.scope[target.id] = t
                return
            try:
                self.scope[target.id] = ("val", literal(value_node, self.scope))
            except Exception:
                self.scope.pop(target.id, None)
            return
        self.expr(value_node)
        self.unbind(target)

    def unbind(self, target):
        """Forgets what target names; an attribute or item set on an environment makes it custom."""
        for n in ast.walk(target):
            if isinstance(n, ast.Name):
                b = self.scope.get(n.id)
                if isinstance(b, Env) and not isinstance(target, ast.Name):
                    b.default = False
                elif isinstance(target, (ast.Name, ast.Tuple, ast.List, ast.Starred)):
                    self.scope.pop(n.id, None)

    def mutates_env(self, node):
        """env.filters["x"] = ..., env.globals.update(...), env.policies[...]: a custom environment."""
        for n in ast.walk(node):
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute):
                v = n.func.value
                if isinstance(v, ast.Attribute) and isinstance(v.value, ast.Name):
                    b = self.scope.get(v.value.id)
                    if isinstance(b, Env):
                        b.default = False

    def body(self, stmts):
        for s in stmts:
            self.stmt(s)

    def stmt(self, s):
        if isinstance(s, ast.Assign):
            for tgt in s.targets:
                if isinstance(tgt, (ast.Attribute, ast.Subscript)):
                    self.unbind(tgt)
            if len(s.targets) == 1:
                self.bind(s.targets[0], s.value)
            else:
                self.expr(s.value)
                for tgt in s.targets:
                    self.unbind(tgt)
            return
        if isinstance(s, (ast.AugAssign, ast.AnnAssign)):
            self.expr(s.value)
            self.unbind(s.target)
            return
        if isinstance(s, ast.For):
            try:
                items = list(literal(s.iter, self.scope))
            except Exception:
                items = None
            if items is None or len(items) > MAX_LOOP:
                self.expr(s.iter)
                self.unbind(s.target)
                self.body(s.body)
                self.body(s.orelse)
                return
            for item in items:
                if not self.assign_value(s.target, item):
                    self.unbind(s.target)
                self.body(s.body)
            self.body(s.orelse)
            return
        if isinstance(s, ast.With):
            for item in s.items:
                self.expr(item.context_expr)
                if item.optional_vars is not None:
                    self.unbind(item.optional_vars)
            self.body(s.body)
            return
        if isinstance(s, ast.If):
            self.expr(s.test)
            self.body(s.body)
            self.body(s.orelse)
            return
        if isinstance(s, ast.Try):
            self.body(s.body)
            for h in s.handlers:
                self.body(h.body)
            self.body(s.orelse)
            self.body(s.finalbody)
            return
        if isinstance(s, (ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef)):
            self.scope.pop(s.name, None)
            return
        if isinstance(s, ast.Expr):
            self.mutates_env(s.value)
        self.expr(s)

    def assign_value(self, target, value):
        if isinstance(target, ast.Name):
            self.scope[target.id] = ("val", value)
            return True
        if isinstance(target, (ast.Tuple, ast.List)):
            try:
                values = list(value)
            except TypeError:
                return False
            if len(values) != len(target.elts):
                return False
            return all(self.assign_value(t, v) for t, v in zip(target.elts, values))
        return False


def parametrizations(func, scope):
    """The parameter bindings pytest would run func with (one empty binding when not parametrized)."""
    sets = [{}]
    for dec in func.decorator_list:
        if not (isinstance(dec, ast.Call) and isinstance(dec.func, ast.Attribute) and dec.func.attr == "parametrize"):
            continue
        try:
            names = literal(dec.args[0], scope)
            values = literal(dec.args[1], scope)
        except Exception:
            return None
        if isinstance(names, str):
            names = [n.strip() for n in names.split(",") if n.strip()]
        rows = []
        for v in values:
            if len(names) == 1:
                rows.append({names[0]: v})
            else:
                rows.append(dict(zip(names, v)))
        sets = [dict(a, **b) for a, b in itertools.product(sets, rows)]
    return sets


def module_scope(tree):
    scope = {}
    for s in tree.body:
        if isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name):
            try:
                scope[s.targets[0].id] = ("val", literal(s.value, scope))
            except Exception:
                pass
    return scope


def extract_file(path):
    tree = ast.parse(open(path, encoding="utf-8").read(), path)
    base = os.path.basename(path)
    gscope = module_scope(tree)
    funcs = []
    for s in tree.body:
        if isinstance(s, ast.FunctionDef) and s.name.startswith("test"):
            funcs.append((s.name, s))
        elif isinstance(s, ast.ClassDef):
            for m in s.body:
                if isinstance(m, ast.FunctionDef) and m.name.startswith("test"):
                    funcs.append((s.name + "::" + m.name, m))
    out = []
    for name, func in funcs:
        params = [a.arg for a in func.args.args]
        psets = parametrizations(func, gscope)
        if psets is None:
            continue
        for i, pset in enumerate(psets):
            where = base + "::" + name + (f"[{i}]" if len(psets) > 1 else "")
            scope = dict(gscope)
            for p in params:
                scope.pop(p, None)
            if "env" in params:
                scope["env"] = Env(True)
            for k, v in pset.items():
                scope[k] = ("val", v)
            w = Walker(where, scope)
            w.body(func.body)
            out.extend(w.templates)
    return out


def extract(tests_dir):
    cases, seen = [], set()
    for f in FILES:
        for t in extract_file(os.path.join(tests_dir, f)):
            renders = t.renders
            if not renders and not t.skipped:
                renders = [{}]
            for variables in renders:
                key = (t.source, json.dumps(variables, sort_keys=True, ensure_ascii=False))
                if key in seen:
                    continue
                seen.add(key)
                cases.append({"id": f"{t.where}#{len(cases)}", "where": t.where,
                              "template": t.source, "vars": variables})
    return cases


# Rendering ---------------------------------------------------------------------------------------

class Timeout(Exception):
    pass


def render_jinja(cases):
    import jinja2
    from jinja2 import Environment, StrictUndefined

    def alarm(*_):
        raise Timeout()

    signal.signal(signal.SIGALRM, alarm)
    for c in cases:
        signal.alarm(10)
        try:
            env = Environment(undefined=StrictUndefined)
            c["jinja"] = {"output": env.from_string(c["template"]).render(**c["vars"])}
        except Timeout:
            c["jinja"] = {"error": "Timeout", "message": "took more than 10 s"}
        except BaseException as e:  # noqa: BLE001 - every failure is the oracle's answer
            if isinstance(e, KeyboardInterrupt):
                raise
            c["jinja"] = {"error": type(e).__name__, "message": str(e),
                          "line": getattr(e, "lineno", None)}
        finally:
            signal.alarm(0)
    return jinja2.__version__


def render_ragjudge(cases, repo, wasm=False):
    """Renders every case with the engine of the checkout at repo: natively (go run), or with
    wasm=True compiled as the page's wasm is (js/wasm, no inlining) and run by Node, so that the
    times in the report are the page's."""
    with tempfile.TemporaryDirectory() as tmp:
        name = os.path.join(tmp, "cases.jsonl")
        with open(name, "w", encoding="utf-8") as f:
            for c in cases:
                f.write(json.dumps({"id": c["id"], "template": c["template"], "vars": c["vars"]},
                                   ensure_ascii=False) + "\n")
        cmd = ["go", "run", "./scripts/jinjasuite"]
        if wasm:
            goroot = subprocess.run(["go", "env", "GOROOT"], capture_output=True, text=True, check=True).stdout.strip()
            runner = next((os.path.join(goroot, d, "wasm_exec_node.js") for d in ("lib/wasm", "misc/wasm")
                           if os.path.exists(os.path.join(goroot, d, "wasm_exec_node.js"))), None)
            if runner is None:
                sys.exit("jinja_suite: no wasm_exec_node.js under " + goroot)
            binary = os.path.join(tmp, "jinjasuite.wasm")
            b = subprocess.run(["go", "build", "-trimpath", "-gcflags=all=-l", "-o", binary, "./scripts/jinjasuite"],
                               cwd=repo, capture_output=True, text=True,
                               env=dict(os.environ, GOOS="js", GOARCH="wasm"))
            if b.returncode != 0:
                sys.exit(f"jinja_suite: building the wasm driver in {repo} failed:\n{b.stderr}")
            cmd = ["node", runner, binary]
        with open(name, encoding="utf-8") as stdin:
            p = subprocess.run(cmd, cwd=repo, stdin=stdin, capture_output=True, text=True, encoding="utf-8")
    if p.returncode != 0:
        sys.exit(f"jinja_suite: {' '.join(cmd)} in {repo} failed:\n{p.stderr}")
    answers = {}
    for line in p.stdout.split("\n"):
        if not line:
            continue
        a = json.loads(line)
        answers[a["id"]] = a
    for c in cases:
        c["ragjudge"] = answers[c["id"]]


# Classification and report -----------------------------------------------------------------------

KINDS = ["identical", "fail-alike", "refused", "other-error", "DIVERGES"]


def classify(c):
    j, r = c["jinja"], c["ragjudge"]
    if "output" in j:
        if "output" in r:
            return "identical" if r["output"] == j["output"] else "DIVERGES"
        return "refused" if r.get("refused") else "other-error"
    return "DIVERGES" if "output" in r else "fail-alike"


def cause(c):
    """The construct case c's "not supported: ..." message names, without its explanation; for a
    refused call, with the callee found at the error's position (call range(), call loop.cycle())."""
    m = re.sub(r"^not supported:?\s*", "", c["ragjudge"].get("msg") or "")
    m = re.sub(r"\s+\(.*\)$", "", m)
    m = re.sub(r'^the "([^"]+)" (filter|test)$', r"\2 \1", m)
    m = re.sub(r"^the \{% (\w+) %\} tag$", r"tag {% \1 %}", m)
    if m.startswith("call"):
        pos = re.match(r"template: suite:(\d+):(\d+):", c["ragjudge"].get("error", ""))
        if pos:
            lines = c["template"].replace("\r\n", "\n").split("\n")
            line, col = int(pos.group(1)), int(pos.group(2))
            before = lines[line - 1][:col - 1] if line <= len(lines) else ""
            callee = re.search(r"((?:[A-Za-z_]\w*)?(?:\.[A-Za-z_]\w*)*)\s*$", before).group(1)
            if callee:
                return "call " + (("str" if callee.startswith(".") else "") + callee) + "()"
    return m or "(no message)"


def fence(s):
    s = s if isinstance(s, str) else json.dumps(s, ensure_ascii=False)
    return "`" + s.replace("`", "\\`").replace("\n", "\\n") + "`"


def answer(a):
    if "output" in a:
        return "renders " + fence(repr(a["output"]))
    if "msg" in a or "refused" in a:
        return "fails: " + (a.get("error") or "")
    return f"raises {a.get('error')}: {a.get('message')}"


def report(cases, title, version, baseline=None, brief=False):
    counts = collections.Counter(c["kind"] for c in cases)
    n = len(cases)
    jinja_ok = sum(1 for c in cases if "output" in c["jinja"])
    lines = [f"### {title}", "",
             f"{n} templates (Jinja2 {version} renders {jinja_ok}, raises {n - jinja_ok}):",
             "", "| identical | fail-alike | refused | other error | DIVERGES |", "|---|---|---|---|---|",
             "| " + " | ".join(str(counts[k]) for k in KINDS) + " |", ""]
    if jinja_ok:
        lines.append(f"Refused: {counts['refused']} of the {jinja_ok} Jinja renders "
                     f"({100 * counts['refused'] / jinja_ok:.0f}%); other errors "
                     f"{counts['other-error']}; divergences {counts['DIVERGES']}.")
    panics = [c for c in cases if c["ragjudge"].get("panic")]
    if panics:
        lines.append(f"**{len(panics)} PANICS** (listed under their kind).")
    slow = [c for c in cases if c["ragjudge"].get("ms", 0) > 1000]
    if slow:
        lines.append(f"{len(slow)} renders took ragjudge over a second: " + "; ".join(
            f"{c['id']} {c['ragjudge']['ms']} ms {fence(c['template'][:80])}" for c in slow))
    lines.append("")

    if baseline:
        old = {(b["template"], json.dumps(b["vars"], sort_keys=True)): b["kind"] for b in baseline}
        moves = collections.Counter()
        worse = []
        for c in cases:
            k = old.get((c["template"], json.dumps(c["vars"], sort_keys=True)))
            if k and k != c["kind"]:
                moves[(k, c["kind"])] += 1
                if c["kind"] in ("DIVERGES", "other-error") or (c["kind"] == "refused" and k == "identical"):
                    worse.append(c)
        if moves:
            lines.append("Changes since the baseline: " + ", ".join(
                f"{a} → {b}: {m}" for (a, b), m in moves.most_common()) + ".")
            lines.append("")

    for kind, head in (("DIVERGES", "Divergences (worse than a refusal: fix or refuse)"),
                       ("other-error", "Other errors (Jinja renders, ragjudge fails without saying \"not supported\")")):
        sel = [c for c in cases if c["kind"] == kind]
        if not sel:
            continue
        lines += [f"#### {head}: {len(sel)}", ""]
        for c in sel:
            lines.append(f"- **{c['id']}**: template {fence(c['template'])}"
                         + (f" vars {fence(json.dumps(c['vars'], ensure_ascii=False))}" if c["vars"] else ""))
            lines.append(f"  - Jinja2: {answer(c['jinja'])}")
            lines.append(f"  - ragjudge: {answer(c['ragjudge'])}")
        lines.append("")

    if brief:
        return "\n".join(lines)
    refusals = collections.Counter(cause(c) for c in cases if c["kind"] == "refused")
    if refusals:
        lines += ["#### Refusals by construct (the first one ragjudge refuses in each template)", "",
                  "| templates | construct | family | e.g. |", "|---|---|---|---|"]
        example = {}
        for c in cases:
            if c["kind"] == "refused":
                example.setdefault(cause(c), c["id"])
        for what, m in refusals.most_common():
            family = what.split()[0] if what.split()[0] in ("filter", "test") else "syntax"
            lines.append(f"| {m} | {what} | {family} | {example[what]} |")
        lines.append("")

    off = []
    for c in cases:
        if c["kind"] != "fail-alike" or c["ragjudge"].get("refused") or not c["jinja"].get("line"):
            continue
        if c["jinja"]["error"] == "SyntaxError":
            continue  # Python's, about the code Jinja generated: its line is not the template's
        m = re.match(r"template: suite:(\d+):", c["ragjudge"].get("error", ""))
        if m and int(m.group(1)) != c["jinja"]["line"]:
            off.append(c)
    if off:
        lines += [f"#### Fail-alike on another line than Jinja's: {len(off)}", ""]
        for c in off:
            lines.append(f"- {c['id']}: {fence(c['template'])}: Jinja2 line {c['jinja']['line']} "
                         f"({c['jinja']['error']}: {c['jinja']['message']}); ragjudge {c['ragjudge'].get('error')}")
        lines.append("")

    fa_refused = collections.Counter(cause(c) for c in cases
                                     if c["kind"] == "fail-alike" and c["ragjudge"].get("refused"))
    if fa_refused:
        lines += ["#### Fail-alike where ragjudge refuses (Jinja raises too; the construct may still be missing)", "",
                  ", ".join(f"{w} ({m})" for w, m in fa_refused.most_common()), ""]
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("tests_dir", nargs="?", help="tests/ of a Jinja2 3.1.2 checkout")
    ap.add_argument("--repo", default=ROOT, help="the ragjudge checkout whose engine is measured")
    ap.add_argument("--title", default=None)
    ap.add_argument("--json", help="write every case with both answers to this file")
    ap.add_argument("--baseline", help="a --json file of an earlier run to compare with")
    ap.add_argument("--cases", help="render these cases instead (JSON lines of {id?, template, vars?}); "
                    "no tests_dir then")
    ap.add_argument("--wasm", action="store_true",
                    help="run the engine compiled to wasm in Node, as the page does (times in the report are then the page's)")
    ap.add_argument("--strict", action="store_true", help="exit 1 when any template diverges")
    ap.add_argument("--brief", action="store_true", help="report the counts, divergences and other errors only")
    ap.add_argument("--refused-list", action="store_true", help="print only the constructs still refused")
    args = ap.parse_args()

    if args.cases:
        cases, ids = [], set()
        with open(args.cases, encoding="utf-8") as f:
            for i, line in enumerate(f):
                if line.strip():
                    c = json.loads(line)
                    cid = c.get("id") or f"case-{i + 1}"
                    if cid in ids:
                        cid = f"{cid}@{i + 1}"
                    ids.add(cid)
                    cases.append({"id": cid, "template": c["template"], "vars": c.get("vars") or {}})
    elif args.tests_dir:
        cases = extract(args.tests_dir)
    else:
        ap.error("give the tests/ directory of a Jinja2 3.1.2 checkout, or --cases")
    version = render_jinja(cases)
    render_ragjudge(cases, args.repo, args.wasm)
    for c in cases:
        c["kind"] = classify(c)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(cases, f, ensure_ascii=False, indent=0)
    if args.refused_list:
        refusals = collections.Counter(cause(c) for c in cases if c["kind"] == "refused")
        for what, m in refusals.most_common():
            print(f"- {what} ({m})")
        return
    baseline = None
    if args.baseline:
        with open(args.baseline, encoding="utf-8") as f:
            baseline = json.load(f)
    title = args.title or f"ragjudge at {args.repo}"
    print(report(cases, title, version, baseline, args.brief))
    if args.strict and any(c["kind"] == "DIVERGES" for c in cases):
        sys.exit(1)


if __name__ == "__main__":
    main()

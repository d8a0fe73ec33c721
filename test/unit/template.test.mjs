// template.test.mjs: rj.template() in both dialects, and its errors with positions. The expected
// outputs were produced by Jinja2 3.1 (Environment(undefined=StrictUndefined)) and str.format;
// the full differential corpus lives with the core (core/template).
import { test } from "node:test";
import assert from "node:assert/strict";

import { api, throwsRJ } from "./rj.mjs";

const rj = await api();

const jinja = [
  ["Hello {{ name }}!", { name: "Wörld 🙂" }, "Hello Wörld 🙂!"],
  ["{% for x in xs %}{{ loop.index }}={{ x }}{% if not loop.last %}, {% endif %}{% endfor %}", { xs: ["a", "b", "c"] }, "1=a, 2=b, 3=c"],
  ["{{ n + 1 }} {{ f }} {{ t }} {{ none }} {{ xs }} {{ d }}", { n: 3, f: 2.5, t: true, none: null, xs: [1, "a"], d: { k: "v" } }, "4 2.5 True None [1, 'a'] {'k': 'v'}"],
  ["{{ names | join(', ') | upper }}", { names: ["ann", "bob"] }, "ANN, BOB"],
  ["line\n", {}, "line"],
  ["{{ '{{ not code }}' }}", {}, "{{ not code }}"],
  ["{% for k, v in d.items() %}{{ k }}:{{ v }};{% endfor %}", { d: { z: 1, a: 2 } }, "z:1;a:2;"],
  ["{{ x }}", { x: "{{ y }}" }, "{{ y }}"],
  ["{% macro li(x, tag='b') %}<{{ tag }}>{{ x }}</{{ tag }}>{% endmacro %}{{ li(1) }}{{ li(2, tag='i') }}", {}, "<b>1</b><i>2</i>"],
  ["{% set ns = namespace(n=0) %}{% for x in xs if x %}{% set ns.n = ns.n + x %}{% endfor %}{{ ns.n }} {{ (1, 'a') }} {{ {'k': xs[1:]} }}", { xs: [1, 0, 2] }, "3 (1, 'a') {'k': [0, 2]}"],
];

for (const [src, vars, want] of jinja) {
  test(`template jinja ${JSON.stringify(src)}`, () => {
    assert.equal(rj.template(src, "jinja", vars), want);
  });
}

test("template format: names, doubled braces, inputs verbatim", () => {
  assert.equal(rj.template("{a} {{b}} {c}", "format", { a: 1, c: "x" }), "1 {b} x");
  assert.equal(rj.template("{a}", "format", { a: "{b}" }), "{b}");
  assert.equal(rj.template("no fields", "format"), "no fields");
  assert.equal(rj.template("no fields", "jinja", null), "no fields");
});

test("template errors carry the line and column", () => {
  const e1 = throwsRJ(() => rj.template("{{ x", "jinja", {}), { kind: "template", subject: "<template>", line: 1, col: true });
  assert.match(e1.message, /^template: <template>:1:\d+: /);
  throwsRJ(() => rj.template("a\nb {{ nope }}", "jinja", {}), { kind: "template", line: 2, col: true, message: /nope/ });
  throwsRJ(() => rj.template("ok\n\n{% for x in y %}", "jinja", { y: [] }), { kind: "template", line: 3, col: true });
  throwsRJ(() => rj.template("{% if %}x{% endif %}", "jinja", {}), { kind: "template", line: 1, col: true });
  throwsRJ(() => rj.template("x\n{missing}", "format", {}), { kind: "template", line: 2, col: true, message: /missing/ });
  throwsRJ(() => rj.template("{unclosed", "format", {}), { kind: "template", line: 1, col: true });
});

test("variables: the names a template reads from its inputs", () => {
  assert.deepEqual(rj.variables("{% for c in contexts %}{{ c }}{{ loop.index }}{% endfor %}{{ question }}{% set x = 1 %}{{ x }}", "jinja"), ["contexts", "question"]);
  assert.deepEqual(rj.variables("{% macro m(a) %}{{ a }}{{ b }}{% endmacro %}{% with w = 1 %}{{ w }}{% endwith %}{{ range(2) }}", "jinja"), ["b"]);
  assert.deepEqual(rj.variables("{question} {{x}} {ctx[0]}", "format"), ["question", "ctx"]);
  throwsRJ(() => rj.variables("a\n{{ x", "jinja"), { kind: "template", subject: "<template>", line: 2, col: true });
  throwsRJ(() => rj.variables("x", "mustache"), { kind: "input", subject: "variables", message: /unknown dialect "mustache"/ });
});

test("template checks its arguments", () => {
  throwsRJ(() => rj.template("x", "mustache", {}), { kind: "input", subject: "template", message: /unknown dialect "mustache"/ });
  throwsRJ(() => rj.template("x"), { kind: "input", subject: "template", message: /dialect is required/ });
  throwsRJ(() => rj.template(42, "jinja"), { kind: "input", subject: "template", message: /source must be a string, got a number/ });
  throwsRJ(() => rj.template("x", "jinja", [1]), { kind: "input", subject: "template", message: /vars must be an object, got a list/ });
  throwsRJ(() => rj.template("x", "jinja", { f: () => 1 }), { kind: "input", subject: "template", message: /function/ });
  throwsRJ(() => rj.template("x", "jinja", { n: 1n }), { kind: "input", subject: "template", message: /bigint/ });
  const cyclic = {};
  cyclic.self = cyclic;
  throwsRJ(() => rj.template("x", "jinja", cyclic), { kind: "input", subject: "template", message: /circular/i });
});

test("data arguments follow JSON's rules: key order, integers, undefined, toJSON", () => {
  const vars = { a: [1, undefined, null], d: new Date(0), n: 2 ** 60, f: 0.1, i: 3.0, nested: { k: undefined, z: 1, b: 2 } };
  assert.equal(rj.template("{{ a }} {{ d }} {{ n }} {{ f }} {{ i }} {{ nested }}", "jinja", vars),
    "[1, None, None] 1970-01-01T00:00:00.000Z 1152921504606846976 0.1 3 {'z': 1, 'b': 2}");
});

test("a bad value deep in a data argument is named by its path", () => {
  throwsRJ(() => rj.render("claim-groundedness", { question: "q", claims: ["c"], evidence: [{ title: "t", text: NaN }] }),
    { kind: "input", subject: "render", message: /inputs\.evidence\[0\]\.text holds NaN/ });
  throwsRJ(() => rj.template("x", "jinja", { list: [1, -Infinity] }), { kind: "input", message: /vars\.list\[1\] holds -Infinity/ });
  throwsRJ(() => rj.recall({ essential: [4, Symbol("s")] }), { kind: "input", message: /scores\.essential\[1\] holds a symbol/ });
});

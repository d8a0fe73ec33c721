// hostile.test.mjs: the JS API under input meant to break it. Nesting at and past the engine's
// limits, inputs of 10 MB, text that is not valid UTF-16, templates that would run for ever, and a
// storm of failing calls: every call ends with a result or a RagJudgeError, and the engine keeps
// working after all of them. A stack overflow inside the wasm cannot be recovered (it leaves Go's
// runtime broken), which is why the limits exist; each case is timed (the "took" diagnostics).
import { test } from "node:test";
import { execFileSync } from "node:child_process";
import assert from "node:assert/strict";

import { RagJudgeError } from "../../web/ragjudge.js";
import { api, throwsRJ } from "./rj.mjs";

const rj = await api();

/** The deepest lists and objects nest in data the engine reads (value.MaxDepth). */
const maxDepth = 1000;

/** Runs fn, reports how long it took under the name what, and returns its result. */
function timed(t, what, fn) {
  const start = performance.now();
  const out = fn();
  const ms = performance.now() - start;
  t.diagnostic(`took ${ms.toFixed(1)} ms: ${what}`);
  return [out, ms];
}

const nested = (n, inner = "") => "[".repeat(n) + inner + "]".repeat(n);
const groundingInputs = { answer: "Paris", facts: ["Paris is in France."] };
const claimInputs = { question: "q", claims: ["The sky is blue."], evidence: ["The sky is blue."] };

/** Asserts the engine still answers correctly. */
function healthy() {
  assert.deepEqual(rj.passages("[ESSENTIAL PASSAGE] a [BONUS PASSAGE] b"), { essential: ["a"], bonus: ["b"] });
  assert.equal(rj.template("{{ x }}", "jinja", { x: 1 }), "1");
  assert.equal(rj.parse("answer-grounding", groundingInputs, "Yes").passed, true);
}

test("readDataset: a row nested to the limit is read, one past it is a row error", (t) => {
  const atLimit = `{"a": ${nested(maxDepth - 1)}}`; // the row's object is the first level
  const [ok] = timed(t, "JSONL row at the limit", () => rj.readDataset(atLimit + "\n", "jsonl"));
  assert.deepEqual(ok.errors, []);
  let v = ok.rows[0].a;
  let depth = 1;
  while (Array.isArray(v) && v.length) [v, depth] = [v[0], depth + 1];
  assert.equal(depth, maxDepth - 1);

  const past = `{"a": ${nested(maxDepth)}}`;
  const [bad] = timed(t, "JSONL row one past the limit", () => rj.readDataset(`{"q": 1}\n${past}\n{"q": 3}\n`, "jsonl"));
  assert.deepEqual(bad.rows, [{ q: 1 }, { q: 3 }]);
  assert.equal(bad.errors.length, 1);
  assert.equal(bad.errors[0].line, 2);
  // The 1000th "[" is the 1001st level (the row's object is the first), at column 1006.
  assert.equal(bad.errors[0].message, "invalid JSON at col 1006: JSON nested deeper than 1000 levels");

  // In a JSON list of rows too, and far past the limit.
  const [json] = timed(t, "JSON row one past the limit", () => rj.readDataset(`[{"q": 1}, ${past}]`, "json"));
  assert.deepEqual(json.rows, [{ q: 1 }]);
  assert.match(json.errors[0].message, /row 2: invalid JSON: JSON nested deeper than 1000 levels/);
  for (const text of [nested(5000), nested(200000), "[".repeat(200000), '{"data": ' + "[".repeat(200000)]) {
    const [r] = timed(t, `JSON dataset nested ${text.length} characters deep`, () => rj.readDataset(text, "json"));
    assert.deepEqual(r.rows, []);
    assert.equal(r.errors.length, 1);
    assert.equal(r.errors[0].line, 1);
  }
  healthy();
});

test("the limits leave room: at the limit every call works on 40% of the default stack", (t) => {
  // Browsers give wasm about the stack Node does (V8's default, about 1 MB); some give less, and
  // the caller's own frames take some. The deepest calls the limits allow must pass with much
  // less, so that a change that makes the recursion costlier fails here, not in a user's tab.
  const code = `
    import { load } from ${JSON.stringify(new URL("../../web/ragjudge.js", import.meta.url).href)};
    const rj = await load();
    const nested = (n) => "[".repeat(n) + "]".repeat(n);
    let o = 1;
    for (let k = 0; k < ${maxDepth - 1}; k++) o = [o];
    const out = [
      rj.readDataset('{"a": ' + nested(${maxDepth - 1}) + "}\\n", "jsonl").rows.length,
      rj.readDataset("[" + nested(200000) + "]", "json").errors.length,
      rj.template("{{ o }} {{ o|tojson }} {{ o == o }} {{ [o] < [o] }}", "jinja", { o }).length,
      rj.rowInputs("answer-grounding", { a: "x", f: o }, { answer: "a", facts: "f" }).checks.length,
      rj.template("{{ " + "(".repeat(20) + "1" + ")".repeat(20) + " }}", "jinja"),
      rj.parse("claim-groundedness", { question: "q", claims: ["c"], evidence: ["e"] }, nested(${maxDepth})).passed,
      // Recursion: macros nesting blocks, or deep expressions, as deep as the caps let them.
      ...[["{% if 1 %}".repeat(30), "m(n + 1)", "{% endif %}".repeat(30)], ["{% if 1 %}", "-".repeat(30) + "m(n + 1)|length", "{% endif %}"]]
        .map(([open, call, close]) => {
          try {
            return rj.template("{% macro m(n) %}" + open + "{{ " + call + " }}" + close + "{% endmacro %}{{ m(0) }}", "jinja");
          } catch (e) {
            return e.kind + ": " + /not supported/.test(e.message);
          }
        }),
    ];
    console.log(JSON.stringify(out));`;
  const start = performance.now();
  const out = execFileSync(process.execPath, ["--stack-size=400", "--input-type=module", "-e", code], { encoding: "utf8" });
  t.diagnostic(`took ${(performance.now() - start).toFixed(0)} ms (a new Node process)`);
  const [rows, errors, printed, , one, passed, blocks, exprs] = JSON.parse(out);
  assert.equal(blocks, "template: true");
  assert.equal(exprs, "template: true");
  assert.equal(rows, 1);
  assert.equal(errors, 1);
  assert.ok(printed > 4 * maxDepth);
  assert.equal(one, "1");
  assert.equal(passed, null);
});

test("template: nesting at the limit renders, one past it is a positioned error", (t) => {
  const parens = (n) => "{{ " + "(".repeat(n) + "1" + ")".repeat(n) + " }}";
  const ifs = (n) => "{% if 1 %}".repeat(n) + "x" + "{% endif %}".repeat(n);
  assert.equal(timed(t, "template with 20 parentheses (the limit)", () => rj.template(parens(20), "jinja"))[0], "1");
  assert.equal(timed(t, "template with 61 if blocks (the limit)", () => rj.template(ifs(61), "jinja"))[0], "x");
  for (const src of [parens(21), ifs(62), parens(100000), "{{ " + "[".repeat(100000) + " }}", "{{ " + "not ".repeat(100000) + "1 }}"]) {
    const start = performance.now();
    throwsRJ(() => rj.template(src, "jinja"), { kind: "template", line: 1, col: true, message: /nesting deeper than 64 levels/ });
    t.diagnostic(`took ${(performance.now() - start).toFixed(1)} ms: template past the nesting limit, ${src.length} characters`);
  }
  healthy();
});

test("data arguments: nested to the limit they cross, one past it they are refused by path", (t) => {
  let deep = 1;
  for (let k = 0; k < maxDepth - 1; k++) deep = [deep]; // vars is the first level
  assert.equal(timed(t, "variable nested to the limit", () => rj.template("{{ o|length }}", "jinja", { o: deep }))[0], "1");
  const printed = timed(t, "variable nested to the limit, printed", () => rj.template("{{ o }}", "jinja", { o: deep }))[0];
  assert.equal(printed, nested(maxDepth - 1, "1"));
  throwsRJ(() => rj.template("x", "jinja", { o: [deep] }), { kind: "input", subject: "template", detail: /^vars\.o(\[0\]){4}…(\[0\]){6} is circular or nested deeper than 1000 levels$/ });
  const cyclic = { a: [] };
  cyclic.a.push(cyclic);
  throwsRJ(() => rj.render("answer-grounding", cyclic), { kind: "input", subject: "render", message: /circular/ });
  healthy();
});

test("arguments whose reading throws (getters, toJSON, proxies) are input errors", (t) => {
  const getter = { answer: "a", get facts() { throw new Error("getter boom"); } };
  const toJSON = { toJSON() { throw new TypeError("toJSON boom"); } };
  const proxy = new Proxy({}, { ownKeys() { throw new Error("proxy boom"); } });
  for (const [inputs, want] of [[getter, /getter boom/], [toJSON, /toJSON boom/], [proxy, /proxy boom/]]) {
    const start = performance.now();
    throwsRJ(() => rj.render("answer-grounding", inputs), { kind: "input", subject: "render", message: want });
    t.diagnostic(`took ${(performance.now() - start).toFixed(1)} ms: argument whose reading throws (${want.source})`);
  }
  for (let k = 0; k < 100; k++) {
    assert.throws(() => rj.template("x", "jinja", { v: getter }), RagJudgeError);
  }
  healthy();
});

test("parse: judge answers nested far past any limit are read as data, not thrown", (t) => {
  for (const answer of [nested(100000), '{"claims": ' + "[".repeat(100000), "{".repeat(100000), '{"a":'.repeat(50000)]) {
    const [v] = timed(t, `judge answer nested ${answer.length} characters deep`, () => rj.parse("claim-groundedness", claimInputs, answer));
    assert.equal(v.passed, null);
    assert.ok(v.checks.some((c) => c.severity === "error" && typeof c.code === "string" && c.code !== ""), JSON.stringify(v.checks));
  }
  healthy();
});

test("a megabyte of braces, labels or score tags as a judge answer: every reader answers with a code", (t) => {
  rj.define({ id: "hostile-score", prompt: "{{ answer }}", inputs: [{ name: "answer" }], output: { kind: "score", min: 1, max: 5, pass_at: 4 } });
  const mb = 1 << 20;
  for (const answer of ["{".repeat(mb), "{[".repeat(mb / 2), "Score: ".repeat(mb / 7), "<score>".repeat(mb / 7), "Score (".repeat(mb / 7)]) {
    for (const [id, inputs] of [["claim-groundedness", claimInputs], ["answer-grounding", groundingInputs], ["hostile-score", { answer: "a" }]]) {
      const [v] = timed(t, `${id}, ${JSON.stringify(answer.slice(0, 8))}… (${answer.length} characters)`, () => rj.parse(id, inputs, answer));
      assert.equal(v.passed, null);
      assert.ok(v.checks.some((c) => c.severity === "error" && c.code.startsWith("answer.")), JSON.stringify(v.checks.slice(0, 2)));
    }
  }
  rj.undefine("hostile-score");
  healthy();
});

test("datasets of many columns: 10,000 load and map, past 16,384 the file is refused with its code", (t) => {
  const header = Array.from({ length: 10000 }, () => "question").join(",");
  const [table] = timed(t, "a CSV header of 10,000 copies of one name", () => rj.readDataset(header + "\n" + "x,".repeat(9999) + "y\n", "csv"));
  assert.equal(table.columns.length, 10000);
  assert.equal(table.columns[9999], "question_10000");
  const [m] = timed(t, "mapping 10,000 columns", () => rj.mapColumns("claim-groundedness", table.paths));
  assert.equal(m.mapping.question, "question");
  const e = timed(t, "a megabyte of commas", () => throwsRJ(() => rj.readDataset(",".repeat(1 << 20), "csv"), { kind: "dataset", code: "dataset.too-many-columns", line: 1 }))[0];
  assert.match(e.message, /the header has 1,048,577 columns, more than the 16,384 this reads/);
  healthy();
});

test("10 MB inputs: datasets, prompts, answers and template variables", (t) => {
  const row = (k) => JSON.stringify({ question: `Question ${k}?`, answer: "An answer. ".repeat(40), contexts: ["A context. ".repeat(40)] });
  const lines = [];
  for (let k = 0, n = 0; n < 10 << 20; k++) {
    lines.push(row(k));
    n += lines[k].length + 1;
  }
  const [ds] = timed(t, "10 MB JSONL dataset", () => rj.readDataset(lines.join("\n"), "jsonl"));
  assert.equal(ds.rows.length, lines.length);
  assert.deepEqual(ds.errors, []);

  const csv = "question,answer\n" + Array.from({ length: 100000 }, (_, k) => `q${k},"${"x".repeat(100)}"`).join("\n");
  const [c] = timed(t, "11 MB CSV dataset", () => rj.readDataset(csv, "csv"));
  assert.ok(c.rows.length > 0);

  const fact = "The capital of France is Paris. ".repeat(64); // 2 KB
  const facts = Array.from({ length: 5000 }, () => fact); // 10 MB
  const [r] = timed(t, "render with 10 MB of facts", () => rj.render("answer-grounding", { answer: "Paris", facts }));
  assert.ok(r.prompt.length > 10_000_000);
  assert.equal(r.messages[0].content, r.prompt);

  const [v] = timed(t, "parse a 10 MB answer", () => rj.parse("answer-grounding", groundingInputs, "x".repeat(10 << 20)));
  assert.equal(v.passed, null);
  assert.ok(v.checks.length > 0);

  const big = "é".repeat(5 << 20); // 10 MB of UTF-8
  const [out] = timed(t, "template printing a 10 MB variable", () => rj.template("{{ big }}", "jinja", { big }));
  assert.equal(out.length, big.length);

  const start = performance.now();
  throwsRJ(() => rj.template("x".repeat(10 << 20), "jinja"), { kind: "template", line: 1, col: true, message: /larger than/ });
  t.diagnostic(`took ${(performance.now() - start).toFixed(1)} ms: a 10 MB template source (refused)`);
  healthy();
});

test("text that is not valid Unicode: lone surrogates and escaped ones become U+FFFD", (t) => {
  const lone = "a\uD800b\uDC00c";
  assert.equal(timed(t, "lone surrogates", () => rj.template("{{ x }}", "jinja", { x: lone }))[0], "a\uFFFDb\uFFFDc");
  assert.equal(rj.template(lone, "jinja"), "a\uFFFDb\uFFFDc");
  const ds = rj.readDataset(`{"q": "x\\ud800y", "r": "${lone}"}\n`, "jsonl");
  assert.deepEqual(ds.rows, [{ q: "x\uFFFDy", r: "a\uFFFDb\uFFFDc" }]);
  const csv = rj.readDataset(`q\n${lone}\n`, "csv");
  assert.deepEqual(csv.rows, [{ q: "a\uFFFDb\uFFFDc" }]);
  const v = rj.parse("answer-grounding", { answer: lone, facts: [lone] }, "Yes\uD800");
  assert.equal(typeof v.passed === "boolean" || v.passed === null, true);
  const r = rj.render("answer-grounding", { answer: "\uD83D😀\uDE00", facts: ["f"] });
  const span = r.spans.find((s) => s.expr === "answer");
  assert.equal(r.prompt.slice(span.start, span.end), "\uFFFD😀\uFFFD");
  healthy();
});

test("template budgets: loops over large text end in a positioned budget error in the wasm too", (t) => {
  const big = "abcdefgh ".repeat(1 << 17); // 1.1 MB
  const xs = Array.from({ length: 1000 }, (_, k) => k);
  const cases = [
    ["{% for i in xs %}{{ big|upper }}{% endfor %}", 1, 25],
    ["{% for i in xs %}{% if big|upper %}{% endif %}{% endfor %}", 1, 28],
    ["{% for i in xs %}\n{% set y = big|replace('a', 'aaaa') %}{% endfor %}", 2, 16],
    ["{% for i in xs %}{% for j in xs %}{% for k in xs %}{{ i }}{% endfor %}{% endfor %}{% endfor %}", 1, 0],
    ["{% for i in xs %}{% if 'z' in big %}{% endif %}{% endfor %}", 1, 28],
    ["{% for c in big %}{% endfor %}", 1, 4],
  ];
  for (const [src, line, col] of cases) {
    const start = performance.now();
    const err = throwsRJ(() => rj.template(src, "jinja", { xs, big }), { kind: "template", line, col: col || true });
    const ms = performance.now() - start;
    t.diagnostic(`took ${ms.toFixed(1)} ms: ${src.replace(/\n/g, " ")} -> ${err.detail.slice(0, 40)}`);
    // The budget stopped it (the message says which); that it stops within bounded work is
    // core/template's test, which bounds the bytes allocated and runs in the wasm too. Time is
    // only reported: the test machines are shared and noisy.
    assert.match(err.detail, /too much work|over the limit|loop iterations/);
  }
  healthy();
});

test("a thousand failing calls of every kind, then good calls with the right results", (t) => {
  const good = {
    evaluators: rj.evaluators(),
    render: rj.render("answer-grounding", groundingInputs),
    parse: rj.parse("claim-groundedness", claimInputs, '{"claims": [{"claim_id": "c1", "grounded": true}]}'),
    template: rj.template("{% for x in xs %}{{ x|upper }}{% endfor %}", "jinja", { xs: ["a", "b"] }),
    recall: rj.recall({ essential: [4, 3], bonus: [4, 0] }),
    passages: rj.passages("[ESSENTIAL PASSAGE] a"),
    readDataset: rj.readDataset("q,a\n1,2\n"),
    mapColumns: rj.mapColumns("answer-grounding", ["response", "contexts"]),
    rowInputs: rj.rowInputs("answer-grounding", { a: "x", f: '["y"]' }, { answer: "a", facts: "f" }),
  };
  const cyclic = {};
  cyclic.self = cyclic;
  let deep = 1;
  for (let k = 0; k < maxDepth; k++) deep = [deep];
  // Arguments that are cyclic or 1000 levels deep cost about 10 ms each to refuse (the walk into
  // them crosses from Go into JS at each level), so they go round a hundred times, the rest a
  // thousand.
  const slow = [
    () => rj.render("answer-grounding", cyclic),
    () => rj.template("x", "jinja", { o: deep }),
  ];
  const failing = [
    () => rj.render("no-such-evaluator", {}),
    () => rj.render("answer-grounding", {}),
    () => rj.render(42, {}),
    () => rj.parse("answer-grounding", { facts: 1 }, "yes"),
    () => rj.parse("answer-grounding", groundingInputs),
    () => rj.template("{{ x }", "jinja"),
    () => rj.template("{{ missing }}", "jinja"),
    () => rj.template("{{ 1/0 }}", "jinja"),
    () => rj.template("{{ " + "(".repeat(1000) + " }}", "jinja"),
    () => rj.template("x", "jinja", { n: 1n }),
    () => rj.template("x", "mustache"),
    () => rj.recall({ essential: ["four"] }),
    () => rj.recall({ essential: [NaN] }),
    () => rj.recall({ extra: [] }),
    () => rj.passages(42),
    () => rj.readDataset(42),
    () => rj.readDataset("", "csv"),
    () => rj.readDataset("not json", "json"),
    () => rj.mapColumns("answer-grounding", "not a list"),
    () => rj.rowInputs("answer-grounding", {}, { answer: 1 }),
  ];
  const start = performance.now();
  let thrown = 0;
  for (let round = 0; round < 1000; round++) {
    for (const call of round % 10 ? failing : [...failing, ...slow]) {
      try {
        call();
      } catch (err) {
        assert.ok(err instanceof RagJudgeError, String(err));
        assert.notEqual(err.kind, "internal", err.message);
        thrown++;
      }
    }
  }
  t.diagnostic(`${thrown} failing calls took ${(performance.now() - start).toFixed(0)} ms`);
  assert.equal(thrown, 1000 * failing.length + 100 * slow.length);
  // A few template budget failures too: each is a long call.
  const xs = Array.from({ length: 100000 }, (_, k) => k);
  for (let k = 0; k < 5; k++) {
    throwsRJ(() => rj.template("{% for i in xs %}{% for j in xs %}{% endfor %}{% endfor %}", "jinja", { xs }), { kind: "template", line: 1, col: true });
  }

  assert.deepEqual(rj.evaluators(), good.evaluators);
  assert.deepEqual(rj.render("answer-grounding", groundingInputs), good.render);
  assert.deepEqual(rj.parse("claim-groundedness", claimInputs, '{"claims": [{"claim_id": "c1", "grounded": true}]}'), good.parse);
  assert.equal(good.parse.passed, true);
  assert.equal(rj.template("{% for x in xs %}{{ x|upper }}{% endfor %}", "jinja", { xs: ["a", "b"] }), "AB");
  assert.deepEqual(rj.recall({ essential: [4, 3], bonus: [4, 0] }), good.recall);
  assert.equal(good.recall.final, 4);
  assert.deepEqual(rj.passages("[ESSENTIAL PASSAGE] a"), good.passages);
  assert.deepEqual(rj.readDataset("q,a\n1,2\n"), good.readDataset);
  assert.deepEqual(rj.mapColumns("answer-grounding", ["response", "contexts"]), good.mapColumns);
  assert.deepEqual(rj.rowInputs("answer-grounding", { a: "x", f: '["y"]' }, { answer: "a", facts: "f" }), good.rowInputs);
  healthy();
});

test("codes and spans reach JS: checks carry code, line, col, len and input", () => {
  const v = rj.parse("claim-groundedness", claimInputs, '{"claims": [{"claim_id": "c9", "grounded": true}]}');
  const unknown = v.checks.find((c) => c.code === "claims.unknown-id");
  assert.deepEqual({ ...unknown, message: undefined }, { severity: "warning", code: "claims.unknown-id", message: undefined, line: 1, col: 13, len: 36 });
  const r = rj.rowInputs("answer-grounding", { a: "x", f: "one fact" }, { answer: "a", facts: "f" });
  assert.ok(r.checks.every((c) => typeof c.code === "string" && c.code && c.input), JSON.stringify(r.checks));
  const err = throwsRJ(() => rj.render("no-such-evaluator", {}), { kind: "input" });
  assert.equal(err.code, "input.unknown-evaluator");
});

test("RagJudgeError has a code, empty when the error has none", () => {
  // Errors with a code (the bridge's tests check that it crosses) keep it in err.code; the page
  // decides from codes, never from the message.
  const err = throwsRJ(() => rj.template("{{ x }", "jinja"), { kind: "template", line: 1, col: true });
  assert.equal(err.code, "");
  assert.equal(new RagJudgeError("input: x", { kind: "input", code: "input.no-markers" }).code, "input.no-markers");
});

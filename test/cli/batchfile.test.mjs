// batchfile.test.mjs: a run through a batch service. export-batch writes the requests a live run
// sends (the fake upstream receives the very same bodies from `ragjudge run`); an output file
// answering them, in OpenAI's shape with a failed line and a line missing, imports into the same
// results a live run of those answers gives; the rows no line answered are judged live by
// `ragjudge run` with the same --out, and nothing else is asked. An output file of another export
// is refused (exit 2), saying so.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { startFake } from "../e2e/fake-upstream.mjs";
import { KEY, tmp, ragjudge, jsonl, dataset, verdictFor, rowOf, chatCalls } from "./cli.mjs";

/** @type {any} */
let fake;
before(async () => {
  fake = await startFake();
});
after(() => fake.close());

const N = 8;
const judging = ["--evaluator", "answer-grounding", "--data", "data.csv", "--model", "judge-mini"];

/** outputLine is a batch service's answer to request line req: a chat completion with text. */
function outputLine(req, text, status = 200) {
  const body = status === 200 ? { id: "chatcmpl-x", object: "chat.completion", model: req.body.model, choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: "stop" }], usage: { prompt_tokens: 100, completion_tokens: 1 } } : { error: { message: "The server had an error", type: "server_error" } };
  return JSON.stringify({ id: "batch_req_" + req.custom_id, custom_id: req.custom_id, response: { status_code: status, request_id: "req_1", body }, error: null });
}

test("export-batch, a batch service's output, import: the live run's request bodies and verdicts; the rest judged live from the same --out", async () => {
  const dir = tmp();
  writeFileSync(join(dir, "data.csv"), dataset(N, { blank: 8 }));
  const exp = await ragjudge(["export-batch", ...judging, "--out", "requests.jsonl"], { cwd: dir });
  assert.equal(exp.code, 0, exp.out + exp.err);
  const requests = jsonl(join(dir, "requests.jsonl"));
  assert.equal(requests.length, N - 1, "the row without an answer is not exported");
  assert.match(exp.out, /requests\.jsonl: 7 requests \(rj:[0-9a-f]{16}\); 1 row left out/);
  assert.ok(requests.every((r) => r.method === "POST" && r.url === "/v1/chat/completions" && /^rj:[0-9a-f]{16}:\d+$/.test(r.custom_id)));

  // A live run sends exactly these bodies.
  fake.requests.length = 0;
  fake.answer = (prompt) => verdictFor(prompt);
  const live = await ragjudge(["run", ...judging, "--base-url", fake.url, "--out", "live.jsonl"], { cwd: dir, env: { OPENAI_API_KEY: KEY } });
  assert.equal(live.code, 0, live.out + live.err);
  const sent = new Map(chatCalls(fake).filter((c) => c.body.messages.length === 1).map((c) => [rowOf(c.body.messages[0].content), c.body]));
  for (const r of requests) assert.deepEqual(r.body, sent.get(Number(r.custom_id.split(":")[2])), r.custom_id);

  // The batch's output: row 1 failed (500), row 4 has no line; the others answered as the live judge
  // answered (row 5 unreadable: a batch file allows no repair request).
  const lines = [];
  for (const r of requests) {
    const row = Number(r.custom_id.split(":")[2]);
    if (row === 4) continue;
    lines.push(outputLine(r, verdictFor(r.body.messages[0].content), row === 1 ? 500 : 200));
  }
  writeFileSync(join(dir, "output.jsonl"), lines.join("\n") + "\n");
  const imp = await ragjudge(["import", "output.jsonl", ...judging, "--out", "imported.jsonl", "--report", "imported.html", "--min-pass-rate", "0.5"], { cwd: dir });
  assert.equal(imp.code, 1, "the gates are not checked while rows have no verdict: " + imp.out + imp.err);
  assert.match(imp.err, /Lines without an answer \(1\):\n  output\.jsonl:1 rj:[0-9a-f]{16}:1: HTTP 500: The server had an error/);
  assert.match(imp.err, /6 lines read, 5 rows answered \(rj:[0-9a-f]{16}\); 1 row that no line answered stays to judge/);
  assert.match(imp.out, /The gates were not checked: 1 row has no verdict yet/);
  const got = jsonl(join(dir, "imported.jsonl"));
  const want = jsonl(join(dir, "live.jsonl"));
  assert.deepEqual(got.map((r) => r.status), ["error", "passed", "failed", "pending", "undetermined", "failed", "passed", "error"]);
  for (const i of [1, 2, 5, 6]) {
    assert.deepEqual([got[i].verdict, got[i].checks, got[i].answers], [want[i].verdict, want[i].checks, want[i].answers], `row ${i + 1}: the live run's verdict`);
  }
  assert.equal(got[4].checks.at(-1).code, "repair.none");
  assert.ok(readFileSync(join(dir, "imported.html"), "utf8").includes("data.csv · Answer grounding"));

  // ragjudge run with the same --out judges what the import left: row 4, and row 1 whose line failed.
  fake.requests.length = 0;
  const rest = await ragjudge(["run", ...judging, "--base-url", fake.url, "--out", "imported.jsonl", "--min-pass-rate", "0.5"], { cwd: dir, env: { OPENAI_API_KEY: KEY } });
  assert.equal(rest.code, 0, rest.out + rest.err);
  assert.deepEqual(chatCalls(fake).map((c) => rowOf(c.body.messages[0].content)).sort(), [1, 4]);
  assert.deepEqual(jsonl(join(dir, "imported.jsonl")).map((r) => r.status), ["passed", "passed", "failed", "passed", "undetermined", "failed", "passed", "error"]);

  // An output file of another export (another model) is refused.
  const other = await ragjudge(["import", "output.jsonl", ...judging.slice(0, -1), "judge-other", "--out", "other.jsonl"], { cwd: dir });
  assert.equal(other.code, 2, other.out + other.err);
  assert.match(other.err, /This output file answers another export \(rj:[0-9a-f]{16}\), not the requests/);
});

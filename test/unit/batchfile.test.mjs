// Tests of the batch file round trip's pure parts (web/batch/batchfile.js) and its chunked reading,
// writing and storing (web/batch/batchfileio.js): custom_ids, output lines, matching and its
// report, a line turned into a row's result as a live call's answer is, and the whole round trip.
import { test } from "node:test";
import assert from "node:assert/strict";
import { customId, parseCustomId, RunHash, rowRequest, requestLine, parseOutputLine, lineResult, batchLineError, BATCH_URL } from "../../web/batch/batchfile.js";
import { exportBatch, importBatch, lineSplitter, readLines, storeRun, cacheAnswers } from "../../web/batch/batchfileio.js";
import { chat } from "../../web/model/llm.js";
import { Runner } from "../../web/batch/scheduler.js";
import { loadRun, newRun, todoIndices, askedAfresh, Retry } from "../../web/batch/runrecords.js";
import { repeatFields } from "../../web/stats/repeatexport.js";
import { statusOf, causeOf } from "../../web/results/status.js";
import { FakeClock, fakeJudge } from "./fakes.mjs";
import { RepairCode } from "../../web/batch/states.js";
import { Matcher } from "../../web/batch/batchmatch.js";
import { MemoryStore } from "../../web/batch/memorystore.js";
import { chatBody } from "../../web/model/chatrequest.js";

const request = { model: "judge-1", params: { temperature: 0, max_tokens: 100 } };
const items = (n) => Array.from({ length: n }, (_, i) => ({ inputs: { question: "q" + i } }));
const noYield = () => Promise.resolve();
const H = "0123456789abcdef";

/** okLine is an OpenAI batch output line answering custom_id id with content. */
const okLine = (id, content, extra = {}) =>
  JSON.stringify({
    id: "batch_req_" + id,
    custom_id: id,
    response: { status_code: 200, request_id: "req-" + id, body: { id: "chatcmpl-1", object: "chat.completion", model: "judge-1", choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }], usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 } } },
    error: null,
    ...extra,
  });

test("custom_id: written and read back, row and repeat 1-based in the text, 0-based in code", () => {
  assert.equal(customId(H, 0), "rj:0123456789abcdef:1");
  assert.equal(customId(H, 41, 2, 3), "rj:0123456789abcdef:42:3");
  assert.equal(customId(H, 41, 0, 1), "rj:0123456789abcdef:42", "no repeat number when each row is judged once");
  assert.deepEqual(parseCustomId("rj:0123456789abcdef:42"), { hash: H, index: 41, repeat: null });
  assert.deepEqual(parseCustomId("rj:0123456789abcdef:42:3"), { hash: H, index: 41, repeat: 2 });
  for (const bad of ["request-1", "rj:0123456789abcdef", "rj:0123456789ABCDEF:1", "rj:0123:1", "rj:0123456789abcdef:0", "rj:0123456789abcdef:01", "rj:0123456789abcdef:1:0", "rj:0123456789abcdef:1:2:3", "rj:0123456789abcdef:-1", "xx:0123456789abcdef:1", 42, null]) {
    assert.equal(parseCustomId(bad), null, String(bad));
  }
  assert.ok(customId(H, 9_999_999, 99, 100).length <= 64, "within the 64 characters batch services allow");
});

test("the run hash depends on the evaluator, every row's number and body, and nothing else", () => {
  const h = (ev, rows) => {
    const x = new RunHash(ev);
    for (const [i, b] of rows) x.row(i, b);
    return x.hex();
  };
  const base = h("a", [[0, "{}"], [1, '{"x":1}']]);
  assert.match(base, /^[0-9a-f]{16}$/);
  assert.equal(h("a", [[0, "{}"], [1, '{"x":1}']]), base, "deterministic");
  assert.notEqual(h("b", [[0, "{}"], [1, '{"x":1}']]), base);
  assert.notEqual(h("a", [[0, "{}"], [2, '{"x":1}']]), base);
  assert.notEqual(h("a", [[0, "{}"], [1, '{"x":2}']]), base);
  assert.notEqual(h("a", [[0, "{}"]]), base);
});

test("a request line's body is the live call's body: model/llm.js chatBody, no streaming, no key", async () => {
  const body = rowRequest(fakeJudge, { inputs: { question: "q1" } }, request);
  assert.equal(body, JSON.stringify(chatBody({ model: "judge-1", messages: [{ role: "user", content: "Q: q1" }], params: request.params }, false)));
  // What chat() sends for the same request, over a fetch that records it.
  let sent;
  await chat({ endpoint: "/v1", ...request, messages: [{ role: "user", content: "Q: q1" }] }, {
    apiKey: "sk-secret",
    fetch: async (_u, init) => ((sent = init.body), new Response(JSON.stringify({ choices: [{ message: { content: "yes" } }] }), { status: 200 })),
  });
  assert.equal(body, sent);
  const line = JSON.parse(requestLine("rj:" + H + ":2", body));
  assert.deepEqual(Object.keys(line), ["custom_id", "method", "url", "body"]);
  assert.equal(line.method, "POST");
  assert.equal(line.url, BATCH_URL);
  assert.equal(line.body.stream, false);
  assert.ok(!requestLine("x", body).includes("sk-secret"));
  assert.throws(() => rowRequest(fakeJudge, { error: "Row 3: question is empty" }, request), (e) => e.kind === "input");
  assert.throws(() => rowRequest(fakeJudge, { inputs: { question: "BOOM" } }, request), (e) => e.kind === "render");
});

test("output lines: answers, failures, lines never run, and malformed lines say why", () => {
  const ok = parseOutputLine(okLine("rj:" + H + ":1", "yes"));
  assert.equal(ok.status, 200);
  assert.equal(ok.requestId, "req-rj:" + H + ":1");
  assert.equal(parseOutputLine("   "), null);
  const err500 = parseOutputLine(JSON.stringify({ id: "b", custom_id: "c", response: { status_code: 500, request_id: "r", body: { error: { message: "boom" } } }, error: null }));
  assert.equal(err500.status, 500);
  const expired = parseOutputLine(JSON.stringify({ id: "b", custom_id: "c", response: null, error: { code: "batch_expired", message: "This request could not be executed before the completion window expired." } }));
  assert.equal(expired.status, 0);
  assert.equal(expired.error.code, "batch_expired");
  assert.match(parseOutputLine("{not json").malformed, /not JSON/);
  assert.match(parseOutputLine("[1]").malformed, /not a JSON object/);
  assert.match(parseOutputLine('{"response":{}}').malformed, /no custom_id/);
  assert.match(parseOutputLine('{"custom_id":"c","response":{"body":{}}}').malformed, /status_code/);
  assert.match(parseOutputLine('{"custom_id":"c","response":null,"error":null}').malformed, /neither/);
});

test("vLLM run-batch's failed lines: the cause in error (a text, or the server's error response), beside a response without a body", () => {
  // Written as vllm/entrypoints/openai/run_batch.py writes them (make_error_request_output, and
  // an ErrorResponse of the chat server).
  const text = parseOutputLine(JSON.stringify({ id: "vllm-1f0c", custom_id: "rj:" + H + ":3", response: { status_code: 400, request_id: "vllm-batch-9a2b", body: null }, error: "The model does not support Chat Completions API" }));
  assert.equal(text.status, 400);
  assert.deepEqual(text.error, { code: "", message: "The model does not support Chat Completions API" });
  const nested = parseOutputLine(JSON.stringify({ id: "vllm-2", custom_id: "c", response: { status_code: 400, request_id: "vllm-batch-3", body: null }, error: { error: { message: "This model's maximum context length is 4096 tokens.", type: "BadRequestError", param: null, code: 400 } } }));
  assert.deepEqual(nested.error, { code: "400", message: "This model's maximum context length is 4096 tokens." });
  const flat = parseOutputLine(JSON.stringify({ id: "vllm-4", custom_id: "c", response: { status_code: 400, request_id: "r" }, error: { object: "error", message: "max_tokens must be at least 1", type: "BadRequestError", code: 400 } }));
  assert.equal(flat.error.message, "max_tokens must be at least 1");
  // The row's error keeps the cause, and the import's report names it.
  for (const [line, want] of [[text, /does not support Chat Completions/], [nested, /maximum context length/], [flat, /max_tokens must be at least 1/]]) {
    const r = lineResult({ runId: "run-1", index: 0, item: { inputs: { question: "q" } }, judge: fakeJudge, model: "judge-1", line });
    assert.equal(r.error.kind, "http");
    assert.equal(r.error.status, 400);
    assert.match(r.error.detail, want);
  }
  const m = new Matcher({ hash: H, exported: new Uint8Array([1, 1, 1]) });
  m.take(JSON.stringify({ id: "vllm-1f0c", custom_id: customId(H, 2), response: { status_code: 400, request_id: "vllm-batch-9a2b", body: null }, error: "Request must not be sent in stream mode" }), "results.jsonl:3");
  assert.deepEqual(m.finish().failed.map((p) => [p.where, p.message]), [["results.jsonl:3", "HTTP 400: Request must not be sent in stream mode"]]);
});

test("Azure OpenAI's output line (no id, its keys in another order, content filter results) reads as OpenAI's", () => {
  const safe = { filtered: false, severity: "safe" };
  const line = parseOutputLine(JSON.stringify({
    custom_id: "rj:" + H + ":1",
    response: {
      body: { choices: [{ content_filter_results: { hate: safe, self_harm: safe, sexual: safe, violence: safe }, finish_reason: "stop", index: 0, logprobs: null, message: { content: "Verdict: no", role: "assistant" } }], created: 1722477079, id: "chatcmpl-9r", model: "gpt-4o-2024-05-13", object: "chat.completion", prompt_filter_results: [{ prompt_index: 0, content_filter_results: { jailbreak: { filtered: false, detected: false } } }], system_fingerprint: "fp_a9", usage: { completion_tokens: 3, prompt_tokens: 27, total_tokens: 30 } },
      request_id: "660b7424-b648-4b67-addc-862ba067d442",
      status_code: 200,
    },
    error: null,
  }));
  const r = lineResult({ runId: "run-1", index: 0, item: { inputs: { question: "q" } }, judge: fakeJudge, model: "my-batch-deployment", line, now: 1 });
  assert.deepEqual(r.answers, ["Verdict: no"]);
  assert.deepEqual(r.usage, { prompt_tokens: 27, completion_tokens: 3 });
  assert.equal(r.batch.requestId, "660b7424-b648-4b67-addc-862ba067d442");
});

test("the matcher reports unknown, duplicate, failed, malformed and missing lines with where they are", () => {
  const exported = new Uint8Array([1, 1, 1, 0, 1, 1]);
  const m = new Matcher({ hash: H, exported });
  const id = (i) => customId(H, i);
  const took = [];
  const take = (text, n) => {
    const r = m.take(text, "out.jsonl:" + n);
    if (r) took.push([r.index, r.line.status]);
  };
  take(okLine(id(0), "yes"), 1);
  take(JSON.stringify({ custom_id: id(1), response: { status_code: 429, request_id: "", body: { error: { message: "slow down" } } }, error: null }), 2);
  take(okLine(id(1), "no"), 3); // a later answer replaces the failure
  take(okLine(id(0), "no"), 4); // a duplicate of an answer: the first is kept
  take(okLine(id(3), "yes"), 5); // row 4 was not exported
  take(okLine("rj:ffffffffffffffff:1", "yes"), 6); // another export's
  take(okLine("request-7", "yes"), 7);
  take("{oops", 8);
  take("", 9);
  take(okLine(customId(H, 2, 1, 2), "yes"), 10); // a repeat number in a run without repeats
  take(JSON.stringify({ custom_id: id(4), response: null, error: { code: "batch_expired", message: "too late" } }), 11);
  const rep = m.finish();
  assert.deepEqual(took, [[0, 200], [1, 429], [1, 200], [4, 0]]);
  assert.equal(rep.lines, 10);
  assert.equal(rep.matched, 3);
  assert.equal(rep.answered, 2);
  assert.deepEqual(rep.missing, [2, 5]);
  assert.deepEqual(rep.duplicate.map((p) => p.where), ["out.jsonl:3", "out.jsonl:4"]);
  assert.match(rep.duplicate[0].message, /replaces that failure/);
  assert.match(rep.duplicate[1].message, /already answered at out.jsonl:1; kept the first/);
  assert.deepEqual(rep.failed.map((p) => [p.where, p.message]), [["out.jsonl:11", "not run (batch_expired): too late"]], "the replaced failure is no longer reported as failed");
  assert.deepEqual(rep.unknown.map((p) => p.where), ["out.jsonl:5", "out.jsonl:6", "out.jsonl:7", "out.jsonl:10"]);
  assert.match(rep.unknown[0].message, /row 4 was not in the exported file/);
  assert.match(rep.unknown[1].message, /another export/);
  assert.match(rep.unknown[3].message, /judges each row once/);
  assert.deepEqual(rep.malformed.map((p) => p.where), ["out.jsonl:8"]);
  assert.deepEqual(rep.foreign, { ffffffffffffffff: 1 });
  assert.equal(m.refusal(), null);
});

test("a file from another export is refused, saying which and what to do", () => {
  const m = new Matcher({ hash: H, exported: new Uint8Array([1, 1]) });
  m.take(okLine("rj:ffffffffffffffff:1", "yes"), "x:1");
  m.take(okLine("rj:ffffffffffffffff:2", "yes"), "x:2");
  assert.match(m.refusal(), /another export \(rj:ffffffffffffffff\).*\(rj:0123456789abcdef\).*Load the dataset/);
  const n = new Matcher({ hash: H, exported: new Uint8Array([1]) });
  n.take(okLine("request-1", "yes"), "x:1");
  assert.match(n.refusal(), /custom_id written by this page/);
  assert.match(new Matcher({ hash: H, exported: new Uint8Array([1]) }).refusal(), /no output lines/);
});

test("repeats: custom_ids end in the repeat number, and a row is missing until every repeat is answered", () => {
  const m = new Matcher({ hash: H, exported: new Uint8Array([1, 1]), repeats: 2 });
  assert.equal(m.take(okLine(customId(H, 0, 0, 2), "yes"), "a:1").repeat, 0);
  assert.equal(m.take(okLine(customId(H, 0, 1, 2), "no"), "a:2").repeat, 1);
  assert.equal(m.take(okLine(customId(H, 1, 0, 2), "yes"), "a:3").repeat, 0);
  assert.equal(m.take(okLine(customId(H, 1), "yes"), "a:4"), null, "a custom_id without its repeat number");
  assert.equal(m.take(okLine(customId(H, 1, 2, 3), "yes"), "a:5"), null, "a repeat past the run's");
  assert.deepEqual(m.finish().missing, [1]);
});

test("a line becomes the row's result as a live call's answer does, but an unreadable answer is not repaired", async () => {
  const its = [{ inputs: { question: "q0" } }, { inputs: { question: "q1" } }];
  const line = (content) => parseOutputLine(okLine("rj:" + H + ":1", content));
  const r = lineResult({ runId: "run-1", index: 0, item: its[0], judge: fakeJudge, model: "judge-1", line: line("yes"), now: 5 });
  assert.equal(statusOf(r), "passed");
  assert.deepEqual(r.answers, ["yes"]);
  assert.deepEqual(r.usage, { prompt_tokens: 10, completion_tokens: 2 });
  assert.equal(r.calls, 1);
  assert.equal(r.finishedAt, 5);
  assert.equal(r.batch.requestId, "req-rj:" + H + ":1");

  // The live engine's result for the same answer, over a fetch answering it.
  const store = new MemoryStore();
  const clock = new FakeClock();
  const fetch = async () => new Response(JSON.stringify({ choices: [{ message: { content: "yes" }, finish_reason: "stop" }], usage: { prompt_tokens: 10, completion_tokens: 2 } }), { status: 200 });
  const live = new Runner({ runId: "run-1", judge: fakeJudge, request: { endpoint: "/v1", ...request }, items: its, todo: [0], fetch, store, cache: null, clock, random: () => 0.5 });
  await clock.run(live.start());
  const [lr] = await store.getResults("run-1");
  for (const k of ["verdict", "answers", "error", "usage", "calls", "cachedCalls", "attempts", "repaired"]) assert.deepEqual(r[k], lr[k], k);

  const bad = lineResult({ runId: "run-1", index: 1, item: its[1], judge: fakeJudge, model: "judge-1", line: line("I think so") });
  assert.equal(statusOf(bad), "undetermined");
  assert.equal(causeOf(bad) !== null, true);
  assert.equal(bad.verdict.checks.at(-1).code, RepairCode.NONE);
  assert.equal(bad.repaired, false);

  const e500 = lineResult({ runId: "run-1", index: 1, item: its[1], judge: fakeJudge, model: "judge-1", line: parseOutputLine(JSON.stringify({ custom_id: "c", response: { status_code: 500, request_id: "", body: { error: { message: "boom" } } } })) });
  assert.equal(e500.error.kind, "http");
  assert.equal(e500.error.status, 500);
  assert.equal(e500.error.detail, "boom");
  const noMsg = lineResult({ runId: "run-1", index: 1, item: its[1], judge: fakeJudge, model: "judge-1", line: parseOutputLine(JSON.stringify({ custom_id: "c", response: { status_code: 200, request_id: "", body: { object: "chat.completion", choices: [] } } })) });
  assert.equal(noMsg.error.kind, "bad-response");
  assert.match(noMsg.error.detail, /chat.completion/);
  const expired = lineResult({ runId: "run-1", index: 1, item: its[1], judge: fakeJudge, model: "judge-1", line: parseOutputLine(JSON.stringify({ custom_id: "c", response: null, error: { code: "batch_expired", message: "too late" } })) });
  assert.equal(expired.error.kind, "batch");
  assert.match(expired.error.message, /The batch expired before it ran this request \(batch_expired\): judge it again with Resume/);
  assert.equal(batchLineError({ customId: "c", status: 0, requestId: "", body: null, error: null }, "m").kind, "batch");
  const input = lineResult({ runId: "run-1", index: 1, item: { error: "Row 2: question is empty" }, judge: fakeJudge, model: "judge-1", line: line("yes") });
  assert.equal(input.error.kind, "input");
});

test("lineSplitter: lines across chunks, CRLF, a last line without newline, empty lines kept", async () => {
  const chunks = ['{"a":1}\r\n{"b"', ":2}\n\n", '{"c":3}'];
  const rs = new ReadableStream({
    start(c) {
      for (const x of chunks) c.enqueue(x);
      c.close();
    },
  }).pipeThrough(lineSplitter());
  const got = [];
  for await (const l of rs) got.push(l);
  assert.deepEqual(got, ['{"a":1}', '{"b":2}', "", '{"c":3}']);
  const seen = [];
  const n = await readLines(new Blob(["x\ny\n"]), (t, i) => void seen.push([i, t]), { yieldFn: noYield });
  assert.equal(n, 2);
  assert.deepEqual(seen, [[1, "x"], [2, "y"]]);
});

test("round trip: export, answer each line, import with the error file, store as a run that reloads", async () => {
  const its = items(8);
  its[2] = { error: "Row 3: question is empty" };
  its[5] = { inputs: { question: "BOOM" } };
  const spec = { judge: fakeJudge, evaluatorId: "fake", items: its, request, yieldFn: noYield };
  const progress = [];
  const ex = await exportBatch({ ...spec, onProgress: (p) => progress.push(p.phase) });
  assert.equal(ex.lines, 6);
  assert.ok(progress.includes("render") && progress.includes("write"));
  const text = await ex.blob.text();
  const lines = text.trimEnd().split("\n").map((l) => JSON.parse(l));
  assert.deepEqual(lines.map((l) => l.custom_id), [0, 1, 3, 4, 6, 7].map((i) => customId(ex.hash, i)));
  // The batch service: yes for even questions, no for odd; q4 never run (error file), q6 unreadable.
  const out = [];
  const errs = [];
  for (const l of lines) {
    const q = Number(l.body.messages[0].content.slice(4));
    if (q === 4) errs.push(JSON.stringify({ id: "b", custom_id: l.custom_id, response: null, error: { code: "batch_expired", message: "too late" } }));
    else out.push(okLine(l.custom_id, q === 6 ? "maybe" : q % 2 ? "no" : "yes"));
  }
  out.push(out[0]); // a duplicate
  out.push(okLine("rj:" + ex.hash + ":99", "yes")); // an unknown row
  const files = [new File([out.join("\n") + "\n"], "results.jsonl"), new File([errs.join("\n")], "errors.jsonl")];
  const im = await importBatch({ ...spec, runId: "run-x", files });
  assert.equal(im.refusal, null);
  assert.equal(im.hash, ex.hash);
  assert.deepEqual(im.report.duplicate.map((p) => p.where), ["results.jsonl:6"]);
  assert.deepEqual(im.report.unknown.map((p) => p.where), ["results.jsonl:7"]);
  assert.deepEqual(im.report.failed.map((p) => p.where), ["errors.jsonl:1"]);
  assert.deepEqual(im.report.missing, []);
  const st = im.results.map((r) => statusOf(r));
  assert.deepEqual(st, ["passed", "failed", "error", "failed", "error", "error", "undetermined", "failed"]);
  assert.equal(im.results[2].error.kind, "input");
  assert.equal(im.results[5].error.kind, "render");

  const store = new MemoryStore();
  const run = newRun({ name: "d.jsonl", evaluator: "fake", mapping: {}, settings: { model: request.model, params: request.params, where: "batch file" } }, its);
  run.id = "run-x";
  await storeRun({ store, run, items: its, results: im.results, yieldFn: noYield });
  const back = await loadRun(store, "run-x");
  assert.equal(back.run.state, "done");
  assert.deepEqual(back.results.map((r) => statusOf(r)), st);

  // Another dataset's export refuses this output.
  const other = await importBatch({ ...spec, items: items(8), runId: "run-y", files: [new File([out.join("\n")], "results.jsonl")] });
  assert.match(other.refusal, /another export/);
  assert.ok(other.results.every((r) => r === undefined));
});

test("a partial output stores a paused run: the rows no line answered stay to judge", async () => {
  const its = items(3);
  const spec = { judge: fakeJudge, evaluatorId: "fake", items: its, request, yieldFn: noYield };
  const ex = await exportBatch(spec);
  const im = await importBatch({ ...spec, runId: "run-p", files: [new File([okLine(customId(ex.hash, 0), "yes")], "results.jsonl")] });
  assert.deepEqual(im.report.missing, [1, 2]);
  const store = new MemoryStore();
  const run = { ...newRun({ name: "d", evaluator: "fake", settings: { model: "m" } }, its), id: "run-p" };
  await storeRun({ store, run, items: its, results: im.results, yieldFn: noYield });
  assert.equal((await store.getRun("run-p")).state, "paused");
});

test("repeats: each row's lines carry the repeat number, and the import keeps every repeat and their majority, as a live run does", async () => {
  const its = items(3);
  const spec = { judge: fakeJudge, evaluatorId: "fake", items: its, request, repeats: 3, yieldFn: noYield };
  const ex = await exportBatch(spec);
  assert.notEqual(ex.hash, (await exportBatch({ ...spec, repeats: 1 })).hash, "the number of repeats is part of the export's identity");
  const lines = (await ex.blob.text()).trimEnd().split("\n").map((l) => JSON.parse(l));
  assert.deepEqual(lines.map((l) => l.custom_id.split(":").slice(2).join(":")), ["1:1", "1:2", "1:3", "2:1", "2:2", "2:3", "3:1", "3:2", "3:3"]);
  assert.ok(lines.slice(0, 3).every((l) => JSON.stringify(l.body) === JSON.stringify(lines[0].body)), "the repeats ask the same request");
  const answers = { "1": ["yes", "yes", "yes"], "2": ["yes", "no", "no"], "3": ["yes", null, "yes"] };
  const out = lines.map((l) => {
    const [, , row, rep] = l.custom_id.split(":");
    const a = answers[row][rep - 1];
    return a === null ? JSON.stringify({ custom_id: l.custom_id, response: { status_code: 503, request_id: "", body: { error: { message: "busy" } } } }) : okLine(l.custom_id, a);
  });
  const im = await importBatch({ ...spec, runId: "run-r", files: [new File([out.slice(0, -1).join("\n")], "results.jsonl")] });
  assert.deepEqual(im.report.missing, [2], "row 3's last repeat has no line");
  assert.equal(statusOf(im.results[0]), "passed");
  assert.equal(im.results[0].repeats.length, 3);
  assert.equal(im.results[0].calls, 3);
  assert.equal(statusOf(im.results[1]), "failed", "the majority of yes, no, no");
  assert.deepEqual(im.results[1].answers, ["yes", "no", "no"]);
  assert.equal(im.results[2].error.status, 503, "one repeat failing fails the row, even with another still missing");
  const whole = await importBatch({ ...spec, runId: "run-r", files: [new File([out.join("\n")], "results.jsonl")] });
  assert.deepEqual(whole.report.missing, []);

  // The live engine, every repeat answered "yes": the same result as the import's row 1.
  const store = new MemoryStore();
  const clock = new FakeClock();
  const fetch = async () => new Response(JSON.stringify({ choices: [{ message: { content: "yes" }, finish_reason: "stop" }], usage: { prompt_tokens: 10, completion_tokens: 2 } }), { status: 200 });
  const live = new Runner({ runId: "run-r", judge: fakeJudge, request: { endpoint: "/v1", ...request }, repeats: 3, items: its, todo: [0], fetch, store, cache: null, clock, random: () => 0.5 });
  await clock.run(live.start());
  const [lr] = await store.getResults("run-r");
  for (const k of ["verdict", "answers", "error", "usage", "calls", "attempts", "repaired", "repeats"]) assert.deepEqual(im.results[0][k], lr[k], k);
});

test("the exported requests file imported by mistake as the output: refused, saying it is the input file", () => {
  const hash = "0123456789abcdef";
  const m = new Matcher({ hash, exported: new Uint8Array([1, 1]) });
  const body = JSON.stringify({ model: "gpt-4o-mini", messages: [{ role: "user", content: "row 1" }] });
  assert.equal(m.take(requestLine(customId(hash, 0), body), "requests.jsonl:1"), null);
  assert.equal(m.take(requestLine(customId(hash, 1), body), "requests.jsonl:2"), null);
  m.finish();
  assert.match(/** @type {string} */ (m.refusal()), /^This is a batch input file \(the requests Export as batch file writes\), not the output of a batch/);
  assert.deepEqual(m.report.malformed.map((p) => p.request), [true, true]);
  // A file of other malformed lines keeps the general refusal.
  const other = new Matcher({ hash, exported: new Uint8Array([1]) });
  other.take('{"custom_id": "x"}', "f.jsonl:1");
  other.finish();
  assert.match(/** @type {string} */ (other.refusal()), /^None of this file's lines/);
});

/** liveFetch answers every chat call "yes" (a repair request "no") and records it. */
function liveFetch() {
  const calls = [];
  const f = async (url, init) => {
    const body = JSON.parse(init.body);
    calls.push(body);
    return new Response(JSON.stringify({ choices: [{ message: { content: body.messages.length > 1 ? "no" : "yes" }, finish_reason: "stop" }], usage: { prompt_tokens: 10, completion_tokens: 2 } }), { status: 200 });
  };
  f.calls = calls;
  return f;
}

/** resumeRun runs what Resume (retry NONE) or a retry would of an imported run, over store's cache. */
async function resumeRun({ store, its, results, repeats = 1, retry = Retry.NONE }) {
  const todo = todoIndices(its.length, results, { retry });
  const fetch = liveFetch();
  const clock = new FakeClock();
  const runner = new Runner({ runId: "run-live", judge: fakeJudge, request: { endpoint: "http://127.0.0.1:8080/v1", ...request }, repeats, items: its, todo, fresh: askedAfresh(results, todo, retry), fetch, store: new MemoryStore(), cache: store, clock, random: () => 0.5, policy: { timeoutMs: 1000, maxAttempts: 1 } });
  await clock.run(runner.start());
  return { todo, fetch, runner, results: await runner.o.store.getResults("run-live") };
}

test("an import's answers fill the request cache under a live call's keys: Resume pays only for what the file did not answer", async () => {
  const its = items(6);
  const spec = { judge: fakeJudge, evaluatorId: "fake", items: its, request, yieldFn: noYield };
  const ex = await exportBatch(spec);
  const lines = (await ex.blob.text()).trimEnd().split("\n").map((l) => JSON.parse(l));
  // Rows 1-3 answered, row 4 expired in the batch, rows 5 and 6 not in the output.
  const out = lines.slice(0, 3).map((l, i) => okLine(l.custom_id, i % 2 ? "no" : "yes"));
  out.push(JSON.stringify({ id: "b", custom_id: lines[3].custom_id, response: null, error: { code: "batch_expired", message: "This request could not be executed before the completion window expired." } }));
  const im = await importBatch({ ...spec, runId: "run-i", files: [new File([out.join("\n")], "results.jsonl")] });
  assert.deepEqual(im.answered.map((a) => [a.index, a.repeat, a.content, a.finishReason]), [[0, 0, "yes", "stop"], [1, 0, "no", "stop"], [2, 0, "yes", "stop"]]);
  assert.equal(causeOf(im.results[3]), "batch expired before it ran");

  const store = new MemoryStore();
  const progress = [];
  assert.equal(await cacheAnswers({ store, judge: fakeJudge, items: its, request: { endpoint: "http://127.0.0.1:8080/v1", ...request }, answered: im.answered, yieldFn: noYield, onProgress: (p) => progress.push(p) }), 3);
  assert.deepEqual(progress.at(-1), { phase: "cache", done: 3, total: 3 });
  // Read from the kept request bodies instead of rendered again: the same keys.
  const kept = await importBatch({ ...spec, runId: "run-i", keepBodies: true, files: [new File([out.join("\n")], "results.jsonl")] });
  assert.equal(kept.bodies.filter(Boolean).length, 6);
  const fromBodies = new MemoryStore();
  await cacheAnswers({ store: fromBodies, judge: { render: () => assert.fail("not rendered again") }, items: its, request: { endpoint: "http://127.0.0.1:8080/v1", ...request }, answered: kept.answered, bodies: kept.bodies, yieldFn: noYield });
  assert.deepEqual([...(await fromBodies.cacheKeys())].sort(), [...(await store.cacheKeys())].sort());
  const resumed = await resumeRun({ store, its, results: im.results });
  assert.deepEqual(resumed.todo, [3, 4, 5], "Resume runs the expired row and the rows no line answered");
  assert.deepEqual(resumed.fetch.calls.map((b) => b.messages[0].content), ["Q: q3", "Q: q4", "Q: q5"]);
  // Rerunning every row: the three the file answered come from the cache (a live call's keys).
  const all = new Runner({ runId: "run-all", judge: fakeJudge, request: { endpoint: "http://127.0.0.1:8080/v1", ...request }, items: its, todo: [0, 1, 2], fetch: liveFetch(), store: new MemoryStore(), cache: store, clock: new FakeClock(), random: () => 0.5 });
  await all.o.clock.run(all.start());
  assert.equal(all.stats.cacheHits, 3);
  assert.equal(all.stats.calls, 0);
});

test("repeats from a batch file: a failed repeat keeps the others (cached, exported); Retry pays for the failed repeat, Ask again makes only the missing repair requests", async () => {
  const its = items(3);
  const spec = { judge: fakeJudge, evaluatorId: "fake", items: its, request, repeats: 3, yieldFn: noYield };
  const ex = await exportBatch(spec);
  const lines = (await ex.blob.text()).trimEnd().split("\n").map((l) => JSON.parse(l));
  // Row 1: yes ×3. Row 2: yes, HTTP 500, yes. Row 3: three answers no judge could read.
  const out = lines.map((l, k) => {
    const [row, rep] = [Math.floor(k / 3), k % 3];
    if (row === 1 && rep === 1) return JSON.stringify({ id: "b", custom_id: l.custom_id, response: { status_code: 500, request_id: "r", body: { error: { message: "The server had an error", type: "server_error", code: "server_error" } } }, error: null });
    return okLine(l.custom_id, row === 2 ? "hmm" : "yes");
  });
  const im = await importBatch({ ...spec, runId: "run-r", files: [new File([out.join("\n")], "results.jsonl")] });
  assert.deepEqual(im.results.map((r) => statusOf(r)), ["passed", "error", "undetermined"]);
  const failed = im.results[1];
  assert.equal(failed.error.status, 500);
  assert.deepEqual(failed.repeats.map((x) => (x.error ? "error" : x.verdict.passed)), [true, "error", true], "the answered repeats stay with the row");
  const f = repeatFields(failed, null);
  assert.deepEqual(f.repeats.map((x) => [x.passed, x.answers, x.error && x.error.slice(0, 20)]), [[true, ["yes"], null], [null, [], "The model server fai"], [true, ["yes"], null]]);
  assert.equal(f.majority, null);

  const store = new MemoryStore();
  await cacheAnswers({ store, judge: fakeJudge, items: its, request: { endpoint: "http://127.0.0.1:8080/v1", ...request }, answered: im.answered, yieldFn: noYield });
  // Resume: nothing (the 500 is retried by Resume, as a live run's would be: one call, for its repeat).
  const resumed = await resumeRun({ store, its, results: im.results, repeats: 3 });
  assert.deepEqual(resumed.todo, [1]);
  assert.equal(resumed.fetch.calls.length, 1, "only the failed repeat is paid for");
  assert.equal(statusOf(resumed.results[0]), "passed");
  assert.equal(resumed.results[0].cachedCalls, 2);

  // Ask again for the undetermined row: the answers come from the cache, each gets the repair request the file could not make.
  const again = await resumeRun({ store, its, results: im.results, repeats: 3, retry: Retry.UNDETERMINED });
  assert.deepEqual(again.todo, [1, 2]);
  const repairs = again.fetch.calls.filter((b) => b.messages.length > 1);
  assert.equal(repairs.length, 3, "three repair requests");
  assert.equal(again.fetch.calls.length, 3, "nothing else: row 2's failed repeat was bought by the Resume above, and is cached");
  assert.equal(statusOf(again.results.find((x) => x.index === 2)), "failed", "the repaired answers: no, no, no");
});

test("a batch file's failures have their own cause: expired, cancelled, timed out there, a status with its code", () => {
  const r = (line) => lineResult({ runId: "run-1", index: 0, item: { inputs: { question: "q" } }, judge: fakeJudge, model: "m", line: parseOutputLine(JSON.stringify({ custom_id: "c", ...line })) });
  const notRun = (code) => r({ response: null, error: { code, message: "…" } });
  assert.equal(causeOf(notRun("batch_expired")), "batch expired before it ran");
  assert.equal(causeOf(notRun("batch_cancelled")), "batch cancelled before it ran");
  assert.equal(causeOf(notRun("request_timeout")), "timed out in the batch");
  assert.equal(causeOf(notRun("quota_gone")), "not run by the batch service (quota_gone)");
  assert.match(notRun("batch_cancelled").error.message, /^The batch was cancelled before it ran this request \(batch_cancelled\)/);
  assert.equal(causeOf(r({ response: { status_code: 400, request_id: "r", body: { error: { message: "too long", type: "invalid_request_error", code: "context_length_exceeded" } } } })), "HTTP 400 (context_length_exceeded)");
  // vLLM writes the HTTP status as its code: no code of words, the status says it.
  assert.equal(causeOf(r({ response: { status_code: 400, request_id: "r", body: null }, error: { object: "error", message: "bad", type: "BadRequestError", code: 400 } })), "HTTP 400");
  assert.equal(causeOf(r({ response: { status_code: 500, request_id: "r", body: { error: { message: "x", code: "server_error" } } } })), "server error (500)");
  // Resume runs a request the batch did not run again, not one the endpoint refused.
  assert.deepEqual(todoIndices(2, [notRun("batch_expired"), r({ response: { status_code: 400, request_id: "r", body: { error: { message: "x" } } } })]), [0]);
});

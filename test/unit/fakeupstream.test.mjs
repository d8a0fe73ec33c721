// fakeupstream.test.mjs: the browser tests' fake OpenAI-compatible upstream gives logprobs as
// OpenAI does (choices[0].logprobs.content, plain and streamed chunk by chunk, whose tokens write
// the answer byte for byte and which rj.parse weighs), and refuses them, with OpenAI's own 400,
// for a model named like a reasoning model.
import { test, after } from "node:test";
import assert from "node:assert/strict";

import { startFake, EXAMPLES } from "../e2e/fake-upstream.mjs";
import { api } from "./rj.mjs";

const rj = await api();
const fake = await startFake();
after(() => fake.close());

const grounding = EXAMPLES["answer-grounding"];
const prompt = rj.render("answer-grounding", grounding.inputs).prompt;
const enc = new TextEncoder();

async function chat(body) {
  return fetch(fake.url + "/chat/completions", {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer sk-test" },
    body: JSON.stringify({ messages: [{ role: "user", content: prompt }], ...body }),
  });
}

/** streamed reads a streamed answer: its text and its logprobs, gathered from the chunks. */
async function streamed(res) {
  const text = await res.text();
  let content = "";
  const logprobs = [];
  const chunks = [];
  for (const line of text.split("\n")) {
    if (!line.startsWith("data: ") || line === "data: [DONE]") continue;
    const c = JSON.parse(line.slice(6));
    chunks.push(c);
    content += c.choices[0]?.delta?.content ?? "";
    if (c.choices[0]?.logprobs) logprobs.push(...c.choices[0].logprobs.content);
  }
  return { content, logprobs, chunks, done: text.trimEnd().endsWith("data: [DONE]") };
}

/** checkShape asserts that content is logprobs in OpenAI's shape that write text. */
function checkShape(content, text, top) {
  assert.equal(content.map((t) => t.token).join(""), text);
  for (const t of content) {
    assert.deepEqual(t.bytes, [...enc.encode(t.token)]);
    assert.ok(t.logprob <= 0 && Number.isFinite(t.logprob));
    assert.equal(t.top_logprobs.length, top);
    if (top > 0) assert.equal(t.top_logprobs[0].token, t.token, "the chosen token first");
    const sum = t.top_logprobs.reduce((s, a) => s + Math.exp(a.logprob), 0);
    assert.ok(sum <= 1 + 1e-9, `alternatives adding up to ${sum}`);
    for (const a of t.top_logprobs) assert.deepEqual(Object.keys(a), ["token", "logprob", "bytes"]);
  }
}

test("plain: logprobs when asked, and rj.parse weighs the verdict with them", async () => {
  const res = await chat({ model: "judge-mini", logprobs: true, top_logprobs: 5 });
  assert.equal(res.status, 200);
  const body = await res.json();
  const choice = body.choices[0];
  assert.equal(choice.message.content, grounding.answer);
  assert.equal(choice.logprobs.refusal, null);
  checkShape(choice.logprobs.content, grounding.answer, 5);
  const v = rj.parse("answer-grounding", grounding.inputs, choice.message.content, { logprobs: choice.logprobs });
  assert.equal(v.passed, true);
  assert.ok(v.confidence, v.confidence_reason);
  assert.ok(v.confidence.p_pass > 0.85 && v.confidence.p_pass < 1);

  const plain = await (await chat({ model: "judge-mini" })).json();
  assert.equal(plain.choices[0].logprobs, null, "not asked: null, as OpenAI writes it");
  const none = await (await chat({ model: "judge-mini", logprobs: true })).json();
  checkShape(none.choices[0].logprobs.content, grounding.answer, 0);
});

test("streamed: each chunk carries its tokens' logprobs, which add up to the plain answer's", async () => {
  fake.answer = (p, id) => (id === "answer-grounding" ? "The answer says Paris, which fact 1 states.\nFinal answer: **Yes**" : "");
  try {
    const plain = await (await chat({ model: "judge-mini", logprobs: true, top_logprobs: 20 })).json();
    const s = await streamed(await chat({ model: "judge-mini", stream: true, logprobs: true, top_logprobs: 20 }));
    assert.ok(s.done);
    assert.equal(s.content, plain.choices[0].message.content);
    checkShape(s.logprobs, s.content, 20);
    assert.deepEqual(s.logprobs, plain.choices[0].logprobs.content);
    assert.ok(s.chunks.length > 3, "several chunks");
    for (const c of s.chunks) {
      const lp = c.choices[0].logprobs;
      if (!c.choices[0].delta.content) assert.equal(lp, null, "a chunk without text has no logprobs");
      else assert.equal(lp.content.map((t) => t.token).join(""), c.choices[0].delta.content, "a chunk's logprobs write its text");
    }
    const v = rj.parse("answer-grounding", grounding.inputs, s.content, { logprobs: s.logprobs });
    assert.equal(v.confidence.token.text, "Yes");
    assert.ok(v.confidence.mass > 0.9);
    // Asked without logprobs, a stream has none.
    const bare = await streamed(await chat({ model: "judge-mini", stream: true }));
    assert.deepEqual(bare.logprobs, []);
    assert.equal(bare.content, s.content);
  } finally {
    fake.answer = null;
  }
});

test("a reasoning model refuses logprobs with OpenAI's 400", async () => {
  for (const model of ["o1", "o3-mini", "o4-mini-2025-04-16", "gpt-5", "gpt-5-nano", "gpt-5.1"]) {
    for (const [param, body] of [["logprobs", { logprobs: true, top_logprobs: 20 }], ["logprobs", { logprobs: true }], ["top_logprobs", { top_logprobs: 5 }]]) {
      for (const stream of [false, true]) {
        const res = await chat({ model, stream, ...body });
        assert.equal(res.status, 400, `${model} ${JSON.stringify(body)}`);
        assert.deepEqual(await res.json(), {
          error: { message: `Unsupported parameter: '${param}' is not supported with this model.`, type: "invalid_request_error", param, code: "unsupported_parameter" },
        });
      }
    }
    const ok = await chat({ model });
    assert.equal(ok.status, 200, `${model} without logprobs answers`);
    assert.equal((await ok.json()).choices[0].logprobs, null);
  }
  // Names that only look alike are not reasoning models.
  for (const model of ["gpt-4o", "gpt-4.1-mini", "ollama/o1x", "judge-mini"]) {
    assert.equal((await chat({ model, logprobs: true })).status, 200, model);
  }
});

// fake-upstream.mjs: the only stand-in in the page's browser tests, an OpenAI-compatible server
// written with Node's http module. It answers /chat/completions (plain and SSE) and /models, with
// or without a /v1 prefix, and records every request and every client that went away.
//
// Behaviour is chosen by the model the page asks for, so a test only changes a setting:
//   judge-mini   the scripted answer for the evaluator whose prompt it receives (its declared example)
//   judge-slow   the same answer, one small piece every 150 ms (to watch streaming and Stop)
//   judge-401    401 with OpenAI's error body          judge-404  404 model not found
//   judge-429    429 with Retry-After: 7               judge-500  500 server error
//   judge-xss    an answer full of markup and script that must stay text
// A test can also set fake.answer = (prompt, evaluatorId, request) => string to script the answer's
// text (request is the recorded {path, method, auth, body}: request.body.model tells the models a
// test invents apart); a promise of a
// string holds the call until it resolves (a call whose client went away meanwhile gets nothing).
// fake.answered lists {model, prompt} of every chat answer delivered.
//
// Logprobs, as OpenAI gives them: a request with `logprobs: true` (and `top_logprobs: N`, 0 to 20)
// gets choices[0].logprobs = {content: [tokens], refusal: null} (fake-logprobs.mjs; a test may set
// fake.logprobs = (text, top) => content to script them), in a stream each chunk's share of them;
// any other answer has `logprobs: null`. A model named like one of OpenAI's reasoning models (o1,
// o3-mini, o4-mini, gpt-5, gpt-5-nano...) refuses `logprobs` with OpenAI's own 400 error.

import http from "node:http";
import { load } from "../../web/ragjudge.js";
import { REASONING, fakeLogprobs, logprobsRefusal } from "./fake-logprobs.mjs";

/** EXAMPLES are the worked examples the evaluators declare (rj.evaluators()), by evaluator id. */
export const EXAMPLES = Object.fromEntries((await load()).evaluators().map((e) => [e.id, e.example]));

// markers tell the evaluators apart by a phrase of their seed prompt.
const MARKERS = [
  ["claim-groundedness", "answer-groundedness reviewer"],
  ["answer-grounding", "context grounding evaluator"],
  ["pairwise-faithfulness", "Grounded Question Answering"],
  ["rag-recall", "Evaluator Rag Recall"],
];

/** evaluatorOf says which built-in evaluator rendered prompt. */
export function evaluatorOf(prompt) {
  const hit = MARKERS.find(([, m]) => prompt.includes(m));
  return hit ? hit[0] : "";
}

export const XSS_ANSWER = [
  "<img src=x onerror=\"window.__pwned='img-answer'\">",
  "<script>window.__pwned='script-answer'</script>",
  "<a href=\"javascript:window.__pwned='link-answer'\">click</a>",
  '{"claims":[{"claim_id":"c1","grounded":false,"ungrounded_assertions":[{"assertion":"<img src=x onerror=\\"window.__pwned=\'img-assertion\'\\">","reason":"<script>window.__pwned=\'script-reason\'</script><a href=\\"javascript:window.__pwned=1\\">x</a>"}]}]}',
].join("\n");

/** startFake starts the fake upstream on a free loopback port. */
export async function startFake() {
  const fake = {
    requests: [], // {path, method, auth, body}
    disconnects: 0, // streams the client abandoned before the end
    answer: null,
    logprobs: null,
    answered: [], // {model, prompt} of each chat answer delivered
    url: "",
    close: null,
  };
  const server = http.createServer(async (req, res) => {
    const path = new URL(req.url, "http://x").pathname.replace(/^\/v1/, "");
    let raw = "";
    for await (const c of req) raw += c;
    let body = null;
    try {
      body = raw ? JSON.parse(raw) : null;
    } catch {
      body = raw;
    }
    const rec = { path, method: req.method, auth: req.headers.authorization || "", body };
    fake.requests.push(rec);
    const json = (status, obj, headers = {}) => {
      res.writeHead(status, { "content-type": "application/json", ...headers });
      res.end(JSON.stringify(obj));
    };
    const apiError = (status, message, type, code, headers) => json(status, { error: { message, type, code } }, headers);

    if (path === "/models" && req.method === "GET") {
      return json(200, { object: "list", data: ["judge-mini", "judge-slow", "judge-401", "judge-429", "judge-xss"].map((id) => ({ id, object: "model", created: 0, owned_by: "fake" })) });
    }
    if (path !== "/chat/completions" || req.method !== "POST") return apiError(404, "no such route " + path, "invalid_request_error", "not_found");

    const model = body.model;
    if (model === "judge-401") return apiError(401, "Incorrect API key provided: sk-te****", "invalid_request_error", "invalid_api_key");
    if (model === "judge-404") return apiError(404, `The model \`${model}\` does not exist`, "invalid_request_error", "model_not_found");
    if (model === "judge-429") return apiError(429, "Rate limit reached for requests", "requests", "rate_limit_exceeded", { "retry-after": "7" });
    if (model === "judge-500") return apiError(500, "The server had an error while processing your request.", "server_error", "server_error");
    if (REASONING.test(model)) {
      if (body.logprobs !== undefined && body.logprobs !== null && body.logprobs !== false) return json(400, logprobsRefusal("logprobs"));
      if (body.top_logprobs !== undefined && body.top_logprobs !== null) return json(400, logprobsRefusal("top_logprobs"));
    }

    const prompt = body.messages.map((m) => m.content).join("\n");
    const id = evaluatorOf(prompt);
    let text;
    if (model === "judge-xss") text = XSS_ANSWER;
    else if (fake.answer) text = await fake.answer(prompt, id, rec);
    else text = EXAMPLES[id] ? EXAMPLES[id].answer : "I cannot tell which evaluator this is.";
    if (res.destroyed || req.socket.destroyed) return; // the client went away while the answer was held
    fake.answered.push({ model, prompt });
    const usage = { prompt_tokens: Math.ceil(prompt.length / 4), completion_tokens: Math.ceil(text.length / 4), total_tokens: Math.ceil(prompt.length / 4) + Math.ceil(text.length / 4) };
    const base = { id: "chatcmpl-fake", created: 1700000000, model, system_fingerprint: "fake" };
    const top = Number.isInteger(body.top_logprobs) ? body.top_logprobs : 0;
    const logprobs = body.logprobs === true ? (fake.logprobs ?? fakeLogprobs)(text, top) : null;

    if (!body.stream) {
      const choice = { index: 0, message: { role: "assistant", content: text, refusal: null }, logprobs: logprobs && { content: logprobs, refusal: null }, finish_reason: "stop" };
      return json(200, { ...base, object: "chat.completion", choices: [choice], usage });
    }
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    let gone = false;
    res.on("close", () => {
      if (!res.writableFinished) {
        gone = true;
        fake.disconnects++;
      }
    });
    const send = (obj) => res.write(`data: ${JSON.stringify(obj)}\n\n`);
    const chunk = (delta, finish = null, lp = null) => ({ ...base, object: "chat.completion.chunk", choices: [{ index: 0, delta, logprobs: lp, finish_reason: finish }] });
    const slow = model === "judge-slow";
    const size = slow ? 4 : 24;
    send(chunk({ role: "assistant", content: "", refusal: null }));
    // The text in pieces of about `size` characters; with logprobs, pieces of whole tokens, each
    // chunk carrying its tokens' logprobs.
    const pieces = [];
    if (logprobs) {
      for (let k = 0; k < logprobs.length;) {
        const tokens = [];
        let n = 0;
        while (k < logprobs.length && (n === 0 || n + logprobs[k].token.length <= size)) n += logprobs[k].token.length, tokens.push(logprobs[k++]);
        pieces.push([tokens.map((t) => t.token).join(""), { content: tokens, refusal: null }]);
      }
    } else {
      for (let i = 0; i < text.length; i += size) pieces.push([text.slice(i, i + size), null]);
    }
    for (const [content, lp] of pieces) {
      if (gone) break;
      send(chunk({ content }, null, lp));
      await new Promise((r) => setTimeout(r, slow ? 150 : 2));
    }
    if (gone) return;
    send(chunk({}, "stop"));
    if (body.stream_options && body.stream_options.include_usage) send({ ...base, object: "chat.completion.chunk", choices: [], usage });
    res.end("data: [DONE]\n\n");
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  fake.url = `http://127.0.0.1:${server.address().port}/v1`;
  fake.close = () =>
    new Promise((r) => {
      server.closeAllConnections();
      server.close(r);
    });
  return fake;
}

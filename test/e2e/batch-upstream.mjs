// batch-upstream.mjs: a fake OpenAI-compatible upstream for the batch tests and benchmark. It
// answers answer-grounding prompts ("yes"/"no") after a configurable latency and injects faults
// chosen by the row number found in the prompt (`row-N`), each on that row's first call only unless
// said otherwise, so every fault is met once and the row can still end well:
//   N % 20 == 1   HTTP 500                       N % 40 == 2   HTTP 429 with Retry-After: 1
//   N % 20 == 3   hangs until the client gives up N % 20 == 4   an unreadable answer (the page repairs it)
//   N % 50 == 5   HTTP 503 on every call (the row must end as an error)
//   N % 50 == 6   unreadable on every call (the row must end undetermined)
// With {random: {p429, p500, seed}} instead, each call (any row, any attempt) is answered 429
// (Retry-After: 1) with probability p429 and 500 with probability p500, drawn from a seeded
// generator in the order calls arrive: the benchmark's faulty runs.
// With {flips: true} the verdicts depend on the model and on how many times the same row was
// asked before (repair requests aside), so that a run judging each row several times meets a
// judge that is unsure of some rows, deterministically whatever order the calls arrive in
// (fakeVerdict): "fake-judge-b" answers the opposite of "fake-judge" on rows N % 7 == 0; the
// second call for a row N % 5 == 2 flips its verdict; the second and third for a row N % 10 == 9.
// GET /stats returns {calls, byRow:{N: calls}, answeredByRow:{N: answers}, dropped, inflight,
// maxInflight}; POST /reset zeroes them.
// Every request's Authorization is counted: stats.keyless lists the paths of those without one;
// with {requireKey: true} they are answered 401 as OpenAI answers them.
// hold() makes the chat calls that come after it wait (in flight) until release(n) lets n of them
// (all, without n) go on: a test then decides when a run moves, not the machine's speed.
// With {cors: true} it answers browsers directly (the benchmark's direct mode); with {tls: {key,
// cert}} it serves HTTP/2 over TLS (so one browser can keep more than six calls in flight).
//
//   node test/e2e/batch-upstream.mjs [--latency 100] [--no-faults] [--port 0]

import http from "node:http";
import http2 from "node:http2";

const UNREADABLE = "Let me think about this. The facts mention several things, so it is hard to say.";

/** faultFor says what the fake does to call number `n` (1-based) of row `row`. */
export function faultFor(row, n, isRepair) {
  if (row % 50 === 5) return "503";
  if (row % 50 === 6) return "unreadable";
  if (n > 1 && !isRepair) return null;
  if (isRepair) return null;
  if (row % 20 === 1) return "500";
  if (row % 40 === 2) return "429";
  if (row % 20 === 3) return "hang";
  if (row % 20 === 4) return "unreadable";
  return null;
}

/** expectedStatus is what the page must show for row `row` when faults are on. */
export function expectedStatus(row) {
  if (row % 50 === 5) return "error";
  if (row % 50 === 6) return "undetermined";
  return row % 3 === 0 ? "failed" : "passed";
}

/**
 * fakeVerdict is the verdict (true "Yes", false "No") the fake gives row `row` on call `call`
 * (1-based, per model and row) with flips on; without flips every call is call 1 of "fake-judge".
 */
export function fakeVerdict(row, model = "fake-judge", call = 1) {
  let yes = row % 3 !== 0;
  if (model === "fake-judge-b" && row % 7 === 0) yes = !yes;
  if (row % 5 === 2 && call === 2) yes = !yes;
  if (row % 10 === 9 && (call === 2 || call === 3)) yes = !yes;
  return yes;
}

/** mulberry32 is a small seeded PRNG, so that a faulty benchmark run meets the same faults each time. */
function mulberry32(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export async function startFakeUpstream({ latencyMs = 5, faults = true, port = 0, cors = false, tls = null, keepBodies = false, random = null, flips = false, requireKey = false } = {}) {
  /** @type {Map<string, number>} calls per model and row, for flips */
  const asked = new Map();
  const draw = random ? mulberry32(random.seed || 1) : null;
  const randomFault = () => {
    const x = /** @type {() => number} */ (draw)();
    return x < (random.p429 || 0) ? "429" : x < (random.p429 || 0) + (random.p500 || 0) ? "500" : null;
  };
  // busyMs sums the time calls spent inside the fake; busyMs / (last - first) is the mean number in flight.
  const stats = { calls: 0, byRow: {}, answeredByRow: {}, dropped: 0, inflight: 0, maxInflight: 0, hung: 0, busyMs: 0, first: 0, last: 0, firstWall: 0, lastWall: 0, byFault: {}, keyless: [], keys: {} };
  const hanging = new Set();
  // The gate of hold() and release(): how many more calls may go on (Infinity while open), and
  // the calls waiting for it.
  let passes = Infinity;
  /** @type {(() => void)[]} */
  const gated = [];
  const admit = () => {
    if (passes > 0) {
      passes -= 1;
      return null;
    }
    return new Promise((resolve) => gated.push(resolve));
  };
  const release = (n = Infinity) => {
    passes += n;
    while (passes > 0 && gated.length) {
      passes -= 1;
      /** @type {() => void} */ (gated.shift())();
    }
  };
  const bodies = []; // the chat requests' bodies, with keepBodies (the benchmark replays them)

  async function handle(req, res) {
    const url = new URL(req.url, "http://x");
    const headers = { "content-type": "application/json" };
    if (cors) {
      headers["access-control-allow-origin"] = "*";
      headers["access-control-allow-headers"] = "authorization, content-type";
      headers["access-control-allow-methods"] = "GET, POST, OPTIONS";
      headers["access-control-expose-headers"] = "retry-after";
      headers["timing-allow-origin"] = "*";
    }
    if (req.method === "OPTIONS") {
      res.writeHead(204, headers);
      return res.end();
    }
    if (url.pathname === "/stats") {
      res.writeHead(200, headers);
      return res.end(JSON.stringify(stats));
    }
    if (url.pathname === "/reset" && req.method === "POST") {
      stats.calls = 0;
      stats.byRow = {};
      stats.maxInflight = 0;
      stats.hung = 0;
      res.writeHead(200, headers);
      return res.end("{}");
    }
    if (url.pathname.startsWith("/v1/")) {
      const auth = req.headers.authorization || "";
      if (!auth) stats.keyless.push(req.method + " " + url.pathname);
      else stats.keys[auth] = (stats.keys[auth] || 0) + 1;
      if (!auth && requireKey) {
        res.writeHead(401, headers);
        return res.end(JSON.stringify({ error: { message: "You didn't provide an API key.", type: "invalid_request_error", code: null } }));
      }
    }
    if (url.pathname.endsWith("/models")) {
      res.writeHead(200, headers);
      return res.end(JSON.stringify({ object: "list", data: [{ id: "fake-judge", object: "model" }, { id: "fake-judge-b", object: "model" }] }));
    }
    if (!url.pathname.endsWith("/chat/completions") || req.method !== "POST") {
      res.writeHead(404, headers);
      return res.end(JSON.stringify({ error: { message: "no route " + url.pathname } }));
    }
    let body = "";
    for await (const chunk of req) body += chunk;
    if (keepBodies) bodies.push(body);
    let j;
    try {
      j = JSON.parse(body);
    } catch {
      res.writeHead(400, headers);
      return res.end(JSON.stringify({ error: { message: "bad JSON" } }));
    }
    const first = (j.messages && j.messages[0] && j.messages[0].content) || "";
    const m = /row-(\d+)/.exec(first);
    const row = m ? Number(m[1]) : -1;
    const isRepair = j.messages.length > 1;
    stats.calls++;
    stats.byRow[row] = (stats.byRow[row] || 0) + 1;
    stats.inflight++;
    stats.maxInflight = Math.max(stats.maxInflight, stats.inflight);
    const t0 = performance.now();
    if (!stats.first) {
      stats.first = t0;
      stats.firstWall = Date.now();
    }
    try {
      const fault = faults ? faultFor(row, stats.byRow[row], isRepair) : draw ? randomFault() : null;
      if (fault) stats.byFault[fault] = (stats.byFault[fault] || 0) + 1;
      if (fault === "hang") {
        stats.hung++;
        await new Promise((resolve) => {
          hanging.add(resolve);
          req.on("close", resolve);
          res.on("close", resolve);
        });
        return;
      }
      // A call its client gave up while it was held (a page reloaded, a call cancelled) is never
      // answered: no model would have been paid for it (stats.dropped counts them).
      let gone = false;
      res.on("close", () => (gone = !res.writableEnded));
      await admit();
      if (latencyMs) await new Promise((r) => setTimeout(r, latencyMs));
      if (gone) {
        stats.dropped++;
        return;
      }
      if (fault === "500" || fault === "503") {
        res.writeHead(Number(fault), headers);
        return res.end(JSON.stringify({ error: { message: "injected " + fault, type: "server_error" } }));
      }
      if (fault === "429") {
        res.writeHead(429, { ...headers, "retry-after": "1" });
        return res.end(JSON.stringify({ error: { message: "Rate limit reached (injected)", type: "requests" } }));
      }
      let call = 1;
      if (flips && !isRepair) {
        const k = j.model + "|" + row;
        call = (asked.get(k) || 0) + 1;
        asked.set(k, call);
      }
      const content = fault === "unreadable" ? UNREADABLE : (flips ? fakeVerdict(row, j.model, call) : row % 3 !== 0) ? "Yes" : "No";
      const prompt = Math.ceil(first.length / 4);
      if (!isRepair) stats.answeredByRow[row] = (stats.answeredByRow[row] || 0) + 1;
      res.writeHead(200, headers);
      res.end(
        JSON.stringify({
          id: "chatcmpl-fake",
          object: "chat.completion",
          created: Math.floor(Date.now() / 1000),
          model: j.model,
          choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
          usage: { prompt_tokens: prompt, completion_tokens: 1, total_tokens: prompt + 1 },
        }),
      );
    } finally {
      stats.inflight--;
      stats.last = performance.now();
      stats.lastWall = Date.now();
      stats.busyMs += stats.last - t0;
    }
  }

  const onRequest = (req, res) =>
    handle(req, res).catch((e) => {
      try {
        res.writeHead(500);
        res.end(String(e));
      } catch {
        /* the client went away */
      }
    });
  const server = tls ? http2.createSecureServer({ key: tls.key, cert: tls.cert, allowHTTP1: true }, onRequest) : http.createServer(onRequest);
  if (!tls) server.keepAliveTimeout = 30_000;
  const sessions = new Set();
  server.on("session", (sess) => {
    sessions.add(sess);
    sess.on("close", () => sessions.delete(sess));
  });
  await new Promise((resolve) => server.listen(port, "127.0.0.1", resolve));
  const addr = server.address();
  const scheme = tls ? "https" : "http";
  return {
    url: `${scheme}://127.0.0.1:${addr.port}`,
    stats,
    bodies,
    hold() {
      passes = 0;
    },
    release,
    async close() {
      release();
      for (const r of hanging) r();
      if (server.closeAllConnections) server.closeAllConnections();
      for (const sess of sessions) sess.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** dataset builds n RAGAS-style JSONL rows for answer-grounding; the row number is in the response text. */
export function datasetJSONL(n) {
  const lines = [];
  for (let i = 1; i <= n; i++) {
    lines.push(
      JSON.stringify({
        user_input: `Question ${i}: where is the Eiffel Tower?`,
        // Row 7 carries markup that must stay text wherever the page shows it.
        response: i === 7 ? `row-7: <img src=x onerror="window.__xss=1"><script>window.__xss=2</script> Paris.` : `row-${i}: The Eiffel Tower is in Paris, "the capital", built in 1889.`,
        retrieved_contexts: [`The Eiffel Tower stands in Paris (fact ${i}).`, "It was completed in 1889."],
        reference: "Paris",
      }),
    );
  }
  return lines.join("\n") + "\n";
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const opt = (name, d) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : d;
  };
  const up = await startFakeUpstream({ latencyMs: Number(opt("--latency", 5)), faults: !args.includes("--no-faults"), port: Number(opt("--port", 0)), cors: true });
  console.log(`fake upstream: ${up.url}/v1`);
}

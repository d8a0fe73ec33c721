// A streamed answer (web/model/sse.js) returns at its [DONE], and what its body still holds is read to
// the end rather than cancelled: a body cancelled before its end is a request the browser logs as
// failed (net::ERR_ABORTED) though the answer came whole (the e2e test watches the console).
import { test } from "node:test";
import assert from "node:assert/strict";

import { readStream } from "../../web/model/sse.js";

const ev = (o) => "data: " + JSON.stringify(o) + "\n\n";
const ANSWER = ev({ model: "m", choices: [{ delta: { content: "Yes" } }] }) + ev({ choices: [{ delta: {}, finish_reason: "stop" }] }) + "data: [DONE]\n\n";

/**
 * body is an event stream of ANSWER, then (as servers do) its end a moment later, when end() is
 * called; it records whether it was read to its end or cancelled.
 */
function body() {
  /** @type {ReadableStreamDefaultController<Uint8Array>} */
  let ctrl;
  const seen = { cancelled: false, closed: false };
  const stream = new ReadableStream({
    start(c) {
      ctrl = c;
      c.enqueue(new TextEncoder().encode(ANSWER));
    },
    cancel() {
      seen.cancelled = true;
    },
  });
  return {
    res: { body: stream },
    seen,
    end() {
      ctrl.close();
      seen.closed = true;
    },
  };
}

const opts = (extra = {}) => ({ poke() {}, model: "m", state: { delivered: false }, ...extra });

test("an answer returns at its [DONE]; the body is read to its end, never cancelled", async () => {
  const b = body();
  const r = await readStream(b.res, opts());
  assert.equal(r.content, "Yes");
  assert.equal(r.finishReason, "stop");
  assert.equal(b.seen.cancelled, false, "cancelled right after [DONE], before the server ended the body");
  b.end();
  await new Promise((r) => setTimeout(r, 0));
  await new Promise((r) => setTimeout(r, 0));
  assert.equal(b.seen.cancelled, false, "read to its end, not cancelled");
});

test("a body still open long after its [DONE] is cancelled then, not held forever", async () => {
  const b = body();
  const r = await readStream(b.res, opts({ drainMs: 5 }));
  assert.equal(r.content, "Yes");
  const deadline = Date.now() + 5000;
  while (!b.seen.cancelled && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  assert.equal(b.seen.cancelled, true);
});

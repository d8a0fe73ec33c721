// fakes.mjs: a fake clock, fake fetch and fake judge for the batch modules' unit tests.

/** FakeClock has model/llm.js's clock methods; time moves only when the test (or run()) advances it. */
export class FakeClock {
  constructor(start = 1_000_000) {
    this.t = start;
    this.timers = new Map();
    this.seq = 0;
    this.sleeps = [];
  }
  now() {
    return this.t;
  }
  setTimeout(fn, ms) {
    const id = ++this.seq;
    this.timers.set(id, { at: this.t + Math.max(0, ms), fn, ms });
    return id;
  }
  clearTimeout(id) {
    this.timers.delete(id);
  }
  /** advance fires every timer due within ms, in time order. */
  advance(ms) {
    const end = this.t + ms;
    for (;;) {
      const next = this.nextTimer();
      if (!next || next[1].at > end) break;
      this.timers.delete(next[0]);
      this.t = next[1].at;
      next[1].fn();
    }
    this.t = end;
  }
  nextTimer() {
    let best = null;
    for (const e of this.timers) if (!best || e[1].at < best[1].at || (e[1].at === best[1].at && e[0] < best[0])) best = e;
    return best;
  }
  /**
   * run settles promise p, jumping the clock to the next timer whenever everything else is idle,
   * as if time passed instantly. It gives up after `limit` jumps.
   */
  async run(p, limit = 10_000) {
    let done = false;
    let value;
    let error;
    p.then(
      (v) => ((done = true), (value = v)),
      (e) => ((done = true), (error = e)),
    );
    for (let i = 0; i < limit; i++) {
      await new Promise((r) => setImmediate(r));
      if (done) break;
      const next = this.nextTimer();
      if (!next) continue;
      this.timers.delete(next[0]);
      this.t = Math.max(this.t, next[1].at);
      next[1].fn();
    }
    if (!done) throw new Error("FakeClock.run: promise did not settle");
    if (error) throw error;
    return value;
  }
}

/** okBody is a chat completion answering content. */
export function okBody(content, usage = { prompt_tokens: 10, completion_tokens: 2 }) {
  return JSON.stringify({ choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }], usage });
}

/**
 * scriptedFetch answers each call with the next step: a number (HTTP status with an error body),
 * {status, headers, body}, "network" (a TypeError), "hang" (never answers until aborted), or a
 * string (a 200 with that content). calls records every request.
 */
export function scriptedFetch(steps) {
  const calls = [];
  const f = async (url, init) => {
    const body = JSON.parse(init.body);
    calls.push({ url, init, body });
    const step = steps.length > 1 ? steps.shift() : steps[0];
    return answer(step, init);
  };
  f.calls = calls;
  return f;
}

export function answer(step, init) {
  if (step === "network") throw new TypeError("Failed to fetch");
  if (step === "hang") {
    return new Promise((_, reject) => {
      init.signal.addEventListener("abort", () => reject(new DOMException("The operation was aborted.", "AbortError")));
    });
  }
  if (typeof step === "number") return new Response(JSON.stringify({ error: { message: "fake " + step } }), { status: step });
  if (typeof step === "string") return new Response(okBody(step), { status: 200, headers: { "content-type": "application/json" } });
  return new Response(step.body ?? "{}", { status: step.status, headers: step.headers || {} });
}

/** fakeJudge: "yes"/"no" answers are verdicts, anything else is unreadable. */
export const fakeJudge = {
  render(inputs) {
    if (inputs.question === "BOOM") throw new Error("undefined name");
    return { messages: [{ role: "user", content: "Q: " + inputs.question }] };
  },
  parse(inputs, text) {
    const t = text.trim().toLowerCase();
    if (t === "yes") return { passed: true, score: 1, verdict: { answer: "yes" }, checks: [] };
    if (t === "no") return { passed: false, score: 0, verdict: { answer: "no" }, checks: [] };
    if (t.startsWith("score ")) return { passed: null, score: Number(t.slice(6)), verdict: {}, checks: [] };
    if (t === "cut") return { passed: null, score: null, verdict: null, checks: [{ severity: "error", code: "answer.truncated", message: "the answer looks truncated" }] };
    return { passed: null, score: null, verdict: null, checks: [{ severity: "error", code: "answer.no-verdict", message: "1:1: expected yes or no" }] };
  },
};

// What the Batch view's run controller (web/batch/runcontroller.js) tells the views, as signals
// they read in effects: the open run (and how this tab holds it), its message line, a redraw now
// or soon, the run records, a run of this tab that ended.
import { test } from "node:test";
import assert from "node:assert/strict";

// No other tabs here: the controller's channel to them would keep Node running.
delete globalThis.BroadcastChannel;
const { onChange } = await import("../../web/lib/store.js");
const { RunController } = await import("../../web/batch/runcontroller.js");
const { MemoryStore } = await import("../../web/batch/memorystore.js");
const { newRun, saveRun } = await import("../../web/batch/runrecords.js");
const { State } = await import("../../web/shell/state.js");

const ev = { id: "answer-relevance", title: "Answer relevance", inputs: [{ name: "question" }] };

async function stored(store, state = "done") {
  const items = [{ index: 0, inputs: { question: "q1" } }, { index: 1, inputs: { question: "q2" } }];
  const run = { ...newRun({ name: "data.csv", evaluator: ev.id, settings: { model: "m", params: {}, repeats: 1 } }, items), state };
  await saveRun(store, run, items);
  await store.putResult({ runId: run.id, index: 0, status: "passed" });
  return run;
}

test("run controller: opening and deleting a run is told through opened, message, turned and runs", async () => {
  const store = new MemoryStore();
  const run = await stored(store);
  const ctl = new RunController({ rj: {}, state: new State(), store, byID: new Map([[ev.id, ev]]) });
  const told = [];
  onChange(() => ctl.opened.value, (o) => told.push(o ? `opened ${o.run.run.id === run.id ? "the run" : "?"} ${o.readOnly ? "read-only" : "here"}` : "closed"));
  onChange(() => ctl.turned.value, () => told.push("draw now"));
  onChange(() => ctl.counted.value, () => told.push("draw soon"));
  onChange(() => ctl.message.value, (m) => told.push("message: " + m));
  onChange(() => ctl.runs.value, () => told.push("runs"));

  await ctl.open(run.id);
  assert.equal(ctl.current?.run.id, run.id);
  assert.equal(ctl.state(), "done");
  assert.equal(ctl.counts()?.done, 1);
  ctl.say("hello");
  ctl.changed(false);
  ctl.say("hello"); // the same line: nothing to draw
  await ctl.remove(run.id);
  assert.equal(ctl.current, null);
  assert.deepEqual(told, ["opened the run here", "draw now", "message: hello", "draw soon", "closed", "runs"]);
});

test("run controller: the same run opened again is told again, its message line with it", async () => {
  const store = new MemoryStore();
  const a = await stored(store);
  const b = await stored(store, "cancelled");
  const ctl = new RunController({ rj: {}, state: new State(), store, byID: new Map([[ev.id, ev]]) });
  const opened = [];
  const lines = [];
  onChange(() => ctl.opened.value, (o) => opened.push(o && o.run.run.id));
  onChange(() => ctl.message.value, (m) => lines.push(m));
  await ctl.open(a.id);
  ctl.say("about a");
  await ctl.open(b.id);
  await ctl.open(a.id);
  assert.deepEqual(opened, [a.id, b.id, a.id]);
  assert.deepEqual(lines, ["about a", ""], "a run opened shows its own line: b has none, nor has a reopened from the store");
});

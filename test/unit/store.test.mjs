// The page's store (web/lib/store.js): signals, computed values, effects, batches, disposal, and
// what it must never do: show an effect a half-made change, run one twice for one change, or
// loop for ever.
import { test } from "node:test";
import assert from "node:assert/strict";
import { signal, computed, effect, batch, untracked, onChange } from "../../web/lib/store.js";

test("signal: value, peek, and an equal value is no change", () => {
  const s = signal(1);
  assert.equal(s.value, 1);
  const seen = [];
  effect(() => seen.push(s.value));
  s.value = 2;
  s.value = 2;
  assert.equal(s.peek(), 2);
  const n = signal(NaN);
  let runs = 0;
  effect(() => (n.value, runs++));
  n.value = NaN; // Object.is: NaN is NaN
  assert.deepEqual(seen, [1, 2]);
  assert.equal(runs, 1);
});

test("computed: lazy, cached, recomputed only after what it read changed", () => {
  const a = signal(2);
  let computations = 0;
  const double = computed(() => (computations++, a.value * 2));
  assert.equal(computations, 0, "not computed before it is read");
  assert.equal(double.value, 4);
  assert.equal(double.value, 4);
  assert.equal(computations, 1);
  a.value = 3;
  assert.equal(computations, 1, "no one depends on it: not computed until read");
  assert.equal(double.peek(), 6);
  assert.equal(computations, 2);
});

test("computed: tells what depends on it only when its value changes", () => {
  const a = signal(1);
  const square = computed(() => a.value * a.value);
  const seen = [];
  effect(() => seen.push(square.value));
  a.value = -1; // square stays 1
  a.value = 2;
  assert.deepEqual(seen, [1, 4]);
});

test("effect: runs now and after each change; cleanup before the next run and on dispose", () => {
  const s = signal("a");
  const log = [];
  const dispose = effect(() => {
    const v = s.value;
    log.push("run " + v);
    return () => log.push("undo " + v);
  });
  s.value = "b";
  dispose();
  s.value = "c";
  dispose(); // twice is once
  assert.deepEqual(log, ["run a", "undo a", "run b", "undo b"]);
});

test("effect: depends on what its last run read, not on what an earlier run read", () => {
  const which = signal(true);
  const left = signal("L");
  const right = signal("R");
  let runs = 0;
  effect(() => {
    runs++;
    return which.value ? left.value : right.value;
  });
  which.value = false;
  assert.equal(runs, 2);
  left.value = "L2"; // no longer read
  assert.equal(runs, 2);
  right.value = "R2";
  assert.equal(runs, 3);
});

test("batch: effects hear of every write once, when the outermost batch ends", () => {
  const a = signal(1);
  const b = signal(2);
  const seen = [];
  effect(() => seen.push(a.value + b.value));
  const out = batch(() => {
    a.value = 10;
    batch(() => (b.value = 20));
    assert.deepEqual(seen, [3], "not yet: the batch is open");
    return "done";
  });
  assert.equal(out, "done");
  assert.deepEqual(seen, [3, 30]);
});

test("no glitch: a diamond's effect runs once, with values that agree", () => {
  const a = signal(1);
  const b = computed(() => a.value + 1);
  const c = computed(() => a.value * 10);
  const d = computed(() => b.value + c.value);
  const seen = [];
  effect(() => seen.push([a.value, b.value, c.value, d.value]));
  a.value = 2;
  assert.deepEqual(seen, [
    [1, 2, 10, 12],
    [2, 3, 20, 23],
  ]);
});

test("an effect's writes are seen by the effects that read them, in the same change", () => {
  const src = signal(1);
  const mirror = signal(0);
  const seen = [];
  effect(() => (mirror.value = src.value * 2));
  effect(() => seen.push(mirror.value));
  src.value = 5;
  assert.deepEqual(seen, [2, 10]);
});

test("loops: an effect that keeps changing what it reads stops with an error; a computed value reading itself throws", () => {
  const n = signal(0);
  assert.throws(
    () => effect(() => (n.value = n.value + 1)),
    /loop/,
  );
  const self = computed(() => self.value + 1);
  assert.throws(() => self.value, /depends on itself/);
  const s = signal(0);
  const writer = computed(() => (s.value = 1));
  assert.throws(() => writer.value, /must not change a signal/);
});

test("an effect that settles after a few of its own writes is no loop", () => {
  const n = signal(0);
  effect(() => {
    if (n.value < 5) n.value++;
  });
  assert.equal(n.peek(), 5);
});

test("an effect that throws does not keep the others from running; the error is thrown after", () => {
  const s = signal(0);
  const seen = [];
  effect(() => {
    if (s.value === 1) throw new Error("boom");
  });
  effect(() => seen.push(s.value));
  assert.throws(() => (s.value = 1), /boom/);
  assert.deepEqual(seen, [0, 1]);
  s.value = 2; // the store is not left in a batch
  assert.deepEqual(seen, [0, 1, 2]);
});

test("untracked: what it reads is not depended on", () => {
  const a = signal(1);
  const b = signal(1);
  let runs = 0;
  effect(() => {
    runs++;
    a.value;
    untracked(() => b.value);
  });
  b.value = 2;
  assert.equal(runs, 1);
  a.value = 2;
  assert.equal(runs, 2);
});

test("onChange: called for each change, not for the value now, and its reads are not depended on", () => {
  const a = signal("x");
  const other = signal(0);
  const seen = [];
  const stop = onChange(
    () => a.value,
    (v) => seen.push(v + other.value),
  );
  assert.deepEqual(seen, []);
  a.value = "y";
  other.value = 1; // read by fn only
  a.value = "z";
  stop();
  a.value = "w";
  assert.deepEqual(seen, ["y0", "z1"]);
});

test("disposal: an effect disposed stops its computed values from hearing of changes; an effect may dispose itself", () => {
  const a = signal(1);
  let computations = 0;
  const c = computed(() => (computations++, a.value));
  const dispose = effect(() => c.value);
  a.value = 2;
  assert.equal(computations, 2, "depended on: recomputed as changes come");
  dispose();
  assert.equal(a.observers.size, 0, "the signal holds nothing of the effect and the computed value between");
  assert.equal(c.observers.size, 0);
  a.value = 3;
  a.value = 4;
  assert.equal(computations, 2, "no one depends on it: left alone");
  assert.equal(c.value, 4);
  assert.equal(computations, 3);

  const ready = signal(false);
  const log = [];
  const stop = effect(() => {
    if (!ready.value) return;
    log.push("ready");
    stop();
    return () => log.push("undone");
  });
  ready.value = true;
  ready.value = false;
  ready.value = true;
  assert.deepEqual(log, ["ready", "undone"]);
});

test("an effect disposed by another in the same change does not run", () => {
  const s = signal(0);
  const log = [];
  /** @type {() => void} */
  let second = () => {};
  effect(() => {
    if (s.value === 1) second();
  });
  second = effect(() => log.push(s.value));
  s.value = 1;
  assert.deepEqual(log, [0]);
});

test("ten thousand writes in a batch run an effect once", () => {
  const count = signal(0);
  let runs = 0;
  effect(() => (count.value, runs++));
  batch(() => {
    for (let i = 0; i < 10_000; i++) count.value++;
  });
  assert.equal(runs, 2);
  assert.equal(count.peek(), 10_000);
});

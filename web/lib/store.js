// store.js: the page's one way to hold state and be told of changes (docs/ARCHITECTURE.md, "How
// state flows"): signals, computed values and effects as @preact/signals-core has them, and
// onChange. What a batch (or a running effect) changes is told once, when it ends, and never half
// done: effects run after the last write, with computed values that agree with it.

/** @typedef {Computed<any> | Effect} Observer */

/** @type {Observer | null} what is running: it depends on what it reads */
let running = null;
let depth = 0; // batches open: effects wait for the outermost to end
let clock = 0; // bumped by every write: a computed value checked at this clock is up to date
/** @type {Set<Effect>} the effects to run when the change ends, in the order they were told */
const queue = new Set();
const LOOP = 100; // rounds of effects changing what effects read: a loop

/** Source is a signal or a computed value. */
class Source {
  version = 0; // bumped when the value changes
  /** @type {Set<Observer>} */
  observers = new Set();

  read() {
    if (!running) return;
    running.sources.set(this, this.version);
    if (running.live()) link(this, running);
  }
}

/** @template T */
export class Signal extends Source {
  /** @param {T} v */
  constructor(v) {
    super();
    this.v = v;
  }
  get value() {
    this.read();
    return this.v;
  }
  set value(v) {
    if (Object.is(v, this.v)) return;
    if (running instanceof Computed) throw new Error("a computed value must not change a signal");
    this.v = v;
    this.version++;
    clock++;
    batch(() => tell(this));
  }
  peek() {
    return this.v;
  }
}

/** @template T */
export class Computed extends Source {
  /** @param {() => T} fn */
  constructor(fn) {
    super();
    this.fn = fn;
    /** @type {Map<Source, number>} what it read, at which version */
    this.sources = new Map();
    /** @type {T | undefined} */
    this.v = undefined;
    this.ran = false;
    this.busy = false;
    this.checked = -1; // the clock it was last up to date at
    this.told = -1; // the clock its observers were last told at
  }
  /** live: something depends on it, so its sources tell it of changes. */
  live() {
    return this.observers.size > 0;
  }
  refresh() {
    if (this.checked === clock) return;
    if (this.busy) throw new Error("a computed value depends on itself");
    if (this.ran && !outdated(this)) {
      this.checked = clock;
      return;
    }
    this.busy = true;
    try {
      const v = track(this, this.fn);
      if (!this.ran || !Object.is(v, this.v)) this.version++;
      this.v = v;
      this.ran = true;
      this.checked = clock;
    } finally {
      this.busy = false;
    }
  }
  get value() {
    this.refresh();
    this.read();
    return /** @type {T} */ (this.v);
  }
  peek() {
    this.refresh();
    return /** @type {T} */ (this.v);
  }
}

class Effect {
  /** @param {() => unknown} fn */
  constructor(fn) {
    this.fn = fn;
    /** @type {Map<Source, number>} */
    this.sources = new Map();
    /** @type {(() => void) | undefined} what fn returned: run before the next run and on dispose */
    this.cleanup = undefined;
    this.done = false;
  }
  live() {
    return !this.done;
  }
  run() {
    this.undo();
    const c = track(this, this.fn);
    this.cleanup = typeof c === "function" ? /** @type {() => void} */ (c) : undefined;
    if (this.done) this.undo(); // it disposed itself as it ran
  }
  undo() {
    const c = this.cleanup;
    this.cleanup = undefined;
    if (c) untracked(c);
  }
  dispose() {
    if (this.done) return;
    this.done = true;
    queue.delete(this);
    for (const s of this.sources.keys()) unlink(s, this);
    this.undo();
  }
}

/** link makes o hear of src's changes; a computed value heard of now hears of its own sources. */
function link(/** @type {Source} */ src, /** @type {Observer} */ o) {
  if (src.observers.has(o)) return;
  if (src instanceof Computed && !src.observers.size) for (const s of src.sources.keys()) link(s, src);
  src.observers.add(o);
}

/** unlink undoes link: a computed value no one depends on is checked when read instead. */
function unlink(/** @type {Source} */ src, /** @type {Observer} */ o) {
  if (!src.observers.delete(o)) return;
  if (src instanceof Computed && !src.observers.size) for (const s of src.sources.keys()) unlink(s, src);
}

/** tell queues the effects that depend on src, through computed values. */
function tell(/** @type {Source} */ src) {
  for (const o of src.observers) {
    if (o instanceof Effect) queue.add(o);
    else if (o.told !== clock) {
      o.told = clock;
      tell(o);
    }
  }
}

/** outdated: something node read has changed since (computed values are brought up to date). */
function outdated(/** @type {Observer} */ node) {
  for (const [s, seen] of node.sources) {
    if (s instanceof Computed) s.refresh();
    if (s.version !== seen) return true;
  }
  return false;
}

/** track runs fn as node, noting what it reads. @template T @param {Observer} node @param {() => T} fn @returns {T} */
function track(node, fn) {
  const before = node.sources;
  node.sources = new Map();
  const outer = running;
  running = node;
  try {
    return fn();
  } finally {
    running = outer;
    for (const s of before.keys()) if (!node.sources.has(s)) unlink(s, node);
  }
}

/** flush runs the queued effects that are outdated until none is; an error is thrown after. */
function flush() {
  /** @type {{error: unknown} | null} */
  let failed = null;
  for (let round = 0; queue.size; round++) {
    if (round === LOOP) {
      queue.clear();
      throw new Error(`effects changed what effects read ${LOOP} times over: a loop`);
    }
    const effects = [...queue];
    queue.clear();
    depth++;
    for (const e of effects) {
      try {
        if (!e.done && outdated(e)) e.run();
      } catch (error) {
        failed ||= { error };
      }
    }
    depth--;
  }
  if (failed) throw failed.error;
}

/**
 * signal holds a value: read (and depend on) .value, set .value (to change it: an equal value by
 * Object.is is no change), or peek() without depending on it.
 * @template T @param {T} value @returns {Signal<T>}
 */
export function signal(value) {
  return new Signal(value);
}

/**
 * computed is fn's value, recomputed when read after what fn read changed; what depends on it is
 * told only when its value changes. @template T @param {() => T} fn @returns {Computed<T>}
 */
export function computed(fn) {
  return new Computed(fn);
}

/**
 * effect runs fn now and each time what it read changes, until disposed (what it returns); fn
 * may return a cleanup. @param {() => unknown} fn @returns {() => void} dispose
 */
export function effect(fn) {
  const e = new Effect(fn);
  try {
    batch(() => e.run());
  } catch (error) {
    e.dispose();
    throw error;
  }
  return () => e.dispose();
}

/** batch runs fn; effects hear of its changes once, when the outermost batch ends. @template T @param {() => T} fn @returns {T} */
export function batch(fn) {
  depth++;
  try {
    return fn();
  } finally {
    if (--depth === 0 && queue.size) flush();
  }
}

/** untracked runs fn without depending on what it reads. @template T @param {() => T} fn @returns {T} */
export function untracked(fn) {
  const outer = running;
  running = null;
  try {
    return fn();
  } finally {
    running = outer;
  }
}

/**
 * onChange calls fn(read()) each time what read read changes (not now), untracked: what a view
 * does on a change (a request, a timer) rather than draws from the state. Returns dispose.
 * @template T @param {() => T} read @param {(value: T) => void} fn @returns {() => void}
 */
export function onChange(read, fn) {
  let first = true;
  return effect(() => {
    const v = read();
    if (first) first = false;
    else untracked(() => fn(v));
  });
}

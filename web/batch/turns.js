// turns.js: rows take turns rendering their prompts, so that the first rows' calls go out while
// later rows wait, and the page keeps painting (scheduler.js Runner).

/** yieldToLoop lets the browser paint and handle input between chunks of synchronous work. */
export function yieldToLoop() {
  if (globalThis.scheduler && typeof globalThis.scheduler.yield === "function") return globalThis.scheduler.yield();
  return new Promise((r) => setTimeout(r, 0));
}

/**
 * RenderTurns: take() resolves when a row may render its prompt: rows take turns in the order
 * they started, about 8 ms of rendering per task and then a task boundary, so that the first rows'
 * calls go out (their cache keys are digested off the thread and their requests posted to the
 * call worker in tasks of their own) while later rows wait, and the page keeps painting. Without
 * it a run's first fill rendered all its look-ahead rows before the first call could leave.
 */
export class RenderTurns {
  constructor() {
    this.turns = [];
    this.turning = null;
  }

  /** @returns {Promise<void>} */
  take() {
    return new Promise((resolve) => {
      this.turns.push(resolve);
      if (!this.turning) this.turning = this.giveTurns();
    });
  }

  async giveTurns() {
    while (this.turns.length) {
      const t0 = performance.now();
      do {
        this.turns.shift()();
        await null; // the row renders now, up to its first wait
      } while (this.turns.length && performance.now() - t0 < 8);
      await nextTask();
    }
    this.turning = null;
  }
}

/**
 * nextTask resolves in a new task of the event loop: unlike a microtask or scheduler.yield's
 * prioritized continuation, it lets what is already waiting (a finished digest, a message from the
 * call worker, input) run first.
 */
export function nextTask() {
  return /** @type {Promise<void>} */ (
    new Promise((resolve) => {
      const ch = new MessageChannel();
      ch.port1.onmessage = () => {
        ch.port1.close();
        resolve(undefined);
      };
      ch.port2.postMessage(null);
    })
  );
}

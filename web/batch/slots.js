// slots.js: the counting semaphore that bounds a run's judge calls in flight, shared by the page
// (engine.js) and the call worker (calls.js).

/**
 * Slots is a counting semaphore whose limit can change while it is held: the number of judge
 * calls in flight.
 */
export class Slots {
  constructor(limit) {
    this.limit = limit;
    this.used = 0;
    this.waiters = [];
  }
  acquire() {
    if (this.used < this.limit) {
      this.used++;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiters.push(resolve));
  }
  release() {
    this.used--;
    this.wake();
  }
  setLimit(n) {
    this.limit = n;
    this.wake();
  }
  wake() {
    while (this.used < this.limit && this.waiters.length) {
      this.used++;
      this.waiters.shift()();
    }
  }
}

// The engine as the views see it while it loads (web/shell/enginestatus.js): one signal whose
// status, rj and error views read in effects, whenReady, and api, which forwards to the engine.
import { test } from "node:test";
import assert from "node:assert/strict";
import { effect } from "../../web/lib/store.js";
import { Engine, engineNote } from "../../web/shell/enginestatus.js";

test("engine: a view's effect draws again when the engine becomes ready, with rj", async () => {
  const engine = new Engine();
  const drawn = [];
  effect(() => drawn.push(engine.rj ? "ready: " + engine.rj.version : engineNote(engine, "The prompt appears")));
  const ready = engine.whenReady();
  assert.throws(() => engine.api.render("x", {}), /has not loaded yet \(render\)/);
  const rj = { version: "v1", render: (id) => "rendered " + id };
  engine.ready(/** @type {any} */ (rj));
  assert.equal(await ready, true);
  assert.equal(await engine.whenReady(), true, "asked after: at once");
  assert.deepEqual(drawn, ["The prompt appears when the judge engine has loaded…", "ready: v1"]);
  assert.equal(engine.api.render("x"), "rendered x");
  assert.equal(/** @type {any} */ (engine.api).then, undefined, "not a thenable");
});

test("engine: one that fails says why, and whenReady resolves to false", async () => {
  const engine = new Engine();
  const statuses = [];
  effect(() => statuses.push(engine.status));
  const ready = engine.whenReady();
  engine.fail("no wasm");
  assert.equal(await ready, false);
  assert.deepEqual(statuses, ["loading", "failed"]);
  assert.equal(engine.error?.message, "no wasm");
  assert.match(engineNote(engine, "x"), /did not load/);
});

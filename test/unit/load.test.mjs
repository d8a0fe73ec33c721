// load.test.mjs: every way to give load() the wasm, and what load() leaves behind.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { relative } from "node:path";
import { pathToFileURL } from "node:url";

import { load, RagJudgeError } from "../../web/ragjudge.js";
import { startGo } from "../../web/api/loadwasm.js";
import { wasmPath, throwsRJ } from "./rj.mjs";

async function works(rj) {
  assert.equal(typeof rj.version, "string");
  assert.match(rj.version, /^\d+\.\d+\.\d+/);
  assert.ok(Array.isArray(rj.evaluators()));
}

test("load() finds ragjudge.wasm beside the module", async () => {
  await works(await load());
});

test("load({wasm}) takes an absolute path, a relative path, a file URL and a URL string", async () => {
  await works(await load({ wasm: wasmPath }));
  await works(await load({ wasm: relative(process.cwd(), wasmPath) }));
  await works(await load({ wasm: pathToFileURL(wasmPath) }));
  await works(await load({ wasm: pathToFileURL(wasmPath).href }));
});

test("load({wasm}) takes bytes: Buffer, Uint8Array, ArrayBuffer, a Response, a compiled Module", async () => {
  const buf = readFileSync(wasmPath);
  await works(await load({ wasm: buf }));
  const u8 = new Uint8Array(buf);
  await works(await load({ wasm: u8 }));
  await works(await load({ wasm: u8.buffer.slice(u8.byteOffset, u8.byteOffset + u8.byteLength) }));
  await works(await load({ wasm: new Response(u8, { headers: { "content-type": "application/wasm" } }) }));
  await works(await load({ wasm: new Response(u8) })); // no application/wasm: falls back to bytes
  await works(await load({ wasm: Promise.resolve(new Response(u8)) }));
  await works(await load({ wasm: await WebAssembly.compile(u8) }));
});

test("load({wasm}) takes Go already running on the wasm over (the page's wasmstart.js starts it early)", async () => {
  const running = await startGo(wasmPath);
  const rj = await load({ wasm: Promise.resolve(running) });
  await works(rj);
  // The Go load() was given is the one it calls: once that Go has exited (as wasm_exec.js marks
  // it), the engine says so.
  running.go.exited = true;
  assert.throws(() => rj.evaluators(), (e) => e instanceof RagJudgeError && /has stopped/.test(e.message));
  // A look-alike that is not a running Go is read as any other wasm argument and refused.
  await assert.rejects(load({ wasm: { go: {}, instance: {}, run: Promise.resolve() } }), (e) => e instanceof RagJudgeError && e.kind === "input");
});

test("load() fails with a RagJudgeError of kind load for a missing file or a bad response", async () => {
  await assert.rejects(load({ wasm: "/nonexistent/ragjudge.wasm" }), (err) => {
    assert.ok(err instanceof RagJudgeError);
    assert.equal(err.kind, "load");
    assert.match(err.message, /nonexistent\/ragjudge\.wasm/);
    return true;
  });
  await assert.rejects(load({ wasm: new Response("gone", { status: 404, statusText: "Not Found" }) }), (err) => {
    assert.ok(err instanceof RagJudgeError);
    assert.equal(err.kind, "load");
    assert.match(err.message, /404/);
    return true;
  });
  await assert.rejects(load({ wasm: 42 }), (err) => err instanceof RagJudgeError && err.kind === "input");
  await assert.rejects(load({ wasm: new Uint8Array([0, 1, 2]) }), WebAssembly.CompileError);
});

test("each load() is its own instance and the global object is left clean", async () => {
  const a = await load();
  const b = await load();
  assert.notEqual(a, b);
  assert.equal(globalThis.__ragjudge, undefined);
  assert.deepEqual(a.evaluators(), b.evaluators());
  assert.ok(Object.isFrozen(a));
});

test("a RagJudgeError is an Error with the fields of the Go error", async () => {
  const rj = await load();
  const err = throwsRJ(() => rj.render("no-such-evaluator", {}), { kind: "input", subject: "no-such-evaluator" });
  assert.ok(err.stack.includes("RagJudgeError"));
  assert.match(err.message, /^input: no-such-evaluator: unknown evaluator "no-such-evaluator"$/);
  assert.equal(err.detail, 'unknown evaluator "no-such-evaluator"');
  const own = new RagJudgeError("template: t:2:3: boom", { kind: "template", name: "t", line: 2, col: 3, detail: "boom" });
  assert.equal(own.line, 2);
  assert.equal(own.col, 3);
  assert.equal(own.subject, "t");
});

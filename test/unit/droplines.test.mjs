// droplines.test.mjs: scripts/droplines.mjs, which zeroes a Go wasm's line tables, and
// scripts/stacklines.mjs, which puts the lines back into a stack from a build that has them. A
// program built to wasm as `make build` builds ragjudge's (test/unit/testdata/stack) panics and
// prints its stack; without line tables it must run the same and name the same functions.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { dropLines, memoryOf, pclntab } from "../../scripts/droplines.mjs";
import { annotate, lineReader } from "../../scripts/stacklines.mjs";
import { packData } from "../../scripts/packdata.mjs";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const GO = process.env.GO || "go";

/** lineFields returns, for each function of a Go wasm, its pcfile, pcln and startLine fields. */
function lineFields(wasm) {
  const mem = memoryOf(wasm);
  const tab = pclntab(mem);
  assert.ok(tab, "a Go pclntab");
  return tab.funcs.map((f) => ({ name: f.name, pcsp: mem.u32(f.fn + 16), file: mem.u32(f.fn + 20), line: mem.u32(f.fn + 24), start: mem.u32(f.fn + 36) }));
}

/** buildStackProgram builds test/unit/testdata/stack with the Makefile's flags for the wasm. */
function buildStackProgram(dir) {
  const out = join(dir, "stack.wasm");
  execFileSync(GO, ["build", "-trimpath", "-gcflags=all=-l", "-ldflags=-s -w", "-o", out, "./test/unit/testdata/stack"], {
    cwd: ROOT,
    env: { ...process.env, GOOS: "js", GOARCH: "wasm", GOEXPERIMENT: "nogreenteagc" },
  });
  return out;
}

/** run runs a Go wasm under Node with Go's wasm_exec_node.js and returns what it printed. */
function run(file) {
  const goroot = execFileSync(GO, ["env", "GOROOT"], { encoding: "utf8" }).trim();
  const r = spawnSync(process.execPath, [join(goroot, "lib", "wasm", "wasm_exec_node.js"), file], { encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout + r.stderr;
}

test("make build drops ragjudge.wasm's line tables and keeps what the runtime runs on", () => {
  const funcs = lineFields(readFileSync(join(ROOT, "web", "ragjudge.wasm")));
  assert.ok(funcs.length > 1000, `${funcs.length} functions`);
  assert.ok(funcs.some((f) => f.name === "ragjudge/bridge.(*Bridge).recover"), "function names are kept");
  assert.deepEqual(funcs.filter((f) => f.file || f.line || f.start), [], "no function has a line table");
  assert.ok(funcs.filter((f) => f.pcsp).length > funcs.length / 2, "the stack frame tables are kept");
});

test("a stack without line tables names the same functions; stacklines puts the lines back", () => {
  const dir = mkdtempSync(join(tmpdir(), "droplines-"));
  try {
    const built = buildStackProgram(dir);
    const withLines = readFileSync(built);
    const before = lineFields(withLines);
    assert.ok(before.filter((f) => f.line).length > before.length / 2, "go build writes line tables");

    const dropped = Uint8Array.from(withLines);
    const done = dropLines(dropped);
    assert.ok(done && done.funcs === before.length && done.zeroed > 0, JSON.stringify(done));
    assert.equal(dropped.length, withLines.length, "the module keeps its layout");
    const after = lineFields(dropped);
    assert.deepEqual(after.filter((f) => f.file || f.line || f.start), []);
    assert.deepEqual(after.map((f) => [f.name, f.pcsp]), before.map((f) => [f.name, f.pcsp]), "names and frame tables unchanged");
    const again = Uint8Array.from(dropped);
    dropLines(again);
    assert.deepEqual(again, dropped, "dropping again changes nothing");

    const file = join(dir, "dropped.wasm");
    writeFileSync(file, packData(dropped).bytes);
    const full = run(built);
    const bare = run(file);
    // The stack: the deferred function, panic, the three parse calls and main, each with its line.
    assert.match(full, /main\.\(\*parser\)\.parse\([^\n]*\n\tragjudge\/test\/unit\/testdata\/stack\/main\.go:13 \+0x/);
    assert.equal((full.match(/\.go:\d+ \+0x/g) ?? []).length, 6, full);
    assert.equal((bare.match(/\t\?:0 \+0x/g) ?? []).length, 6, bare);
    assert.equal(bare.replace(/\t\?:0 /g, "\t"), full.replace(/\t\S+:\d+ /g, "\t"), "the same frames, names, arguments and offsets");
    assert.equal(annotate(bare, lineReader(withLines)), full);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("dropLines leaves a module without Go's pclntab as it is and refuses what is not wasm", () => {
  // A module with one memory and one data segment of no pclntab.
  const wasm = Uint8Array.of(0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 5, 3, 1, 0, 1, 11, 8, 1, 0, 0x41, 16, 0x0b, 2, 7, 7);
  const copy = Uint8Array.from(wasm);
  assert.equal(dropLines(copy), null);
  assert.deepEqual(copy, wasm);
  assert.throws(() => dropLines(Uint8Array.of(1, 2, 3, 4, 5, 6, 7, 8)), /not a wasm module/);
});

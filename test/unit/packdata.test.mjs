// packdata.test.mjs: scripts/packdata.mjs, which joins a wasm's data segments across short runs
// of zero bytes; the memory a module starts with must stay the same byte for byte.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { packData, MAX_GAP, uleb } from "../../scripts/packdata.mjs";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

// The engine checks the modules these tests make, so packdata's own uleb can write them.
const section = (id, body) => [id, ...uleb(body.length), ...body];

/**
 * wasmModule makes a module with one page of memory, exported as "mem", and the given data
 * segments: [offset, bytes] for an active one, { passive: bytes } for a passive one; dataCount adds
 * the data count section.
 */
function wasmModule(segments, { dataCount = false } = {}) {
  const memory = section(5, [1, 0, 1]);
  const exp = section(7, [1, 3, ..."mem".split("").map((c) => c.charCodeAt(0)), 2, 0]);
  const body = [...uleb(segments.length)];
  for (const s of segments) {
    if (s.passive) body.push(1, ...uleb(s.passive.length), ...s.passive);
    else body.push(0, 0x41, ...signed(s[0]), 0x0b, ...uleb(s[1].length), ...s[1]);
  }
  const count = dataCount ? section(12, uleb(segments.length)) : [];
  return Uint8Array.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, ...memory, ...exp, ...count, ...section(11, body)]);
}

function signed(n) {
  const out = [];
  for (;;) {
    const c = n & 0x7f;
    n >>= 7;
    if ((n === 0 && !(c & 0x40)) || (n === -1 && c & 0x40)) return [...out, c];
    out.push(c | 0x80);
  }
}

async function memoryOf(bytes) {
  const { instance } = await WebAssembly.instantiate(bytes);
  return new Uint8Array(instance.exports.mem.buffer);
}

test("packData joins segments across zero runs of at most MAX_GAP bytes; memory starts the same", async () => {
  const fill = (n, b) => new Array(n).fill(b);
  const segments = [
    [400, fill(5, 7)], // out of order, as Go writes its sections
    [8, [1, 2, 3]],
    [11 + 8, [4]], // 8 zero bytes after the first: joined
    [20 + MAX_GAP, [5, 6]], // MAX_GAP zero bytes: joined
    [22 + 2 * MAX_GAP + 1, [9]], // one more: a segment of its own
    [300, [0x80, 0x81]], // offsets of two LEB bytes
  ];
  const wasm = wasmModule(segments, { dataCount: true });
  const { bytes, before, after } = packData(wasm);
  assert.equal(before, 6);
  assert.equal(after, 4, "8-byte and MAX_GAP-byte runs joined; the longer ones kept");
  assert.deepEqual(await memoryOf(bytes), await memoryOf(wasm));
  assert.deepEqual(packData(bytes).bytes, bytes, "packing again changes nothing");
  assert.equal(packData(bytes).after, 4);
});

test("packData leaves a data section alone unless all it holds are active segments that do not overlap", () => {
  for (const segments of [
    [[0, [1, 2, 3]], [2, [9]]], // overlapping: the later one wins, which order matters to
    [[0, [1]], { passive: [2] }, [16, [3]]],
  ]) {
    const wasm = wasmModule(segments);
    const { bytes, after } = packData(wasm);
    assert.equal(bytes, wasm);
    assert.equal(after, 0);
  }
  assert.throws(() => packData(Uint8Array.of(1, 2, 3, 4, 5, 6, 7, 8)), /not a wasm module/);
});

test("make build packs ragjudge.wasm's data (a few segments, not Go's tens of thousands)", () => {
  const { before, after } = packData(readFileSync(join(ROOT, "web", "ragjudge.wasm")));
  assert.ok(before > 0 && before < 100, `web/ragjudge.wasm has ${before} data segments`);
  assert.equal(after, before);
});

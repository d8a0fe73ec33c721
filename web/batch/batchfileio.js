// batchfileio.js: the batch file's round trip at scale, over batchfile.js's pure parts. Rendering
// the requests, writing the file, reading the output and storing the run all go in slices of a few
// milliseconds with a yield between them (progress told through onProgress), so that 100,000 rows
// never freeze the tab: the file is a Blob built from parts (never one giant string), the output is
// read with file.stream() through TextDecoderStream and a line splitter, and the results are
// stored a few thousand per transaction. Runs under Node as in the browser (tests use both).

import { RunHash, rowRequest, requestHead, LINE_TAIL, customId, lineResult, combineRepeats } from "./batchfile.js";
import { newRowResult, failRow, renderRow } from "./rowresult.js";
import { cacheKey } from "./cache.js";
import { saveRun } from "./runrecords.js";
import { yieldToLoop } from "./turns.js";
import { Matcher } from "./batchmatch.js";

/** SLICE_MS: synchronous work between two yields to the event loop. */
const SLICE_MS = 12;
/** PART_BYTES: about how much goes in one part of the exported Blob. */
const PART_BYTES = 1 << 20;
/** STORE_ROWS: results written per store transaction when a run is stored (IndexedDB clones them all in one task). */
const STORE_ROWS = 500;

/**
 * @typedef {{phase: string, done: number, total: number}} Progress
 *   phase: "render" (the requests), "write" (the file), "read" (an output file: done/total in characters),
 *   "cache" (the answers put in the request cache), "store"
 * @typedef {{judge: import("./batchfile.js").Judge, evaluatorId: string, items: {inputs?: any, error?: string}[],
 *   request: {model: string, params?: Record<string, any>}, repeats?: number,
 *   onProgress?: (p: Progress) => void, yieldFn?: () => Promise<unknown>}} BatchSpec
 *   repeats: how many times each row is judged (each of its lines carries the repeat number)
 */

/** slicer returns tick(): true (after a yield) when the current slice of work is used up. */
function slicer(yieldFn = yieldToLoop) {
  let t0 = performance.now();
  return async () => {
    if (performance.now() - t0 < SLICE_MS) return false;
    await yieldFn();
    t0 = performance.now();
    return true;
  };
}

/**
 * planBatch renders every row's request as a live run would (batchfile.js rowRequest) and hashes
 * them into the export's identity. A row that has no request (bad inputs, a prompt that does not
 * render) is not exported: its error is kept, as the live run's result for that row would be.
 * With keep, the requests' bodies are returned too (the export writes them), as UTF-8 bytes: an
 * ArrayBuffer's bytes live outside the JavaScript heap, so that 250 MB of bodies waiting to be
 * written do not make every garbage collection meanwhile move them (pauses of a second or more).
 * @param {BatchSpec & {keep?: boolean}} spec
 * @returns {Promise<{hash: string, exported: Uint8Array, count: number, errors: Map<number, unknown>, bodies: (Uint8Array<ArrayBuffer> | null)[] | null}>}
 */
export async function planBatch({ judge, evaluatorId, items, request, repeats = 1, keep = false, onProgress, yieldFn }) {
  const hash = new RunHash(evaluatorId, repeats);
  const exported = new Uint8Array(items.length);
  /** @type {Map<number, unknown>} */
  const errors = new Map();
  /** @type {(Uint8Array<ArrayBuffer> | null)[] | null} */
  const bodies = keep ? new Array(items.length).fill(null) : null;
  const utf8 = new TextEncoder();
  const tick = slicer(yieldFn);
  let count = 0;
  for (let i = 0; i < items.length; i++) {
    let body;
    try {
      body = rowRequest(judge, items[i], request);
    } catch (e) {
      errors.set(i, e);
      continue;
    }
    hash.row(i, body);
    exported[i] = 1;
    count++;
    if (bodies) bodies[i] = utf8.encode(body);
    if ((await tick()) && onProgress) onProgress({ phase: "render", done: i + 1, total: items.length });
  }
  if (onProgress) onProgress({ phase: "render", done: items.length, total: items.length });
  return { hash: hash.hex(), exported, count, errors, bodies };
}

/**
 * exportBatch writes the batch file of spec's rows: one request line per exported row (per repeat),
 * as a Blob built from Blobs of about PART_BYTES each.
 * @param {BatchSpec} spec
 * @returns {Promise<{blob: Blob, hash: string, lines: number, exported: Uint8Array, errors: Map<number, unknown>}>}
 */
export async function exportBatch(spec) {
  const repeats = spec.repeats || 1;
  const plan = await planBatch({ ...spec, keep: true });
  const bodies = /** @type {(Uint8Array<ArrayBuffer> | null)[]} */ (plan.bodies);
  const tick = slicer(spec.yieldFn);
  // Each part becomes a Blob as soon as it is written, so that no one task copies the whole file.
  /** @type {Blob[]} */
  const parts = [];
  /** @type {BlobPart[]} */
  let pending = [];
  let size = 0;
  let lines = 0;
  for (let i = 0; i < bodies.length; i++) {
    const body = bodies[i];
    if (body === null) continue;
    bodies[i] = null; // the line holds it now
    for (let r = 0; r < repeats; r++) {
      const head = requestHead(customId(plan.hash, i, r, repeats));
      pending.push(head, body, LINE_TAIL);
      size += head.length + body.byteLength + LINE_TAIL.length;
      lines++;
    }
    if (size >= PART_BYTES) {
      parts.push(new Blob(pending));
      pending = [];
      size = 0;
    }
    if ((await tick()) && spec.onProgress) spec.onProgress({ phase: "write", done: i + 1, total: bodies.length });
  }
  if (pending.length) parts.push(new Blob(pending));
  const blob = new Blob(parts, { type: "application/x-ndjson" });
  if (spec.onProgress) spec.onProgress({ phase: "write", done: bodies.length, total: bodies.length });
  return { blob, hash: plan.hash, lines, exported: plan.exported, errors: plan.errors };
}

/**
 * lineSplitter is a TransformStream of text into lines, without their "\n" or "\r\n"; a last line
 * without a newline is a line too.
 * @returns {TransformStream<string, string>}
 */
export function lineSplitter() {
  let rest = "";
  return new TransformStream({
    transform(chunk, ctrl) {
      const text = rest + chunk;
      let start = 0;
      for (;;) {
        const nl = text.indexOf("\n", start);
        if (nl < 0) break;
        const end = nl > start && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
        ctrl.enqueue(text.slice(start, end));
        start = nl + 1;
      }
      rest = text.slice(start);
    },
    flush(ctrl) {
      if (rest !== "") ctrl.enqueue(rest.endsWith("\r") ? rest.slice(0, -1) : rest);
    },
  });
}

/**
 * readLines reads file (a Blob with a name) line by line through file.stream(), TextDecoderStream
 * and lineSplitter, calling onLine(text, lineNumber) for each; it yields to the event loop between
 * slices and tells onChars how many characters it has read. onLine returning false stops reading.
 * @param {Blob} file
 * @param {(text: string, line: number) => boolean | void} onLine
 * @param {{yieldFn?: () => Promise<unknown>, onChars?: (chars: number) => void}} [o]
 * @returns {Promise<number>} the lines read
 */
export async function readLines(file, onLine, { yieldFn, onChars } = {}) {
  const reader = file.stream().pipeThrough(/** @type {any} */ (new TextDecoderStream())).pipeThrough(lineSplitter()).getReader();
  const tick = slicer(yieldFn);
  let n = 0;
  let chars = 0;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      n++;
      chars += value.length + 1;
      if (onLine(value, n) === false) break;
      if ((await tick()) && onChars) onChars(chars);
    }
  } finally {
    reader.cancel().catch(() => {});
  }
  if (onChars) onChars(chars);
  return n;
}

/**
 * importBatch reads batch output files (the output file, and the error file when there is one) for
 * spec's rows and turns each line into its row's result (batchfile.js lineResult). Rows that were
 * not exported get the error a live run would give them. A file from another export is refused
 * (refusal says why) before any result is made of it.
 * @param {BatchSpec & {runId: string, files: (Blob & {name: string})[], now?: () => number, keepBodies?: boolean}} spec
 * answered lists the answers the lines gave, by row and repeat, for cacheAnswers; bodies (with
 * spec.keepBodies) are the requests' bodies as UTF-8 bytes, by row, for the same.
 * @returns {Promise<{hash: string, refusal: string | null, report: import("./batchmatch.js").MatchReport, results: (import("./rowresult.js").RowResult | undefined)[], answered: Answered[], bodies: (Uint8Array | null)[] | null}>}
 */
export async function importBatch(spec) {
  const { judge, items, request, runId, files, onProgress } = spec;
  const now = spec.now || Date.now;
  // With keepBodies, the requests' bodies are kept (as bytes, as the export keeps them): the
  // answered rows' messages are read back from them for cacheAnswers, not rendered again.
  const plan = await planBatch({ ...spec, keep: !!spec.keepBodies });
  const repeats = spec.repeats || 1;
  const matcher = new Matcher({ hash: plan.hash, exported: plan.exported, repeats });
  /** @type {(import("./rowresult.js").RowResult | undefined)[]} */
  const results = new Array(items.length);
  /** @type {Map<number, (import("./rowresult.js").RowResult | undefined)[]>} each repeat's result, by row, when rows are judged several times */
  const parts = new Map();
  /** @type {Map<number, Answered>} the answer of each row and repeat a line answered, by index * repeats + repeat (an answer replaces a failure) */
  const answered = new Map();
  const total = files.reduce((s, f) => s + f.size, 0);
  let before = 0;
  for (const file of files) {
    let refused = false;
    await readLines(
      file,
      (text, n) => {
        const m = matcher.take(text, `${file.name}:${n}`);
        if (m) {
          const r = lineResult({ runId, index: m.index, item: items[m.index], judge, model: request.model, line: m.line, now: now() });
          if (m.line.status === 200 && r.answers.length === 1) answered.set(m.index * repeats + m.repeat, { index: m.index, repeat: m.repeat, content: r.answers[0], usage: r.usage, finishReason: finishReasonOf(m.line.body) });
          if (repeats === 1) results[m.index] = r;
          else {
            if (!parts.has(m.index)) parts.set(m.index, new Array(repeats));
            /** @type {any[]} */ (parts.get(m.index))[m.repeat] = r;
          }
        }
        // A file that is another export's says so in its first lines: stop reading it there.
        if (matcher.report.lines === 50 && matcher.refusal()) refused = true;
        return !refused;
      },
      { yieldFn: spec.yieldFn, onChars: (c) => onProgress && onProgress({ phase: "read", done: Math.min(total, before + c), total }) },
    );
    before += file.size;
    if (refused) break;
  }
  const report = matcher.finish();
  const refusal = matcher.refusal();
  if (refusal) return { hash: plan.hash, refusal, report, results: new Array(items.length), answered: [], bodies: null };
  for (const [i, p] of parts) results[i] = combineRepeats(runId, i, p, now()) || undefined;
  for (const [i, e] of plan.errors) {
    const r = newRowResult(runId, i);
    failRow(r, e, "call");
    r.finishedAt = now();
    results[i] = r;
  }
  const list = [...answered.keys()].sort((x, y) => x - y).map((k) => /** @type {Answered} */ (answered.get(k)));
  return { hash: plan.hash, refusal: null, report, results, answered: list, bodies: plan.bodies };
}

/**
 * @typedef {{index: number, repeat: number, content: string, usage: {prompt_tokens: number, completion_tokens: number}, finishReason: string | null}} Answered
 *   an answer an output line gave row index (repeat: 0-based), as the request cache keeps answers
 */

/** finishReasonOf is a chat completion body's finish_reason, or null. @param {any} body */
function finishReasonOf(body) {
  const c = body && Array.isArray(body.choices) ? body.choices[0] : null;
  return (c && typeof c.finish_reason === "string" && c.finish_reason) || null;
}

/**
 * cacheAnswers puts each answer an output file gave into the request cache, under the key a live
 * call of the same request makes (cache.js cacheKey: the endpoint set up now, the export's model
 * and parameters, the row's rendered messages, the repeat): Resume, or a retry, after the import
 * then pays only for what the file did not answer. A row's messages are read from its request's
 * body (importBatch's bodies: a JSON.parse, some 40 times cheaper than a render), else rendered
 * again; the writes go STORE_ROWS to a transaction, in slices.
 * @param {{store: {cachePut(key: string, v: any): Promise<unknown>, flush?: () => Promise<unknown>}, judge: import("./batchfile.js").Judge,
 *   items: {inputs?: any}[], request: {endpoint: string, model: string, params?: Record<string, any>}, answered: Answered[],
 *   bodies?: (Uint8Array | null)[] | null, onProgress?: (p: Progress) => void, yieldFn?: () => Promise<unknown>, now?: () => number}} o
 * @returns {Promise<number>} the answers cached
 */
export async function cacheAnswers({ store, judge, items, request, answered, bodies = null, onProgress, yieldFn = yieldToLoop, now = Date.now }) {
  const tick = slicer(yieldFn);
  const utf8 = new TextDecoder();
  let rendered = -1;
  /** @type {{role: string, content: string}[]} */
  let messages = [];
  let done = 0;
  for (let k = 0; k < answered.length; k += STORE_ROWS) {
    const slice = answered.slice(k, k + STORE_ROWS);
    /** @type {Promise<string>[]} */
    const keys = [];
    for (const a of slice) {
      if (a.index !== rendered) {
        const body = bodies && bodies[a.index];
        messages = body ? JSON.parse(utf8.decode(body)).messages : renderRow(judge, items[a.index].inputs).messages;
        rendered = a.index;
      }
      keys.push(cacheKey({ endpoint: request.endpoint, model: request.model, messages, params: request.params || {}, repeat: a.repeat }));
      await tick();
    }
    const at = now();
    const writes = (await Promise.all(keys)).map((key, j) => store.cachePut(key, { content: slice[j].content, usage: slice[j].usage, finishReason: slice[j].finishReason, at }));
    if (typeof store.flush === "function") await store.flush();
    await Promise.all(writes);
    done += slice.length;
    if (onProgress) onProgress({ phase: "cache", done, total: answered.length });
    await yieldFn();
  }
  return done;
}

/**
 * storeRun stores run (a runrecords.js newRun record), its items and results: the record first as
 * "paused" (a reload meanwhile must not start calls), the results STORE_ROWS per transaction, then
 * the record's final state: "done" when every row has a result, "paused" otherwise (Resume judges
 * the rest live).
 * @param {{store: any, run: any, items: any[], results: (any | undefined)[], onProgress?: (p: Progress) => void, yieldFn?: () => Promise<unknown>}} o
 * @returns {Promise<any>} the run's record as stored
 */
export async function storeRun({ store, run, items, results, onProgress, yieldFn = yieldToLoop }) {
  run.state = "paused";
  const done = results.filter(Boolean);
  // One progress over the rows (stored in chunks: runstore.js) and then their results.
  const total = items.length + done.length;
  if (onProgress) onProgress({ phase: "store", done: 0, total });
  await yieldFn();
  await saveRun(store, run, items, { onProgress: onProgress && ((p) => onProgress({ phase: "store", done: p.done, total })) });
  for (let k = 0; k < done.length; k += STORE_ROWS) {
    const writes = done.slice(k, k + STORE_ROWS).map((r) => store.putResult(r));
    if (typeof store.flush === "function") await store.flush();
    await Promise.all(writes);
    if (onProgress) onProgress({ phase: "store", done: items.length + Math.min(done.length, k + STORE_ROWS), total });
    await yieldFn();
  }
  run.finished = done.length;
  run.state = done.length === run.total ? "done" : "paused";
  await store.putRun({ ...run });
  return run;
}

// batchfile.js: a batch run that leaves the browser as an OpenAI Batch API file and comes back as
// the batch service's output file. The pure parts: the custom_id each request line carries, the
// export's identity (a hash over what the lines ask), reading an output line, matching the lines
// of an output file to the exported rows (batchmatch.js, with the report of what did not match), and turning one
// line into the row's result exactly as a live call's answer is turned (rowresult.js, llm.js).
// The reading, writing and storing, chunked so that 100,000 rows never freeze the tab, are in
// batchfileio.js; the two buttons in batchfileview.js.
//
// A request line:  {"custom_id":"rj:<hash>:<row>[:<repeat>]","method":"POST","url":"/v1/chat/completions","body":{…}}
// An output line:  {"id","custom_id","response":{"status_code","request_id","body"} | null,"error":{"code","message"} | null}
//
// <hash> is 16 hex digits over the evaluator and every exported request body (model, parameters,
// rendered messages), so an output file answers exactly the requests this page would make now for
// the dataset, evaluator, mapping and model set up; a file from another export is refused. <row>
// is the row's number as the page shows it (1 for the first row); <repeat> (1 for the first) is
// written only when each row is judged more than once.

import { RowErrorKind, RepairCode, BatchErrorKind } from "./states.js";
import { needsRepair } from "../results/status.js";
import { newRowResult, countAnswer, failRow, renderRow, parseAnswer } from "./rowresult.js";
import { majorityVerdict } from "../results/majority.js";
import { CallError, httpError } from "../model/callerror.js";
import { chatBody, readAnswer } from "../model/chatrequest.js";

/** @typedef {{render(inputs: any): {messages: {role: string, content: string}[]}, parse(inputs: any, text: string): any}} Judge */

/** BATCH_URL is the endpoint every line asks for; a batch is created with the same endpoint. */
export const BATCH_URL = "/v1/chat/completions";

/** CUSTOM_ID_PREFIX starts every custom_id this page writes. */
export const CUSTOM_ID_PREFIX = "rj";

const HASH_RE = /^[0-9a-f]{16}$/;

/**
 * customId is the custom_id of row index's request (repeat: 0-based; written only when repeats > 1).
 * @param {string} hash
 * @param {number} index  0-based
 * @param {number} [repeat]  0-based
 * @param {number} [repeats]  how many times each row is judged
 * @returns {string}
 */
export function customId(hash, index, repeat = 0, repeats = 1) {
  return `${CUSTOM_ID_PREFIX}:${hash}:${index + 1}` + (repeats > 1 ? `:${repeat + 1}` : "");
}

/**
 * parseCustomId reads a custom_id written by customId; null for any other.
 * @param {unknown} id
 * @returns {{hash: string, index: number, repeat: number | null} | null}  index and repeat 0-based; repeat null when absent
 */
export function parseCustomId(id) {
  if (typeof id !== "string") return null;
  const parts = id.split(":");
  if (parts.length < 3 || parts.length > 4 || parts[0] !== CUSTOM_ID_PREFIX || !HASH_RE.test(parts[1])) return null;
  const num = (s) => (/^[1-9]\d{0,8}$/.test(s) ? Number(s) - 1 : -1);
  const index = num(parts[2]);
  const repeat = parts.length === 4 ? num(parts[3]) : null;
  if (index < 0 || repeat === -1) return null;
  return { hash: parts[1], index, repeat };
}

/**
 * RunHash is the export's identity: a 64-bit hash (two 32-bit FNV-1a lanes) over the evaluator's
 * id, the number of repeats, and each exported row's number and request body, in row order. It identifies, it does not
 * protect: nothing secret is hashed, and a collision only lets through a file that was edited on
 * purpose.
 */
export class RunHash {
  /**
   * @param {string} evaluatorId
   * @param {number} [repeats] how many times each row is judged: a file of another count is another export's
   */
  constructor(evaluatorId, repeats = 1) {
    this.a = 0x811c9dc5;
    this.b = 0x01000193 ^ 0x5bd1e995;
    this.update("ragjudge batch v1\n" + evaluatorId + "\n" + (repeats > 1 ? "repeats " + repeats + "\n" : ""));
  }

  /** update feeds s (its UTF-16 code units). @param {string} s */
  update(s) {
    let a = this.a;
    let b = this.b;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      a = Math.imul(a ^ c, 0x01000193);
      b = Math.imul(b ^ c, 0x5bd1e995) ^ (b >>> 15);
    }
    this.a = a;
    this.b = b;
  }

  /** row feeds row index's request body (its JSON). @param {number} index @param {string} bodyJSON */
  row(index, bodyJSON) {
    this.update(index + "\n");
    this.update(bodyJSON);
    this.update("\n");
  }

  /** hex is the hash so far: 16 lowercase hex digits. */
  hex() {
    return (this.a >>> 0).toString(16).padStart(8, "0") + (this.b >>> 0).toString(16).padStart(8, "0");
  }
}

/**
 * rowRequest renders row item's judge request and its body, exactly as a live run would send it
 * (renderRow, then llm.js chatBody with no streaming); throws the row's CallError (kind input or
 * render) when it has none.
 * @param {{render(inputs: any): {messages: {role: string, content: string}[]}}} judge
 * @param {{inputs?: any, error?: string}} item
 * @param {{model: string, params?: Record<string, any>}} request
 * @returns {string} the body's JSON
 */
export function rowRequest(judge, item, request) {
  if (!item || item.error) throw new CallError((item && item.error) || "this row does not exist", { kind: RowErrorKind.INPUT });
  const rendered = renderRow(judge, item.inputs);
  return JSON.stringify(chatBody({ model: request.model, messages: rendered.messages, params: request.params || {} }, false));
}

/**
 * requestLine is one line of the batch file (with its newline).
 * @param {string} id  the custom_id
 * @param {string} bodyJSON
 */
export function requestLine(id, bodyJSON) {
  return requestHead(id) + bodyJSON + LINE_TAIL;
}

/**
 * requestHead is a request line up to its body (the export writes the body's bytes after it, then LINE_TAIL).
 * @param {string} id  the custom_id
 */
export function requestHead(id) {
  return `{"custom_id":${JSON.stringify(id)},"method":"POST","url":"${BATCH_URL}","body":`;
}

/** LINE_TAIL ends a request line after its body. */
export const LINE_TAIL = "}\n";

/**
 * @typedef {{customId: string, status: number, requestId: string, body: any, error: {code: string, message: string} | null}} OutputLine
 *   status: the response's status_code, 0 when the line has no response (the batch service did not run the request)
 */

/**
 * parseOutputLine reads one line of a batch output or error file. A blank line is null; a line
 * that is not one gives {malformed: why}.
 * @param {string} text
 * @returns {OutputLine | {malformed: string, customId?: string, request?: boolean} | null}
 */
export function parseOutputLine(text) {
  if (text.trim() === "") return null;
  let j;
  try {
    j = JSON.parse(text);
  } catch (e) {
    return { malformed: "not JSON (" + String((e && /** @type {any} */ (e).message) || e) + ")" };
  }
  if (!j || typeof j !== "object" || Array.isArray(j)) return { malformed: "not a JSON object" };
  if (typeof j.custom_id !== "string") return { malformed: "no custom_id" };
  const r = j.response;
  const err = lineError(j.error);
  if (r && typeof r === "object") {
    if (!Number.isInteger(r.status_code)) return { malformed: "response without a status_code" };
    return { customId: j.custom_id, status: r.status_code, requestId: String(r.request_id ?? ""), body: r.body ?? null, error: err };
  }
  if (err) return { customId: j.custom_id, status: 0, requestId: "", body: null, error: err };
  // A line of the exported requests file: chosen instead of the output file, an easy slip.
  if (typeof j.url === "string" && j.body && typeof j.body === "object") return { malformed: "a request of a batch input file, not an answer", customId: j.custom_id, request: true };
  return { malformed: "neither a response nor an error", customId: j.custom_id };
}

/**
 * lineError reads a line's error: OpenAI's {code, message}; vLLM's run-batch writes a text
 * ("The model does not support Chat Completions API") or the server's error response
 * ({error: {message, code}}, or {object: "error", message, code}) beside a response without a body.
 * @param {any} e
 * @returns {{code: string, message: string} | null}
 */
function lineError(e) {
  if (typeof e === "string") return e.trim() ? { code: "", message: e } : null;
  if (!e || typeof e !== "object") return null;
  const inner = e.error && typeof e.error === "object" ? e.error : e;
  const text = (/** @type {any} */ v) => (v === undefined || v === null ? "" : typeof v === "string" ? v : JSON.stringify(v));
  return { code: text(inner.code ?? e.code), message: text(inner.message ?? e.message) };
}

/**
 * batchLineError is the CallError of a line the batch service did not answer with a chat
 * completion: an HTTP status (as a live call's, llm.js httpError) or no response at all (kind
 * BatchErrorKind.NOT_RUN: batch_expired, batch_cancelled, request_timeout; Resume runs it).
 * @param {OutputLine} line
 * @param {string} model
 * @returns {CallError}
 */
export function batchLineError(line, model) {
  if (line.status) {
    // vLLM puts the cause of a failed request in the line's error, not in a response body.
    const why = line.error && (line.error.message || line.error.code);
    return httpError(line.status, line.body ? JSON.stringify(line.body) : why ? JSON.stringify({ error: { message: why } }) : "", { model });
  }
  const e = line.error || { code: "", message: "" };
  const what = NOT_RUN[e.code] || `The batch service did not run this request${e.code ? " (" + e.code + ")" : ""}`;
  return new CallError(`${what}: judge it again with Resume, or in another batch.`, { kind: BatchErrorKind.NOT_RUN, detail: e.message });
}

/**
 * NOT_RUN says, by OpenAI's codes for a request of a batch that has no response (its error file),
 * what happened to it: the batch ended before the request ran (completion window over, or
 * cancelled), or the batch's own call to the model timed out.
 */
const NOT_RUN = Object.freeze({
  batch_expired: "The batch expired before it ran this request (batch_expired)",
  batch_cancelled: "The batch was cancelled before it ran this request (batch_cancelled)",
  request_timeout: "The batch service's call to the model timed out (request_timeout)",
});

/**
 * lineErrorCode is the code a failed line gives for its failure (batch_expired, a body's
 * error.code such as context_length_exceeded), or "" when it gives none or only a number (vLLM
 * writes the HTTP status there), kept on the row's error for its cause (status.js causeOf).
 * @param {OutputLine} line
 * @returns {string}
 */
export function lineErrorCode(line) {
  const b = line.body;
  const code = (b && b.error && typeof b.error.code === "string" && b.error.code) || (line.error && line.error.code) || "";
  return /^[A-Za-z][\w.-]{0,63}$/.test(code) ? code : "";
}

/**
 * withoutRepair marks a verdict read from an unreadable answer: a batch file allows no repair
 * request, so the row stays undetermined with its cause, and says why it was not repaired.
 * @param {{checks?: object[], [k: string]: any}} v
 */
export function withoutRepair(v) {
  const check = { severity: "warning", code: RepairCode.NONE, message: "The answer could not be read, and a batch file allows no repair request: judge the row again to retry it." };
  return { ...v, checks: [...(v.checks || []), check] };
}

/**
 * lineResult turns output line `line` for row index into the row's result, as the engine's runRow
 * turns a live call's answer (the same reading, accounting, parsing and errors; only the repair
 * request is impossible). item is the row as mapped; judge and model as the export's.
 * @param {{runId: string, index: number, item: {inputs?: any, error?: string}, judge: import("./batchfile.js").Judge, model: string, line: OutputLine, now?: number}} o
 * @returns {import("./rowresult.js").RowResult & {batch?: {requestId: string}}}
 */
export function lineResult({ runId, index, item, judge, model, line, now = Date.now() }) {
  const result = /** @type {import("./rowresult.js").RowResult & {batch?: {requestId: string}}} */ (newRowResult(runId, index));
  try {
    if (!item || item.error) throw new CallError((item && item.error) || "this row does not exist", { kind: RowErrorKind.INPUT });
    if (line.status !== 200) throw batchLineError(line, model);
    let answer;
    try {
      answer = readAnswer(line.body, "", model);
    } catch {
      // Read again with the body's text, for the error's detail (not serialised for the lines that are read).
      answer = readAnswer(line.body, JSON.stringify(line.body), model);
    }
    countAnswer(result, { ...answer, cached: false, attempts: 1 }, []);
    result.answers.push(answer.content);
    const verdict = parseAnswer(judge, item.inputs, answer.content);
    result.verdict = needsRepair(verdict) ? withoutRepair(verdict) : verdict;
  } catch (e) {
    failRow(result, e, "call");
    if (result.attempts === 0) result.attempts = 1;
    const code = line.status === 200 ? "" : lineErrorCode(line);
    if (code && result.error) result.error.code = code;
  }
  result.finishedAt = now;
  if (line.requestId) result.batch = { requestId: line.requestId };
  return result;
}

/**
 * combineRepeats is the result of row index judged parts.length times, from each repeat's
 * lineResult, as the engine's judgeRepeats makes it: one repeat failing fails the row (its error;
 * the repeats that were answered are kept, a failed or missing one has its error), else the row
 * keeps every repeat and their majority verdict. The calls and tokens of every repeat count. null
 * while a repeat has no line and none failed (the row is still to judge).
 * @param {string} runId
 * @param {number} index
 * @param {(import("./rowresult.js").RowResult | undefined)[]} parts
 * @param {number} [now]
 * @returns {import("./rowresult.js").RowResult | null}
 */
export function combineRepeats(runId, index, parts, now = Date.now()) {
  const got = /** @type {import("./rowresult.js").RowResult[]} */ (parts.filter(Boolean));
  const failed = got.find((p) => p.error);
  if (!failed && got.length < parts.length) return null;
  const result = newRowResult(runId, index);
  for (const p of got) {
    result.calls += p.calls;
    result.attempts += p.attempts;
    result.usage.prompt_tokens += p.usage.prompt_tokens;
    result.usage.completion_tokens += p.usage.completion_tokens;
  }
  result.finishedAt = now;
  /** @type {import("../results/majority.js").Repeat[]} */
  const reps = parts.map((p) => (!p ? { verdict: null, answers: [], repaired: false, error: NO_LINE } : p.error ? { verdict: null, answers: p.answers, repaired: false, error: p.error } : { verdict: p.verdict, answers: p.answers, repaired: false }));
  result.repeats = reps;
  result.answers = reps.flatMap((r) => r.answers);
  if (failed) {
    result.error = failed.error;
    return result;
  }
  result.verdict = majorityVerdict(reps);
  return result;
}

/** NO_LINE is the error of a repeat no output line answered, in a row another repeat of which failed. */
const NO_LINE = Object.freeze({ kind: BatchErrorKind.NOT_RUN, status: 0, code: "", message: "No line of the output files answered this repeat.", attempts: 0, detail: "" });

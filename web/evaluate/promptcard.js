// promptcard.js: shows a rendered prompt with the spans where each input landed highlighted. Collapsed,
// it shows the first lines and the lines around every input, with the rest folded into "⋯ N lines"
// buttons, so people see where their text went without scrolling through the whole seed prompt.

import { h, replace, copyText } from "../lib/dom.js";
import { groupDigits } from "../lib/format.js";

const HEAD_LINES = 3;
const SPAN_LINES = 4; // lines shown from the start of each span when collapsed
const HUES = 6;

/** spanColor returns a stable colour slot (0..HUES-1) for an expression, by its input name. */
export function colorSlot(expr, names) {
  const root = String(expr).split(/[.[\s|]/)[0];
  const i = names.indexOf(root);
  if (i >= 0) return i % HUES;
  let x = 0;
  for (const ch of root) x = (x * 31 + (ch.codePointAt(0) ?? 0)) >>> 0;
  return x % HUES;
}

/**
 * cleanSpans sorts spans, drops empty and overlapping ones (the outer one wins) and those of no
 * input (input "": {{ loop.index }}, a literal), which are the template's own text.
 */
export function cleanSpans(spans, len) {
  const out = [];
  const sorted = [...(spans || [])]
    .filter((s) => s.input && Number.isInteger(s.start) && Number.isInteger(s.end) && s.end > s.start && s.start >= 0 && s.end <= len)
    .sort((a, b) => a.start - b.start || b.end - a.end);
  let last = -1;
  for (const s of sorted) {
    if (s.start < last) continue;
    out.push(s);
    last = s.end;
  }
  return out;
}

function lineStarts(text) {
  const starts = [0];
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
  return starts;
}

function lineOf(starts, off) {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= off) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

// appendRange appends text[a:b) to el, with the parts inside spans wrapped in <mark>.
function appendRange(el, text, a, b, spans, names) {
  let pos = a;
  for (const s of spans) {
    if (s.end <= a || s.start >= b) continue;
    const sa = Math.max(s.start, a);
    const sb = Math.min(s.end, b);
    if (sa > pos) el.append(document.createTextNode(text.slice(pos, sa)));
    el.append(
      h("mark", {
        class: "span c" + (s.from ? colorSlot(s.from, names) : colorSlot(s.input, names)),
        text: text.slice(sa, sb),
        title: s.from ? `{{ ${s.expr} }}: made from your ${s.from}` : s.expr === s.input ? "{{ " + s.expr + " }}" : `{{ ${s.expr} }}: from ${s.input}`,
        dataset: { expr: s.expr, input: s.input },
      }),
    );
    pos = sb;
  }
  if (pos < b) el.append(document.createTextNode(text.slice(pos, b)));
}

/**
 * renderPrompt fills pre with the prompt. names are the evaluator's input names (for colours);
 * collapsed folds the lines that hold no input; onExpand is called by the fold buttons.
 * @param {HTMLElement} pre
 * @param {string} text
 * @param {{expr: string, input: string, start: number, end: number, from?: string}[]} spans (from: the input a reader made this variable of)
 * @param {string[]} names
 * @param {{collapsed: boolean, onExpand?: () => void}} opts
 */
export function renderPrompt(pre, text, spans, names, { collapsed, onExpand }) {
  const clean = cleanSpans(spans, text.length);
  replace(pre);
  const starts = lineStarts(text);
  const nLines = starts.length;
  if (!collapsed || nLines <= HEAD_LINES + 6) {
    appendRange(pre, text, 0, text.length, clean, names);
    return { lines: nLines, hidden: 0 };
  }
  const show = new Uint8Array(nLines);
  for (let i = 0; i < Math.min(HEAD_LINES, nLines); i++) show[i] = 1;
  for (const s of clean) {
    const l0 = lineOf(starts, s.start);
    const l1 = lineOf(starts, Math.max(s.start, s.end - 1));
    for (let l = Math.max(0, l0 - 1); l <= Math.min(l1, l0 + SPAN_LINES - 1) && l < nLines; l++) show[l] = 1;
  }
  // A fold of one or two lines hides nothing worth a button.
  for (let l = 0; l < nLines; ) {
    if (show[l]) {
      l++;
      continue;
    }
    let e = l;
    while (e < nLines && !show[e]) e++;
    if (e - l <= 2) for (let k = l; k < e; k++) show[k] = 1;
    l = e;
  }
  let hidden = 0;
  for (let l = 0; l < nLines; ) {
    let e = l;
    while (e < nLines && show[e] === show[l]) e++;
    const a = starts[l];
    const b = e < nLines ? starts[e] : text.length;
    if (show[l]) appendRange(pre, text, a, b, clean, names);
    else {
      hidden += e - l;
      pre.append(
        h("button", {
          type: "button",
          class: "fold",
          // The visible words are the accessible name: a screen reader user who hears "show
          // 12 more lines" can say them to voice control.
          text: `⋯ Show ${e - l} more line${e - l === 1 ? "" : "s"} of the prompt ⋯`,
          on: { click: onExpand },
        }),
        "\n",
      );
    }
    l = e;
  }
  return { lines: nLines, hidden };
}

/**
 * @typedef {{role: string, content: string}} Message
 */

/**
 * splitMessages places the prompt (the last user message, whose spans rj.render gives) among a
 * render's messages: those before it (a system message, a few-shot exchange) and after it (an
 * assistant's opening words). A render of one message has none either side.
 * @param {{prompt: string, messages?: Message[]}} r
 * @returns {{before: Message[], after: Message[]}}
 */
export function splitMessages(r) {
  const msgs = Array.isArray(r.messages) ? r.messages : [];
  let i = -1;
  for (let k = msgs.length - 1; k >= 0 && i < 0; k--) if (msgs[k].role === "user" && msgs[k].content === r.prompt) i = k;
  if (i < 0) return { before: [], after: [] };
  return { before: msgs.slice(0, i), after: msgs.slice(i + 1) };
}

/**
 * promptText is what the judge is sent, as one text: the prompt when it is the one message, else
 * every message under its role ("[system]\n…\n\n[user]\n…"): what Copy prompt copies for a chat
 * tool (a system message left out would leave the judge without its instructions) and what a
 * report quotes.
 * @param {{prompt: string, messages?: Message[]}} r
 * @returns {string}
 */
export function promptText(r) {
  const msgs = Array.isArray(r.messages) ? r.messages : [];
  if (msgs.length <= 1) return r.prompt;
  return msgs.map((m) => `[${m.role}]\n${m.content}`).join("\n\n");
}

/**
 * promptCard is the Evaluate view's prompt card: the rendered prompt (folded by default), with
 * the other messages the judge gets (a system message) above or below it under their roles, a
 * legend of the inputs' colours, its size, and the buttons to unfold and copy it. draw(rendered,
 * names) shows an rj.render result (null for none); copy() copies the prompt and says so.
 */
export function promptCard() {
  let collapsed = true;
  /** @type {{prompt: string, messages?: Message[], spans?: {expr: string, input: string, start: number, end: number}[]} | null} */
  let rendered = null;
  /** @type {string[]} */
  let names = [];
  /** @type {Map<string, string>} a built-in reader's variable → the input it is made from ({{ reports }} ← claims) */
  let fromInput = new Map();
  const pre = h("pre", { class: "prompt mono", dataset: { ref: "prompt" }, tabIndex: 0, attrs: { "aria-label": "Rendered prompt" } });
  const legend = h("div", { class: "legend", dataset: { ref: "legend" } });
  const meta = h("span", { class: "hint", dataset: { ref: "prompt-meta" } });
  const toggleBtn = h("button", {
    type: "button",
    class: "btn btn-small btn-ghost",
    dataset: { ref: "prompt-toggle" },
    on: { click: () => { collapsed = !collapsed; redraw(); } },
  });
  const copyBtn = h("button", { type: "button", class: "btn btn-small", dataset: { ref: "copy-prompt" }, text: "Copy prompt", on: { click: () => copy() } });
  // The other messages, and the prompt's own role when there are others.
  const before = h("div", { class: "prompt-others", dataset: { ref: "prompt-before" } });
  const after = h("div", { class: "prompt-others", dataset: { ref: "prompt-after" } });
  const role = h("div", { class: "prompt-role", text: "user", hidden: true });
  /** @param {Message} m */
  const other = (m) => h("div", { class: "prompt-other", dataset: { role: m.role } }, h("div", { class: "prompt-role", text: m.role }), h("pre", { class: "prompt mono", tabIndex: 0, text: m.content, attrs: { "aria-label": `Rendered ${m.role} message` } }));

  function redraw() {
    if (!rendered) {
      replace(pre, h("span", { class: "placeholder", text: "The prompt appears here as you fill in the form." }));
      replace(before);
      replace(after);
      role.hidden = true;
      replace(legend);
      meta.textContent = "";
      toggleBtn.hidden = true;
      copyBtn.disabled = true;
      return;
    }
    copyBtn.disabled = false;
    const r = rendered;
    const { before: first, after: then } = splitMessages(r);
    replace(before, first.map(other));
    replace(after, then.map(other));
    role.hidden = !first.length && !then.length;
    // A variable the reader makes of an input is drawn in that input's colour, and named after it.
    const spans = (r.spans || []).map((s) => (fromInput.has(s.input) ? { ...s, from: fromInput.get(s.input) } : s));
    const info = renderPrompt(pre, r.prompt, spans, names, { collapsed, onExpand: () => { collapsed = false; redraw(); } });
    // The inputs whose text the prompt shows: {{ passage }} in a loop over contexts is contexts.
    const inputs = [...new Set(spans.map((s) => s.input).filter(Boolean))];
    replace(
      legend,
      inputs.length ? h("span", { class: "hint", text: "Your inputs: " }) : null,
      inputs.map((x) => {
        const probe = document.createElement("span");
        const from = fromInput.get(x);
        renderPrompt(probe, "x", [{ expr: x, input: x, from, start: 0, end: 1 }], names, { collapsed: false });
        const mark = /** @type {HTMLElement} */ (probe.firstChild);
        mark.textContent = from ? `${from} (as ${x})` : x;
        mark.classList.add("legend-item");
        return mark;
      }),
    );
    toggleBtn.hidden = info.lines <= 12;
    toggleBtn.textContent = collapsed ? `Show all ${info.lines} lines` : "Fold the seed text";
    toggleBtn.setAttribute("aria-expanded", String(!collapsed));
    // The size of all the judge gets, its other messages included.
    const chars = promptText(r).length;
    const n = (r.messages || []).length;
    meta.textContent = `${n > 1 ? n + " messages" : info.lines + " lines"} · ${groupDigits(chars)} characters · about ${groupDigits(Math.ceil(chars / 4))} tokens`;
  }

  async function copy() {
    if (!rendered) return false;
    const ok = await copyText(promptText(rendered));
    copyBtn.textContent = ok ? "✓ Copied" : "Copy failed: select the prompt and copy it";
    setTimeout(() => (copyBtn.textContent = "Copy prompt"), 2000);
    return ok;
  }

  return {
    buttons: h("div", { class: "btn-row" }, toggleBtn, copyBtn),
    body: [legend, before, role, pre, after, meta],
    /**
     * @param {any} r an rj.render result or null
     * @param {({name: string, variable?: string}|string)[]} inputs the evaluator's inputs (or their names)
     */
    draw(r, inputs) {
      rendered = r;
      names = inputs.map((i) => (typeof i === "string" ? i : i.name));
      fromInput = new Map(inputs.flatMap((i) => (typeof i === "object" && i.variable && i.variable !== i.name ? [[i.variable, i.name]] : [])));
      redraw();
    },
    copy,
  };
}

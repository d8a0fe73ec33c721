// outputform.js: the form of a custom evaluator's reader (its "output"): which kind of answer the
// judge writes, and that kind's settings. Each field carries the path the core's checks name it by
// (data-path="output.pass_at"), so a check is shown under the field it is about.

import { h, replace, uid } from "../lib/dom.js";
import { OUTPUT_KINDS, defaultOutput } from "./specedit.js";

const KIND_WORDS = {
  "yes-no": "Yes or no",
  score: "A score (Score: 4)",
  label: "One of your labels",
  json: "A JSON object",
  builtin: "A built-in evaluator's answer",
};

const KIND_HINTS = {
  "yes-no": "The answer is read by the rule of answer grounding: the whole answer, or a verdict line, is yes or no; a yes or no inside a sentence is not a verdict.",
  score: "A labelled number (Score: 4, **Score:** 4/5, Score = 4); the last one wins; a score out of range is an error, never a silent 0.",
  label: "One of the labels below, matched as yes or no are matched: the whole answer or a verdict line.",
  json: "A JSON object found and repaired as the built-ins' are; fields are picked by paths such as $.verdict or $.items[*].ok.",
  builtin: "The built-in's reader and cross-checks over your prompt: a translated or stricter claim checker keeps its claim cards.",
};

/**
 * FAIL_VALUES_HINT says what fail_values changes, as the core's json reader does it
 * (core/judge customeval.go, otherBoolean): given, a value in neither list is no verdict; left
 * blank, any other value fails, but for pass values that are one boolean (true, or 1) only the
 * other one fails and anything else is no verdict.
 */
export const FAIL_VALUES_HINT =
  "optional: given, a value in neither list is no verdict. Blank: any other value fails, but when the pass values are one boolean (true, or 1) only its opposite fails and anything else (null, \"unsure\") is no verdict";

const VERDICTS = [
  ["pass", "✓ passes", true],
  ["fail", "✗ fails", false],
  ["none", "? undetermined", null],
];

/**
 * outputForm draws the reader form of spec.output into el, edits spec.output in place and calls
 * onChange() after each edit; builtins are the built-ins a "builtin" reader may name. It returns
 * {fields}: data-path → the element a check about that path is shown in.
 * @param {HTMLElement} el @param {any} spec @param {{id: string, title?: string}[]} builtins @param {() => void} onChange
 * @returns {{errors: Map<string, HTMLElement>}}
 */
export function outputForm(el, spec, builtins, onChange) {
  /** @type {Map<string, HTMLElement>} */
  const errors = new Map();
  if (!spec.output || typeof spec.output !== "object") spec.output = defaultOutput("yes-no");
  const out = spec.output;

  /** field is a labelled control with the slot for checks about path. */
  const field = (label, control, path, hint) => {
    if (!control.id) control.id = uid("out");
    const err = h("div", { class: "field-error", dataset: { errorFor: path }, attrs: { "aria-live": "polite" } });
    errors.set(path, err);
    control.setAttribute("aria-describedby", err.id = control.id + "-err");
    return h("div", { class: "field", dataset: { path } }, h("label", { htmlFor: control.id, text: label }), control, hint ? h("div", { class: "hint", text: hint }) : null, err);
  };
  const text = (path, key, value, attrs = {}) =>
    h("input", {
      type: "text",
      class: "input",
      value: value ?? "",
      dataset: { ref: "custom-" + path.replace(/[.[\]]+/g, "-") },
      attrs: { autocomplete: "off", spellcheck: "false", ...attrs },
      on: {
        input: (e) => {
          const v = /** @type {HTMLInputElement} */ (e.target).value;
          if (v === "" && key !== "label") delete out[key];
          else out[key] = v;
          onChange();
        },
      },
    });
  const num = (path, key) =>
    h("input", {
      type: "number",
      step: "any",
      class: "input narrow",
      value: out[key] === undefined || out[key] === null ? "" : String(out[key]),
      dataset: { ref: "custom-" + path.replace(/[.[\]]+/g, "-") },
      on: {
        input: (e) => {
          const v = /** @type {HTMLInputElement} */ (e.target).value.trim();
          const n = Number(v);
          if (v === "") delete out[key];
          else out[key] = Number.isFinite(n) ? n : v; // the core says what is wrong with it
          onChange();
        },
      },
    });

  /**
   * pathField is a json reader's field: a path, and for a path through a list ([*]) how its
   * values combine. Stored as the path alone, or {path, combine} once a combine is chosen.
   */
  const pathField = (key, label, placeholder, combines, hint) => {
    const path = "output." + key;
    const cur = out[key];
    const pathIn = h("input", {
      type: "text",
      class: "input mono",
      value: typeof cur === "string" ? cur : cur && typeof cur === "object" ? cur.path ?? "" : "",
      dataset: { ref: "custom-output-" + key },
      attrs: { autocomplete: "off", spellcheck: "false", placeholder },
      on: { input: () => commit() },
    });
    const combineSel = combines.length
      ? h(
          "select",
          { class: "input narrow", dataset: { ref: "custom-output-" + key + "-combine" }, attrs: { "aria-label": `${label}: how the values of a list combine` }, on: { change: () => commit() } },
          combines.map((k) => h("option", { value: k, text: k })),
        )
      : null;
    if (combineSel) combineSel.value = cur && typeof cur === "object" && cur.combine ? cur.combine : combines[0];
    const sync = () => {
      if (combineSel) combineSel.hidden = !pathIn.value.includes("[*]");
    };
    function commit() {
      sync();
      const p = pathIn.value.trim();
      if (!p) delete out[key];
      else if (combineSel && p.includes("[*]") && combineSel.value !== combines[0]) out[key] = { path: p, combine: combineSel.value };
      else out[key] = p;
      onChange();
    }
    sync();
    const f = field(label, pathIn, path, hint);
    if (combineSel) f.insertBefore(combineSel, pathIn.nextSibling);
    errors.set(path + ".path", /** @type {HTMLElement} */ (errors.get(path)));
    errors.set(path + ".combine", /** @type {HTMLElement} */ (errors.get(path)));
    return f;
  };

  const kindSel = h(
    "select",
    { class: "input", dataset: { ref: "custom-output-kind" }, on: { change: () => setKind(kindSel.value) } },
    OUTPUT_KINDS.map((k) => h("option", { value: k, text: KIND_WORDS[/** @type {keyof typeof KIND_WORDS} */ (k)] })),
  );
  kindSel.value = out.kind;

  function setKind(kind) {
    for (const k of Object.keys(out)) delete out[k];
    Object.assign(out, defaultOutput(kind));
    onChange();
    draw();
  }

  function draw() {
    errors.clear();
    const body = [];
    const kind = out.kind;
    if (kind === "yes-no") {
      const sel = h("select", { class: "input narrow", dataset: { ref: "custom-output-pass" }, on: { change: () => ((out.pass = sel.value), onChange()) } }, h("option", { value: "yes", text: "yes" }), h("option", { value: "no", text: "no" }));
      sel.value = out.pass === "no" ? "no" : "yes";
      body.push(field("The verdict passes when the judge says", sel, "output.pass"));
    } else if (kind === "score") {
      body.push(field("Label before the number", text("output.label", "label", out.label), "output.label", 'e.g. Score, as in "Score: 4"'));
      body.push(h("div", { class: "row3" }, field("Lowest", num("output.min", "min"), "output.min"), field("Highest", num("output.max", "max"), "output.max"), field("Passes from", num("output.pass_at", "pass_at"), "output.pass_at", "blank: a score only")));
    } else if (kind === "label") {
      body.push(labelsTable());
    } else if (kind === "json") {
      body.push(pathField("pass", "Pass field", "$.verdict", ["all", "any"], "a path; through a list ($.items[*].ok): all or any of them"));
      body.push(field("Values that pass", valuesInput("pass_values"), "output.pass_values", 'JSON values, e.g. true, "pass"'));
      body.push(field("Values that fail", valuesInput("fail_values"), "output.fail_values", FAIL_VALUES_HINT));
      body.push(pathField("score", "Score field", "$.score", ["mean"], "optional; through a list: their mean"));
      body.push(pathField("reason", "Reason field", "$.reason", [], "optional"));
      body.push(h("div", { class: "row3" }, field("Lowest score", num("output.min", "min"), "output.min", "optional"), field("Highest score", num("output.max", "max"), "output.max", "optional"), field("Passes from", num("output.pass_at", "pass_at"), "output.pass_at", "without a pass field")));
    } else if (kind === "builtin") {
      const sel = h(
        "select",
        { class: "input", dataset: { ref: "custom-output-evaluator" }, on: { change: () => ((out.evaluator = sel.value), onChange()) } },
        builtins.map((b) => h("option", { value: b.id, text: b.title || b.id })),
      );
      sel.value = out.evaluator;
      body.push(field("Read the answer as", sel, "output.evaluator"));
    }
    const kindField = field("The judge answers with", kindSel, "output.kind", KIND_HINTS[/** @type {keyof typeof KIND_HINTS} */ (kind)]);
    const general = h("div", { class: "field-error", attrs: { "aria-live": "polite" } });
    errors.set("output", general);
    replace(el, kindField, body, general);
  }

  /**
   * valuesInput is the text field of a json reader's list of values (pass_values or fail_values),
   * JSON values separated by commas; a blank fail_values is left out (FAIL_VALUES_HINT).
   * @param {"pass_values"|"fail_values"} key
   */
  function valuesInput(key) {
    const values = h("input", {
      type: "text",
      class: "input mono",
      value: Array.isArray(out[key]) ? out[key].map((/** @type {unknown} */ v) => JSON.stringify(v)).join(", ") : "",
      dataset: { ref: "custom-output-" + key },
      attrs: { autocomplete: "off", spellcheck: "false" },
      on: {
        input: () => {
          const err = errors.get("output." + key);
          try {
            const list = values.value.trim() ? JSON.parse("[" + values.value + "]") : [];
            if (key === "fail_values" && !list.length) delete out[key];
            else out[key] = list;
            if (err) err.dataset.local = "";
          } catch {
            if (err) {
              err.textContent = '✗ Write JSON values separated by commas, e.g. true, "pass"';
              err.dataset.local = "1";
            }
            return;
          }
          onChange();
        },
      },
    });
    return values;
  }

  /** labelsTable is the label kind's rows: a label and the verdict it gives. */
  function labelsTable() {
    if (!out.labels || typeof out.labels !== "object") out.labels = {};
    const entries = Object.entries(out.labels);
    const commit = () => {
      const next = {};
      for (const row of /** @type {HTMLElement[]} */ ([...tbody.children])) {
        const name = /** @type {HTMLInputElement} */ (row.querySelector("input")).value;
        const v = /** @type {HTMLSelectElement} */ (row.querySelector("select")).value;
        next[name] = v === "pass" ? true : v === "fail" ? false : null;
      }
      out.labels = next;
      onChange();
    };
    const row = (name, verdict) => {
      const nameIn = h("input", { type: "text", class: "input", value: name, dataset: { ref: "custom-label-name" }, attrs: { "aria-label": "Label", autocomplete: "off" }, on: { input: commit } });
      const sel = h("select", { class: "input", dataset: { ref: "custom-label-verdict" }, attrs: { "aria-label": "Verdict for this label" }, on: { change: commit } }, VERDICTS.map(([v, t]) => h("option", { value: String(v), text: String(t) })));
      sel.value = verdict === true ? "pass" : verdict === false ? "fail" : "none";
      const tr = h("tr", {}, h("td", {}, nameIn), h("td", {}, sel), h("td", {}, h("button", { type: "button", class: "btn btn-small btn-ghost", text: "Remove", attrs: { "aria-label": `Remove the label ${name || "(blank)"}` }, on: { click: () => (tr.remove(), commit()) } })));
      return tr;
    };
    const tbody = h("tbody", {}, entries.map(([k, v]) => row(k, v)));
    const err = h("div", { class: "field-error", attrs: { "aria-live": "polite" } });
    errors.set("output.labels", err);
    return h(
      "div",
      { class: "field", dataset: { path: "output.labels" } },
      h("table", { class: "labels-table" }, h("thead", {}, h("tr", {}, h("th", { text: "Label" }), h("th", { text: "Verdict" }), h("th", {}, h("span", { class: "sr-only", text: "Actions" })))), tbody),
      h("div", { class: "btn-row" }, h("button", { type: "button", class: "btn btn-small", text: "+ Add a label", dataset: { ref: "custom-label-add" }, on: { click: () => (tbody.append(row("", null)), commit(), /** @type {HTMLElement} */ (tbody.lastElementChild?.querySelector("input"))?.focus()) } })),
      err,
    );
  }

  draw();
  return { errors };
}

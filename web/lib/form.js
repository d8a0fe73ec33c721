// form.js: builds an evaluator's input form from its input descriptions (rj.evaluators()), so a
// new evaluator needs no page code. Kinds: text, list (rows of strings), claims (rows of id +
// text), evidence (rows of title + text), choice (a select), number.

import { h, replace, uid } from "./dom.js";

/** emptyValue is a fresh form value for an input of kind. */
export function emptyValue(input) {
  switch (input.kind) {
    case "list":
      return [""];
    case "claims":
      return [{ id: "", text: "" }];
    case "evidence":
      return [{ title: "", text: "" }];
    case "choice":
      return (input.choices && input.choices[0]) || "";
    default:
      return "";
  }
}

/** fromInputs turns API-shaped inputs (as in examples.js) into form values. */
export function fromInputs(evaluator, inputs) {
  const raw = {};
  for (const inp of evaluator.inputs) {
    const v = inputs[inp.name];
    if (v === undefined || v === null) {
      raw[inp.name] = emptyValue(inp);
      continue;
    }
    switch (inp.kind) {
      case "list":
        raw[inp.name] = Array.isArray(v) ? v.map(String) : [String(v)];
        break;
      case "claims":
        raw[inp.name] = (Array.isArray(v) ? v : [v]).map((c) => (typeof c === "object" ? { id: c.id || "", text: c.text || "" } : { id: "", text: String(c) }));
        break;
      case "evidence":
        raw[inp.name] = (Array.isArray(v) ? v : [v]).map((c) => (typeof c === "object" ? { title: c.title || "", text: c.text || "" } : { title: "", text: String(c) }));
        break;
      default:
        raw[inp.name] = String(v);
    }
  }
  return raw;
}

/** toInputs turns form values into the inputs rj.render and rj.parse take; blank rows are left out. */
export function toInputs(evaluator, raw) {
  const out = {};
  for (const inp of evaluator.inputs) {
    let v = raw[inp.name];
    if (v === undefined) v = emptyValue(inp);
    switch (inp.kind) {
      case "list":
        out[inp.name] = (Array.isArray(v) ? v : [v]).filter((s) => String(s).trim() !== "");
        break;
      case "claims":
        out[inp.name] = (Array.isArray(v) ? v : []).filter((c) => c.text.trim() !== "").map((c) => (c.id.trim() ? { id: c.id.trim(), text: c.text } : c.text));
        break;
      case "evidence":
        out[inp.name] = (Array.isArray(v) ? v : []).filter((c) => c.text.trim() !== "").map((c) => (c.title.trim() ? { title: c.title.trim(), text: c.text } : c.text));
        break;
      case "number": {
        const s = String(v).trim();
        if (s === "") break; // an optional number left blank is absent, not 0
        const n = Number(s);
        out[inp.name] = Number.isFinite(n) ? n : s; // let the core say what is wrong with it
        break;
      }
      default:
        out[inp.name] = String(v);
    }
  }
  return out;
}

/** missingRequired names the required inputs that are still blank. */
export function missingRequired(evaluator, inputs) {
  return evaluator.inputs
    .filter((inp) => inp.required)
    .filter((inp) => {
      const v = inputs[inp.name];
      return v === undefined || v === "" || (Array.isArray(v) && v.length === 0) || (typeof v === "string" && v.trim() === "");
    })
    .map((inp) => inp.label || inp.name);
}

/**
 * buildForm renders evaluator's form into container from raw (mutated in place as the user types)
 * and calls onChange() after every edit. Returns {setError(name, message), clearErrors()}.
 */
export function buildForm(container, evaluator, raw, onChange) {
  const errors = {};
  const fields = evaluator.inputs.map((inp) => {
    if (raw[inp.name] === undefined) raw[inp.name] = emptyValue(inp);
    const id = uid("in");
    const err = h("div", { class: "field-error", id: id + "-err", attrs: { role: "alert", "aria-live": "polite" } });
    errors[inp.name] = err;
    const help = inp.help ? h("div", { class: "hint", id: id + "-help", text: inp.help }) : null;
    const described = [help && id + "-help", id + "-err"].filter(Boolean).join(" ");
    const label = h("label", { htmlFor: id, class: "field-label" }, inp.label || inp.name, inp.required ? null : h("span", { class: "optional", text: " (optional)" }));
    let control;
    switch (inp.kind) {
      case "choice":
        control = h(
          "select",
          { id, class: "input", dataset: { input: inp.name }, attrs: { "aria-describedby": described }, on: { change: () => { raw[inp.name] = control.value; onChange(); } } },
          (inp.choices || []).map((c) => h("option", { value: c, text: c })),
        );
        control.value = raw[inp.name];
        break;
      case "number":
        control = h("input", {
          id,
          type: "text",
          inputMode: "decimal",
          class: "input narrow",
          value: raw[inp.name],
          dataset: { input: inp.name },
          attrs: { "aria-describedby": described, autocomplete: "off" },
          on: { input: () => { raw[inp.name] = control.value; onChange(); } },
        });
        break;
      case "list":
      case "claims":
      case "evidence":
        control = buildRows(id, inp, raw, onChange, described);
        break;
      default:
        control = h("textarea", {
          id,
          class: "input",
          rows: 3,
          value: raw[inp.name],
          dataset: { input: inp.name },
          attrs: { "aria-describedby": described, spellcheck: "true" },
          on: { input: () => { raw[inp.name] = control.value; autoGrow(control); onChange(); } },
        });
        requestAnimationFrame(() => autoGrow(control));
    }
    return h("div", { class: "field", dataset: { field: inp.name, kind: inp.kind } }, label, help, control, err);
  });
  replace(container, fields);
  return {
    setError(name, message) {
      if (errors[name]) errors[name].textContent = message;
      container.querySelector(`[data-field="${cssEscape(name)}"]`)?.classList.toggle("has-error", !!message);
    },
    clearErrors() {
      for (const [name, el] of Object.entries(errors)) {
        el.textContent = "";
        container.querySelector(`[data-field="${cssEscape(name)}"]`)?.classList.remove("has-error");
      }
    },
  };
}

function cssEscape(s) {
  return window.CSS && CSS.escape ? CSS.escape(s) : s.replace(/[^\w-]/g, "\\$&");
}

/** autoGrow fits a textarea's height to its text, within CSS max-height. */
export function autoGrow(ta) {
  ta.style.height = "auto";
  ta.style.height = Math.min(ta.scrollHeight + 2, 480) + "px";
}

function rowNoun(inp) {
  if (inp.kind === "claims") return "claim";
  if (inp.kind === "evidence") return "chunk";
  // "References" -> "reference", "Facts" -> "fact": a row is one of what the list holds.
  const word = String(inp.label || "").trim().toLowerCase();
  return /^[a-z]+s$/.test(word) && !word.endsWith("ss") ? word.slice(0, -1) : "item";
}

// buildRows renders a list input as rows that can be added, removed and reordered by mouse or
// keyboard (every row action is a real button with a label saying which row it acts on).
function buildRows(id, inp, raw, onChange, described) {
  const noun = rowNoun(inp);
  const list = h("ol", { class: "rows", id, dataset: { input: inp.name }, attrs: { "aria-describedby": described, tabindex: "-1" } });
  const rows = () => raw[inp.name];
  const render = (focus) => {
    const items = rows();
    replace(
      list,
      items.map((item, i) => {
        const n = i + 1;
        const parts = [];
        const text = h("textarea", {
          class: "input",
          rows: 2,
          value: typeof item === "string" ? item : item.text,
          dataset: { row: String(i), part: "text" },
          attrs: { "aria-label": `${inp.label || inp.name}: ${noun} ${n}` },
          on: {
            input: () => {
              if (typeof item === "string") items[i] = text.value;
              else item.text = text.value;
              autoGrow(text);
              onChange();
            },
          },
        });
        requestAnimationFrame(() => autoGrow(text));
        if (inp.kind === "claims") {
          const cid = h("input", {
            class: "input id",
            value: item.id,
            placeholder: "c" + n,
            dataset: { row: String(i), part: "id" },
            attrs: { "aria-label": `Claim ${n} id (blank: c${n})`, autocomplete: "off", spellcheck: "false" },
            on: { input: () => { item.id = cid.value; onChange(); } },
          });
          parts.push(cid);
        } else if (inp.kind === "evidence") {
          const title = h("input", {
            class: "input title",
            value: item.title,
            placeholder: `Chunk ${n} title (optional)`,
            dataset: { row: String(i), part: "title" },
            attrs: { "aria-label": `Evidence chunk ${n} title`, autocomplete: "off" },
            on: { input: () => { item.title = title.value; onChange(); } },
          });
          parts.push(title);
        }
        parts.push(text);
        const act = (label, glyph, fn, disabled) =>
          h("button", { type: "button", class: "icon-btn", disabled, text: glyph, attrs: { "aria-label": label, title: label }, on: { click: fn } });
        return h(
          "li",
          { class: "row", dataset: { row: String(i) } },
          h("span", { class: "row-num", text: inp.kind === "evidence" ? `ID ${n}` : String(n), attrs: { "aria-hidden": "true" } }),
          h("div", { class: "row-fields" }, parts),
          h(
            "div",
            { class: "row-actions" },
            act(`Move ${noun} ${n} up`, "↑", () => move(i, -1), i === 0),
            act(`Move ${noun} ${n} down`, "↓", () => move(i, 1), i === items.length - 1),
            act(`Remove ${noun} ${n}`, "✕", () => remove(i), items.length === 1 && isBlank(items[0])),
          ),
        );
      }),
    );
    if (focus) focus();
  };
  const isBlank = (it) => (typeof it === "string" ? it === "" : !it.text && !it.id && !it.title);
  const move = (i, d) => {
    const items = rows();
    const j = i + d;
    [items[i], items[j]] = [items[j], items[i]];
    onChange();
    render(() => list.querySelector(`[data-row="${j}"] button[aria-label^="Move ${noun} ${j + 1} ${d < 0 ? "up" : "down"}"]`)?.focus() ||
      list.querySelector(`li[data-row="${j}"] textarea`)?.focus());
  };
  const remove = (i) => {
    const items = rows();
    items.splice(i, 1);
    if (items.length === 0) items.push(emptyValue(inp)[0]);
    onChange();
    render(() => list.querySelector(`li[data-row="${Math.min(i, items.length - 1)}"] textarea`)?.focus());
  };
  const add = h("button", {
    type: "button",
    class: "btn btn-small",
    dataset: { add: inp.name },
    text: `+ Add ${noun}`,
    on: {
      click: () => {
        rows().push(emptyValue(inp)[0]);
        onChange();
        const last = rows().length - 1;
        render(() => list.querySelector(`li[data-row="${last}"] textarea`)?.focus());
      },
    },
  });
  render();
  return h("div", { class: "rows-wrap" }, list, add);
}

/**
 * listWords joins names as a sentence does: "a", "a and b", "a, b and c".
 * @param {string[]} xs
 */
export function listWords(xs) {
  if (xs.length <= 1) return xs.join("");
  return xs.slice(0, -1).join(", ") + " and " + xs[xs.length - 1];
}

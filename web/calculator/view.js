// view.js: the recall calculator, entirely offline. Count the essential and bonus passages
// from a pasted ground truth (rj.passages) or set the counts, enter scores, and see the seed-format
// formula lines and exact fractions update live (rj.recall); or paste a judge's recall answer and
// see its arithmetic checked (rj.parse with the evaluator whose view is "recall"). It is drawn at
// once; the results wait quietly for the engine (shell/enginestatus.js).

import { h, replace, debounce, copyText, badge } from "../lib/dom.js";
import { renderVerdict } from "../verdict/render.js";
import { autoGrow } from "../lib/form.js";
import { engineNote } from "../shell/enginestatus.js";
import { bars, passageLabels, readScores } from "../verdict/recall.js";
import { fmtNum } from "../lib/format.js";
import { onChange } from "../lib/store.js";

/** RECALL_SEEDS are the rag-recall seed prompt's own four examples: scores in, final score out. */
export const RECALL_SEEDS = [
  { name: "Seed example 1", essential: [4, 3], bonus: [4, 0], final: "4" },
  { name: "Seed example 2", essential: [4, 4, 3], bonus: [0], final: "3.67" },
  { name: "Seed example 3", essential: [5, 5], bonus: [5], final: "5" },
  { name: "Seed example 4", essential: [1, 2], bonus: [], final: "1.5" },
];

const DEFAULT = { gt: "", E: 2, B: 2, essential: ["", ""], bonus: ["", ""], answer: "" };

/**
 * mountCalculator builds the calculator into root; its results need engine.rj and are drawn when
 * the engine is ready. evaluators are the descriptions (rj.evaluators()).
 * @param {HTMLElement} root
 * @param {{engine: import("../shell/enginestatus.js").Engine, state: import("../shell/state.js").State, evaluators: any[]}} ctx
 */
export function mountCalculator(root, { engine, state, evaluators }) {
  // c is the calculator's own copy, changed in place as the user types, and put in the state (a
  // copy of it: the state's values are never changed in place) a moment after the last change.
  const c = structuredClone({ ...DEFAULT, ...(state.get("calc") || {}) });
  const save = debounce(() => state.set({ calc: structuredClone(c) }), 300);

  const gt = h("textarea", {
    id: "calc-gt",
    class: "input",
    rows: 4,
    value: c.gt,
    placeholder: "[ESSENTIAL PASSAGE]\n…\n\n[BONUS PASSAGE]\n…",
    dataset: { ref: "calc-gt" },
    on: { input: () => { c.gt = gt.value; autoGrow(gt); changed(true); } },
  });
  const gtNote = h("p", { class: "hint", dataset: { ref: "calc-counted" }, attrs: { "aria-live": "polite" } });
  const count = (name, label, min) => {
    const input = h("input", {
      id: "calc-" + name,
      type: "number",
      class: "input narrow",
      min: String(min),
      max: "50",
      step: "1",
      value: String(c[name]),
      dataset: { ref: "calc-" + name },
      on: {
        input: () => {
          const n = Math.round(Number(input.value));
          if (input.value === "" || !Number.isFinite(n)) return;
          c[name] = Math.max(min, Math.min(50, n));
          changed(true);
        },
      },
    });
    return [h("div", { class: "field" }, h("label", { htmlFor: input.id, text: label }), input), input];
  };
  const [eField, eInput] = count("E", "Essential passages (E)", 0);
  const [bField, bInput] = count("B", "Bonus passages (B)", 0);
  const scoresEl = h("div", { class: "scores", dataset: { ref: "calc-scores" } });

  const resultEl = h("div", { class: "calc-result", dataset: { ref: "calc-result" }, attrs: { "aria-live": "polite" } });
  const answer = h("textarea", {
    id: "calc-answer",
    class: "input mono",
    rows: 6,
    value: c.answer,
    placeholder: "• RECALL_Reasoning: [ESSENTIAL PASSAGE] 1: … Score: 4 …\n• RECALL_Final_Score: 4",
    dataset: { ref: "calc-answer" },
    on: { input: () => { c.answer = answer.value; autoGrow(answer); save(); checkSoon(); } },
  });
  const checkEl = h("div", { class: "calc-check", dataset: { ref: "calc-check" }, attrs: { "aria-live": "polite" } });

  const seeds = RECALL_SEEDS.map((s, i) =>
    h("button", {
      type: "button",
      class: "btn btn-small",
      dataset: { ref: "calc-seed-" + (i + 1) },
      text: s.name,
      title: `E = ${s.essential.join(", ")}; B = ${s.bonus.join(", ") || "none"}; final ${s.final}`,
      on: { click: () => loadSeed(s) },
    }),
  );

  replace(
    root,
    h(
      "div",
      { class: "calculator" },
      h(
        "div",
        { class: "col col-left" },
        h(
          "section",
          { class: "card" },
          h("h2", { class: "card-title", text: "Recall calculator" }),
          h("p", {
            class: "desc",
            text: "The rag-recall formula, computed exactly. Works offline: nothing here calls a model.",
          }),
          h("div", { class: "btn-row" }, h("span", { class: "hint", text: "The seed's examples:" }), seeds),
          h("div", { class: "field" }, h("label", { htmlFor: gt.id, class: "field-label" }, "Ground truth", h("span", { class: "optional", text: " (optional: counts E and B from its markers)" })), gt, gtNote),
          h("div", { class: "row2" }, eField, bField),
          scoresEl,
        ),
        h(
          "section",
          { class: "card" },
          h("h2", { class: "card-title" }, h("label", { htmlFor: answer.id, text: "Check a judge's recall answer" })),
          h("p", { class: "hint", text: "Paste what a judge wrote: its scores are read, the recall recomputed, and its arithmetic compared line by line." }),
          answer,
        ),
      ),
      h("div", { class: "col col-right" }, h("section", { class: "card" }, h("h2", { class: "card-title", text: "Result" }), resultEl), h("section", { class: "card" }, h("h2", { class: "card-title", text: "The judge's arithmetic" }), checkEl)),
    ),
  );

  let labels = { essential: [], bonus: [] };
  /** @type {{essential: number[], bonus: number[]}|null} the scores read from the pasted judge's answer, when they fit the counts */
  let judged = null;

  // useJudged makes the judge's scores the calculator's, so the Result card computes them.
  function useJudged() {
    if (!judged) return;
    c.essential = judged.essential.map(String);
    c.bonus = judged.bonus.map(String);
    changed(true);
  }
  // judgedButton offers the judge's scores where they are not yet the ones entered.
  function judgedButton() {
    if (!judged || (judged.essential.join() === c.essential.join() && judged.bonus.join() === c.bonus.join())) return null;
    const words = [...judged.essential, ...judged.bonus].map(fmtNum).join(", ");
    return h("button", { type: "button", class: "btn btn-small", dataset: { ref: "calc-use-judged" }, text: "Use the judge's scores", title: `Enter ${words} as the scores`, on: { click: useJudged } });
  }

  function fromGT() {
    const rj = engine.rj;
    if (!rj) return; // counted when the engine is ready
    if (!c.gt.trim()) {
      gtNote.textContent = "";
      eInput.disabled = bInput.disabled = false;
      labels = { essential: [], bonus: [] };
      return;
    }
    try {
      const p = rj.passages(c.gt);
      c.E = (p.essential || []).length;
      c.B = (p.bonus || []).length;
      labels = passageLabels(rj, c.gt);
      gtNote.textContent = `Counted from the ground truth: ${c.E} essential, ${c.B} bonus.`;
      eInput.disabled = bInput.disabled = true;
      eInput.value = String(c.E);
      bInput.value = String(c.B);
    } catch (e) {
      gtNote.textContent = "✗ " + (e instanceof Error ? e.message : String(e));
    }
  }

  function drawScores() {
    const fit = (arr, n) => {
      while (arr.length < n) arr.push("");
      arr.length = n;
    };
    fit(c.essential, c.E);
    fit(c.bonus, c.B);
    const row = (kind, i) => {
      const arr = c[kind];
      const lo = kind === "essential" ? 1 : 0;
      const id = `calc-${kind}-${i + 1}`;
      const input = h("input", {
        id,
        type: "text",
        inputMode: "decimal",
        class: "input score",
        value: arr[i],
        placeholder: `${lo}–5`,
        dataset: { ref: id },
        attrs: { autocomplete: "off" },
        on: { input: () => { arr[i] = input.value.trim(); changed(); } },
      });
      const label = labels[kind][i];
      return h(
        "div",
        { class: "score-row" },
        h("label", { htmlFor: id }, h("strong", { text: `${kind === "essential" ? "Essential" : "Bonus"} ${i + 1}` }), label ? h("span", { class: "bar-passage", text: label }) : null),
        input,
      );
    };
    replace(
      scoresEl,
      h("h3", { text: "Scores: essential 1–5, bonus 0–5 (decimals allowed)" }),
      c.essential.map((_, i) => row("essential", i)),
      c.bonus.map((_, i) => row("bonus", i)),
    );
  }

  function compute() {
    const rj = engine.rj;
    if (!rj) {
      replace(resultEl, h("p", { class: "note", dataset: { ref: "engine-loading" }, text: engineNote(engine, "The recall is computed") }));
      return;
    }
    const blank = [...c.essential, ...c.bonus].some((s) => s === "");
    if (c.E === 0) {
      replace(resultEl, h("p", { class: "msg-error", text: "✗ The formula needs at least one essential passage (E = 0 divides by zero)." }));
      return;
    }
    if (blank) {
      const use = judgedButton();
      replace(resultEl, h("p", { class: "note", text: use ? "Enter a score for every passage to see the recall, or take the scores read from the judge's answer:" : "Enter a score for every passage to see the recall." }), use);
      return;
    }
    // Scores go to the core as typed ("3.5", "4"): it says which one is wrong and why.
    const essential = [...c.essential];
    const bonus = [...c.bonus];
    let r;
    try {
      r = rj.recall({ essential, bonus });
    } catch (e) {
      replace(resultEl, h("p", { class: "msg-error", dataset: { ref: "calc-error" }, text: "✗ " + (e instanceof Error ? e.message : String(e)) }));
      return;
    }
    const linesText = (r.lines || []).join("\n");
    const copyBtn = h("button", {
      type: "button",
      class: "btn btn-small",
      text: "Copy lines",
      on: { click: async () => { copyBtn.textContent = (await copyText(linesText)) ? "✓ Copied" : "Copy failed"; setTimeout(() => (copyBtn.textContent = "Copy lines"), 1500); } },
    });
    const exact = r.exact || {};
    replace(
      resultEl,
      h(
        "div",
        { class: "verdict-head" },
        h("div", { class: "big-number huge", dataset: { ref: "calc-final" } }, h("strong", { text: `${fmtNum(r.final)} / 5` }), exact.final ? h("span", { class: "exact", dataset: { ref: "calc-exact" }, text: `exactly ${exact.final}` }) : null),
      ),
      h(
        "dl",
        { class: "parts" },
        [
          ["Essential", r.essential, exact.essential],
          ["Bonus", r.bonus, exact.bonus],
          ["Combined", r.combined, exact.combined],
          ["Final (capped at 5)", r.final, exact.final],
        ].flatMap(([k, v, x]) => [h("dt", { text: k }), h("dd", {}, h("span", { text: fmtNum(v) }), x ? h("span", { class: "exact", text: ` = ${x}` }) : null)]),
      ),
      bars(essential.map(toNum), bonus.map(toNum), labels),
      h("div", { class: "card-head" }, h("h3", { text: "In the seed's format" }), copyBtn),
      h("pre", { class: "mono lines-out", dataset: { ref: "calc-lines" }, text: linesText }),
      steppedNote(r),
    );
  }

  function check() {
    const rj = engine.rj;
    if (!rj) {
      replace(checkEl, h("p", { class: "note", text: engineNote(engine, "The judge's arithmetic is checked") }));
      return;
    }
    judged = null;
    if (!c.answer.trim()) {
      replace(checkEl, h("p", { class: "note", text: "Paste a judge's recall answer on the left to check its arithmetic." }));
      return compute();
    }
    // Without a ground truth, one made of the counts lets the parser check the number of scores.
    const passage_gt = c.gt.trim()
      ? c.gt
      : [...Array(c.E)].map((_, i) => `[ESSENTIAL PASSAGE]\n(essential ${i + 1})`).concat([...Array(c.B)].map((_, i) => `[BONUS PASSAGE]\n(bonus ${i + 1})`)).join("\n\n");
    const inputs = { passage_gt, passage_llm: "(not given: checking the arithmetic only)" };
    // The evaluator whose verdicts the recall view draws is the one whose answers this checks.
    const ev = evaluators.find((e) => e.view === "recall");
    if (!ev) {
      replace(checkEl, h("p", { class: "msg-error", text: "✗ This engine has no recall evaluator to check an answer with." }));
      return;
    }
    try {
      const v = rj.parse(ev.id, inputs, c.answer);
      const read = readScores(v.verdict);
      judged = read && read.essential.length === c.E && read.bonus.length === c.B ? read : null;
      // With a score blank the Result card offers them; with others entered, here.
      const use = [...c.essential, ...c.bonus].some((x) => x === "") ? null : judgedButton();
      replace(checkEl, use ? h("p", { class: "hint calc-use" }, "The scores entered are not the judge's: ", use) : null, renderVerdict({ rj, ev, inputs, v, answer: c.answer, scoreOnly: true, labels: !!c.gt.trim() }));
    } catch (e) {
      replace(checkEl, badge(null, { cause: "cannot check", size: "badge-big" }), h("p", { class: "msg-error", text: "✗ " + (e instanceof Error ? e.message : String(e)) }));
    }
    compute(); // the Result card offers the judge's scores, or no longer does
  }
  const checkSoon = debounce(check, 200);

  function changed(structural) {
    save();
    const before = `${c.E}/${c.B}`;
    fromGT();
    if (structural || before !== `${c.E}/${c.B}` || scoresEl.childElementCount === 0) drawScores();
    compute();
    checkSoon();
  }

  function loadSeed(s) {
    c.gt = "";
    gt.value = "";
    c.E = s.essential.length;
    c.B = s.bonus.length;
    eInput.value = String(c.E);
    bInput.value = String(c.B);
    c.essential = s.essential.map(String);
    c.bonus = s.bonus.map(String);
    changed(true);
  }

  changed(true);
  check();
  onChange(() => engine.status, () => {
    changed(true);
    check();
  });
  requestAnimationFrame(() => {
    autoGrow(gt);
    autoGrow(answer);
  });
  return { loadSeed };
}

/**
 * steppedNote says, where it matters, why the seed-format chain ends elsewhere than the score:
 * the seed asks for each line rounded to 2 decimals, so its terms add up as written (3.67 + 0.17
 * = 3.84) while the score is the exact value (23/6, 3.83). null when the two agree.
 */
export function steppedNote(r) {
  const st = r && r.stepped;
  if (!st || (st.combined === r.combined && st.final === r.final)) return null;
  const exact = r.exact || {};
  return h(
    "p",
    { class: "hint stepped-note", dataset: { ref: "calc-stepped" } },
    `Each line is rounded to 2 decimals before the next one uses it, as the seed asks, so the lines add up as written and end at ${fmtNum(st.final)}. ` +
      `The score is the exact recall, ${exact.final || fmtNum(r.final)} ≈ ${fmtNum(r.final)}; a judge that writes ${fmtNum(st.final)} is right, rounded per step.`,
  );
}

// toNum reads a score as typed for the bars: "3.5" or "4/5" (a score out of 5 written as a fraction).
function toNum(s) {
  const m = String(s).match(/^\s*(\d+(?:\.\d+)?)\s*\/\s*5\s*$/);
  return m ? Number(m[1]) : Number(s);
}

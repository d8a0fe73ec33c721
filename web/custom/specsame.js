// specsame.js: when two custom evaluator definitions are one. As data (canonical: the same JSON
// whatever order its fields were written in), and as a judge (sameJudging: the same prompts and
// the same verdicts). What only names or shows the evaluator (its title, description, example,
// verdict words, its inputs' labels and help) judges nothing: a batch run recorded before such an
// edit is still the evaluator's as it is (registry.js forRun), and a share link's evaluation is
// shown with the user's own evaluator when theirs differs only there (share/links.js).

/**
 * canonical writes a JSON value with its objects' keys sorted, so that two definitions compare
 * equal whatever order their fields were written in. As in JSON, a member whose value is
 * undefined is left out, and undefined in a list is null.
 * @param {unknown} v
 * @returns {string}
 */
export function canonical(v) {
  if (Array.isArray(v)) return "[" + v.map(canonical).join(",") + "]";
  if (v && typeof v === "object") {
    const o = /** @type {Record<string, unknown>} */ (v);
    const keys = Object.keys(o).filter((k) => o[k] !== undefined).sort();
    return "{" + keys.map((k) => JSON.stringify(k) + ":" + canonical(o[k])).join(",") + "}";
  }
  return JSON.stringify(v === undefined ? null : v);
}

/** SHOWN_ONLY are a definition's fields that only name or show the evaluator. */
const SHOWN_ONLY = ["title", "description", "example", "words"];
/** INPUT_SHOWN_ONLY are an input's fields that only show it in a form. */
const INPUT_SHOWN_ONLY = ["label", "help"];

/**
 * judgingOf is what of definition spec decides the prompts and the verdicts, with the defaults
 * the engine reads for fields left out written in (README "Custom evaluators": dialect "jinja",
 * an input's kind "text", required true). Any field not known to only show the evaluator is kept,
 * the check-up's right verdicts (`checkup`) too: they decide what a check-up run concludes.
 * @param {any} spec
 * @returns {any}
 */
export function judgingOf(spec) {
  if (!spec || typeof spec !== "object" || Array.isArray(spec)) return spec;
  /** @type {Record<string, any>} */
  const out = {};
  for (const [k, v] of Object.entries(spec)) if (!SHOWN_ONLY.includes(k)) out[k] = v;
  out.dialect = spec.dialect ?? "jinja";
  if (Array.isArray(spec.inputs)) {
    out.inputs = spec.inputs.map((/** @type {any} */ i) => {
      if (!i || typeof i !== "object" || Array.isArray(i)) return i;
      /** @type {Record<string, any>} */
      const o = { kind: "text", required: true };
      for (const [k, v] of Object.entries(i)) if (!INPUT_SHOWN_ONLY.includes(k) && v !== undefined) o[k] = v;
      return o;
    });
  }
  return out;
}

/**
 * sameJudging says whether definitions a and b judge alike: the same prompts from the same
 * inputs, read into the same verdicts (judgingOf), whatever else differs.
 * @param {any} a @param {any} b
 * @returns {boolean}
 */
export function sameJudging(a, b) {
  return canonical(judgingOf(a)) === canonical(judgingOf(b));
}

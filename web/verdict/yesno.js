// yesno.js: the "yes-no" view: the judge's one word, large, with the mode it judged in.

import { h } from "../lib/dom.js";
import { generic, rest } from "./common.js";

/** yesNoView draws a yes-or-no verdict. */
export function yesNoView({ head, score, d, v, inputs }) {
  const word = String(d.answer ?? d.label ?? (v.passed === true ? "yes" : v.passed === false ? "no" : "")).toLowerCase();
  const mode = d.mode || inputs.mode || "";
  head.append(
    h(
      "div",
      { class: "yesno " + (word === "yes" ? "yes" : word === "no" ? "no" : "none"), dataset: { ref: "yesno" } },
      h("span", { class: "yesno-word", text: word === "yes" ? "YES" : word === "no" ? "NO" : "—" }),
      mode ? h("span", { class: "yesno-mode", text: `${mode} mode` }) : null,
    ),
  );
  if (score) head.append(score);
  const other = rest(d, ["answer", "label", "mode"]);
  return Object.keys(other).length ? generic(other) : null;
}

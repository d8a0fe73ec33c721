// chosen.test.mjs: the dataset set up before a reload, remembered by name and mapping (batch/chosen.js).
import { test } from "node:test";
import assert from "node:assert/strict";
import { chosenOf, keepChosen, keptMapping, keptLabel, againText } from "../../web/batch/chosen.js";

/** A store with the page state's get and set. */
function store() {
  const data = {};
  let sets = 0;
  return { get: (k) => data[k], set: (p) => (Object.assign(data, p), sets++), sets: () => sets };
}

const EV = { id: "answer-grounding", inputs: [{ name: "answer" }, { name: "facts" }, { name: "mode" }] };

test("what is set up is kept with every input of its evaluator, an unused one as empty", () => {
  const st = store();
  assert.equal(chosenOf(/** @type {any} */ (st)), null);
  keepChosen(/** @type {any} */ (st), { name: "a.jsonl", mapping: { answer: "my_answer", facts: "contexts" }, label: "", labelYes: "" }, EV);
  assert.deepEqual(chosenOf(/** @type {any} */ (st)), { name: "a.jsonl", evaluator: "answer-grounding", mapping: { answer: "my_answer", facts: "contexts", mode: "" }, label: "", labelYes: "" });
  keepChosen(/** @type {any} */ (st), { name: "a.jsonl", mapping: { answer: "my_answer", facts: "contexts" }, label: "", labelYes: "" }, EV);
  assert.equal(st.sets(), 1, "the same choice is not saved again");
  assert.match(againText(/** @type {any} */ (chosenOf(/** @type {any} */ (st)))), /^Choose a\.jsonl again: /);
});

test("the kept mapping goes over the guess for the same file and evaluator, where the file still has its columns", () => {
  const kept = { name: "a.jsonl", evaluator: "answer-grounding", mapping: { answer: "my_answer", facts: "gone", mode: "" }, label: "label", labelYes: "fail" };
  const guessed = { answer: "response", facts: "contexts", mode: "mode" };
  const cols = ["response", "my_answer", "contexts", "mode", "label"];
  assert.deepEqual(keptMapping(kept, "a.jsonl", "answer-grounding", cols, guessed), { answer: "my_answer", facts: "contexts" });
  assert.equal(keptMapping(kept, "b.jsonl", "answer-grounding", cols, guessed), null, "another file");
  assert.equal(keptMapping(kept, "a.jsonl", "claim-groundedness", cols, guessed), null, "another evaluator");
  assert.equal(keptMapping(null, "a.jsonl", "answer-grounding", cols, guessed), null);
  assert.deepEqual(keptLabel(kept, "a.jsonl", cols), { label: "label", labelYes: "fail" });
  assert.equal(keptLabel(kept, "a.jsonl", ["response"]), null, "its label column is gone");
  assert.deepEqual(keptLabel({ ...kept, label: "" }, "a.jsonl", ["response"]), { label: "", labelYes: "fail" });
});

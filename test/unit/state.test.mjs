// The page's state (web/shell/state.js) as the views use it: each field a signal, values never
// changed in place, saved to localStorage; and Evaluate's drafts (web/evaluate/viewstate.js), the
// forms and answers typed, kept in the state as copies.
import { test, beforeEach } from "node:test";
import assert from "node:assert/strict";
import { effect, onChange } from "../../web/lib/store.js";
import { State } from "../../web/shell/state.js";
import { Drafts } from "../../web/evaluate/viewstate.js";

/** a localStorage in memory, as window.localStorage */
function memoryStorage() {
  const m = new Map();
  return {
    m,
    getItem: (k) => (m.has(k) ? m.get(k) : null),
    setItem: (k, v) => m.set(k, String(v)),
    removeItem: (k) => m.delete(k),
  };
}

let storage;
beforeEach(() => {
  storage = memoryStorage();
  globalThis.window = /** @type {any} */ ({ localStorage: storage });
});

const saved = () => JSON.parse(storage.getItem("ragjudge.page.v1"));

test("state: an effect reads the fields it needs and runs again when they, and only they, change", () => {
  const state = new State();
  const models = [];
  effect(() => models.push(state.get("settings").model));
  state.set({ view: "batch" });
  state.setSettings({ model: "m2" });
  state.update("batch", (cur) => ({ ...(cur || {}), threshold: "3" }));
  assert.deepEqual(models, ["gpt-4o-mini", "m2"]);
  assert.equal(saved().settings.model, "m2", "saved at once");
  assert.equal(saved().batch.threshold, "3");
  assert.equal(saved().view, "batch");
});

test("state: a field first read before it is set is told when it is", () => {
  const state = new State();
  const seen = [];
  effect(() => seen.push(state.get("checkup")));
  state.set({ checkup: { rows: 20 } });
  assert.deepEqual(seen, [undefined, { rows: 20 }]);
});

test("state: values are never changed in place: what is set is frozen, deep", () => {
  const state = new State();
  state.set({ forms: { ev: { question: "q", contexts: ["a"] } } });
  const forms = state.get("forms");
  assert.throws(() => (forms.ev.question = "changed"), TypeError);
  assert.throws(() => forms.ev.contexts.push("b"), TypeError);
  assert.throws(() => (state.get("settings").model = "x"), TypeError, "as read from a fresh page too");
  const before = state.get("batch");
  state.update("batch", (cur) => ({ ...(cur || {}), concurrency: 4 }));
  assert.notEqual(state.get("batch"), before, "update puts a new value");
});

test("state: several fields set at once are told once, after they are saved", () => {
  const state = new State();
  const seen = [];
  effect(() => seen.push([state.get("evaluator"), state.get("forms").x, saved()?.evaluator]));
  state.set({ forms: { x: { a: "1" } }, evaluator: "x" });
  assert.deepEqual(seen, [
    ["claim-groundedness", undefined, undefined],
    ["x", { a: "1" }, "x"],
  ]);
});

test("state: the key is a signal kept in memory, saved only when remember is ticked", () => {
  const state = new State();
  const keys = [];
  onChange(() => state.key, (k) => keys.push(k));
  state.setKey("sk-1");
  assert.equal(storage.getItem("ragjudge.page.key"), null);
  state.setSettings({ remember: true });
  assert.equal(storage.getItem("ragjudge.page.key"), "sk-1");
  assert.equal(new State().key, "sk-1", "a reload finds it");
  state.setKey("");
  assert.deepEqual(keys, ["sk-1", ""]);
  assert.equal(storage.getItem("ragjudge.page.key"), null);
  assert.ok(!storage.getItem("ragjudge.page.v1").includes("sk-1"), "never in the saved state");
});

test("state: a saved state is read back; a corrupt one is dropped", () => {
  storage.setItem("ragjudge.page.v1", JSON.stringify({ evaluator: "answer-relevance", settings: { model: "m9" } }));
  let state = new State();
  assert.equal(state.get("evaluator"), "answer-relevance");
  assert.equal(state.get("settings").model, "m9");
  assert.equal(state.get("settings").maxTokens, 2048, "the defaults fill in what was not saved");
  storage.setItem("ragjudge.page.v1", "{not json");
  state = new State();
  assert.equal(state.get("evaluator"), "claim-groundedness");
});

test("drafts: what is typed is the view's own until kept; keep puts copies in the state", () => {
  const state = new State();
  state.set({ forms: { a: { question: "saved" } }, answers: { a: "old" } });
  const drafts = new Drafts(state);
  const ev = { id: "a" };
  const raw = drafts.form(ev);
  assert.deepEqual(raw, { question: "saved" });
  raw.question = "typed"; // as lib/form.js does, in place
  drafts.touch(ev);
  assert.equal(state.get("forms").a.question, "saved", "the state is not changed in place");
  assert.equal(drafts.answer(ev), "old");
  drafts.setAnswer(ev, "new");
  const seen = [];
  onChange(() => state.get("forms"), (f) => seen.push(f.a.question));
  drafts.keep();
  assert.deepEqual(seen, ["typed"]);
  assert.equal(saved().forms.a.question, "typed");
  assert.equal(saved().answers.a, "new");
  raw.question = "again"; // the view's copy stays its own
  assert.equal(state.get("forms").a.question, "typed");
  drafts.keep(); // nothing touched since: no change
  assert.deepEqual(seen, ["typed"]);
});

test("drafts: a share link's evaluator keeps its form and answer in its own draft, never in the state", () => {
  const state = new State();
  const drafts = new Drafts(state);
  const linked = { id: "link-1", fromLink: true, draft: { forms: {}, answers: {} } };
  drafts.setForm(linked, { q: "from the link" });
  drafts.setAnswer(linked, "the shared answer");
  drafts.keep();
  assert.deepEqual(linked.draft, { forms: { "link-1": { q: "from the link" } }, answers: { "link-1": "the shared answer" } });
  assert.deepEqual(state.get("forms"), {});
  assert.deepEqual(state.get("answers"), {});
  assert.equal(drafts.answer(linked), "the shared answer");
});

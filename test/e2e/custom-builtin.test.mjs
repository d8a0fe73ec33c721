// custom-builtin.test.mjs: a built-in duplicated in My evaluators is the built-in until it is
// edited, in real headless chromium through the real dev server to the fake upstream: for each of
// the four built-ins, the copy's inputs, Evaluate form, example, the prompt the model receives and
// the verdict are the built-in's (claim groundedness' claims reach the prompt through `reports`,
// which its reader makes from `claims`: never an input of its own).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { setup, launch, proxySettings, pickEvaluator, text } from "./harness.mjs";
import { loadDataset, runEnd } from "./batch-env.mjs";
import { load } from "../../web/ragjudge.js";

const rj = await load();
const BUILTINS = rj.evaluators().filter((e) => !e.custom);

let env;
before(async () => {
  env = await setup();
});
after(async () => {
  await env?.close();
});

const KEY = "sk-e2e-custom-builtin";

/**
 * consoleErrors collects page's console errors (Chromium logs an invalid `pattern` attribute
 * there, not as a page error), but for the favicon a page without one asks for (the /nothing-here
 * page a link is opened from).
 * @param {import("playwright-core").Page} page @returns {string[]}
 */
function consoleErrors(page) {
  const out = [];
  page.on("console", (m) => {
    if (m.type() === "error" && !m.location().url.endsWith("/favicon.ico")) out.push(m.text() + " at " + m.location().url);
  });
  return out;
}

/** duplicate makes a copy of built-in id in My evaluators and returns the copy's id once it is open and checked. */
async function duplicate(page, id) {
  await page.click("#tab-custom");
  await page.waitForSelector(`[data-ref="custom-new-from"] option[value="builtin:${id}"]:not([disabled])`, { state: "attached" });
  const had = await page.locator(".custom-item").evaluateAll((els) => els.map((e) => e.getAttribute("data-id")));
  await page.selectOption('[data-ref="custom-new-from"]', `builtin:${id}`);
  const made = await page.waitForFunction((had) => {
    const open = document.querySelector(".custom-item.is-open")?.getAttribute("data-id");
    return !!open && !had.includes(open) && /** @type {HTMLInputElement|null} */ (document.querySelector('[data-ref="custom-id"]'))?.value === open && open;
  }, had);
  const copy = /** @type {string} */ (await made.jsonValue());
  await page.waitForSelector('[data-ref="custom-status"][data-state="ok"]');
  await page.waitForSelector('[data-ref="custom-editor"][data-saving="false"]');
  return copy;
}

/** formShape is the Evaluate form's fields as [name, kind] pairs. */
function formShape(page) {
  return page.locator('#view-evaluate [data-ref="form"] [data-field]').evaluateAll((els) => els.map((e) => [e.dataset.field, e.dataset.kind]));
}

/** runExample loads evaluator id's example in Evaluate, runs it and returns {prompt, state, score, badge}. */
async function runExample(page, id) {
  await page.click("#tab-evaluate");
  await page.waitForSelector(`[data-ref="pick-${id}"]`, { state: "attached" });
  await pickEvaluator(page, id);
  await page.waitForFunction(() => !document.querySelector('#view-evaluate [data-ref="example"]').disabled);
  await page.click('#view-evaluate [data-ref="example"]');
  await page.waitForFunction(() => !document.querySelector('[data-ref="run"]').disabled);
  const before = env.fake.requests.length;
  await page.click('[data-ref="run"]');
  await page.waitForFunction(() => document.querySelector('[data-ref="stop"]').hidden && document.querySelector('[data-ref="verdict"] [data-ref="verdict-view"]'));
  const call = env.fake.requests.slice(before).filter((r) => r.path === "/chat/completions").at(-1);
  assert.ok(call, `a call was made for ${id}`);
  return {
    prompt: call.body.messages.at(-1).content,
    shape: await formShape(page),
    state: await page.getAttribute('[data-ref="verdict"] [data-ref="verdict-view"]', "data-state"),
    badge: await text(page, '[data-ref="verdict"] [data-ref="verdict-badge"]'),
    score: (await page.locator('[data-ref="verdict"] [data-ref="score"]').count()) ? await text(page, '[data-ref="verdict"] [data-ref="score"]') : "",
  };
}

test("each built-in duplicated: the same inputs, form, example, prompt and verdict as the built-in", async () => {
  const page = await env.page({ settings: proxySettings(), key: KEY, view: "custom" });
  const errors = consoleErrors(page);
  for (const b of BUILTINS) {
    const copy = await duplicate(page, b.id);
    // The inputs are the built-in's, none more: what its reader makes (reports) is no input.
    const names = await page.locator('[data-ref="custom-input-name"]').evaluateAll((els) => els.map((e) => /** @type {HTMLInputElement} */ (e).value));
    assert.deepEqual(names, b.inputs.map((i) => i.name), `${copy}'s inputs`);
    assert.equal(await page.locator('[data-ref="custom-status"] .status-checks li').count(), 0, `${copy}: no problem listed`);
    // The editor's preview starts from the built-in's example, not from placeholders.
    const expected = rj.render(b.id, b.example.inputs).prompt;
    await page.waitForFunction((p) => document.querySelector('[data-ref="custom-rendered"]')?.textContent === p, expected);

    const mine = await runExample(page, copy);
    const theirs = await runExample(page, b.id);
    assert.equal(mine.prompt, expected, `${copy}: the prompt sent is the built-in's`);
    assert.equal(theirs.prompt, expected);
    assert.deepEqual(mine.shape, theirs.shape, `${copy}: the form`);
    assert.deepEqual({ ...mine, shape: null }, { ...theirs, shape: null }, `${copy}: the verdict`);
    if (b.id === "claim-groundedness") {
      for (const c of b.example.inputs.claims) assert.ok(mine.prompt.includes(typeof c === "string" ? c : c.text), "the claims reach the prompt");
    }
  }
  // The Id field's pattern is a valid regular expression (Chromium compiles it with the v flag,
  // and logs an error when it cannot, the moment validity is asked for) and it says what an id is.
  const validity = (v) => page.evaluate(async (v) => {
    const el = /** @type {HTMLInputElement} */ (document.querySelector('[data-ref="custom-id"]'));
    el.value = v;
    return [el.validity.valid, el.validity.patternMismatch];
  }, v);
  assert.deepEqual(await validity("claims-fr-2"), [true, false]);
  assert.deepEqual(await validity("Not An Id"), [false, true]);
  assert.deepEqual(page.pageErrors, []);
  assert.deepEqual(errors, [], "no console error (the Id field's pattern among them)");
});

const CG = BUILTINS.find((b) => b.id === "claim-groundedness");

test("a duplicated claim groundedness whose prompt drops the claims is an error under the template and never offered; dropping the evidence warns (finding 1)", async () => {
  const page = await env.page({ settings: proxySettings(), key: KEY, view: "custom" });
  const copy = await duplicate(page, "claim-groundedness");
  const tpl = page.locator('[data-ref="custom-tpl-input"]');
  const source = await tpl.inputValue();
  assert.ok(source.includes("{{ reports }}"));
  await tpl.fill(source.replace("{{ reports }}", "(see above)"));
  await page.waitForSelector('[data-ref="custom-status"][data-state="error"]');
  const under = page.locator('[data-ref="custom-tpl-checks"] li[data-code="evaluator.judged-unread"]');
  await under.waitFor();
  assert.match(await under.textContent(), /✗ Error.*no template reads the judged input "claims".*add \{\{ reports \}\}/);
  assert.match(await text(page, '[data-ref="custom-status"]'), /✗ 1 error/);
  await page.waitForSelector('[data-ref="custom-editor"][data-saving="false"]');
  await page.waitForFunction((id) => /has errors/.test(document.querySelector(`.custom-item[data-id="${id}"] [data-ref="custom-state"]`)?.textContent || ""), copy);
  await page.click("#tab-evaluate");
  await page.waitForSelector('[data-ref="pick-claim-groundedness"]', { state: "attached" });
  assert.equal(await page.locator(`[data-ref="pick-${copy}"]`).count(), 0, "a prompt without the claims is not offered in Evaluate");

  // The claims back, the evidence dropped: ready, with a warning on the evidence input.
  await page.click("#tab-custom");
  await tpl.fill(source.replace("{{ evidence }}", "(none)"));
  await page.waitForSelector('[data-ref="custom-status"][data-state="ok"]');
  await page.waitForFunction(() => /1 warning/.test(document.querySelector('[data-ref="custom-status"]').textContent));
  assert.match(await text(page, '[data-error-for="inputs[2]"]'), /⚠ input "evidence" is declared but no template reads it/);
  assert.deepEqual(page.pageErrors, []);
});
const CLAIMS = CG.example.inputs.claims.map((c) => (typeof c === "string" ? c : c.text));
const chatCalls = () => env.fake.requests.filter((r) => r.path === "/chat/completions");

test("a duplicated claim groundedness at the seams: Batch (mapping, a run), a share link and its report, export then import in a fresh profile", async () => {
  env.fake.answer = null;
  const page = await env.page({ settings: proxySettings(), key: KEY, view: "custom" });
  const errors = consoleErrors(page);
  const copy = await duplicate(page, "claim-groundedness");

  // ---- Batch: the dataset's claims and evidence are mapped onto the copy's inputs, and reach the prompt
  await page.click("#tab-batch");
  await page.waitForSelector('[data-ref="batch-setup"]');
  const rows = [0, 1, 2].map((i) => JSON.stringify({ question: `Question ${i}?`, claims: CLAIMS.map((c) => `${c} (row ${i})`), evidence: CG.example.inputs.evidence.map((e) => e.text) })).join("\n") + "\n";
  await loadDataset(page, "claims.jsonl", rows, { evaluator: copy });
  assert.equal(await page.inputValue('[data-ref="batch-map-claims"]'), "claims");
  assert.equal(await page.inputValue('[data-ref="batch-map-evidence"]'), "evidence");
  assert.equal(await page.locator('[data-ref="batch-map-reports"]').count(), 0, "no column asked for reports");
  const before = chatCalls().length;
  await page.click('[data-ref="batch-run"]');
  const end = await runEnd(page, 60_000);
  assert.equal(end.done, 3, end.text);
  const prompts = chatCalls().slice(before).map((r) => r.body.messages.at(-1).content);
  assert.equal(prompts.length, 3);
  for (const i of [0, 1, 2]) {
    const p = prompts.find((x) => x.includes(`Question ${i}?`));
    assert.ok(p, `row ${i}'s prompt`);
    assert.equal(p, rj.render("claim-groundedness", JSON.parse(rows.split("\n")[i])).prompt, `row ${i}: the built-in's prompt`);
  }

  // ---- Evaluate: the example run, a share link, the report
  const mine = await runExample(page, copy);
  assert.equal(mine.prompt, rj.render("claim-groundedness", CG.example.inputs).prompt);
  await page.click('[data-ref="copy-link"]');
  await page.waitForSelector('[data-ref="share-url"]');
  const url = await page.inputValue('[data-ref="share-url"]');
  const [download] = await Promise.all([page.waitForEvent("download"), page.click('[data-ref="download-report"]')]);
  const report = await readFile(await download.path(), "utf8");
  for (const c of CLAIMS) assert.ok(report.includes(c), `the report holds the claim "${c}"`);
  assert.ok(!report.includes("(reports)"), "no placeholder in the report");

  // ---- export of the copy
  await page.click("#tab-custom");
  await page.waitForSelector(`.custom-item[data-id="${copy}"]`);
  const [exp] = await Promise.all([page.waitForEvent("download"), page.click('[data-ref="custom-export"]')]);
  const file = await readFile(await exp.path(), "utf8");
  const spec = JSON.parse(file);
  assert.deepEqual(spec.inputs.map((i) => i.name), ["question", "claims", "evidence"]);
  assert.deepEqual(spec.example, CG.example, "the example travels with it");

  const fresh = await launch();
  try {
    const p2 = await fresh.ctx.newPage();
    const pageErrors = [];
    p2.on("pageerror", (e) => pageErrors.push(e.message));
    await p2.addInitScript((s) => {
      if (!localStorage.getItem("ragjudge.page.v1")) localStorage.setItem("ragjudge.page.v1", JSON.stringify({ settings: s }));
      localStorage.setItem("ragjudge.page.key", "sk-another");
    }, proxySettings());
    // The link, opened in a fresh profile: the sender's verdict, no call.
    await p2.goto(env.serve.url + "/nothing-here");
    const calls = chatCalls().length;
    const errs = consoleErrors(p2); // from here: /nothing-here is a 404 on purpose
    await p2.goto(url);
    await p2.waitForFunction(() => document.documentElement.dataset.ready === "true");
    await p2.waitForSelector('[data-ref="verdict"] [data-ref="verdict-view"]');
    assert.equal(await p2.getAttribute('[data-ref="verdict"] [data-ref="verdict-view"]', "data-state"), mine.state);
    assert.equal(await text(p2, '[data-ref="verdict"] [data-ref="verdict-badge"]'), mine.badge);
    assert.equal(chatCalls().length, calls);
    for (const c of CLAIMS) assert.ok((await text(p2, '#view-evaluate [data-ref="prompt"]')).includes(c), "the link's prompt holds the claims");

    // The exported file, imported: ready, and the same example, prompt and verdict.
    await p2.click("#tab-custom");
    await p2.waitForSelector('[data-ref="custom-list"]');
    await p2.locator('[data-ref="custom-import-file"]').setInputFiles({ name: `${copy}.json`, mimeType: "application/json", buffer: Buffer.from(file) });
    await p2.waitForFunction((id) => document.querySelector('[data-ref="custom-msg"]').textContent.includes(`Imported ${id}.`), copy);
    await p2.waitForSelector('[data-ref="custom-status"][data-state="ok"]');
    assert.equal(await p2.getAttribute('[data-ref="custom-example-state"]', "data-state"), "same");
    await p2.click("#tab-evaluate");
    await p2.waitForSelector(`[data-ref="pick-${copy}"]`, { state: "attached" });
    await pickEvaluator(p2, copy);
    await p2.click('#view-evaluate [data-ref="example"]');
    await p2.waitForFunction(() => !document.querySelector('[data-ref="run"]').disabled);
    const n = chatCalls().length;
    await p2.click('[data-ref="run"]');
    await p2.waitForFunction(() => document.querySelector('[data-ref="stop"]').hidden && document.querySelector('[data-ref="run-status"]').textContent === "Done.");
    assert.equal(chatCalls().at(-1).body.messages.at(-1).content, mine.prompt);
    assert.equal(chatCalls().length, n + 1);
    assert.equal(await p2.getAttribute('[data-ref="verdict"] [data-ref="verdict-view"]', "data-state"), mine.state);
    assert.deepEqual([pageErrors, errs], [[], []]);
  } finally {
    await fresh.close();
  }
  assert.deepEqual(page.pageErrors, []);
  assert.deepEqual(errors, []);
});

test("the inputs table: Remove removes, refuses what would come back; an unread input warns and never blocks Run; a stored copy with a reports input is fixed by removing it", async () => {
  env.fake.answer = null;
  const page = await env.page({ settings: proxySettings(), key: KEY, view: "custom" });
  const errors = consoleErrors(page);

  // ---- a copy saved by an earlier version, with reports as an input of its own: refused by the
  // engine, listed with its error, fixed by Remove
  const old = rj.spec("claim-groundedness");
  old.id = "claims-old";
  old.inputs = [...old.inputs, { name: "reports", label: "Reports", kind: "text", required: true }];
  await page.evaluate(
    (rec) =>
      new Promise((resolve, reject) => {
        const req = indexedDB.open("ragjudge-evaluators", 1);
        req.onupgradeneeded = () => req.result.createObjectStore("evaluators", { keyPath: "id" });
        req.onsuccess = () => {
          const tx = req.result.transaction("evaluators", "readwrite");
          tx.objectStore("evaluators").put(rec);
          tx.oncomplete = () => (req.result.close(), resolve(null));
          tx.onerror = () => reject(tx.error);
        };
        req.onerror = () => reject(req.error);
      }),
    { id: "claims-old", spec: old, sample: { inputs: { question: "Q?", claims: ["c"], evidence: ["e"], reports: "(reports)" } }, answer: "", ok: true, updatedAt: Date.now() },
  );
  await page.reload();
  await page.waitForFunction(() => document.documentElement.dataset.ready === "true");
  await page.click("#tab-custom");
  await page.waitForSelector('.custom-item[data-id="claims-old"]');
  await page.waitForFunction(() => /has errors \(1\)/.test(document.querySelector('.custom-item[data-id="claims-old"] [data-ref="custom-state"]').textContent));
  await page.click('.custom-item[data-id="claims-old"] [data-ref="custom-open"]');
  await page.waitForSelector('[data-ref="custom-status"][data-state="error"]');
  assert.match(await text(page, '[data-error-for="inputs[3]"]'), /"reports" is made by claim-groundedness's reader .*remove this input/);
  // Remove of what the reader needs, or of what a template reads, is refused with the reason.
  await page.click('tr[data-input="claims"] [data-ref="custom-input-remove"]');
  assert.match(await text(page, '[data-error-for="inputs[1]"]'), /reader needs claims/);
  await page.click('tr[data-input="reports"] [data-ref="custom-input-remove"]');
  await page.waitForSelector('[data-ref="custom-status"][data-state="ok"]');
  assert.deepEqual(await page.locator('[data-ref="custom-input-name"]').evaluateAll((els) => els.map((e) => e.value)), ["question", "claims", "evidence"]);
  await page.waitForSelector('[data-ref="custom-editor"][data-saving="false"]');
  await page.click("#tab-evaluate");
  await page.waitForSelector('[data-ref="pick-claims-old"]', { state: "attached" });

  // ---- a claims input as a plain list of texts
  await page.click("#tab-custom");
  assert.deepEqual(await page.locator('tr[data-input="claims"] [data-ref="custom-input-kind"] option').evaluateAll((els) => els.map((e) => e.value)), ["claims", "list"]);
  await page.selectOption('tr[data-input="claims"] [data-ref="custom-input-kind"]', "list");
  await page.waitForSelector('[data-ref="custom-status"][data-state="ok"]');
  // On a phone the table stacks: nothing in it scrolls sideways.
  const size = page.viewportSize();
  await page.setViewportSize({ width: 390, height: 844 });
  const over = await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => {
    const wrap = document.querySelector('[data-ref="custom-inputs"] .table-wrap');
    r(wrap.scrollWidth - wrap.clientWidth);
  })));
  await page.setViewportSize(size);
  assert.equal(over, 0, "the inputs table fits a phone's width");

  // ---- from scratch: an input kept but no longer read warns, is optional, and Run goes
  const had = await page.locator(".custom-item").evaluateAll((els) => els.map((e) => e.getAttribute("data-id")));
  await page.click('[data-ref="custom-new"]');
  const made = await page.waitForFunction((had) => {
    const open = document.querySelector(".custom-item.is-open")?.getAttribute("data-id");
    return !!open && !had.includes(open) && document.querySelector('[data-ref="custom-id"]')?.value === open && open;
  }, had);
  const id = await made.jsonValue();
  await page.waitForSelector('[data-ref="custom-status"][data-state="ok"]');
  await page.click('tr[data-input="question"] [data-ref="custom-input-remove"]');
  assert.match(await text(page, '[data-error-for="inputs[0]"]'), /A template reads question: take it out of the template first/);
  await page.fill('tr[data-input="question"] [data-ref="custom-input-label"]', "Customer question");
  await page.fill('[data-ref="custom-tpl-input"]', "Is this answer polite?\n{{ answer }}\nReply yes or no.");
  await page.waitForSelector('tr[data-input="question"] .chip');
  const status = await text(page, '[data-ref="custom-status"]');
  assert.match(status, /Ready: offered in Evaluate and Batch\. 1 warning\./);
  assert.match(await text(page, '[data-error-for="inputs[0]"]'), /⚠ input "question" is declared but no template reads it/);
  await page.waitForSelector('[data-ref="custom-editor"][data-saving="false"]');
  await page.click('[data-ref="custom-use"]');
  await page.waitForFunction((id) => !document.querySelector("#view-evaluate").hidden && document.querySelector(`[data-ref="pick-${id}"]`)?.checked, id);
  assert.match(await text(page, '#view-evaluate [data-field="question"]'), /optional/);
  await page.locator('#view-evaluate [data-ref="form"] [data-input="answer"]').fill("Thank you for waiting, it ships today.");
  await page.waitForFunction(() => /it ships today/.test(document.querySelector('#view-evaluate [data-ref="prompt"]').textContent) && !document.querySelector('[data-ref="run"]').disabled);
  env.fake.answer = () => "Yes";
  await page.click('[data-ref="run"]');
  await page.waitForFunction(() => document.querySelector('[data-ref="stop"]').hidden && document.querySelector('[data-ref="verdict"] [data-ref="verdict-view"]'));
  assert.equal(await page.getAttribute('[data-ref="verdict"] [data-ref="verdict-view"]', "data-state"), "pass");
  env.fake.answer = null;
  // Removed now that nothing reads it: it goes, and stays gone.
  await page.click("#tab-custom");
  await page.click('tr[data-input="question"] [data-ref="custom-input-remove"]');
  await page.waitForFunction(() => !document.querySelector('tr[data-input="question"]'));
  await page.waitForSelector('[data-ref="custom-editor"][data-saving="false"]');
  assert.match(await text(page, '[data-ref="custom-status"]'), /Ready: offered in Evaluate and Batch\.$/);
  assert.deepEqual(await page.locator('[data-ref="custom-input-name"]').evaluateAll((els) => els.map((e) => e.value)), ["answer"]);
  assert.deepEqual(page.pageErrors, []);
  assert.deepEqual(errors, []);
});

test("an imported definition's problems are all listed in the editor, an unknown field removed with a click", async () => {
  const page = await env.page({ settings: proxySettings(), key: KEY, view: "custom" });
  const spec = { id: "tone", title: "Tone", colour: "red", prompt: "Question: {{ question\n\nAnswer: {{ answer }}", inputs: [{ name: "answer" }], output: { kind: "score", min: 1, max: 5, "pass-at": 3 } };
  await page.locator('[data-ref="custom-import-file"]').setInputFiles({ name: "tone.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(spec)) });
  await page.waitForSelector('[data-ref="custom-status"][data-state="error"]');
  assert.match(await text(page, '[data-ref="custom-msg"]'), /Imported with errors, to fix: The evaluator \(tone\): 3 errors, open below\./);
  const listed = await page.locator('[data-ref="custom-problems"] li').evaluateAll((els) => els.map((e) => e.dataset.path));
  assert.deepEqual(listed, ["colour", "output.pass-at"]);
  // The unclosed "{{": where Jinja stopped (line 3) and where it was opened (line 1).
  assert.match(await text(page, '[data-ref="custom-tpl-checks"]'), /line 3, column 1: expected "end of print statement", got "Answer"; the "\{\{" opened at line 1, column 11 is not closed/);
  assert.equal(await page.isChecked('tr[data-input="answer"] [data-ref="custom-input-required"]'), true, "required, as the schema's default says");
  await page.click('[data-ref="custom-problems"] li[data-path="colour"] [data-ref="custom-remove-field"]');
  await page.waitForFunction(() => document.querySelectorAll('[data-ref="custom-problems"] li').length === 1);
  await page.click('[data-ref="custom-remove-field"]');
  await page.waitForFunction(() => !document.querySelector('[data-ref="custom-problems"]'));
  await page.fill('[data-ref="custom-tpl-input"]', "Question: {{ question }}\n\nAnswer: {{ answer }}");
  await page.waitForSelector('[data-ref="custom-status"][data-state="ok"]');
  await page.waitForSelector('[data-ref="custom-editor"][data-saving="false"]');
  const [exp] = await Promise.all([page.waitForEvent("download"), page.click('[data-ref="custom-export"]')]);
  const saved = JSON.parse(await readFile(await exp.path(), "utf8"));
  assert.equal(saved.colour, undefined);
  assert.deepEqual(saved.output, { kind: "score", min: 1, max: 5 });
  assert.deepEqual(page.pageErrors, []);
});

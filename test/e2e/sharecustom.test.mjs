// sharecustom.test.mjs: a share link that carries a custom evaluator, in real headless chromium
// through the real dev server and the fake upstream. Made in one browser profile (the evaluator
// created in My evaluators, run in Evaluate, the link copied), it opens in a fresh profile with
// nothing stored: the same verdict, no call made, the evaluator marked as the link's; its report
// names it by its own id; Run asks the opener's model with it; nothing of it is stored until Save,
// and a reload without the fragment leaves no trace; Save puts it in My evaluators. The sender's
// own link opens with their own evaluator. Where the user has an evaluator of the same id and
// another definition, the link's verdict shows and the page says theirs differs. A definition made broken inside a well-formed link (its CRC right) shows
// the error and an empty form.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { setup, launch, proxySettings, pickEvaluator, text } from "./harness.mjs";
import { encodeShare, decodeShare } from "../../web/share/codec.js";
import { axeViolations } from "./axe.mjs";

let env;
before(async () => {
  env = await setup();
});
after(async () => {
  await env?.close();
});

const KEY = "sk-e2e-share-custom-3141";
const TEMPLATE = ["You check the tone of a support answer.", "Question: {{ question }}", "Answer: {{ answer }}", "", "Is the answer polite? Reply with yes or no only."].join("\n");
const QUESTION = "Where is my parcel?";
const ANSWER = "It arrives tomorrow, thank you for waiting.";
const JUDGED = "Reasoning: the answer thanks the customer and is clear.\nVerdict: yes";

const chatCalls = () => env.fake.requests.filter((r) => r.path === "/chat/completions").length;

/** specOf reads the custom evaluator's definition out of a share link, as the page wrote it. */
async function specOf(url) {
  const res = await decodeShare(url.slice(url.indexOf("#")), (id, spec) => spec);
  assert.equal(res.ok, true, res.message);
  return res.value;
}

/** freshPage opens a page in ctx seeded with model settings and a key only: nothing else stored. */
async function freshPage(ctx, key) {
  const page = await ctx.newPage();
  page.setDefaultTimeout(15000);
  page.pageErrors = [];
  page.on("pageerror", (e) => page.pageErrors.push(e.message));
  await page.addInitScript(
    ([s, k]) => {
      if (localStorage.getItem("ragjudge.page.v1")) return;
      localStorage.setItem("ragjudge.page.v1", JSON.stringify({ settings: s }));
      localStorage.setItem("ragjudge.page.key", k);
    },
    [proxySettings("judge-mini"), key],
  );
  return page;
}

/** openLink loads url in page as a new load and waits for the link to be read. */
async function openLink(page, url, ref = "share-opened") {
  await page.goto(env.serve.url + "/nothing-here"); // away, so the link is a new load rather than a fragment change
  await page.goto(url);
  await page.waitForFunction(() => document.documentElement.dataset.ready === "true");
  await page.waitForSelector(`[data-ref="${ref}"]`);
}

test("a custom evaluator's link opens in a fresh profile with the same verdict, stores nothing until saved, and a broken definition in it is refused", async () => {
  env.fake.answer = () => JUDGED;
  // ---- the sender: an evaluator of their own, run in Evaluate, the link copied
  const page = await env.page({ settings: proxySettings(), key: KEY, view: "custom" });
  await page.waitForSelector('[data-ref="custom-empty"]');
  await page.click('[data-ref="custom-new"]');
  await page.waitForSelector('[data-ref="custom-tpl-input"]');
  await page.fill('[data-ref="custom-title"]', "Tone check");
  await page.fill('[data-ref="custom-id"]', "tone-check");
  await page.fill('[data-ref="custom-tpl-input"]', TEMPLATE);
  await page.waitForSelector('[data-ref="custom-status"][data-state="ok"]');
  await page.waitForSelector('[data-ref="custom-editor"][data-saving="false"]');
  await page.click("#tab-evaluate");
  await page.waitForSelector('[data-ref="pick-tone-check"]', { state: "attached" });
  await pickEvaluator(page, "tone-check");
  await page.locator('[data-ref="form"] [data-input="question"]').fill(QUESTION);
  await page.locator('[data-ref="form"] [data-input="answer"]').fill(ANSWER);
  await page.waitForFunction(() => /It arrives tomorrow/.test(document.querySelector('#view-evaluate [data-ref="prompt"]').textContent) && !document.querySelector('[data-ref="run"]').disabled);
  await page.click('[data-ref="run"]');
  await page.waitForFunction(() => document.querySelector('[data-ref="stop"]').hidden && document.querySelector('[data-ref="verdict"] [data-ref="verdict-view"]'));
  const verdict = await text(page, '[data-ref="verdict-badge"]');
  assert.equal(await page.getAttribute('[data-ref="verdict"] [data-ref="verdict-view"]', "data-state"), "pass");
  await page.click('[data-ref="copy-link"]');
  await page.waitForSelector('[data-ref="share-url"]');
  const url = await page.inputValue('[data-ref="share-url"]');
  assert.ok(!decodeURIComponent(url).includes(KEY));
  const sent = await specOf(url);
  assert.equal(sent.spec.id, "tone-check");
  assert.equal(sent.spec.prompt, TEMPLATE);

  // ---- the opener: a fresh profile, nothing stored; the same verdict, no call made
  const fresh = await launch();
  try {
    const p2 = await freshPage(fresh.ctx, "sk-another-person");
    const calls = chatCalls();
    await openLink(p2, url);
    await p2.waitForSelector('[data-ref="verdict"] [data-ref="verdict-view"]');
    assert.equal(await text(p2, '[data-ref="verdict-badge"]'), verdict);
    assert.equal(await p2.getAttribute('[data-ref="verdict"] [data-ref="verdict-view"]', "data-state"), "pass");
    assert.equal(chatCalls(), calls, "opening a link called the model");
    assert.equal(await p2.inputValue('[data-ref="answer"]'), JUDGED);
    assert.equal(await p2.inputValue('[data-ref="form"] [data-input="question"]'), QUESTION);
    assert.equal(await p2.evaluate(() => location.hash), "#evaluate", "the fragment is cleared");
    // Shown under its title, marked as the link's, with a note that it is not saved.
    const picked = await p2.evaluate(() => document.querySelector('#view-evaluate .picker input:checked').value);
    assert.match(picked, /^link-[0-9a-f]{8}$/);
    assert.match(await text(p2, `label[for="pick-${picked}"]`), /^Tone check\s*from link$/);
    assert.match(await text(p2, '[data-ref="link-note"]'), /From a shared link\..*"Tone check" \(tone-check\) came with the link.*not saved in this browser/s);
    assert.equal(await p2.locator('[data-ref="link-differs"]').count(), 0);
    assert.match(await text(p2, '#view-evaluate [data-ref="prompt"]'), /Question: Where is my parcel\?/);

    // Its report names the evaluator by its own id, not the stand-in it is defined under here.
    const [download] = await Promise.all([p2.waitForEvent("download"), p2.click('[data-ref="download-report"]')]);
    assert.match(download.suggestedFilename(), /^tone-check-evaluation-report-.*\.html$/);
    const report = await readFile(await download.path(), "utf8");
    assert.ok(report.includes("Tone check") && !report.includes(picked), "the report names the stand-in id");

    // Run asks the opener's own model with the link's evaluator.
    await p2.click('[data-ref="run"]');
    await p2.waitForFunction(() => document.querySelector('[data-ref="stop"]').hidden && document.querySelector('[data-ref="run-status"]').textContent === "Done.");
    assert.equal(chatCalls(), calls + 1);
    const call = env.fake.requests.at(-1);
    assert.equal(call.auth, "Bearer sk-another-person");
    assert.match(call.body.messages.at(-1).content, /You check the tone of a support answer\.\nQuestion: Where is my parcel\?\nAnswer: It arrives tomorrow/);
    assert.equal(await p2.getAttribute('[data-ref="verdict"] [data-ref="verdict-view"]', "data-state"), "pass");

    // Nothing stored: not in My evaluators, not in the page's saved state; a reload without the fragment shows no trace.
    const stored = await p2.evaluate(() => localStorage.getItem("ragjudge.page.v1"));
    for (const s of ["link-", "Where is my parcel", "thanks the customer", "tone"]) assert.ok(!stored.includes(s), `"${s}" stored: ${stored}`);
    assert.equal(p2.url(), env.serve.url + "/#evaluate");
    await p2.reload();
    await p2.waitForFunction(() => document.documentElement.dataset.ready === "true");
    assert.equal(await p2.locator('#view-evaluate .picker input[value^="link-"]').count(), 0);
    assert.equal(await p2.locator('[data-ref="link-note"]:not([hidden])').count(), 0);
    assert.doesNotMatch(await p2.evaluate(() => document.body.innerText), /Tone check|Where is my parcel/);
    await p2.click("#tab-custom");
    await p2.waitForSelector('[data-ref="custom-empty"]');

    // ---- Save: in My evaluators, and shown in Evaluate as the opener's own
    await openLink(p2, url);
    await p2.click('[data-ref="link-save"]');
    await p2.waitForSelector('[data-ref="link-saved"]');
    assert.match(await text(p2, '[data-ref="link-saved"]'), /Saved to My evaluators as "tone-check"\./);
    assert.equal(await p2.evaluate(() => document.querySelector('[data-ref="pick-tone-check"]').checked), true);
    assert.match(await text(p2, 'label[for="pick-tone-check"]'), /Tone check\s*yours/);
    assert.equal(await p2.locator('#view-evaluate .picker input[value^="link-"]').count(), 0, "the link's temporary evaluator is gone");
    assert.equal(await text(p2, '[data-ref="verdict-badge"]'), verdict);
    assert.equal(await p2.inputValue('[data-ref="form"] [data-input="question"]'), QUESTION);
    await p2.reload();
    await p2.waitForFunction(() => document.documentElement.dataset.ready === "true");
    await p2.click("#tab-custom");
    await p2.waitForSelector('.custom-item[data-id="tone-check"]');
    assert.equal(await p2.inputValue('[data-ref="custom-tpl-input"]'), TEMPLATE);

    // ---- a definition made broken (a template error) inside a well-formed link: the error, an empty form
    const broken = await encodeShare({ ...sent, spec: { ...sent.spec, id: "tone-check-2", prompt: TEMPLATE.replace("{{ answer }}", "{{ answer + }}") } });
    await p2.click("#tab-evaluate");
    await openLink(p2, env.serve.url + "/#" + broken, "share-error");
    assert.equal(await p2.getAttribute('[data-ref="share-error"]', "data-code"), "share.evaluator");
    assert.match(await text(p2, '[data-ref="share-error"]'), /This share link cannot be opened: The link.s custom evaluator "tone-check-2" cannot be used: prompt line 3, column \d+: .+\s*The form is empty/);
    const values = await p2.locator('[data-ref="form"] textarea, [data-ref="form"] input').evaluateAll((els) => els.map((e) => e.value));
    assert.ok(values.every((v) => v === ""), `the form is not empty: ${JSON.stringify(values)}`);
    assert.equal(await p2.inputValue('[data-ref="answer"]'), "");
    assert.equal(await p2.locator('[data-ref="verdict-view"]').count(), 0);
    assert.equal(await p2.locator('#view-evaluate .picker input[value^="link-"]').count(), 0);
    assert.deepEqual(p2.pageErrors, []);
  } finally {
    await fresh.close();
  }

  // ---- the sender again: their own link opens with their own evaluator, nothing from the link added
  await openLink(page, url);
  await page.waitForSelector('[data-ref="verdict"] [data-ref="verdict-view"][data-state="pass"]');
  assert.equal(await page.evaluate(() => document.querySelector('[data-ref="pick-tone-check"]').checked), true);
  assert.equal(await page.locator('#view-evaluate .picker input[value^="link-"]').count(), 0);
  assert.equal(await page.isVisible('[data-ref="link-note"]'), false);

  // ---- and a link of "tone-check" whose reading differs: the link's verdict, and a note that theirs differs
  const strict = await encodeShare({ ...sent, spec: { ...sent.spec, output: { kind: "yes-no", pass: "no" } } });
  const calls = chatCalls();
  await openLink(page, env.serve.url + "/#" + strict);
  await page.waitForSelector('[data-ref="verdict"] [data-ref="verdict-view"][data-state="fail"]');
  assert.match(await text(page, '[data-ref="link-differs"]'), /Your own evaluator "tone-check" has a different definition: the verdict here is read with the link's\./);
  assert.match(await page.evaluate(() => document.querySelector('#view-evaluate .picker input:checked').value), /^link-/);
  assert.equal(chatCalls(), calls);
  for (const scheme of ["light", "dark"]) {
    await page.emulateMedia({ colorScheme: scheme });
    assert.deepEqual(await axeViolations(page), [], scheme);
  }
  // Saved beside theirs, under a new id.
  await page.click('[data-ref="link-save"]');
  await page.waitForSelector('[data-ref="link-saved"]');
  assert.match(await text(page, '[data-ref="link-saved"]'), /Saved to My evaluators as "tone-check-shared" \(you have an evaluator "tone-check"\)/);
  await page.waitForSelector('[data-ref="pick-tone-check-shared"]', { state: "attached" });
  await page.waitForSelector('[data-ref="verdict"] [data-ref="verdict-view"][data-state="fail"]');
  await page.click("#tab-custom");
  await page.waitForSelector('.custom-item[data-id="tone-check-shared"]');
  assert.equal(await page.locator(".custom-item").count(), 2);
  assert.deepEqual(page.pageErrors, []);
});

test("a share link pasted into an open tab opens after a change in My evaluators, a built-in's or a custom one, from either view (finding 2)", async () => {
  const grounding = { answer: "The Eiffel Tower is in Rome.", facts: ["The Eiffel Tower is in Paris."], mode: "strict" };
  const builtinLink = "#" + (await encodeShare({ evaluator: "answer-grounding", inputs: grounding, answer: "no" }));
  const builtinYes = "#" + (await encodeShare({ evaluator: "answer-grounding", inputs: { ...grounding, answer: "The Eiffel Tower is in Paris." }, answer: "yes" }));
  const spec = { id: "tone-pasted", title: "Tone (pasted)", prompt: TEMPLATE, inputs: [{ name: "question" }, { name: "answer", judged: true }], output: { kind: "yes-no" } };
  const customLink = "#" + (await encodeShare({ evaluator: spec.id, spec, inputs: { question: QUESTION, answer: ANSWER }, answer: JUDGED }));
  const fresh = await launch();
  try {
    const page = await freshPage(fresh.ctx, KEY);
    await page.goto(env.serve.url + "/#custom");
    await page.waitForFunction(() => document.documentElement.dataset.ready === "true");
    /** importOne adds an evaluator in My evaluators, as a file. */
    const importOne = async (id) => {
      await page.click("#tab-custom");
      await page.waitForSelector('[data-ref="custom-list"]');
      await page.locator('[data-ref="custom-import-file"]').setInputFiles({ name: `${id}.json`, mimeType: "application/json", buffer: Buffer.from(JSON.stringify({ ...spec, id, title: id })) });
      await page.waitForFunction((id) => document.querySelector('[data-ref="custom-msg"]')?.textContent.includes(`Imported ${id}.`), id);
      await page.waitForSelector('[data-ref="custom-editor"][data-saving="false"]');
    };
    /** paste changes the open tab's fragment only, as pasting a link in its address bar does, and waits for the link's answer in the form. */
    const paste = async (hash, answer) => {
      const calls = chatCalls();
      await page.evaluate((h) => void (location.hash = h), hash);
      await page.waitForFunction((a) => !document.getElementById("view-evaluate").hidden && document.querySelector('[data-ref="answer"]')?.value === a && document.querySelector('[data-ref="share-opened"]'), answer);
      assert.equal(await page.evaluate(() => location.hash), "#evaluate");
      assert.equal(chatCalls(), calls, "opening a link calls nothing");
      return page.evaluate(() => document.querySelector('#view-evaluate .picker input:checked').value);
    };

    // On My evaluators, right after an import: the built-in's link.
    await importOne("imported-a");
    assert.equal(await paste(builtinLink, "no"), "answer-grounding");
    await page.waitForSelector('[data-ref="verdict"] [data-ref="verdict-view"][data-state="fail"]');
    assert.equal(await page.inputValue('[data-ref="form"] [data-input="answer"]'), grounding.answer);
    // Again on My evaluators after an import: the custom evaluator's link.
    await importOne("imported-b");
    assert.match(await paste(customLink, JUDGED), /^link-[0-9a-f]{8}$/);
    await page.waitForSelector('[data-ref="verdict"] [data-ref="verdict-view"][data-state="pass"]');
    assert.equal(await page.inputValue('[data-ref="form"] [data-input="question"]'), QUESTION);
    // On Evaluate, drawn again since the page loaded: another link.
    assert.equal(await paste(builtinYes, "yes"), "answer-grounding");
    await page.waitForSelector('[data-ref="verdict"] [data-ref="verdict-view"][data-state="pass"]');
    // Pasted twice before the first has opened: the last one shows.
    await importOne("imported-c");
    await page.evaluate((h) => void (location.hash = h), builtinLink);
    assert.match(await paste(customLink, JUDGED), /^link-[0-9a-f]{8}$/);
    assert.deepEqual(page.pageErrors, []);
  } finally {
    await fresh.close();
  }
});

test("a custom reader's verdict reads as words, never its raw fields ('kind label', 'kind score') (finding 14)", async () => {
  const label = { id: "relevance", title: "Relevance", prompt: "Q: {{ question }}\nA: {{ answer }}\nVerdict: relevant, partially relevant or irrelevant.", inputs: [{ name: "question" }, { name: "answer", judged: true }], output: { kind: "label", labels: { relevant: true, "partially relevant": null, irrelevant: false } } };
  const score = { id: "context-score", title: "Context score", prompt: "Rate 1-5 how well {{ answer }} is supported.\nScore: <n>", inputs: [{ name: "answer", judged: true }], output: { kind: "score", min: 1, max: 5, pass_at: 4 } };
  const json = { id: "cite-json", title: "Citations", prompt: "Check the citations of {{ answer }}. Answer JSON {\"verdict\": \"yes\"|\"no\", \"reason\": \"…\"}", inputs: [{ name: "answer", judged: true }], output: { kind: "json", pass: "$.verdict", pass_values: ["yes"], reason: "$.reason" } };
  const fresh = await launch();
  try {
    const page = await freshPage(fresh.ctx, KEY);
    const open = async (spec, inputs, answer) => {
      await openLink(page, env.serve.url + "/#" + (await encodeShare({ evaluator: spec.id, spec, inputs, answer })));
      await page.waitForSelector('[data-ref="verdict"] [data-ref="verdict-view"]');
      return page.locator('[data-ref="verdict"] [data-ref="verdict-view"]');
    };
    const noRawFields = async (view) => {
      const dts = await view.locator("dl.generic > dt").allTextContents();
      assert.ok(!dts.includes("kind"), `no "kind" field: ${dts}`);
      // What is shown (innerText: a closed disclosure, "Verdict as data", is the raw data on request).
      assert.doesNotMatch(await view.evaluate((el) => /** @type {HTMLElement} */ (el).innerText), /\bkind\b/);
    };
    let view = await open(label, { question: QUESTION, answer: ANSWER }, "The answer addresses the question.\nVerdict: relevant");
    assert.equal(await text(page, '[data-ref="judge-said"]'), "The judge said “relevant”.");
    await noRawFields(view);
    view = await open(score, { answer: ANSWER }, "Well supported.\nScore: 4");
    assert.equal(await page.locator('[data-ref="verdict"] [data-ref="judge-said"]').count(), 0);
    await noRawFields(view);
    view = await open(json, { answer: ANSWER }, '{"verdict": "yes", "reason": "Every claim cites its source."}');
    assert.equal(await text(page, '[data-ref="judge-said"]'), "The judge said “yes”.");
    assert.match(await text(page, '[data-ref="judge-reasons"]'), /Every claim cites its source\./);
    assert.equal(await page.locator('[data-ref="judge-fields"]').evaluate((d) => d.open), false, "the JSON read is one click away");
    await noRawFields(view);
    assert.deepEqual(page.pageErrors, []);
  } finally {
    await fresh.close();
  }
});

// report.test.mjs: one evaluation leaves the page as a file and as a link, in real headless
// chromium through the real dev server and the fake upstream. The report file opens from file://
// with the network off, runs only its own script (its CSP names it by hash), shows the verdict,
// holds no key, and keeps markup from inputs and answers as text. A share link opens the same
// verdict with no call made; a damaged or forged one leaves an empty form and says why.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFile, writeFile, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { setup, proxySettings, pickEvaluator, text } from "./harness.mjs";
import { EXAMPLES } from "./fake-upstream.mjs";
import { encodeShare } from "../../web/share/codec.js";
import { axeViolations } from "./axe.mjs";

let env;
let dir;
before(async () => {
  env = await setup();
  dir = await mkdtemp(join(tmpdir(), "ragjudge-report-"));
});
after(async () => {
  await env?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const KEY = "sk-report-SECRET-key-8842";
const PAYLOADS = [
  `<img src=x onerror="window.__pwned='img-input'">`,
  `<script>window.__pwned='script-input'</script>`,
  `<a href="javascript:window.__pwned='link-input'">click me</a>`,
  `"><svg onload="window.__pwned='svg-input'">`,
  `</textarea></pre></details><iframe srcdoc="<script>parent.__pwned=1</script>"></iframe>`,
  `{{ 7*7 }} {% if true %}jinja{% endif %} {answer}`,
  // Aimed at the report file itself: its script and style elements, its head, and the
  // placeholders its styles and script are written at.
  `</script><script>window.__pwned='close-script'</script>`,
  `<meta http-equiv="refresh" content="0;url=javascript:window.__pwned='refresh'"><base href="javascript:/">`,
  `<style>*{display:none}</style><!-- <meta name="rj-style-slot"> <meta name="rj-script-slot"> -->`,
];

const chatCalls = () => env.fake.requests.filter((r) => r.path === "/chat/completions").length;

async function runExample(page, id) {
  await pickEvaluator(page, id);
  await page.click('[data-ref="example"]');
  await page.waitForFunction(() => !document.querySelector('[data-ref="run"]').disabled);
  await page.click('[data-ref="run"]');
  await page.waitForFunction(() => document.querySelector('[data-ref="stop"]').hidden && document.querySelector('[data-ref="verdict-view"]'));
}

/** downloadReport clicks Download report and returns the file's text. */
async function downloadReport(page) {
  const [download] = await Promise.all([page.waitForEvent("download"), page.click('[data-ref="download-report"]')]);
  assert.match(download.suggestedFilename(), /\.html$/);
  return readFile(await download.path(), "utf8");
}

/**
 * openOffline opens a report file from file:// with the network off, and returns the page with
 * what it asked for beyond the file and what the console said about the CSP.
 */
async function openOffline(html, name) {
  const path = join(dir, name);
  await writeFile(path, html);
  const ctx = env.browser.ctx;
  await ctx.setOffline(true);
  const page = await ctx.newPage();
  const requests = [];
  const csp = [];
  page.on("request", (r) => {
    if (!r.url().startsWith("file://")) requests.push(r.url());
  });
  page.on("console", (m) => {
    if (/Content.Security.Policy|Refused to/i.test(m.text())) csp.push(m.text());
  });
  page.pageErrors = [];
  page.on("pageerror", (e) => page.pageErrors.push(e.message));
  await page.goto("file://" + path);
  await page.waitForLoadState("load");
  return { page, requests, csp, done: async () => (await page.close(), await ctx.setOffline(false)) };
}

test("a single evaluation's report: one file, offline, its own script only, the verdict, no key", async () => {
  const page = await env.page({ settings: proxySettings(), key: KEY });
  await runExample(page, "claim-groundedness");
  const html = await downloadReport(page);
  assert.match(await text(page, '[data-ref="share-status"]'), /Report saved as claim-groundedness-evaluation-report-.*\.html \(\d+ KB\)/);
  assert.ok(!html.includes(KEY), "the key is in the report");
  assert.ok(!html.includes(env.serve.url) && !html.includes(env.fake.url), "an endpoint address is in the report");
  const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html);
  assert.ok(csp, "a CSP meta tag");
  assert.match(csp[1], /^default-src 'none'; .*script-src 'sha256-[A-Za-z0-9+/]+=*'/);
  assert.doesNotMatch(csp[1].split("script-src")[1], /unsafe-inline/);
  assert.doesNotMatch(html, /<link|@import|url\(\s*["']?https?:|src="http/i, "something would be fetched");

  const r = await openOffline(html, "single.html");
  try {
    // The script ran (its hash matched) and nothing else was asked for.
    await r.page.waitForFunction(() => document.documentElement.dataset.script === "ready");
    assert.deepEqual(r.requests, []);
    assert.deepEqual(r.csp, []);
    assert.deepEqual(r.page.pageErrors, []);
    assert.match(await text(r.page, '[data-ref="report-header"]'), /Claim groundedness.*claim-groundedness, built-in.*judge-mini.*ragjudge \d+\.\d+/s);
    assert.match(await text(r.page, ".verdict-head"), /✗\s*Not grounded/);
    assert.equal(await r.page.locator(".rp-row").count(), 1);
    assert.equal(await r.page.locator(".rp-row summary").count(), 0, "one evaluation is shown whole, not behind a line to expand");
    assert.match(await text(r.page, ".rp-row"), /Claim c2.*discharged the next day/s);
    assert.ok((await text(r.page, ".rp-row .rp-pre")).includes(EXAMPLES["claim-groundedness"].answer.slice(0, 40)));
    assert.match(await text(r.page, '[data-ref="report-prompt"]'), /Claim c2: The patient had no adverse reactions/);
    // Light and dark follow the system, as the page does.
    await r.page.emulateMedia({ colorScheme: "dark" });
    const dark = await r.page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    await r.page.emulateMedia({ colorScheme: "light" });
    const light = await r.page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    assert.notEqual(dark, light);
    for (const scheme of ["light", "dark"]) {
      await r.page.emulateMedia({ colorScheme: scheme });
      assert.deepEqual(await axeViolations(r.page), [], scheme);
    }
  } finally {
    await r.done();
  }
});

test("markup in the inputs and the judge's answer is text in the report, and never runs", async () => {
  const page = await env.page({ settings: proxySettings("judge-xss"), key: KEY });
  await pickEvaluator(page, "claim-groundedness");
  await page.click('[data-ref="clear"]');
  await page.fill('[data-input="question"]', PAYLOADS.join("\n"));
  await page.fill('[data-input="claims"] textarea', PAYLOADS[0] + " " + PAYLOADS[2]);
  await page.fill('[data-input="evidence"] input', PAYLOADS[1]);
  await page.fill('[data-input="evidence"] textarea', PAYLOADS[3] + PAYLOADS[4]);
  await page.waitForFunction(() => !document.querySelector('[data-ref="run"]').disabled);
  await page.click('[data-ref="run"]');
  await page.waitForFunction(() => document.querySelector('[data-ref="stop"]').hidden && document.querySelector('[data-ref="verdict-view"]'));
  const html = await downloadReport(page);
  assert.ok(!html.includes(KEY));
  const r = await openOffline(html, "xss.html");
  try {
    await r.page.waitForFunction(() => document.documentElement.dataset.script === "ready");
    assert.equal(await r.page.locator("img, iframe, object, embed, svg, a[href], [onerror], [onload], [srcdoc]").count(), 0, "markup from text reached the report's DOM");
    assert.equal(await r.page.locator("script").count(), 1, "only the report's own script");
    assert.equal(await r.page.locator("style").count(), 1, "only the report's own styles");
    assert.equal(await r.page.locator("base, body meta, head meta[http-equiv='refresh']").count(), 0);
    assert.equal(await r.page.locator(".rp-row").isVisible(), true);
    assert.equal(await r.page.evaluate(() => window.__pwned), undefined, "a payload executed");
    const body = await text(r.page, ".rp-row");
    for (const p of PAYLOADS) assert.ok(body.includes(p), "shown as text: " + p);
    assert.match(body, /<script>window.__pwned='script-reason'<\/script>/);
    assert.deepEqual(r.requests, []);
    assert.deepEqual(r.page.pageErrors, []);
  } finally {
    await r.done();
  }
});

test("a share link opens the same verdict with no call made, and Run asks your own model", async () => {
  const page = await env.page({ settings: proxySettings(), key: KEY });
  await runExample(page, "pairwise-faithfulness");
  const verdict = await text(page, '[data-ref="verdict-badge"]');
  const inputs = await page.locator('[data-ref="form"] textarea').evaluateAll((els) => els.map((e) => e.value));
  await page.click('[data-ref="copy-link"]');
  await page.waitForSelector('[data-ref="share-url"]');
  const url = await page.inputValue('[data-ref="share-url"]');
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), url);
  assert.match(url, /#rj1\.[A-Za-z0-9_-]+$/);
  assert.ok(!url.includes(KEY) && !decodeURIComponent(url).includes("sk-"));

  // A fresh page on the link, with settings of its own: the verdict shows, nothing is called.
  const calls = chatCalls();
  const other = await env.page({ settings: proxySettings("judge-mini"), key: "sk-another-person" });
  await other.goto(env.serve.url + "/nothing-here"); // away, so the link is a new load rather than a fragment change
  await other.goto(url);
  await other.waitForFunction(() => document.documentElement.dataset.ready === "true");
  await other.waitForSelector('[data-ref="share-opened"]');
  await other.waitForSelector('[data-ref="verdict-view"]');
  assert.equal(await text(other, '[data-ref="verdict-badge"]'), verdict);
  assert.equal(await other.evaluate(() => document.querySelector('[data-ref="pick-pairwise-faithfulness"]').checked), true);
  assert.deepEqual(await other.locator('[data-ref="form"] textarea').evaluateAll((els) => els.map((e) => e.value)), inputs);
  assert.equal(await other.inputValue('[data-ref="answer"]'), EXAMPLES["pairwise-faithfulness"].answer);
  assert.equal(await other.evaluate(() => location.hash), "#evaluate", "the fragment is cleared");
  assert.equal(chatCalls(), calls, "opening a link called the model");
  // Run asks the opener's own model, with the opener's key.
  await other.click('[data-ref="run"]');
  await other.waitForFunction(() => document.querySelector('[data-ref="stop"]').hidden && document.querySelector('[data-ref="run-status"]').textContent === "Done.");
  assert.equal(chatCalls(), calls + 1);
  assert.equal(env.fake.requests.at(-1).auth, "Bearer sk-another-person");
  assert.deepEqual(other.pageErrors, []);
});

test("a damaged or forged link leaves an empty form, says why, and clears the fragment", async () => {
  const good = await encodeShare({ evaluator: "answer-grounding", inputs: { answer: "Paris is in France.", facts: ["Paris is the capital of France."] }, answer: "yes" });
  const forged = [
    ["a changed character", good.slice(0, 20) + (good[20] === "A" ? "B" : "A") + good.slice(21), "share.checksum"],
    ["not base64url", "rj1.%%%%", "share.base64"],
    ["an unknown evaluator", await encodeShare({ evaluator: "no-such-judge", inputs: {}, answer: "yes" }), "share.evaluator"],
    ["inputs of the wrong type", await encodeShare({ evaluator: "answer-grounding", inputs: { answer: ["a", "list"] }, answer: "yes" }), "share.shape"],
    ["a newer format", "rj9.AAAA", "share.version"],
  ];
  const calls = chatCalls();
  for (const [what, fragment, code] of forged) {
    const page = await env.page({ settings: proxySettings(), key: KEY });
    // The form holds the user's own draft for the evaluator first: it must not mix with the link.
    await pickEvaluator(page, "answer-grounding");
    await page.click('[data-ref="example"]');
    // Half of them open in a new load, half as a link pasted into a tab already on the page.
    if (forged.findIndex((f) => f[0] === what) % 2) await page.goto(env.serve.url + "/nothing-here");
    await page.goto(env.serve.url + "/#" + fragment);
    await page.waitForFunction(() => document.documentElement.dataset.ready === "true");
    await page.waitForSelector('[data-ref="share-error"]');
    assert.equal(await page.getAttribute('[data-ref="share-error"]', "data-code"), code, what);
    assert.match(await text(page, '[data-ref="share-error"]'), /This share link cannot be opened: .+\.\s*The form is empty/, what);
    const values = await page.locator('[data-ref="form"] textarea').evaluateAll((els) => els.map((e) => e.value));
    assert.ok(values.every((v) => v === ""), `${what}: the form is not empty: ${JSON.stringify(values)}`);
    assert.equal(await page.inputValue('[data-ref="answer"]'), "", what);
    assert.equal(await page.locator('[data-ref="verdict-view"]').count(), 0, what);
    assert.equal(await page.evaluate(() => location.hash), "#evaluate", what);
    assert.deepEqual(page.pageErrors, [], what);
  }
  assert.equal(chatCalls(), calls);
});

test("an evaluation too long for a link offers the report file instead", async () => {
  const page = await env.page({ settings: { endpoint: "manual" } });
  await pickEvaluator(page, "answer-grounding");
  await page.click('[data-ref="clear"]');
  // Text that deflate cannot shrink much: a link of it is far past 64 KB.
  const noise = randomBytes(90_000).toString("base64");
  await page.fill('[data-input="answer"]', noise);
  await page.fill('[data-input="facts"] textarea', "A fact.");
  await page.fill('[data-ref="answer"]', "no");
  await page.waitForSelector('[data-ref="verdict-view"]');
  await page.click('[data-ref="copy-link"]');
  await page.waitForSelector('[data-ref="share-too-long"]');
  assert.match(await text(page, '[data-ref="share-status"]'), /link of \d+ KB, longer than browsers keep \(64 KB\)\. Send the report file instead/);
  const [download] = await Promise.all([page.waitForEvent("download"), page.click('[data-ref="share-status"] button')]);
  assert.match(download.suggestedFilename(), /^answer-grounding-evaluation-report-.*\.html$/);
  const html = await readFile(await download.path(), "utf8");
  assert.ok(html.includes(noise));
});

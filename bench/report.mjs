// report.mjs: how large a batch run's report file is, and how long it takes to make, for 1,000 rows
// of three sizes, in headless Debian chromium on the real page (served by the dev server): the
// report's own modules build it from rows made here, as the Batch view's "Download report" does
// from a run's.
//   small    the e2e RAGAS-style row: a one-line answer, two short contexts, a yes/no judge answer
//   typical  a 100-character question, a 500-character answer, three 600-character contexts, a
//            judge answer with a 300-character reasoning before its yes/no
//   claims   claim-groundedness: four claims, three 500-character evidence chunks, the judge's
//            JSON with a reason for each ungrounded assertion (~900 characters)
// The budget is 3 MB for 1,000 rows; the page's stylesheets add ~30 KB whatever the rows.
//
// Rows above 1.5 MB are packed (report/build.js PACK_OVER); "plain" is the same rows unpacked.
//
//   make build && node bench/report.mjs [rows=1000]

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { buildServe, startServe, CHROMIUM, CHROMIUM_ARGS } from "../test/e2e/harness.mjs";
import { startFake } from "../test/e2e/fake-upstream.mjs";
import { readFileSync, readdirSync } from "node:fs";

// The rows' text is words drawn at random (seeded) from the seed prompts' vocabulary: text that
// deflates about as real English does, not a repeated phrase that would flatter the packing.
const VOCAB = [...new Set(readdirSync(new URL("../prompts/", import.meta.url)).filter((f) => f.endsWith(".md")).flatMap((f) => readFileSync(new URL("../prompts/" + f, import.meta.url), "utf8").split(/[^A-Za-z0-9'-]+/)).filter((w) => w.length > 1))];

const ROWS = Number(process.argv[2]) || 1000;
const dir = mkdtempSync(join(tmpdir(), "ragjudge-bench-report-"));
const fake = await startFake();
const serve = await startServe(buildServe(dir), fake.url);
const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
try {
  const page = await browser.newPage();
  await page.goto(serve.url + "/#batch");
  await page.waitForFunction(() => document.documentElement.dataset.ready === "true");
  await page.waitForSelector('link[data-ref="batch-css"]', { state: "attached" });
  console.log(`report of ${ROWS} rows (budget 3 MB = 3,145,728 bytes)`);
  console.log(["profile", "bytes", "MB", "bytes/row", "ms to build"].join("\t"));
  for (const profile of ["small", "typical", "typical-plain", "claims", "claims-plain"]) {
    const got = await page.evaluate(
      async ({ profile, rows, vocab, pack }) => {
        const { batchReportData } = await import("/report/data.js");
        const { buildReport, pageCSS } = await import("/report/build.js");
        const { runCounts } = await import("/results/counts.js");
        const { load } = await import("/ragjudge.js");
        const rj = await load();
        const ev = rj.evaluators().find((e) => e.id === (profile === "claims" ? "claim-groundedness" : "answer-grounding"));
        let seed = 12345;
        const rnd = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0), seed >>> 8);
        const words = (n) => {
          let s = "";
          while (s.length < n) s += vocab[rnd() % vocab.length] + (rnd() % 9 ? " " : ". ");
          return s.slice(0, n);
        };
        const items = [];
        const results = [];
        for (let i = 0; i < rows; i++) {
          let inputs, answer;
          if (profile === "small") {
            inputs = { answer: `row-${i + 1}: The Eiffel Tower is in Paris, "the capital", built in 1889.`, facts: [`The Eiffel Tower stands in Paris (fact ${i}).`, "It was completed in 1889."] };
            answer = i % 3 ? "Yes" : "No";
          } else if (profile === "typical") {
            inputs = { answer: words(500, i), facts: [words(600, i + 1), words(600, i + 2), words(600, i + 3)], mode: "strict" };
            answer = words(300, i + 4) + "\n\nAnswer: " + (i % 3 ? "yes" : "no");
          } else {
            inputs = { question: words(100, i), claims: [words(120, i), words(140, i + 1), words(100, i + 2), words(130, i + 3)], evidence: [words(500, i + 4), words(500, i + 5), words(500, i + 6)] };
            answer = JSON.stringify({ claims: [1, 2, 3, 4].map((c) => ({ claim_id: "c" + c, grounded: c !== 2, ungrounded_assertions: c === 2 ? [{ assertion: words(60, i + c), reason: words(180, i + c + 1) }, { assertion: words(50, i), reason: words(150, i + 2) }] : [] })) }, null, 1);
          }
          items.push({ index: i, inputs, source: inputs });
          results.push({ index: i, verdict: rj.parse(ev.id, inputs, answer), answers: [answer], error: null, usage: { prompt_tokens: 900, completion_tokens: 80 }, calls: 1, cachedCalls: 0, attempts: 1, repaired: false, ms: 800 });
        }
        const run = { id: "bench", name: `bench-${profile}.jsonl`, evaluator: ev.id, total: rows, createdAt: Date.now(), settings: { model: "judge-bench", where: "via dev server → api.openai.com", params: { temperature: 0, max_tokens: 1024 } } };
        const counts = runCounts({ total: rows, results });
        const t0 = performance.now();
        const data = batchReportData({ run, ev, items, results, counts, state: "done", version: rj.version, prompt: rj.render(ev.id, items[0].inputs).prompt });
        const html = await buildReport(data, { css: pageCSS(document), pack });
        const ms = performance.now() - t0;
        return { bytes: new TextEncoder().encode(html).length, ms };
      },
      { profile: profile.replace(/-plain$/, ""), rows: ROWS, vocab: VOCAB, pack: profile.endsWith("-plain") ? false : "auto" },
    );
    console.log([profile, got.bytes, (got.bytes / 1024 / 1024).toFixed(2), Math.round(got.bytes / ROWS), Math.round(got.ms)].join("\t"));
  }
} finally {
  await browser.close();
  await serve.stop();
  await fake.close();
  rmSync(dir, { recursive: true, force: true });
}

// axe.mjs: axe-core (the engine of Lighthouse's accessibility audit) run over a page. The page's
// Content-Security-Policy refuses inline and foreign scripts, so axe is evaluated through the
// browser's debugging protocol rather than added as a <script>.

import { readFileSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const AXE = readFileSync(join(dirname(fileURLToPath(import.meta.url)), "..", "..", "node_modules", "axe-core", "axe.min.js"), "utf8");

/** axeViolations runs axe over the whole document and returns its violations, one line each. */
export async function axeViolations(page) {
  if (!(await page.evaluate(() => typeof window.axe === "object"))) await page.evaluate(AXE);
  return page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ["violations"] });
    return r.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  });
}

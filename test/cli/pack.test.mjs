// pack.test.mjs: the package as a user gets it. `make pack` makes pkg/ragjudge-<version>.tgz; it
// holds exactly what package.json's "files" lists (the API, the wasm, the declarations, the
// command and what they import: no test, serve/ or node_modules); installed offline from a copy
// in an empty folder, with no path into the repository, the ragjudge command judges a CSV against
// the fake upstream and fails a build on a gate, the API loads from Node, and TypeScript finds
// its types.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync, copyFileSync, existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { startFake } from "../e2e/fake-upstream.mjs";
import { ROOT, KEY, tmp, ragjudge, jsonl, dataset, verdictFor } from "./cli.mjs";

const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
const TGZ = `ragjudge-${pkg.version}.tgz`;

/** @type {any} */
let fake;
before(async () => {
  fake = await startFake();
});
after(() => fake.close());

test("make pack, npm install of the tarball in an empty folder, and one command judges a CSV from there", async () => {
  try {
    execFileSync("make", ["--no-print-directory", "pack"], { cwd: ROOT, stdio: "pipe", encoding: "utf8" });
  } catch (e) {
    assert.fail("make pack failed: " + /** @type {any} */ (e).stdout + /** @type {any} */ (e).stderr);
  }
  const tgz = join(ROOT, "pkg", TGZ);
  assert.ok(existsSync(tgz), tgz);

  // What the tarball holds: exactly the listed files (a folder entry lists what is under it).
  const entries = execFileSync("tar", ["tzf", tgz], { encoding: "utf8" })
    .split("\n")
    .filter(Boolean)
    .map((e) => e.replace(/^package\//, ""));
  const listed = (/** @type {string} */ f) => pkg.files.some((x) => (x.endsWith("/") ? f.startsWith(x) : f === x));
  assert.deepEqual(entries.filter((f) => !listed(f) && !["package.json", "README.md"].includes(f)), [], "files no one listed");
  for (const f of pkg.files) assert.ok(entries.some((e) => (f.endsWith("/") ? e.startsWith(f) : e === f)), f + " is missing");
  assert.ok(!entries.some((f) => /^(test|serve|core|bridge|wasm|cmd|node_modules|bench|scripts)\//.test(f)), entries.join(", "));
  for (const f of ["cli/ragjudge.mjs", "web/ragjudge.js", "web/ragjudge.wasm", "web/wasm_exec.js", "pkg/types/ragjudge.d.ts", "pkg/types/api/types.d.ts"]) assert.ok(entries.includes(f), f);

  // An empty folder, the tarball copied in, installed offline: nothing comes from the repository.
  const home = tmp("ragjudge-user-");
  copyFileSync(tgz, join(home, TGZ));
  execFileSync("npm", ["install", "--offline", "--no-audit", "--no-fund", "--loglevel=error", "./" + TGZ], { cwd: home, stdio: ["ignore", "ignore", "inherit"] });
  const bin = join(home, "node_modules", ".bin", "ragjudge");
  assert.ok(existsSync(bin));

  writeFileSync(join(home, "data.csv"), dataset(6));
  fake.answer = (prompt) => verdictFor(prompt);
  const args = ["run", "--evaluator", "answer-grounding", "--data", "data.csv", "--model", "judge-mini", "--base-url", fake.url, "--out", "results.jsonl", "--report", "report.html"];
  const spawnOpts = { cwd: home, env: { OPENAI_API_KEY: KEY }, bin };
  const ok = await ragjudge([...args, "--min-pass-rate", "0.6"], spawnOpts);
  assert.equal(ok.code, 0, ok.out + ok.err);
  assert.deepEqual(jsonl(join(home, "results.jsonl")).map((r) => r.status), ["passed", "passed", "failed", "passed", "passed", "failed"]);
  assert.match(readFileSync(join(home, "report.html"), "utf8"), /<details class="rp-row"/);
  const gate = await ragjudge([...args, "--min-pass-rate", "0.9"], spawnOpts);
  assert.equal(gate.code, 1, gate.out + gate.err);
  assert.match(gate.out, /✗ --min-pass-rate 90%: the pass rate is 66\.7%/);
  for (const f of readdirSync(home).filter((f) => !f.endsWith(".tgz") && f !== "node_modules")) {
    const text = readFileSync(join(home, f), "utf8");
    assert.ok(!text.includes(ROOT + "/"), `${f} names the repository`);
  }
  const version = execFileSync(bin, ["--version"], { cwd: home, encoding: "utf8" }).trim();
  assert.equal(version, pkg.version);

  // The JS API from the installed package: its version is the wasm's.
  const api = execFileSync(process.execPath, ["--input-type=module", "-e", 'import { load } from "ragjudge"; const rj = await load(); console.log(rj.version, rj.parse("answer-grounding", { answer: "Paris.", facts: ["Paris is in France."] }, "Yes.").passed)'], { cwd: home, encoding: "utf8" });
  assert.equal(api.trim(), `${pkg.version} true`);

  // TypeScript sees the API's types through the package's exports.
  writeFileSync(
    join(home, "use.mts"),
    'import { load, type Verdict } from "ragjudge";\nconst rj = await load();\nconst v: Verdict = rj.parse("answer-grounding", { answer: "a", facts: ["b"] }, "Yes.");\nconst p: boolean | null = v.passed;\nexport { p };\n',
  );
  writeFileSync(join(home, "bad.mts"), 'import { load } from "ragjudge";\nconst rj = await load();\nconst n: number = rj.version;\nexport { n };\n');
  const tsc = join(ROOT, "node_modules", ".bin", "tsc");
  const tscArgs = ["--ignoreConfig", "--noEmit", "--strict", "--target", "ES2022", "--module", "nodenext", "--moduleResolution", "nodenext", "--lib", "ES2022,DOM", "--types", "", "--skipLibCheck", "false"];
  execFileSync(tsc, [...tscArgs, "use.mts"], { cwd: home, stdio: ["ignore", "inherit", "inherit"] });
  assert.throws(
    () => execFileSync(tsc, [...tscArgs, "bad.mts"], { cwd: home, stdio: "pipe", encoding: "utf8" }),
    (/** @type {any} */ e) => /Type 'string' is not assignable to type 'number'/.test(String(e.stdout)),
  );
});

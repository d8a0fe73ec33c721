// packfiles.test.mjs: package.json's "files" is what the package's modules import
// (scripts/packfiles.mjs), checked with every `make check`, so a module added to or dropped from
// the API's or the command's import graph fails here, naming the command that writes the list,
// rather than at npm pack's prepack or, worse, in a package that cannot load.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { filesDrift, WRITE } from "../../scripts/packfiles.mjs";

test("package.json's files is the list the package's modules import", () => {
  const { said } = filesDrift();
  assert.equal(said, "", said);
});

test("a module added to the graph, or one dropped from it, is said with the command that writes the list", () => {
  const root = mkdtempSync(join(tmpdir(), "ragjudge-packfiles-"));
  try {
    mkdirSync(join(root, "web/lib"), { recursive: true });
    mkdirSync(join(root, "cli"));
    writeFileSync(join(root, "web/ragjudge.js"), 'import { x } from "./lib/x.js";\nexport const y = x;\n');
    writeFileSync(join(root, "web/lib/x.js"), 'export const x = new URL("../ragjudge.wasm", import.meta.url);\n');
    writeFileSync(join(root, "cli/ragjudge.mjs"), 'import { y } from "../web/ragjudge.js";\nconsole.log(y);\n');
    const files = ["cli/ragjudge.mjs", "pkg/types/", "web/lib/gone.js", "web/ragjudge.js", "web/ragjudge.wasm"];
    writeFileSync(join(root, "package.json"), JSON.stringify({ name: "x", files }));
    const d = filesDrift(root);
    assert.deepEqual(d.missing, ["web/lib/x.js"]);
    assert.deepEqual(d.extra, ["web/lib/gone.js"]);
    assert.ok(d.said.includes(`run ${WRITE}`), d.said);
    assert.match(d.said, /missing: web\/lib\/x\.js\n {2}not shipped any more: web\/lib\/gone\.js$/);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

// usage.test.mjs: bad usage and bad input end with exit 2 and a message that says what and where,
// before any call: options (unknown, missing, out of range, a key given as an argument), the
// dataset (missing, not UTF-8, not a dataset, no row that can be judged), the mapping, the
// evaluator file, a gate the run cannot have. Run in this process (main()), with no endpoint.

import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync, readdirSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { tmp, inProcess, dataset, ragjudge, ROOT } from "./cli.mjs";

const dir = tmp();
const data = join(dir, "data.csv");
writeFileSync(data, dataset(3));
// Nothing listens here (a port that was free a moment ago): a test that got as far as a call would
// fail on it, not pass.
const srv = createServer();
await new Promise((r) => srv.listen(0, "127.0.0.1", r));
const port = /** @type {any} */ (srv.address()).port;
await new Promise((r) => srv.close(r));
const base = ["--evaluator", "answer-grounding", "--data", data, "--model", "judge-mini", "--base-url", `http://127.0.0.1:${port}/v1`, "--attempts", "1", "--outage-wait", "0"];

/** refused runs args and expects exit 2 with a message matching re on stderr. */
async function refused(args, re, env = {}) {
  const r = await inProcess(args, env);
  assert.equal(r.code, 2, `exit ${r.code} for ${args.join(" ")}: ${r.out}${r.err}`);
  assert.match(r.err, re);
  return r;
}

test("options: unknown, missing, out of range, or a key as an argument", async () => {
  await refused(["run", ...base, "--concurency", "4"], /ragjudge run: unknown option --concurency \(ragjudge run --help lists the options\)\./);
  await refused(["run", "--evaluator", "answer-grounding", "--model", "m"], /ragjudge run: missing --data/);
  await refused(["run", ...base, "--concurrency", "0"], /--concurrency takes an integer from 1 to 64, not "0"\./);
  await refused(["run", ...base, "--repeats", "11"], /--repeats takes an integer from 1 to 10, not "11"\./);
  await refused(["run", ...base, "--min-pass-rate", "1.5"], /--min-pass-rate takes a number from 0 to 1 \(or a percentage, 90%\), not "1\.5"\./);
  await refused(["run", ...base, "--temperature", "hot"], /--temperature takes a number from 0 to 2, not "hot"\./);
  await refused(["run", ...base, "--base-url", "api.openai.com"], /--base-url takes an http or https URL/);
  await refused(["run", ...base, "--base-url", "https://user:pw@example.com/v1"], /--base-url must not carry a user or password/);
  const k = await refused(["run", ...base, "--api-key", "sk-should-not-echo"], /the key is never an argument\. Put it in the environment/);
  assert.ok(!k.err.includes("sk-should-not-echo"));
  await refused(["run", ...base, "--key=sk-should-not-echo"], /the key is never an argument/);
  await refused(["run", ...base, "--key-env", "JUDGE_KEY"], /--key-env JUDGE_KEY: the environment has no JUDGE_KEY \(or it is empty\)\./);
  await refused(["run", ...base, "stray"], /unexpected argument "stray"/);
  await refused(["frobnicate"], /no command "frobnicate"; the commands are run, checkup, import, export-batch/);
  const help = await inProcess(["run", "--help"]);
  assert.equal(help.code, 0);
  assert.match(help.out, /--min-kappa K/);
  assert.match(help.out, /Exit codes: 0 .* 1 a gate fails .* 2 bad usage or input/s);
});

test("the evaluator and the mapping: named wrong, said with what there is", async () => {
  await refused(["run", ...base.slice(2), "--evaluator", "answer-grounded"], /--evaluator answer-grounded: no such evaluator; the built-ins are claim-groundedness, answer-grounding, pairwise-faithfulness, rag-recall/);
  await refused(["run", ...base, "--map", "answers=response"], /--map answers=response: answer-grounding has no input "answers"; its inputs are answer, facts, mode\./);
  await refused(["run", ...base, "--map", "answer=reply"], /--map answer=reply: the dataset has no column "reply"; it has id, user_input, response, retrieved_contexts, human_label\./);
  await refused(["run", ...base, "--map", "answer"], /--map answer: write INPUT=COLUMN/);
  await refused(["run", ...base, "--labels", "gold"], /--labels gold: the dataset has no such column/);
  await refused(["run", ...base, "--out", join(dir, "no", "such", "dir", "r.jsonl")], /--out .*r\.jsonl: cannot write it \(ENOENT/);
  await refused(["run", ...base, "--no-labels", "--min-kappa", "0.5"], /--min-kappa compares the judge with human labels: name their column with --labels COLUMN/);
  await refused(["run", ...base, "--map", "facts="], /no row of .*data\.csv can be judged with answer-grounding: Row 1: .*facts.*Check the mapping above/);
  // A custom evaluator whose definition has errors: each, by its path.
  const bad = join(dir, "bad.json");
  writeFileSync(bad, JSON.stringify({ id: "tone", prompt: "Is {{ answr }} polite? Answer yes or no.", inputs: [{ name: "answer", kind: "text" }], output: { kind: "yes-no", pas: "yes" } }));
  await refused(["run", ...base.slice(2), "--evaluator-file", bad], /--evaluator-file .*bad\.json: The evaluator \(tone\): .*prompt line 1: .*answr/);
  writeFileSync(bad, "{ not json");
  await refused(["run", ...base.slice(2), "--evaluator-file", bad], /--evaluator-file .*bad\.json: The file is not JSON/);
});

test("the dataset: missing, not UTF-8, not a dataset, nothing to judge", async () => {
  await refused(["run", ...base.slice(0, 2), "--data", join(dir, "nope.csv"), "--model", "m"], /--data .*nope\.csv: cannot read it \(ENOENT/);
  const latin = join(dir, "latin1.csv");
  writeFileSync(latin, Buffer.concat([Buffer.from("question,answer\nWhere?,Caf"), Buffer.from([0xe9]), Buffer.from(" de Flore\n")]));
  await refused(["run", ...base.slice(0, 2), "--data", latin, "--model", "m"], /latin1\.csv:2:11: the file is not UTF-8 \(byte 27 is 0xE9\); save it as UTF-8\./);
  const broken = join(dir, "broken.jsonl");
  writeFileSync(broken, '{"response": "a", "retrieved_contexts": ["b"]\n{"response": \n');
  await refused(["run", ...base.slice(0, 2), "--data", broken, "--model", "m"], /broken\.jsonl(:\d+(:\d+)?)?: (cannot be read as a dataset|no row could be read)/);
  const empty = join(dir, "empty.csv");
  writeFileSync(empty, "");
  await refused(["run", ...base.slice(0, 2), "--data", empty, "--model", "m"], /empty\.csv.*(empty|no rows|holds no)/);
  const headerOnly = join(dir, "header.csv");
  writeFileSync(headerOnly, "response,retrieved_contexts\n");
  await refused(["run", ...base.slice(0, 2), "--data", headerOnly, "--model", "m"], /header\.csv: the file holds no rows\./);
});

test("an endpoint that cannot be reached: waited for --outage-wait, then exit 2 saying so; the rows go on from --out later", async () => {
  const r = await refused(["run", ...base, "--out", join(dir, "o.jsonl")], new RegExp(`http://127\\.0\\.0\\.1:${port}/v1 could not be reached for 0 s, so the run stopped: Could not reach 127\\.0\\.0\\.1:${port} \\(ECONNREFUSED.*\\): check --base-url, and that the endpoint is up\\. The same command goes on from .*o\\.jsonl\\.`));
  assert.match(r.out, /× endpoint unreachable/);
});

test("no key for a hosted endpoint: no call is made, exit 2 naming the variable to set", async () => {
  // api.example.com is never reached: the page's key guard holds the run before any call.
  const hosted = base.map((a) => (a.startsWith("http://127.0.0.1:") ? "https://api.example.com/v1" : a));
  await refused(["run", ...hosted], /https:\/\/api\.example\.com\/v1 needs an API key, and OPENAI_API_KEY is not set: put the key in it \(in CI, from a secret\), or name the variable that holds it with --key-env\. No call was made\./);
});

test("every module of cli/ run by node runs the command or refuses with exit 2, never exits 0 having done nothing", async () => {
  // The journey's CI step: a bad evaluator, a missing file and a gate.
  const step = ["run", "--evaluator", "nope", "--data", "/nonexistent", "--model", "m", "--min-pass-rate", "0.99"];
  for (const file of readdirSync(join(ROOT, "cli")).filter((f) => f.endsWith(".mjs"))) {
    const r = await ragjudge(step, { bin: join(ROOT, "cli", file) });
    assert.equal(r.code, 2, `node cli/${file}: exit ${r.code}: ${r.out}${r.err}`);
    if (file === "ragjudge.mjs" || file === "main.mjs") {
      assert.match(r.err, /--evaluator nope: no such evaluator/, `cli/${file} runs the command`);
    } else {
      assert.match(r.err, new RegExp(`cli/${file.replace(".", "\\.")} is a part of the ragjudge command, not a command: run node cli/ragjudge\\.mjs`), file);
    }
  }
  // main.mjs is the command itself: the same help and version.
  const [viaMain, viaBin] = await Promise.all([ragjudge(["--version"], { bin: join(ROOT, "cli", "main.mjs") }), ragjudge(["--version"])]);
  assert.deepEqual(viaMain, viaBin);
});

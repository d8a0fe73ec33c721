// args.mjs: the command line's words: each command's options (node:util parseArgs), its --help,
// and the checks that turn a bad argument into a UsageError (exit 2) that names the option and
// what it takes. No argument ever carries the key: it is read from the environment only.

import "./entry.mjs"; // run as a command, this module refuses (entry.mjs)
import { parseArgs } from "node:util";

/** UsageError is bad usage or bad input: the message says what and where; the CLI exits 2. */
export class UsageError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = "UsageError";
  }
}

/** The options every command that judges a dataset takes: what is judged and how it is asked. */
const JUDGE = {
  evaluator: { type: "string" },
  "evaluator-file": { type: "string" },
  data: { type: "string" },
  model: { type: "string" },
  temperature: { type: "string" },
  "max-tokens": { type: "string" },
  repeats: { type: "string" },
  map: { type: "string", multiple: true },
  help: { type: "boolean", short: "h" },
};

/** The options of the commands that make results: where they go, and the gates. */
const RESULTS = {
  labels: { type: "string" },
  "no-labels": { type: "boolean" },
  "labels-yes": { type: "string" },
  threshold: { type: "string" },
  out: { type: "string" },
  report: { type: "string" },
  "min-pass-rate": { type: "string" },
  "min-kappa": { type: "string" },
};

/** The options of the commands that call the endpoint. */
const ENDPOINT = {
  "base-url": { type: "string" },
  "key-env": { type: "string" },
  "token-env": { type: "string" },
  upstream: { type: "string" },
  concurrency: { type: "string" },
  timeout: { type: "string" },
  attempts: { type: "string" },
  "outage-wait": { type: "string" },
};

/** OPTIONS are each command's options. */
export const OPTIONS = {
  run: { ...JUDGE, ...RESULTS, ...ENDPOINT, judge: { type: "string", multiple: true }, "jury-rule": { type: "string" } },
  checkup: {
    ...JUDGE,
    ...ENDPOINT,
    example: { type: "boolean" },
    rows: { type: "string" },
    seed: { type: "string" },
    "both-orders": { type: "boolean" },
    out: { type: "string" },
    report: { type: "string" },
    "min-catch-rate": { type: "string" },
  },
  import: { ...JUDGE, ...RESULTS },
  "export-batch": { ...JUDGE, out: { type: "string" } },
};

const JUDGE_HELP = `  --evaluator ID          a built-in evaluator's id (answer-grounding, …; a wrong one lists them all),
                          or the one to take from --evaluator-file
  --evaluator-file FILE   a custom evaluator's definition (.json, as "My evaluators" exports it)
  --data FILE             the dataset: CSV, TSV, JSON or JSON Lines (read by content, as the page reads it)
  --model M               the judge model, sent as it is written
  --map INPUT=COLUMN      feed input INPUT from COLUMN (or a path into an object column, vars.question);
                          repeatable; INPUT= leaves an optional input unfed. Unmapped inputs take the
                          column the page would guess (RAGAS, DeepEval, promptfoo, … names)
  --temperature T         the model's temperature (default 0; left out for reasoning models)
  --max-tokens N          the answer's token cap (default 2048; 0 for none)
  --repeats N             judge each row N times (1 to 10) and keep the majority verdict`;

const RESULTS_HELP = `  --out FILE              the results, one JSON line per dataset row, as the page's JSONL export
                          writes them; also the record a later run resumes from (FILE.run.json beside it
                          says what was judged)
  --report FILE           the page's HTML report of the run, one self-contained file
  --labels COLUMN         the human labels to compare the judge with (default: the column the page
                          proposes, named like human_label, label, gold…)
  --no-labels             compare with no column
  --labels-yes pass|fail  what yes, true and 1 mean in the labels (default: as the column's name says)
  --threshold X           a score at or above X passes (for evaluators that give a score, rag-recall)
  --min-pass-rate R       gate: fail (exit 1) when the pass rate of the decided rows is below R
                          (0.9 or 90%)
  --min-kappa K           gate: fail (exit 1) when Cohen's κ between the judge and the labels is below K`;

const ENDPOINT_HELP = `  --base-url URL          the OpenAI-compatible API (default: $OPENAI_BASE_URL, else
                          https://api.openai.com/v1); http://127.0.0.1:11434/v1 for Ollama
  --key-env NAME          the environment variable that holds the key (default OPENAI_API_KEY; without
                          one, calls go without a key). The key is never an argument and never written.
  --token-env NAME        the environment variable that holds a shared ragjudge dev server's access token
                          (default RAGJUDGE_TOKEN), sent in its Ragjudge-Token header; never an argument
  --upstream NAME         which of the dev server's upstreams to call (its -upstream NAME=URL; default
                          its first), sent in its Ragjudge-Upstream header
  --concurrency N         calls in flight at most (1 to 64, default 8; fewer after 429s, as the page)
  --timeout S             seconds per attempt (default 60)
  --attempts N            attempts per call (default 5)
  --outage-wait S         how long an unreachable endpoint is waited for before giving up (default 600)`;

const EXIT_HELP = `Exit codes: 0 the run finished and every gate holds; 1 a gate fails (it says which, with the
figure); 2 bad usage or input (an option, the dataset, the evaluator, the key, the model or the
endpoint; it says what and where); 130 interrupted (run the same command again to go on).`;

/** HELP is each command's --help, and the tool's. */
export const HELP = {
  "": `ragjudge: judge RAG answers with LLM-as-judge prompts, the page's engine in a terminal.

  ragjudge run            judge a dataset against an OpenAI-compatible endpoint
  ragjudge checkup        check that the judge catches known failures made from your own rows
  ragjudge import         turn a Batch API / vLLM output file into the same results and report
  ragjudge export-batch   write a dataset's requests as an OpenAI Batch API input file

  ragjudge COMMAND --help   the command's options
  ragjudge --version

${EXIT_HELP}
`,
  run: `ragjudge run: judge every row of a dataset, as the page's Batch view does.

  ragjudge run --evaluator ID --data FILE --model M --base-url URL [options]

${JUDGE_HELP}
${ENDPOINT_HELP}
${RESULTS_HELP}
  --judge MODEL@URL[#VAR] a jury: another judge beside --model (repeatable, up to 4), its model at its
                          API's base URL; its key from the variable VAR, else the run's key when it
                          calls --base-url, else none. Each row is asked of each judge
  --jury-rule RULE        how the judges' verdicts make the row's: majority (default; a tie is
                          undetermined), all, any or mean

Ctrl+C stops the calls in flight and writes what is done; the same command then goes on where it
stopped (after a crash too): rows already in --out are not asked again (a jury's --out is not
resumed yet: a second run over it is refused).

${EXIT_HELP}
`,
  checkup: `ragjudge checkup: the page's check-up in a terminal. Rows drawn from the dataset (seeded) are
changed in ways whose right verdict follows from the change itself (a fact copied word for word is
grounded, a sentence from another row is not, a number changed is not, …), the judge model judges
those cases, and the check-up says which failure modes it catches and which it misses. No labels.

  ragjudge checkup --evaluator ID --data FILE --model M --base-url URL [--min-catch-rate 0.8] [options]

  --evaluator ID          a built-in evaluator's id, or the one to take from --evaluator-file
  --evaluator-file FILE   a custom evaluator's definition (.json, as "My evaluators" exports it); its
                          check-up needs the right verdicts set for it (the "checkup" field)
  --data FILE             the dataset the cases are made from (CSV, TSV, JSON or JSON Lines)
  --example               make the cases from the evaluator's worked example instead (one row: the
                          cases that need another row's sentences are not made)
  --rows N                how many rows to draw (1 to 200, default 20); each makes a few cases
  --seed S                which rows are drawn and how they are changed (a whole number, default 1):
                          the same seed makes the same cases, so a build's figure moves only when the
                          judge does
  --both-orders           judge every case twice, the two answers exchanged (pairwise evaluators):
                          a case whose grade follows the slot and not the answer is undetermined
  --model M               the judge model, sent as it is written
  --map INPUT=COLUMN      feed input INPUT from COLUMN (repeatable), over the column the page guesses
  --temperature T         the model's temperature (default 0; left out for reasoning models)
  --max-tokens N          the answer's token cap (default 2048; 0 for none)
  --repeats N             judge each case N times (1 to 10); a case takes the majority of its outcomes
${ENDPOINT_HELP}
  --out FILE              the cases' results, one JSON line per case, as the page's JSONL export of the
                          check-up writes them (its row, failure mode, right verdict and outcome);
                          also the record a later run resumes from (FILE.run.json beside it)
  --report FILE           the page's HTML report of the check-up, its chart and missed cases included
  --min-catch-rate R      gate: fail (exit 1) when the catch rate (cases caught, of those caught or
                          missed) is below R (0.8 or 80%); a check-up with no case decided fails it

The cases and what they cost (calls, model, temperature) are printed before any call. Ctrl+C stops
and keeps what is done; the same command goes on from --out (no case is paid for twice).

${EXIT_HELP}
`,
  import: `ragjudge import: read a batch service's output file (OpenAI Batch API, Azure OpenAI, vLLM
run-batch) for a dataset, into the same results and report as a run.

  ragjudge import OUTPUT.jsonl [ERRORS.jsonl …] --evaluator ID --data FILE --model M [options]

The dataset, evaluator, mapping, model, temperature, max tokens and repeats must be those the batch
file was exported with (by the page's "Export as batch file" or ragjudge export-batch): an output
file of another export is refused. Rows no line answered stay to judge: ragjudge run with the same
--out judges them live.

${JUDGE_HELP}
${RESULTS_HELP}

${EXIT_HELP}
`,
  "export-batch": `ragjudge export-batch: write one OpenAI Batch API request per row (per repeat), the requests a
live run would send, for a batch service; ragjudge import reads its output back.

  ragjudge export-batch --evaluator ID --data FILE --model M --out requests.batch.jsonl [options]

${JUDGE_HELP}
  --out FILE              where the batch input file goes

${EXIT_HELP}
`,
};

/**
 * parse reads a command's arguments; a word that would carry the key, an unknown option or a
 * missing value is a UsageError (never echoing what followed an option: it could be a key).
 * @param {string} command
 * @param {string[]} argv
 * @returns {{values: Record<string, any>, positionals: string[]}}
 */
export function parse(command, argv) {
  for (const a of argv) {
    if (/^--?(api[-_]?)?key(=|$)/i.test(a)) {
      throw new UsageError(`ragjudge ${command}: the key is never an argument. Put it in the environment (OPENAI_API_KEY, or the variable --key-env NAME names), e.g. from a CI secret.`);
    }
    if (/^--?token(=|$)/i.test(a)) {
      throw new UsageError(`ragjudge ${command}: the dev server's access token is never an argument. Put it in the environment (RAGJUDGE_TOKEN, or the variable --token-env NAME names), e.g. from a CI secret.`);
    }
  }
  try {
    return /** @type {any} */ (parseArgs({ args: argv, options: /** @type {any} */ (OPTIONS)[command], allowPositionals: command === "import", strict: true }));
  } catch (e) {
    const err = /** @type {any} */ (e);
    const opt = String(err.message).match(/'(-[^'=\s]*)/);
    const name = opt ? opt[1] : "";
    if (err.code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") throw new UsageError(`ragjudge ${command}: unknown option ${name} (ragjudge ${command} --help lists the options).`);
    if (err.code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") throw new UsageError(`ragjudge ${command}: ${name || "an option"} needs a value (ragjudge ${command} --help).`);
    if (err.code === "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL") throw new UsageError(`ragjudge ${command}: unexpected argument "${String(err.message).match(/'([^']*)'/)?.[1] ?? ""}": every value follows its option (ragjudge ${command} --help).`);
    throw new UsageError(`ragjudge ${command}: ${err.message}`);
  }
}

/**
 * number reads option name's value as a number in [min, max] (an integer with int); undefined
 * when the option is absent.
 * @param {Record<string, any>} v @param {string} name
 * @param {{min?: number, max?: number, int?: boolean, percent?: boolean}} [o] percent: "90%" is 0.9
 * @returns {number|undefined}
 */
export function number(v, name, { min = -Infinity, max = Infinity, int = false, percent = false } = {}) {
  const raw = v[name];
  if (raw === undefined) return undefined;
  let s = String(raw).trim();
  let scale = 1;
  if (percent && s.endsWith("%")) {
    s = s.slice(0, -1).trim();
    scale = 100;
  }
  const x = s === "" ? NaN : Number(s) / scale;
  const what = int ? "an integer" : "a number";
  const range = Number.isFinite(min) && Number.isFinite(max) ? ` from ${min} to ${max}` : Number.isFinite(min) ? ` of at least ${min}` : "";
  if (!Number.isFinite(x) || (int && !Number.isInteger(x)) || x < min || x > max) {
    throw new UsageError(`--${name} takes ${what}${range}${percent ? " (or a percentage, 90%)" : ""}, not "${raw}".`);
  }
  return x;
}

/**
 * required says which of names are missing from v, as one UsageError.
 * @param {string} command @param {Record<string, any>} v @param {string[]} names
 */
export function required(command, v, names) {
  const missing = names.filter((n) => v[n] === undefined || v[n] === "");
  if (missing.length) throw new UsageError(`ragjudge ${command}: missing ${missing.map((n) => "--" + n).join(", ")} (ragjudge ${command} --help).`);
}

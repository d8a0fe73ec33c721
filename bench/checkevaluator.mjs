// checkevaluator.mjs: how long rj.checkEvaluator takes on a 10 KB template, the re-check a custom
// evaluator's editor runs on every keystroke (the design wants it under 5 ms). Run after
// `make build`: node bench/checkevaluator.mjs
import { load } from "../web/ragjudge.js";

const rj = await load();
const para = "Judge whether {{ answer }} answers {{ question }} using only the passages. ";
const jinja = para.repeat(Math.ceil(10240 / para.length)) + "{% for c in contexts %}[{{ loop.index }}] {{ c }}{% endfor %}";
const format = jinja.replaceAll("{{ ", "{").replaceAll(" }}", "}").replace(/\{% for .*$/, "{contexts}");
const inputs = [{ name: "question" }, { name: "answer" }, { name: "contexts", kind: "list" }];

for (const [dialect, prompt] of [["jinja", jinja], ["format", format]]) {
  // A keystroke in the template (a template not checked before), and one in another field (the
  // template's reads are remembered).
  for (const [what, edit] of [["template edited", (k) => prompt + k], ["other field edited", () => prompt]]) {
    const spec = (k) => ({ id: "bench", title: "t" + k, dialect, prompt: edit(k), inputs, output: { kind: "yes-no" } });
    for (let k = 0; k < 30; k++) rj.checkEvaluator(spec(-k));
    const times = [];
    for (let k = 0; k < 200; k++) {
      const s = spec(k);
      const t0 = performance.now();
      const c = rj.checkEvaluator(s);
      times.push(performance.now() - t0);
      if (!c.ok) throw new Error(JSON.stringify(c.errors));
    }
    times.sort((a, b) => a - b);
    const at = (q) => times[Math.floor(q * (times.length - 1))].toFixed(2);
    console.log(`checkEvaluator, ${dialect}, ${prompt.length} bytes, ${what}: median ${at(0.5)} ms, p90 ${at(0.9)} ms`);
  }
}

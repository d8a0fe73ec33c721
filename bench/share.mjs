// share.mjs: how long a share link is for each built-in evaluator's worked example (its inputs and
// the judge's answer, as the page's "Load example" fills them), against the 64 KB browsers keep.
// Node only: the link is share.js's encoding, the same as the page's.
//
//   make build && node bench/share.mjs [base URL, default https://ragjudge.example/]

import { load } from "../web/ragjudge.js";
import { encodeShare, shareURL, MAX_LINK } from "../web/share/codec.js";

const base = process.argv[2] || "https://ragjudge.example/";
const rj = await load();
console.log(`share links for ${base}, ragjudge ${rj.version} (a link may be up to ${MAX_LINK} characters)`);
console.log(["evaluator", "JSON bytes", "link chars", "of 64 KB"].join("\t"));
for (const ev of rj.evaluators()) {
  if (!ev.example) continue;
  const payload = { evaluator: ev.id, inputs: ev.example.inputs, answer: ev.example.answer };
  const json = Buffer.byteLength(JSON.stringify({ v: 1, e: ev.id, i: payload.inputs, a: payload.answer }));
  const url = shareURL(base, await encodeShare(payload));
  console.log([ev.id, json, url.length, ((url.length / MAX_LINK) * 100).toFixed(1) + "%"].join("\t"));
}

// workloads.mjs: the inputs the API benchmarks share (bench/api.mjs, bench/boundary.mjs): text
// cut into retriever-sized chunks, and for each evaluator inputs over about n bytes of context
// with a judge answer of the kind real judges write.

const sentence = (k) => `Sentence ${k} of the record states that the patient received 100 mg of aspirin on day ${k}. `;

/** text returns about `bytes` characters of plain sentences, starting at sentence `from`. */
export const text = (bytes, from = 0) => {
  let s = "";
  for (let k = from; s.length < bytes; k++) s += sentence(k);
  return s.slice(0, bytes);
};

/** chunks splits about n bytes of text into chunks of about 2 KB, as a retriever returns them. */
export const chunks = (n) => {
  const out = [];
  for (let have = 0, k = 0; have < n; k++) {
    const c = text(Math.min(2048, n - have), k * 20);
    out.push(c);
    have += c.length;
  }
  return out;
};

const claimsAnswer = (n) => JSON.stringify({
  claims: Array.from({ length: n }, (_, k) => ({ claim_id: `c${k + 1}`, grounded: k % 3 !== 0, ungrounded_assertions: k % 3 ? [] : [{ assertion: "x", reason: "not in the evidence" }] })),
}, null, 2);
const pairAnswer = JSON.stringify({
  answer_1: { answer_only_asserts_no_document_answers: false, content_analysis_sentence_by_sentence: [{ sentence: "a", criterion_1: "yes", criterion_2: "yes", criterion_3: "yes" }], faithfulness_justification: "all cited", faithfulness: true },
  answer_2: { answer_only_asserts_no_document_answers: false, content_analysis_sentence_by_sentence: [{ sentence: "b", criterion_1: "yes", criterion_2: "no", criterion_3: "yes" }], faithfulness_justification: "wrong source", faithfulness: false },
}, null, 4);
const recallAnswer = (e, b) => [
  "• RECALL_Reasoning: " + Array.from({ length: e }, (_, k) => `[ESSENTIAL PASSAGE] ${k + 1}: covered. Score: 4`).join(" ") + " " +
    Array.from({ length: b }, (_, k) => `[BONUS PASSAGE] ${k + 1}: partly. Score: 2`).join(" "),
  "• RECALL_Final_Score: 4",
].join("\n\n");
const groundTruth = (parts) => parts.map((p, k) => `${k % 4 === 3 ? "[BONUS PASSAGE]" : "[ESSENTIAL PASSAGE]"}\n${p}`).join("\n\n");

/**
 * workloads returns, for each evaluator, [id, inputs, answer, short] for about n bytes of
 * context text: `answer` is a full judge answer, `short` the shortest the evaluator reads.
 */
export function workloads(n) {
  const ev = chunks(n);
  const e = ev.filter((_, k) => k % 4 !== 3).length;
  return [
    ["claim-groundedness", { question: "What was prescribed?", claims: ["Aspirin was prescribed.", "The dose was 100 mg.", "The patient recovered."], evidence: ev.map((t, k) => ({ title: `Chunk ${k + 1}`, text: t })) }, claimsAnswer(3), '{"claims": []}'],
    ["answer-grounding", { answer: "The patient received 100 mg of aspirin.", facts: ev, mode: "strict" }, "yes", "yes"],
    ["pairwise-faithfulness", { contexts: ev, expected_output: "Aspirin 100 mg was given [1].", actual_output: "Aspirin was given [1]. The dose was 100 mg [2]." }, pairAnswer, "{}"],
    ["rag-recall", { passage_gt: groundTruth(ev), passage_llm: "Aspirin, 100 mg." }, recallAnswer(e, ev.length - e), "• RECALL_Final_Score: 4"],
  ];
}

// checkup-judges.mjs: the fake judges of the check-up browser tests (fake-upstream.mjs answers
// with them, by the model the page asks for) and the dataset they judge. "judge-right" reads the
// prompt and answers what is true of it, so it catches every case a check-up makes; "judge-yes"
// says yes to everything (it misses every failure by design); "judge-first" grades whichever
// pairwise answer it reads first as faithful (position bias), "judge-fair" grades each answer by
// what it says.

/** GROUNDING_ROWS: answer-grounding rows on unrelated subjects, so that each row has foreign sentences to take. */
export const GROUNDING_ROWS = [
  { id: "q1", question: "When was the Eiffel Tower finished?", answer: "The Eiffel Tower was completed in 1889.", facts: ["The Eiffel Tower was completed in 1889 for the World's Fair.", "It stands 330 metres tall in Paris."] },
  { id: "q2", question: "How do honeybees share where flowers are?", answer: "Honeybees dance to share where flowers are.", facts: ["Honeybees communicate flower locations using a waggle dance.", "A colony can hold 60000 workers in summer."] },
  { id: "q3", question: "When did Krakatoa erupt?", answer: "Krakatoa erupted violently in 1883.", facts: ["Krakatoa erupted in August 1883 with enormous force.", "The explosion was heard 4800 kilometres away."] },
  { id: "q4", question: "Who discovered penicillin?", answer: "Penicillin was discovered by Fleming.", facts: ["Alexander Fleming discovered penicillin in 1928.", "Mould had contaminated a culture plate in his laboratory."] },
  { id: "q5", question: "Where does the Nile flow?", answer: "The Nile flows north into the Mediterranean.", facts: ["The Nile river flows northward through eleven countries.", "Its delta empties into the Mediterranean Sea near Alexandria."] },
  { id: "q6", question: "How does Venus rotate?", answer: "Venus rotates backwards.", facts: ["Venus spins in retrograde compared with most planets.", "A single Venusian day lasts 243 Earth days."] },
  { id: "q7", question: "How tall is Everest?", answer: "Everest is the highest mountain.", facts: ["Mount Everest rises 8849 metres above sea level.", "Tenzing Norgay and Edmund Hillary reached its summit in 1953."] },
  { id: "q8", question: "What powers a lighthouse lamp?", answer: "Fresnel lenses focus lighthouse beams.", facts: ["Augustin Fresnel designed a compact lens for lighthouses in 1822.", "Its beam could be seen 32 kilometres out at sea."] },
];

/** groundingJSONL is GROUNDING_ROWS as a JSON Lines file. */
export const groundingJSONL = () => GROUNDING_ROWS.map((r) => JSON.stringify(r)).join("\n") + "\n";

/**
 * groundingParts reads an answer-grounding prompt's answer and facts (its last "Answer:" and the
 * numbered facts after it).
 * @param {string} prompt
 */
export function groundingParts(prompt) {
  const at = prompt.lastIndexOf("\nAnswer: ");
  const rest = prompt.slice(at + "\nAnswer: ".length);
  const [answer, facts] = rest.split("\n\nFacts: ");
  return { answer: answer.trim(), facts: (facts || "").split("\n").map((f) => f.replace(/^\d+\.\s*/, "").trim()).filter(Boolean) };
}

/** rightGrounding answers "Yes" when every sentence of the answer is in a fact word for word, else "No". */
export function rightGrounding(prompt) {
  const { answer, facts } = groundingParts(prompt);
  const sentences = answer.split(/(?<=[.!?])\s+/).filter(Boolean);
  return sentences.every((s) => facts.some((f) => f.includes(s))) ? "Yes" : "No";
}

/** pairwiseSlots reads the two answers of a pairwise prompt. */
export function pairwiseSlots(prompt) {
  const m = /Answer 1: ([\s\S]*?)\nAnswer 2: ([\s\S]*?)\n\[\/TO EVALUATE\]/.exec(prompt);
  return m ? [m[1], m[2]] : ["", ""];
}

const grades = (a, b) => JSON.stringify({ answer_1: { faithfulness_justification: "checked", faithfulness: a }, answer_2: { faithfulness_justification: "checked", faithfulness: b } });

/**
 * judgeAnswer is what the fake says to a prompt for the model asked (fake-upstream's fake.answer).
 * @param {string} prompt
 * @param {string} id the evaluator whose prompt it is
 * @param {{body: {model: string}}} request the recorded request
 */
export function judgeAnswer(prompt, id, request) {
  const body = request.body;
  if (id === "answer-grounding") return body.model === "judge-yes" ? "Yes" : rightGrounding(prompt);
  if (id === "pairwise-faithfulness") {
    if (body.model === "judge-first") return grades(1, 0);
    const [a, b] = pairwiseSlots(prompt);
    return grades(/GOOD/.test(a) ? 1 : 0, /GOOD/.test(b) ? 1 : 0);
  }
  if (ADDRESSES.prompt && prompt.includes("Does the answer address the question?")) return "yes";
  return "I only judge answer grounding, pairwise faithfulness and addresses-question.";
}

/** PAIRWISE_ROWS: pairwise rows whose actual output is GOOD on odd rows. */
export const PAIRWISE_ROWS = Array.from({ length: 6 }, (_, i) => ({
  id: "p" + (i + 1),
  contexts: [`Reference passage number ${i + 1} about a topic.`],
  expected_output: `An expected GOOD answer ${i + 1} [1].`,
  actual_output: `An actual ${i % 2 ? "BAD" : "GOOD"} answer ${i + 1} [1].`,
}));

/** ADDRESSES: a custom evaluator (yes/no) whose check-up right verdicts a test sets in My evaluators. */
export const ADDRESSES = {
  id: "addresses-question",
  title: "Addresses the question",
  prompt: "Question: {{ question }}\nAnswer: {{ answer }}\n\nDoes the answer address the question? Reply yes or no.",
  inputs: [
    { name: "question", label: "Question", kind: "text", required: true },
    { name: "answer", label: "Answer", kind: "text", required: true, judged: true },
  ],
  output: { kind: "yes-no" },
  words: { passed: "Addresses it", failed: "Off the question" },
};

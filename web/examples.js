// examples.js: one worked example per built-in evaluator (inputs in the JS API's shape, and a
// judge answer of the kind real models write), and the rag-recall seed's four examples for the
// recall calculator. The page loads them in one click; the browser tests reuse them.

export const EXAMPLES = {
  "claim-groundedness": {
    inputs: {
      question: "What was the patient given after surgery, and how did they respond?",
      claims: [
        { id: "c1", text: "After surgery the patient was prescribed amoxicillin 500 mg three times a day." },
        { id: "c2", text: "The patient had no adverse reactions and was discharged the next day." },
        { id: "c3", text: "A follow-up visit is scheduled in two weeks." },
      ],
      evidence: [
        { title: "Discharge summary", text: "Post-operative plan: amoxicillin 500 mg TID for 7 days. Discharged on day 3." },
        { title: "Scheduling", text: "Follow-up appointment booked with Dr. Okafor, 14 days after discharge." },
      ],
    },
    answer: `{
  "claims": [
    {"claim_id": "c1", "grounded": true, "ungrounded_assertions": []},
    {"claim_id": "c2", "grounded": false, "ungrounded_assertions": [
      {"assertion": "the patient had no adverse reactions", "reason": "chunk 1 only says the medication was prescribed, not how the patient reacted"},
      {"assertion": "discharged the next day", "reason": "chunk 1 says discharge was on day 3"}
    ]},
    {"claim_id": "c3", "grounded": true, "ungrounded_assertions": []}
  ]
}`,
  },
  "answer-grounding": {
    inputs: {
      answer: "The Eiffel Tower, completed in 1889, stands in the capital of France.",
      facts: ["The Eiffel Tower is located in Paris.", "The Eiffel Tower was completed in 1889.", "Paris is the capital of France."],
      mode: "lenient",
    },
    answer: "yes",
  },
  "pairwise-faithfulness": {
    inputs: {
      contexts: [
        "The Great Barrier Reef, off the coast of Queensland, Australia, is the world's largest coral reef system.",
        "Mass coral bleaching on the reef is driven by rising sea temperatures.",
      ],
      expected_output: "The Great Barrier Reef is the world's largest coral reef system [1]. Its corals bleach when the sea gets warmer [2].",
      actual_output: "The Great Barrier Reef lies off Queensland, Australia [1]. It is the only living thing visible from space. Bleaching is mostly caused by overfishing [3].",
    },
    answer: `{
  "answer_1": {
    "answer_only_asserts_no_document_answers": false,
    "content_analysis_sentence_by_sentence": [
      {"sentence": "The Great Barrier Reef is the world's largest coral reef system [1].", "criterion_1": "cites [1]", "criterion_2": "[1] is correct", "criterion_3": "faithful to [1]"},
      {"sentence": "Its corals bleach when the sea gets warmer [2].", "criterion_1": "cites [2]", "criterion_2": "[2] is correct", "criterion_3": "paraphrase of [2]"}
    ],
    "faithfulness_justification": "Every sentence cites the right reference and agrees with it.",
    "faithfulness": true
  },
  "answer_2": {
    "answer_only_asserts_no_document_answers": false,
    "content_analysis_sentence_by_sentence": [
      {"sentence": "The Great Barrier Reef lies off Queensland, Australia [1].", "criterion_1": "cites [1]", "criterion_2": "[1] is correct", "criterion_3": "faithful"},
      {"sentence": "It is the only living thing visible from space.", "criterion_1": "no reference", "criterion_2": "n/a", "criterion_3": "not in the references"},
      {"sentence": "Bleaching is mostly caused by overfishing [3].", "criterion_1": "cites [3]", "criterion_2": "there is no reference 3", "criterion_3": "contradicts [2]"}
    ],
    "faithfulness_justification": "One sentence has no source and another cites a reference that does not exist and contradicts [2].",
    "faithfulness": false
  }
}`,
  },
  "rag-recall": {
    inputs: {
      passage_gt: `[ESSENTIAL PASSAGE]
Photosynthesis converts light energy into chemical energy stored in glucose.

[ESSENTIAL PASSAGE]
It takes place in the chloroplasts, which contain chlorophyll.

[BONUS PASSAGE]
Oxygen is released as a by-product.

[BONUS PASSAGE]
C4 plants fix carbon in two stages to cope with heat.`,
      passage_llm:
        "Photosynthesis lets plants turn sunlight into chemical energy, storing it as glucose. It happens in the leaves. Plants release oxygen while doing it.",
      threshold: "3",
    },
    answer: `• RECALL_Reasoning: [ESSENTIAL PASSAGE] 1: the returned passage states the conversion of light into chemical energy stored as glucose. Score: 4 [ESSENTIAL PASSAGE] 2: it says "in the leaves" but never mentions chloroplasts or chlorophyll. Score: 3 [BONUS PASSAGE] 1: oxygen release is mentioned. Score: 4 [BONUS PASSAGE] 2: C4 plants are not mentioned. Score: 0

• RECALL_Essential_Formula: (4 + 3) / 2 = 3.5

• RECALL_Bonus_Formula: (4 + 0) / (2 * 2 * 2) = 0.5

• RECALL_Combined_Formula: 3.5 + 0.5 = 4

• RECALL_Final_Score_Calculation: min(5, 4) = 4

• RECALL_Final_Score: 4`,
  },
};

/** RECALL_SEEDS are the rag-recall seed prompt's own four examples: scores in, final score out. */
export const RECALL_SEEDS = [
  { name: "Seed example 1", essential: [4, 3], bonus: [4, 0], final: "4" },
  { name: "Seed example 2", essential: [4, 4, 3], bonus: [0], final: "3.67" },
  { name: "Seed example 3", essential: [5, 5], bonus: [5], final: "5" },
  { name: "Seed example 4", essential: [1, 2], bonus: [], final: "1.5" },
];

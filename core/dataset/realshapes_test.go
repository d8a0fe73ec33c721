package dataset

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"ragjudge/core/diag"
	"ragjudge/core/judge"
	"ragjudge/prompts"
)

// realShapes are small datasets written by hand in the shapes RAG tools write them (their column
// names, nesting and cell encodings, as seen in the tools' own example and test data), a few rows
// each. For each, want is the mapping every evaluator it suits must get without manual work.
var realShapes = []struct {
	name   string
	text   string
	format string // "" to detect
	want   map[string]Mapping
	codes  []diag.Code // the row checks expected over all rows and evaluators, in any order (nil: none)
	warns  []diag.Code // the dataset's warnings
	read   string      // the format read, when it matters
}{
	{
		name: "RAGAS v0.2 EvaluationDataset.to_jsonl",
		text: `{"user_input": "Who wrote the first program?", "retrieved_contexts": ["Ada Lovelace wrote the first program in 1843.", "Babbage designed the Analytical Engine."], "response": "Ada Lovelace [1].", "reference": "Ada Lovelace", "reference_contexts": ["Ada Lovelace wrote it."]}
{"user_input": "When?", "retrieved_contexts": ["It was published in 1843."], "response": "In 1843 [1].", "reference": "1843", "reference_contexts": null}
`,
		want: map[string]Mapping{
			"answer-grounding":      {"answer": "response", "facts": "retrieved_contexts"},
			"pairwise-faithfulness": {"contexts": "retrieved_contexts", "expected_output": "reference", "actual_output": "response"},
			"rag-recall":            {"passage_gt": "reference", "passage_llm": "response"},
		},
	},
	{
		name: "RAGAS v0.2 dataset through pandas to_csv: an index column, list cells as Python reprs",
		text: ",user_input,retrieved_contexts,response,reference\n" +
			"0,Who wrote it?,\"['Ada wrote it.', \"\"It's from 1843.\"\", 'A note:\\nsee p. 3']\",Ada [1].,Ada Lovelace\n" +
			"1,Where?,['London'],London [1].,London\n",
		want: map[string]Mapping{
			"answer-grounding":      {"answer": "response", "facts": "retrieved_contexts"},
			"pairwise-faithfulness": {"contexts": "retrieved_contexts", "expected_output": "reference", "actual_output": "response"},
		},
	},
	{
		name: "RAGAS v0.1 Hugging Face dataset as JSON: question, contexts, answer, ground_truths",
		text: `[{"question": "What is the capital of France?", "contexts": ["Paris is the capital of France."], "answer": "Paris [1].", "ground_truths": ["Paris"]},
 {"question": "And of Italy?", "contexts": ["Rome is Italy's capital.", "Milan is larger."], "answer": "Rome [1].", "ground_truths": ["Rome", "Roma"]}]`,
		want: map[string]Mapping{
			"answer-grounding":      {"answer": "answer", "facts": "contexts"},
			"pairwise-faithfulness": {"contexts": "contexts", "expected_output": "ground_truths", "actual_output": "answer"},
		},
		codes: []diag.Code{diag.InputJoined, diag.InputJoined}, // ground_truths: a list of one, and of two, for a text
	},
	{
		name: "DeepEval EvaluationDataset.save_as csv: lists joined by |, many empty columns",
		text: "input,actual_output,expected_output,retrieval_context,context,name,comments,source_file,tools_called,expected_tools,additional_metadata,custom_column_key_values\r\n" +
			"Who wrote the first program?,Ada Lovelace [1].,Ada Lovelace,Ada Lovelace wrote the first program in 1843.|Babbage designed the engine.,Ada was a mathematician.,,,,,,,\r\n" +
			"\"When, exactly?\",In 1843 [1].,1843,\"It was published in 1843, in Taylor's Scientific Memoirs.\",,,,notes.pdf,,,\"{\"\"k\"\": 1}\",\r\n",
		want: map[string]Mapping{
			"answer-grounding":      {"answer": "actual_output", "facts": "retrieval_context"},
			"pairwise-faithfulness": {"contexts": "retrieval_context", "expected_output": "expected_output", "actual_output": "actual_output"},
			"rag-recall":            {"passage_gt": "expected_output", "passage_llm": "actual_output"},
		},
		// Row 1's retrieval_context is |-joined (both list evaluators); row 2's is one text.
		codes: []diag.Code{diag.InputListFromPipes, diag.InputListFromPipes, diag.InputOneItem, diag.InputOneItem},
	},
	{
		name: "DeepEval EvaluationDataset.save_as jsonl: lists joined by | there too, nulls",
		text: `{"input": "Who?", "actual_output": "Ada [1].", "expected_output": "Ada", "retrieval_context": "Ada wrote it.|Babbage built it.", "context": null, "tools_called": null, "expected_tools": null, "additional_metadata": null, "custom_column_key_values": null}
{"input": "When?", "actual_output": "1843 [1].", "expected_output": "1843", "retrieval_context": "Published in 1843.", "context": "Published in 1843.|In London.", "tools_called": null, "expected_tools": null, "additional_metadata": {"source": "wiki"}, "custom_column_key_values": null}
`,
		want: map[string]Mapping{
			"answer-grounding":      {"answer": "actual_output", "facts": "retrieval_context"},
			"pairwise-faithfulness": {"contexts": "retrieval_context", "expected_output": "expected_output", "actual_output": "actual_output"},
		},
		codes: []diag.Code{diag.InputListFromPipes, diag.InputListFromPipes, diag.InputOneItem, diag.InputOneItem},
	},
	{
		name: "DeepEval goldens as JSON in camelCase",
		text: `{"goldens": [{"input": "Who?", "actualOutput": "Ada [1].", "expectedOutput": "Ada", "retrievalContext": ["Ada wrote it."], "context": ["Ada wrote it in 1843."]}]}`,
		want: map[string]Mapping{
			"answer-grounding":      {"answer": "actualOutput", "facts": "retrievalContext"},
			"pairwise-faithfulness": {"contexts": "retrievalContext", "expected_output": "expectedOutput", "actual_output": "actualOutput"},
		},
	},
	{
		name: "GroUSE grounded QA JSONL: references as the contexts",
		text: `{"input": "What is the capital of France?", "actual_output": "The capital of France is Marseille [1].", "expected_output": "The capital of France is Paris [1].", "references": ["Paris is the capital of France."]}
{"input": "Who painted the Mona Lisa?", "actual_output": "Leonardo da Vinci [1][2].", "expected_output": "Leonardo da Vinci painted it [1].", "references": ["The Mona Lisa is by Leonardo da Vinci.", "It hangs in the Louvre."]}
`,
		want: map[string]Mapping{
			"answer-grounding":      {"answer": "actual_output", "facts": "references"},
			"pairwise-faithfulness": {"contexts": "references", "expected_output": "expected_output", "actual_output": "actual_output"},
		},
	},
	{
		name:   "ARES judge scoring TSV: Query, Document, Answer, labels often empty, quoted documents",
		format: "tsv",
		text: "Query\tDocument\tAnswer\tContext_Relevance_Label\tAnswer_Relevance_Label\tAnswer_Faithfulness_Label\n" +
			"who wrote the first program\tAda Lovelace wrote the first program, in 1843.\tAda Lovelace\t1.0\t1.0\t1.0\n" +
			"when did the first ninja turtles come out\t\"The Turtles first appeared in a comic parodying \"\"Daredevil\"\" and \"\"Ronin\"\", in 1984.\"\tGiovanni Ribisi\t\t0.0\t0.0\n",
		want: map[string]Mapping{
			"answer-grounding": {"answer": "Answer", "facts": "Document"},
		},
		codes: []diag.Code{diag.InputOneItem, diag.InputOneItem},
	},
	{
		name: "ARES TSV detected, Question in place of Query",
		text: "Question\tDocument\tAnswer\n" +
			"what is a notary for\tA notary public serves the public in non-contentious matters.\tTo certify documents.\n",
		want: map[string]Mapping{
			"answer-grounding": {"answer": "Answer", "facts": "Document"},
		},
		codes: []diag.Code{diag.InputOneItem},
		read:  "tsv",
	},
	{
		name: "RAGChecker checking inputs: {input_data: [...]}, retrieved_context as {doc_id, text}",
		text: `{
  "input_data": [
    {
      "query_id": "0",
      "query": "What's the longest river in the world?",
      "gt_answer": "The Nile is traditionally the longest river, though the Amazon may be longer.",
      "response": "The Nile, about 6,650 km [1].",
      "retrieved_context": [
        {"doc_id": "000", "text": "Scientists debate whether the Amazon or the Nile is the longest river."},
        {"doc_id": "001", "text": "The Nile River was central to Ancient Egypt."}
      ]
    },
    {
      "query_id": "1",
      "query": "What does the flag of the Congo represent?",
      "gt_answer": "Blue for peace, red for the martyrs' blood, yellow for wealth, the star for the future.",
      "response": "Peace, martyrs, wealth and hope [1].",
      "retrieved_context": [{"doc_id": "000", "text": "Blue symbolizes peace, red the blood of martyrs."}]
    }
  ]
}`,
		want: map[string]Mapping{
			"answer-grounding":      {"answer": "response", "facts": "retrieved_context"},
			"pairwise-faithfulness": {"contexts": "retrieved_context", "expected_output": "gt_answer", "actual_output": "response"},
			"rag-recall":            {"passage_gt": "gt_answer", "passage_llm": "response"},
		},
		codes: []diag.Code{diag.InputItemText, diag.InputItemText, diag.InputItemText, diag.InputItemText},
	},
	{
		// The shape of examples/checking_outputs.json in amazon-science/RAGChecker: claims are
		// [subject, predicate, object] triplets, entailment lists and per-row metrics beside them.
		name: "RAGChecker checking outputs: {results: [...], metrics}, response_claims as triplets",
		text: `{
  "results": [
    {
      "query_id": "0",
      "query": "What's the longest river in the world?",
      "gt_answer": "The Nile is traditionally the longest river, though the Amazon may be longer.",
      "response": "The longest river in the world is the Nile, about 6,650 kilometers long.",
      "retrieved_context": [
        {"doc_id": "000", "text": "Scientists debate whether the Amazon or the Nile is the longest river in the world."},
        {"doc_id": "001", "text": "The Nile River was central to the Ancient Egyptians' rise to wealth and power."}
      ],
      "response_claims": [["Nile", "is", "longest river in the world"], ["Nile", "stretches", "approximately 6,650 kilometers"]],
      "gt_answer_claims": [["Nile", "is", "longest river in Africa"]],
      "answer2response": ["Entailment"],
      "response2answer": ["Entailment", "Neutral"],
      "retrieved2response": [["Neutral", "Entailment"], ["Neutral", "Neutral"]],
      "retrieved2answer": [["Entailment"], ["Neutral"]],
      "metrics": {"precision": 0.5, "recall": 1.0, "faithfulness": 0.5}
    }
  ],
  "metrics": {"overall_metrics": {"precision": 50.0, "recall": 100.0, "f1": 66.7}}
}`,
		want: map[string]Mapping{
			"claim-groundedness":    {"question": "query", "claims": "response_claims", "evidence": "retrieved_context"},
			"answer-grounding":      {"answer": "response", "facts": "retrieved_context"},
			"pairwise-faithfulness": {"contexts": "retrieved_context", "expected_output": "gt_answer", "actual_output": "response"},
		},
		// The claims are triplets, the contexts {doc_id, text}: each said once per input.
		codes: []diag.Code{diag.InputItemText, diag.InputItemText, diag.InputItemText, diag.InputItemText},
	},
	{
		// CRAG (facebookresearch/CRAG, docs/dataset.md): search_results of {page_name, page_url,
		// page_snippet, page_result (the page's HTML), page_last_modified}; "answer" is the
		// reference, beside the system's "prediction" its local evaluation adds.
		name: "CRAG task 1 JSON Lines with predictions: query, answer, search_results",
		text: `{"interaction_id": "7bb29eb4", "query_time": "03/19/2024, 23:49:30 PT", "domain": "movie", "question_type": "simple", "static_or_dynamic": "static", "query": "which animated film won the best animated feature oscar in 2004?", "answer": "finding nemo", "alt_ans": [], "split": 0, "search_results": [{"page_name": "Academy Award for Best Animated Feature", "page_url": "https://en.wikipedia.org/wiki/x", "page_snippet": "Finding Nemo won the award at the 76th Academy Awards.", "page_result": "<html><body>…</body></html>", "page_last_modified": ""}], "prediction": "Finding Nemo [1]."}
`,
		want: map[string]Mapping{
			"answer-grounding":      {"answer": "prediction", "facts": "search_results"},
			"pairwise-faithfulness": {"contexts": "search_results", "expected_output": "answer", "actual_output": "prediction"},
		},
		codes: []diag.Code{diag.InputItemText, diag.InputItemText},
	},
	{
		// MultiHop-RAG (yixuantt/MultiHop-RAG, dataset/MultiHopRAG.json): a JSON array whose
		// evidence_list items are news facts {title, author, url, source, category, published_at, fact}.
		name: "MultiHop-RAG: query, answer, evidence_list of facts, with a model's response",
		text: `[{"query": "Which company did both The Verge and TechCrunch report on?", "answer": "Apple", "question_type": "inference_query", "evidence_list": [{"title": "Apple's event", "author": "A", "url": "https://x", "source": "The Verge", "category": "technology", "published_at": "2023-10-03T12:00:00+00:00", "fact": "Apple announced new Macs."}, {"title": "Macs", "author": "B", "url": "https://y", "source": "TechCrunch", "category": "technology", "published_at": "2023-10-04T12:00:00+00:00", "fact": "TechCrunch covered Apple's Macs."}], "response": "Apple [1][2]."}]`,
		want: map[string]Mapping{
			"answer-grounding":      {"answer": "response", "facts": "evidence_list"},
			"pairwise-faithfulness": {"contexts": "evidence_list", "expected_output": "answer", "actual_output": "response"},
		},
		codes: []diag.Code{diag.InputItemText, diag.InputItemText},
	},
	{
		// Self-RAG's and DPR's retrieval files (and FiD's, Atlas'): question, answers, ctxs of
		// {id, title, text, score}; ALCE's docs are {title, text, summary, extraction}.
		name: "DPR/Self-RAG retrieval file with outputs: question, answers, ctxs",
		text: `[{"question": "who wrote the first computer program", "answers": ["Ada Lovelace"], "ctxs": [{"id": "12", "title": "Ada Lovelace", "text": "Ada Lovelace published the first algorithm in 1843.", "score": "81.2", "has_answer": true}], "output": "Ada Lovelace [1]."}]`,
		want: map[string]Mapping{
			"answer-grounding":      {"answer": "output", "facts": "ctxs"},
			"pairwise-faithfulness": {"contexts": "ctxs", "expected_output": "answers", "actual_output": "output"},
		},
		codes: []diag.Code{diag.InputItemText, diag.InputItemText, diag.InputJoined},
	},
	{
		name: "ALCE result file: question, answer, docs, output",
		text: `{"question": "Who played X?", "answer": "Y", "docs": [{"title": "Y", "text": "Y played X in 1990.", "summary": "", "extraction": ""}], "output": "Y played X [1]."}`,
		want: map[string]Mapping{
			"answer-grounding":      {"answer": "output", "facts": "docs"},
			"pairwise-faithfulness": {"contexts": "docs", "expected_output": "answer", "actual_output": "output"},
		},
		codes: []diag.Code{diag.InputItemText, diag.InputItemText},
	},
	{
		// MS MARCO and SQuAD as Hugging Face datasets write them (to_json): a sequence feature is
		// an object of parallel lists, so the texts are passages.passage_text and answers.text.
		name: "MS MARCO through Hugging Face datasets: passages of parallel lists, with an answer added",
		text: `{"answers": ["Results-Based Accountability is a disciplined way of thinking."], "passages": {"is_selected": [0, 1], "passage_text": ["RBA is used by organizations.", "Results-Based Accountability is a disciplined way of thinking and taking action."], "url": ["https://a", "https://b"]}, "query": "what is rba", "query_id": 19699, "query_type": "description", "wellFormedAnswers": [], "generated_answer": "A disciplined way of thinking [2]."}`,
		want: map[string]Mapping{
			"answer-grounding":      {"answer": "generated_answer", "facts": "passages.passage_text"},
			"pairwise-faithfulness": {"contexts": "passages.passage_text", "expected_output": "answers", "actual_output": "generated_answer"},
		},
		codes: []diag.Code{diag.InputJoined},
	},
	{
		name: "SQuAD through Hugging Face datasets: answers of parallel lists, with a model's answer",
		text: `{"id": "5733be28", "title": "University_of_Notre_Dame", "context": "It is a replica of the grotto at Lourdes, where the Virgin Mary reputedly appeared to Saint Bernadette Soubirous in 1858.", "question": "To whom did the Virgin Mary allegedly appear in 1858?", "answers": {"text": ["Saint Bernadette Soubirous"], "answer_start": [515]}, "model_answer": "Saint Bernadette Soubirous [1]."}`,
		want: map[string]Mapping{
			"answer-grounding":      {"answer": "model_answer", "facts": "context"},
			"pairwise-faithfulness": {"contexts": "context", "expected_output": "answers.text", "actual_output": "model_answer"},
		},
		codes: []diag.Code{diag.InputOneItem, diag.InputOneItem, diag.InputJoined},
	},
	{
		// HotpotQA's dev file: context is [[title, [sentences]]]; answer is the reference.
		name: "HotpotQA dev with predictions: context as [title, [sentences]]",
		text: `[{"_id": "5a8b57f2", "answer": "yes", "question": "Were Scott Derrickson and Ed Wood of the same nationality?", "supporting_facts": [["Scott Derrickson", 0], ["Ed Wood", 0]], "context": [["Ed Wood", ["Edward Davis Wood Jr. was an American filmmaker."]], ["Scott Derrickson", ["Scott Derrickson is an American director.", " He lives in Los Angeles."]]], "type": "comparison", "level": "hard", "pred": "x", "prediction": "Yes, both are American [1][2]."}]`,
		want: map[string]Mapping{
			"answer-grounding":      {"answer": "prediction", "facts": "context"},
			"pairwise-faithfulness": {"contexts": "context", "expected_output": "answer", "actual_output": "prediction"},
		},
		codes: []diag.Code{diag.InputItemText, diag.InputItemText},
	},
	{
		name: "HaluBench (Patronus AI): passage, question, answer, label",
		text: `[{"id": "halueval-1", "passage": "The Oberoi family is an Indian family famous for its hotels.", "question": "Which family owns the Oberoi hotels?", "answer": "The Oberoi family.", "label": "PASS", "source_ds": "halueval"}]`,
		want: map[string]Mapping{
			"answer-grounding": {"answer": "answer", "facts": "passage"},
		},
		codes: []diag.Code{diag.InputOneItem},
	},
	{
		name: "LlamaIndex LabelledRagDataset rag_dataset.json with its predictions: examples of query, reference_contexts, reference_answer",
		text: `{"examples": [{"query": "Who wrote the first program?", "query_by": {"model_name": "gpt-4", "type": "ai"},
  "reference_contexts": ["Ada Lovelace wrote the first program in 1843."], "reference_answer": "Ada Lovelace.",
  "reference_answer_by": {"model_name": "gpt-4", "type": "ai"}, "predictions": "Ada Lovelace [1]."}]}`,
		want: map[string]Mapping{
			"answer-grounding":      {"answer": "predictions", "facts": "reference_contexts"},
			"pairwise-faithfulness": {"contexts": "reference_contexts", "expected_output": "reference_answer", "actual_output": "predictions"},
		},
	},
	{
		name: "LangChain RetrievalQA outputs saved as JSON Lines: query, result, source_documents as {page_content, metadata}",
		text: `{"query": "What is MLflow?", "result": "An open-source platform [1].", "source_documents": [{"page_content": "MLflow is an open-source platform for the ML lifecycle.", "metadata": {"source": "docs"}}], "llm_answer": "An open-source platform [1]."}
`,
		want: map[string]Mapping{
			"answer-grounding": {"answer": "llm_answer", "facts": "source_documents"},
		},
		codes: []diag.Code{diag.InputItemText},
	},
	{
		name: "promptfoo eval output JSON: vars, response.output, testCase",
		text: `{"evalId": "eval-1", "results": {"version": 3, "results": [
  {"vars": {"query": "Who wrote it?", "context": ["Ada wrote it.", "In 1843."]}, "response": {"output": "Ada [1].", "tokenUsage": {"total": 12}}, "success": true, "score": 1, "testCase": {"vars": {"query": "Who wrote it?"}}},
  {"vars": {"query": "Where?", "context": "In London."}, "response": {"output": "London [1]."}, "success": false, "score": 0}
]}}`,
		want: map[string]Mapping{
			"answer-grounding": {"answer": "response.output", "facts": "vars.context"},
		},
		codes: []diag.Code{diag.InputOneItem},
	},
	{
		name: "promptfoo results flattened to CSV: vars.* columns",
		text: "vars.question,vars.context,response.output,success,score\n" +
			"Who?,\"[\"\"Ada wrote it.\"\"]\",Ada [1].,true,1\n" +
			"When?,\"[\"\"It was 1843.\"\", \"\"In London.\"\"]\",1843 [1].,false,0.5\n",
		want: map[string]Mapping{
			"answer-grounding": {"answer": "response.output", "facts": "vars.context"},
		},
	},
	{
		name: "Phoenix get_qa_with_reference to_csv: input, output, reference (the retrieved text)",
		text: "context.span_id,input,output,reference\n" +
			"5d1a,What is Arize Phoenix?,An observability library [1].,Phoenix is an open-source observability library for LLM apps.\n" +
			"9c2e,Does it trace?,Yes [1].,\"Phoenix traces LLM applications, via OpenTelemetry.\"\n",
		want: map[string]Mapping{
			"answer-grounding": {"answer": "output", "facts": "reference"},
		},
		codes: []diag.Code{diag.InputOneItem, diag.InputOneItem},
	},
	{
		name: "Phoenix spans dataframe to_csv: attributes.* columns, documents as Python dicts",
		text: "context.span_id,name,span_kind,attributes.input.value,attributes.output.value,attributes.retrieval.documents\n" +
			"a1,query,CHAIN,What is Phoenix?,An observability tool [1].," +
			"\"[{'document.id': 'd1', 'document.score': 0.81, 'document.content': 'Phoenix is an observability tool.', 'document.metadata': {'title': 'Docs'}}]\"\n",
		want: map[string]Mapping{
			"answer-grounding": {"answer": "attributes.output.value", "facts": "attributes.retrieval.documents"},
		},
		codes: []diag.Code{diag.InputItemText},
	},
	{
		name: "TruLens records joined to a ground truth dataset: input, output, expected_response",
		text: "record_id,query_id,input,output,expected_response,latency\n" +
			"record_hash_1,q1,Who wrote it?,\"[ESSENTIAL PASSAGE] Ada wrote it\",\"[ESSENTIAL PASSAGE]\nAda Lovelace wrote it.\",0.82\n",
		want: map[string]Mapping{
			"rag-recall": {"passage_gt": "expected_response", "passage_llm": "output"},
		},
	},
	{
		name: "this tool's own names from a European spreadsheet: BOM, semicolons, CRLF, a stray quote",
		text: "\uFEFFquestion;claims;evidence\r\n" +
			"Who?;\"[\"\"Ada wrote it.\"\", \"\"In 1843.\"\"]\";\"[{\"\"title\"\": \"\"Notes\"\", \"\"text\"\": \"\"Ada wrote the program in 1843.\"\"}]\"\r\n" +
			"Which 5\" screen?;['A 5\" screen, 2019.'];['The 5\" model came out in 2019.']\r\n",
		want: map[string]Mapping{
			"claim-groundedness": {"question": "question", "claims": "claims", "evidence": "evidence"},
		},
		warns: []diag.Code{diag.DatasetQuoteInField}, // one a row
		read:  "csv",
	},
	{
		name: "a question list as Hugging Face docs QA CSV has it: trailing comma in the header, stray quotes, a record broken over lines",
		text: "question,expected_answer,\n" +
			"\"What is the file size limit for syncing to Spaces?\n\",10MB,\n" +
			"\"Where can you see the logs of an Endpoint?\n\",In the \"Logs\" tab of the Endpoint.,\n" +
			"\"What is the recommended batch size multiple for fp16?\n\",,\nase, d\",64\n",
		warns: []diag.Code{diag.DatasetQuoteInField, diag.DatasetQuoteInField},
	},
}

// TestRealShapes: every row of each sample loads, and each evaluator the sample suits gets its
// mapping without manual work, every row then giving inputs that render (rag-recall's ground
// truth must also have markers, which not every sample has: its rows are only built).
func TestRealShapes(t *testing.T) {
	reg, err := judge.Load(prompts.FS)
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(realShapes), 12)
	for _, tc := range realShapes {
		t.Run(tc.name, func(t *testing.T) {
			tab, err := Read(tc.text, tc.format)
			require.NoError(t, err)
			require.Empty(t, tab.Errors, "every row loads")
			require.GreaterOrEqual(t, len(tab.Rows), 1)
			if tc.read != "" {
				assert.Equal(t, tc.read, tab.Format)
			}
			var warns []diag.Code
			for _, w := range tab.Warnings {
				warns = append(warns, w.Code)
			}
			assert.ElementsMatch(t, tc.warns, warns)
			var codes []diag.Code
			for id, want := range tc.want {
				ev, err := reg.Get(id)
				require.NoError(t, err)
				matches := tab.DetectMatches(ev.Inputs)
				m := Mapping{}
				for _, mt := range matches {
					if mt.Input != "mode" && mt.Input != "threshold" {
						m[mt.Input] = mt.Column
					}
					assert.NotEmpty(t, mt.Alias)
				}
				require.Equal(t, want, m, id)
				for i, row := range tab.Rows {
					in, checks := RowInputs(row, m, ev.Inputs)
					for _, c := range checks {
						assert.NotEqual(t, diag.SevError, c.Severity, "%s row %d: %s", id, i+1, c.Message)
						codes = append(codes, c.Code)
					}
					if id == "rag-recall" {
						continue
					}
					_, err := reg.Render(id, in)
					assert.NoError(t, err, "%s row %d", id, i+1)
				}
			}
			assert.ElementsMatch(t, tc.codes, codes)
		})
	}
}

// TestMoreRealNames: the column names of benchmarks and tutorials that hold an evaluator's
// inputs map without manual work, read from their own files: HaluEval's four files (data/*.json in
// RUCAIBox/HaluEval: its QA, dialogue and summary files hold a right and a hallucinated answer,
// neither guessed as the one to judge), RAGTruth's source_info joined to its responses, MLflow's
// static evaluation frame.
func TestMoreRealNames(t *testing.T) {
	for _, tc := range []struct {
		name    string
		columns []string
		inputs  []judge.Input
		want    Mapping
	}{
		{"HaluEval QA", []string{"knowledge", "question", "right_answer", "hallucinated_answer"}, answerInputs, Mapping{"facts": "knowledge"}},
		{"HaluEval QA, pairwise", []string{"knowledge", "question", "right_answer", "hallucinated_answer"}, pairwiseInputs,
			Mapping{"contexts": "knowledge", "expected_output": "right_answer"}},
		{"HaluEval QA, claims", []string{"knowledge", "question", "right_answer", "hallucinated_answer"}, claimInputs,
			Mapping{"question": "question", "evidence": "knowledge"}},
		{"HaluEval dialogue", []string{"knowledge", "dialogue_history", "right_response", "hallucinated_response"}, pairwiseInputs,
			Mapping{"contexts": "knowledge", "expected_output": "right_response"}},
		{"HaluEval summarization", []string{"document", "right_summary", "hallucinated_summary"}, pairwiseInputs,
			Mapping{"contexts": "document", "expected_output": "right_summary"}},
		{"HaluEval general", []string{"ID", "user_query", "chatgpt_response", "hallucination", "hallucination_spans"}, answerInputs,
			Mapping{"answer": "chatgpt_response"}},
		{"HaluEval general, claims", []string{"ID", "user_query", "chatgpt_response", "hallucination"}, claimInputs, Mapping{"question": "user_query"}},
		{"HaluEval QA, recall", []string{"knowledge", "question", "right_answer", "hallucinated_answer"}, recallInputs, Mapping{"passage_gt": "right_answer"}},
		{"RAGTruth QA joined", []string{"id", "source_id", "model", "response", "labels", "source_info", "source_info.question", "source_info.passages"}, claimInputs,
			Mapping{"question": "source_info.question", "evidence": "source_info.passages"}},
		{"RAGTruth summary joined", []string{"id", "source_id", "response", "source_info", "task_type"}, answerInputs,
			Mapping{"answer": "response", "facts": "source_info"}},
		{"MLflow static frame", []string{"inputs", "predictions", "ground_truth", "context"}, answerInputs, Mapping{"answer": "predictions", "facts": "context"}},
	} {
		m := DetectMapping(tc.columns, tc.inputs)
		delete(m, "mode")
		delete(m, "threshold")
		assert.Equal(t, tc.want, m, tc.name)
	}
}

// TestRealShapesSaySourceNames: the preview can say where each guess came from.
func TestRealShapesSaySourceNames(t *testing.T) {
	for _, tc := range []struct {
		columns []string
		inputs  []judge.Input
		want    []Match
	}{
		{[]string{"user_input", "retrieved_contexts", "response", "reference"}, pairwiseInputs, []Match{
			{Input: "contexts", Column: "retrieved_contexts", Alias: "retrieved_contexts", Tool: "RAGAS"},
			{Input: "expected_output", Column: "reference", Alias: "reference", Tool: "RAGAS"},
			{Input: "actual_output", Column: "response", Alias: "response", Tool: "RAGAS, RAGChecker, TruLens, RAGTruth"},
		}},
		{[]string{"Query", "Document", "Answer"}, answerInputs, []Match{
			{Input: "answer", Column: "Answer", Alias: "answer", Tool: "RAGAS (v0.1), ARES"},
			{Input: "facts", Column: "Document", Alias: "document", Tool: "ARES"},
		}},
		{[]string{"vars", "vars.query", "vars.context"}, claimInputs, []Match{
			{Input: "question", Column: "vars.query", Alias: "query", Tool: "promptfoo, RAGChecker, ARES, TruLens", Nested: "vars"},
			{Input: "evidence", Column: "vars.context", Alias: "context", Tool: "promptfoo, DeepEval, TruLens", Nested: "vars"},
			{Input: "claims", Column: "vars.claims", Alias: "claims", Tool: "", Nested: "vars", Guess: false},
		}[:2]},
		{[]string{"vars"}, recallInputs, []Match{
			{Input: "passage_gt", Column: "vars.passage_gt", Alias: "passage_gt", Tool: "promptfoo", Nested: "vars", Guess: true},
			{Input: "passage_llm", Column: "vars.passage_llm", Alias: "passage_llm", Tool: "promptfoo", Nested: "vars", Guess: true},
			{Input: "threshold", Column: "vars.threshold", Alias: "threshold", Tool: "promptfoo", Nested: "vars", Guess: true},
		}},
		{[]string{"testCase.vars.Question", "attributes.output.value", "attributes.retrieval.documents"}, answerInputs, []Match{
			{Input: "answer", Column: "attributes.output.value", Alias: "attributes.output.value", Tool: "Phoenix"},
			{Input: "facts", Column: "attributes.retrieval.documents", Alias: "attributes.retrieval.documents", Tool: "Phoenix"},
		}},
	} {
		assert.Equal(t, tc.want, DetectMatches(tc.columns, tc.inputs), "%v", tc.columns)
	}
}

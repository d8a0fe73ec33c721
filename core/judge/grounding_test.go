package judge

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"ragjudge/core/diag"
	"ragjudge/core/value"
)

// TestGroundingParse reads answers by the yes/no rule (yesno.go): the whole answer, or verdict
// lines; a yes or no inside a sentence is never a verdict. word is the verdict ("" when
// undetermined), code the one check expected ("" for none) and at the text its span covers.
func TestGroundingParse(t *testing.T) {
	const (
		skipped = diag.AnswerProseSkipped
		after   = diag.AnswerProseAfterVerdict
		none    = diag.AnswerNoVerdict
		several = diag.AnswerSeveralVerdicts
	)
	tests := []struct {
		name, answer, word string
		code               diag.Code
		at                 string
	}{
		// The whole answer is the verdict.
		{name: "yes", answer: "yes", word: "yes"},
		{name: "no", answer: "no", word: "no"},
		{name: "Yes.", answer: "Yes.", word: "yes"},
		{name: "bold No", answer: "**No**", word: "no"},
		{name: "bold with period outside", answer: "**Yes**.", word: "yes"},
		{name: "quoted", answer: `"yes"`, word: "yes"},
		{name: "curly quoted with period", answer: "“No.”", word: "no"},
		{name: "spaces and case", answer: "  NO.  \n", word: "no"},
		{name: "code", answer: "`yes`", word: "yes"},
		{name: "code with a period outside", answer: "`No`.", word: "no"},
		{name: "underscores", answer: "_no_", word: "no"},
		{name: "single quotes and period", answer: "'no'.", word: "no"},
		{name: "uppercase", answer: "YES", word: "yes"},
		{name: "leading space and trailing newline", answer: " No\n", word: "no"},
		{name: "think block", answer: "<think>Claim 1 matches fact 2, no problem there. Yes, grounded.</think>\n\nyes", word: "yes"},
		{name: "lone think close", answer: "The answer says 1890 but the fact says 1889.</think>No", word: "no"},
		{name: "qwen3 empty think then no", answer: "<think>\n\n</think>\n\nNo", word: "no"},

		// Verdict lines: the first or last line alone, or after a label.
		{name: "label", answer: "Answer: no", word: "no"},
		{name: "Answer: yes", answer: "Answer: yes", word: "yes"},
		{name: "bold label", answer: "**Answer:** No", word: "no"},
		{name: "bold label, colon outside", answer: "**Answer**: no", word: "no"},
		{name: "final answer bold", answer: "**Final answer: No**", word: "no"},
		{name: "shouting label with period", answer: "ANSWER: NO.", word: "no"},
		{name: "the same label twice", answer: "Verdict: yes\nVerdict: yes", word: "yes"},
		{name: "verdict then explanation", answer: "Yes\n\nExplanation: the answer restates fact 1 (Paris is the capital of France).", word: "yes", code: skipped, at: "Yes"},
		{name: "deepseek-r1 think then bold label", answer: "<think>\nThe answer says Paris is the capital of France. Fact 1 says so. No extra claims. So yes.\n</think>\n\n**Answer:** Yes",
			word: "yes"},
		{name: "reasoning with no, then a last-line yes", answer: "There is no claim in the answer that the facts do not support.\n\nYes", word: "yes", code: skipped, at: "Yes"},
		{name: "no unsupported claim, then yes", answer: "There is no unsupported claim.\n\nYes", word: "yes", code: skipped, at: "Yes"},
		{name: "no way to verify, then a bare No", answer: "The facts say nothing about the opening year, so there is no way to verify that claim.\n\nNo", word: "no", code: skipped, at: "No"},
		{name: "verdict first, then reasoning with yes in it", answer: "No\n\nReasoning: the answer says 1890; fact 2 says 1889. Yes, the location is right, but one claim is wrong.",
			word: "no", code: skipped, at: "No"},
		{name: "reasoning then Answer line", answer: "Reasoning: Fact 1 supports the location. Fact 2 supports the year. There is no claim left unchecked.\nAnswer: yes",
			word: "yes", code: skipped, at: "yes"},
		{name: "label with a reason after a comma", answer: "Answer: Yes, every statement matches a fact.", word: "yes", code: skipped, at: "Yes"},
		{name: "bold label, dash and a reason", answer: "**Verdict:** Yes — all three claims appear in the facts.", word: "yes", code: skipped, at: "Yes"},
		{name: "label, No, then a sentence", answer: "Answer: No. The facts never mention the tower's height.", word: "no", code: skipped, at: "No"},
		{name: "final verdict with a note in parentheses", answer: "Final verdict: NO (the year is wrong)", word: "no", code: skipped, at: "NO"},
		{name: "supported facts, then bold yes", answer: "The answer claims the tower is in Paris (fact 1) and was finished in 1889 (fact 2). Both are supported, so no claim is ungrounded.\n\n**Yes**",
			word: "yes", code: skipped, at: "Yes"},
		{name: "last line No with a period", answer: "Not every claim is supported: the facts give no height for the tower.\nNo.", word: "no", code: skipped, at: "No"},
		{name: "heading then verdict", answer: "# Verdict\n\nNo", word: "no", code: skipped, at: "No"},
		{name: "think, prose with no, final answer line", answer: "<think>\nThe facts say 1889. The answer says 1889. No conflict. Yes.\n</think>\nThe answer is fully supported; no fact is contradicted.\n\nFinal answer: Yes",
			word: "yes", code: skipped, at: "Yes"},
		{name: "label line then an explanation with no", answer: "Answer: YES\nExplanation: every claim maps to a fact; nothing is inferred, no extra detail.", word: "yes", code: skipped, at: "YES"},
		{name: "label alone on a line, verdict below", answer: "Answer:\nYes", word: "yes", code: skipped, at: "Yes"},
		{name: "Label line (Phoenix's shape)", answer: "EXPLANATION: fact 2 gives 1889.\nLABEL: yes", word: "yes", code: skipped, at: "yes"},
		{name: "label with =", answer: "Answer = no", word: "no"},
		// Labels judges head their verdict with unasked; each only names the verdict.
		{name: "Judgement label", answer: "The answer restates fact 1.\nJudgement: Yes", word: "yes", code: skipped, at: "Yes"},
		{name: "Decision label", answer: "Decision: NO", word: "no"},
		{name: "Conclusion label then a reason", answer: "Fact 2 gives 1889.\n**Conclusion:** No, the year is wrong.", word: "no", code: skipped, at: "No"},
		{name: "Result label", answer: "Result: yes", word: "yes"},
		{name: "Final decision label", answer: "Final decision: no", word: "no"},
		{name: "Conclusion followed by a sentence is prose", answer: "Conclusion: No fact mentions the height.", code: none},
		{name: "a label that says which way is no verdict label", answer: "Supported: yes", code: none},
		// Reasoning models trained on mathematics box their final answer (LaTeX's \boxed{}).
		{name: "boxed after a Final Answer heading", answer: "The answer restates fact 1.\n\n**Final Answer**\n\\boxed{Yes}", word: "yes", code: skipped, at: "Yes"},
		{name: "boxed after the label", answer: "Final answer: \\boxed{No}", word: "no"},
		{name: "boxed in math mode, alone", answer: "$\\boxed{no}$", word: "no"},
		{name: "boxed prose is no verdict", answer: "\\boxed{No fact gives the year}", code: none},

		// The first word of the first or last line, yes or no followed by a punctuation mark: the
		// verdict, with a warning that prose follows (answer.prose-after-verdict). Written in the
		// shapes judges answer a "yes or no" prompt in: a bare word then its reason (NeMo
		// Guardrails' self_check_facts asks "Answer with yes/no" and reads the start of the
		// reply), Markdown emphasis around the word as chat models add it, a dash before the reason.
		{name: "No. then a sentence", answer: "No. The date is wrong.", word: "no", code: after, at: "No"},
		{name: "Yes, then a sentence", answer: "Yes, every claim is supported.", word: "yes", code: after, at: "Yes"},
		{name: "NO - then a reason", answer: "NO - the year is not in the facts", word: "no", code: after, at: "NO"},
		{name: "bold No. then the answer", answer: "**No.** The answer gives 1890; fact 2 says 1889.", word: "no", code: after, at: "No"},
		{name: "bold No then a period", answer: "**No**. The answer gives 1890.", word: "no", code: after, at: "No"},
		{name: "quoted No then a dash", answer: "\"No\" - the height is not in the facts.", word: "no", code: after, at: "No"},
		{name: "sentence starting with No,", answer: "No, the answer adds a date the facts do not give.", word: "no", code: after, at: "No"},
		{name: "Yes, grounded in a sentence", answer: "Yes, the answer is grounded in fact 1.", word: "yes", code: after, at: "Yes"},
		{name: "NO with a dash and a reason", answer: "NO - the answer adds a height that no fact mentions.", word: "no", code: after, at: "NO"},
		{name: "yes with an em dash and a reason", answer: "yes — the answer is supported by fact 1.", word: "yes", code: after, at: "yes"},
		{name: "em dash without spaces", answer: "No—the facts give 1889.", word: "no", code: after, at: "No"},
		{name: "en dash", answer: "No – the facts give 1889.", word: "no", code: after, at: "No"},
		{name: "double hyphen", answer: "No -- the facts give 1889.", word: "no", code: after, at: "No"},
		{name: "hyphen with no space before", answer: "No- the facts give 1889.", word: "no", code: after, at: "No"},
		{name: "semicolon", answer: "Yes; both claims appear in fact 1.", word: "yes", code: after, at: "Yes"},
		{name: "colon", answer: "Yes: both claims appear in fact 1.", word: "yes", code: after, at: "Yes"},
		{name: "no with a reason", answer: "No. The answer says Paris is the largest city, which the facts do not state.", word: "no", code: after, at: "No"},
		{name: "yes, no problem", answer: "Yes, no problem: each claim is supported.", word: "yes", code: after, at: "Yes"},
		{name: "yes, although", answer: "Yes, although there is no source for the second claim.", word: "yes", code: after, at: "Yes"},
		{name: "exclamation alone", answer: "YES!", word: "yes"},
		{name: "exclamation then a paragraph", answer: "Yes!\n\nBoth claims appear in fact 1.", word: "yes", code: after, at: "Yes"},
		{name: "bullet", answer: "- No, the year is wrong.", word: "no", code: after, at: "No"},
		{name: "quote mark", answer: "> No. The year is wrong.", word: "no", code: after, at: "No"},
		{name: "last line starts with No,", answer: "Fact 2 gives 1889; the answer gives 1890.\nNo, the answer is not grounded.", word: "no", code: after, at: "No"},
		{name: "after reasoning", answer: "<think>The answer says 1890.</think>\n\nNo. Fact 2 says 1889.", word: "no", code: after, at: "No"},
		{name: "a later verdict line agrees", answer: "No, the date is wrong.\nFinal answer: no", word: "no", code: skipped, at: "no"},
		{name: "the same word again in the line", answer: "No. No.", word: "no"},

		// A yes or no inside a sentence is not a verdict.
		{name: "No one knows", answer: "No one knows whether the tower is 330 m tall.", code: none},
		{name: "No-one", answer: "No-one could check the height.", code: none},
		{name: "Yes and no", answer: "Yes and no: the location is right, the year is not.", code: none},
		{name: "There is no", answer: "There is no support for the year in the facts.", code: none},
		{name: "ellipsis hesitates", answer: "No... the year might be right after all.", code: none},
		{name: "Unicode ellipsis", answer: "Yes… mostly.", code: none},
		{name: "question mark", answer: "Yes? The facts are unclear.", code: none},
		{name: "the format echoed on the first line", answer: "Yes/No\nThe answer restates fact 1.", code: none},
		{name: "No with a decimal", answer: "No.5 is not a verdict.", code: none},
		{name: "no relevant statement (a real judge's reply)", answer: "There is no relevant statement that can be created from the given answer.", code: none},
		{name: "sentence with yes", answer: "The answer is yes.", code: none},
		{name: "No information", answer: "No information in the facts contradicts the answer, and every claim is covered by fact 2.", code: none},
		{name: "makes no claim", answer: "The answer makes no claim beyond the facts.", code: none},
		{name: "I would say yes", answer: "I would say yes, mostly, but the date is not in the facts.", code: none},
		{name: "question and answer lines", answer: "Is every claim supported? Yes.\nIs anything contradicted? No.", code: none},
		{name: "label followed by a sentence starting with No", answer: "Verdict: No unsupported claims were found; the answer restates fact 1.", code: none},
		{name: "mode note in parentheses", answer: "Yes (lenient mode allows this single-hop inference)", code: none},
		{name: "llama: therefore bold", answer: "The answer's only claim matches fact 1 exactly. Therefore, the answer is: **yes**", code: none},
		{name: "final answer in the middle of a line", answer: "The reasoning is complete. Final Answer: **Yes**", code: none},
		{name: "no answer to check", answer: "There is no answer to check.", code: none},
		{name: "reasoning said yes, the answer says neither", answer: "<think>Okay, is it grounded? Yes.</think>\n\nThere is no mention of the architect in the facts.", code: none},
		{name: "cannot answer yes or no", answer: "I cannot answer yes or no: the facts are empty.", code: none},
		{name: "no problem found. Yes", answer: "No problem found. Yes", code: none},
		{name: "correct, yes", answer: "The answer is correct, yes.", code: none},
		{name: "neither", answer: "Grounded.", code: none},
		{name: "word inside a word", answer: "Yesterday's facts are nonsense", code: none},
		{name: "I cannot determine", answer: "I cannot determine whether the answer is grounded from the facts given.", code: none},
		{name: "json yes", answer: `{"answer": "yes"}`, code: none},
		{name: "json object with a verdict", answer: "```json\n{\"grounded\": \"no\"}\n```", code: none},
		{name: "cut off by max_tokens before the verdict", answer: "Let me check each claim. The answer states that Paris is the capital of France. Fact 1 states", code: none},
		{name: "N/A", answer: "N/A", code: none},
		{name: "label with N/A", answer: "Answer: N/A", code: none},

		// Verdicts that disagree.
		{name: "first line No, last line Yes,", answer: "No, the date is wrong.\n\nYes, the rest is fine.", code: several, at: "Yes"},
		{name: "first word against a verdict line", answer: "No, the date is wrong.\nFinal answer: yes", code: several, at: "yes"},
		{name: "Yes. No.", answer: "Yes. No.", code: several, at: "No"},
		{name: "Yes, no.", answer: "Yes, no.", code: several, at: "no"},
		{name: "final answer: yes. no. yes.", answer: "final answer: yes. no. yes.", code: several, at: "no"},
		{name: "both on lines", answer: "yes\nno", code: several, at: "no"},
		{name: "Yes. then No.", answer: "Yes.\nNo.", code: several, at: "No"},
		{name: "changed its mind", answer: "Yes\n\nOn second thought, fact 2 gives 1887, not 1889.\n\nNo", code: several, at: "No"},
		{name: "label no, yes", answer: "Answer: no, yes", code: several, at: "yes"},
		{name: "first line and label disagree", answer: "No\nThe facts cover it after all.\nFinal answer: Yes", code: several, at: "Yes"},
		{name: "the format echoed: Yes/No", answer: "Reasoning: fact 1 covers it.\nAnswer: Yes/No", code: several, at: "No"},
		{name: "the format echoed: yes | no", answer: "Final answer: yes | no", code: several, at: "no"},

		// No answer at all.
		{name: "empty", answer: "  \n ", code: diag.AnswerEmpty},
		{name: "only reasoning", answer: "<think>hmm</think>", code: diag.AnswerEmpty},
		{name: "unfinished reasoning", answer: "<think>Let me compare claim 1 with", code: diag.AnswerTruncated},
	}
	r := testRegistry(t)
	in := object(t, `{"answer": "Paris is the capital of France.", "facts": ["The capital of France is Paris."], "mode": "lenient"}`)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := r.Parse(groundingID, in, tt.answer)
			require.NoError(t, err)
			d := v.Verdict.(*groundingDetail)
			assert.Equal(t, "lenient", d.Mode)
			switch tt.word {
			case "":
				assert.Nil(t, d.Answer)
				assertVerdict(t, v, "null", "null", nil)
			case "yes":
				assertVerdict(t, v, "true", "1", nil)
			default:
				assertVerdict(t, v, "false", "0", nil)
			}
			if tt.word != "" && assert.NotNil(t, d.Answer) {
				assert.Equal(t, tt.word, *d.Answer)
			}
			var codes []diag.Code
			for _, c := range v.Checks {
				codes = append(codes, c.Code)
			}
			if tt.code == "" {
				assert.Empty(t, codes)
				return
			}
			require.Equal(t, []diag.Code{tt.code}, codes, "%q", v.Checks)
			c := v.Checks[0]
			assert.NotEmpty(t, c.Message)
			if tt.at != "" {
				require.Positive(t, c.Line)
				assert.Equal(t, tt.at, spanText(tt.answer, c), "the check points at the verdict")
			}
		})
	}
}

// spanText returns the text of answer that check c points at (its span may cross lines).
func spanText(answer string, c diag.Check) string {
	line, col := 1, 1
	var out []rune
	for _, r := range answer {
		if line == c.Line && col >= c.Col || line > c.Line {
			if len(out) == c.Len {
				break
			}
			out = append(out, r)
		}
		if r == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	if len(out) < c.Len {
		return ""
	}
	return string(out)
}

// TestYesNoMessages pins what the three undetermined cases say.
func TestYesNoMessages(t *testing.T) {
	r := testRegistry(t)
	in := object(t, `{"answer": "a", "facts": ["f"]}`)
	for answer, want := range map[string]string{
		"There is no relevant statement that can be created from the given answer.": `E: the answer has no verdict: it is not just yes or no, and no line of it is a verdict (yes or no alone on the first or last line or starting it before a punctuation mark, or after a label such as "Answer:", "Verdict:", "Final answer:" or "Label:"); a yes or no inside a sentence is not one: "There is no relevant statement`,
		"final answer: yes. no. yes.":               `E: the answer gives verdicts that disagree (yes at 1:15, no at 1:20), so it cannot be read: "final answer: yes. no. yes."`,
		"<think>x</think>\nIt is supported.\n\nYes": "W: read the verdict yes from the verdict line at 4:1; the rest of the answer was skipped",
	} {
		v, err := r.Parse(groundingID, in, answer)
		require.NoError(t, err)
		passed, score := "null", "null"
		if strings.HasPrefix(want, "W") {
			passed, score = "true", "1"
		}
		assertVerdict(t, v, passed, score, []string{want})
	}
}

func TestGroundingModes(t *testing.T) {
	r := testRegistry(t)
	for _, tt := range []struct {
		mode, want string
		warn       bool
	}{
		{`null`, "strict", false}, {`""`, "strict", false}, {`"strict"`, "strict", false},
		{`"lenient"`, "lenient", false}, {`" LENIENT "`, "lenient", false}, {`"fuzzy"`, "strict", true},
	} {
		in := object(t, `{"answer": "a", "facts": "f", "mode": `+tt.mode+`}`)
		rendered, err := r.Render(groundingID, in)
		require.NoError(t, err)
		assert.Contains(t, rendered.Prompt, "Mode: "+tt.want+". If mode", tt.mode)
		if tt.warn {
			assert.Equal(t, []string{`mode "fuzzy" is neither strict nor lenient: rendered as strict, as the prompt's own rule says`}, rendered.Warnings)
		} else {
			assert.Empty(t, rendered.Warnings, tt.mode)
		}
		v, err := r.Parse(groundingID, in, "yes")
		require.NoError(t, err)
		assert.Equal(t, tt.want, v.Verdict.(*groundingDetail).Mode)
		assert.Equal(t, tt.warn, len(v.Checks) == 1, "%q", v.Checks)
	}
}

func BenchmarkRenderParseAnswerGrounding(b *testing.B) {
	typical := `{"answer": "The Eiffel Tower, completed in 1889, is in Paris.", "facts": ["The Eiffel Tower is located in Paris.", "The Eiffel Tower was completed in 1889."], "mode": "strict"}`
	b.Run("typical", func(b *testing.B) {
		benchRenderParse(b, groundingID, object(b, typical), "<think>Both claims match a fact.</think>\n**Yes**", len(typical))
	})
	for _, size := range benchSizes {
		b.Run(size.name, func(b *testing.B) {
			in := value.NewObject("answer", "The dose was 20 mg.", "facts", benchChunks(size.bytes), "mode", "lenient")
			benchRenderParse(b, groundingID, in, "The answer is yes.", size.bytes)
		})
	}
}

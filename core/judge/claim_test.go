package judge

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"ragjudge/core/diag"
	"ragjudge/core/output"
	"ragjudge/core/value"
)

// object decodes a JSON object literal for a test.
func object(t testing.TB, src string) *value.Object {
	t.Helper()
	v, err := value.Decode([]byte(src))
	require.NoError(t, err, src)
	o, ok := v.(*value.Object)
	require.True(t, ok, src)
	return o
}

// assertVerdict checks passed and score ("true", "false", "null"; a number or "null") and that
// every wanted check ("E: substring" or "W: substring") is among v's checks. An undetermined
// verdict must carry an error check and a determined one must not.
func assertVerdict(t *testing.T, v *Verdict, passed, score string, checks []string) {
	t.Helper()
	gotPassed := "null"
	if v.Passed != nil {
		gotPassed = fmt.Sprint(*v.Passed)
	}
	gotScore := "null"
	if v.Score != nil {
		gotScore = fmt.Sprintf("%.4g", *v.Score)
	}
	assert.Equal(t, passed, gotPassed, "passed; checks: %q", v.Checks)
	assert.Equal(t, score, gotScore, "score; checks: %q", v.Checks)
	hasError := false
	for _, c := range v.Checks {
		hasError = hasError || c.Severity == diag.SevError
	}
	assert.Equal(t, v.Passed == nil, hasError, "an undetermined verdict, and only one, has an error check: %q", v.Checks)
	for _, want := range checks {
		sev, msg, _ := strings.Cut(want, ": ")
		sev = map[string]string{"E": diag.SevError, "W": diag.SevWarning}[sev]
		found := false
		for _, c := range v.Checks {
			found = found || c.Severity == sev && strings.Contains(c.Message, msg)
		}
		assert.True(t, found, "no %s check containing %q in %q", sev, msg, v.Checks)
	}
	_, err := json.Marshal(v)
	assert.NoError(t, err)
}

const claimInputs = `{
	"question": "What was the patient prescribed?",
	"claims": ["Atorvastatin 20 mg daily was prescribed.", "The patient had no adverse reactions.", "Follow-up in three months."],
	"evidence": [{"title": "Cardiology note", "text": "Plan: start atorvastatin 20 mg PO daily."}, "Return to clinic in 12 weeks.", "Allergies: none known."]
}`

// claimJSON builds a judge answer grading c1..c3 with the given grounded values (JSON text).
func claimJSON(g1, g2, g3 string) string {
	return fmt.Sprintf(`{"claims": [
  {"claim_id": "c1", "grounded": %s, "ungrounded_assertions": []},
  {"claim_id": "c2", "grounded": %s, "ungrounded_assertions": []},
  {"claim_id": "c3", "grounded": %s, "ungrounded_assertions": []}
]}`, g1, g2, g3)
}

const c2Ungrounded = `{"claims": [
  {"claim_id": "c1", "grounded": true, "ungrounded_assertions": []},
  {"claim_id": "c2", "grounded": false, "ungrounded_assertions": [
    {"assertion": "the patient had no adverse reactions", "reason": "ID: 1 only says the drug was started; chunk 3 lists allergies, not reactions"}]},
  {"claim_id": "c3", "grounded": true, "ungrounded_assertions": []}
]}`

func TestClaimParse(t *testing.T) {
	tests := []struct {
		name     string
		answer   string
		passed   string
		score    string
		statuses string // "grounded ungrounded missing" for c1 c2 c3
		checks   []string
	}{
		{name: "strict all grounded", answer: claimJSON("true", "true", "true"), passed: "true", score: "1", statuses: "grounded grounded grounded"},
		{name: "one ungrounded", answer: c2Ungrounded, passed: "false", score: "0.6667", statuses: "grounded ungrounded grounded"},
		{name: "fenced with prose", answer: "Here is my assessment.\n\n```json\n" + claimJSON("true", "true", "true") + "\n```\nAll claims check out.",
			passed: "true", score: "1", statuses: "grounded grounded grounded", checks: []string{"W: ignored the text before the JSON, from 1:1", "W: ignored the text after the JSON"}},
		{name: "think block with an example", answer: "<think>The format is {\"claims\": [{\"claim_id\": \"c1\", \"grounded\": false}]}. c2 is fine.</think>\n" + claimJSON("true", "true", "true"),
			passed: "true", score: "1", statuses: "grounded grounded grounded"},
		{name: "trailing commas", answer: `{"claims": [{"claim_id": "c1", "grounded": true, "ungrounded_assertions": [],}, {"claim_id": "c2", "grounded": true,}, {"claim_id": "c3", "grounded": false, "ungrounded_assertions": [{"assertion": "three months", "reason": "ID: 2 says 12 weeks",},],},],}`,
			passed: "false", score: "0.6667", statuses: "grounded grounded ungrounded", checks: []string{"W: judge answer: repaired a trailing comma at 1:77 (and 6 more)"}},
		{name: "truncated", answer: "```json\n{\"claims\": [\n  {\"claim_id\": \"c1\", \"grounded\": true, \"ungrounded_assertions\": []},\n  {\"claim_id\": \"c2\", \"grounded\": fa",
			passed: "null", score: "null", statuses: "grounded cut cut", checks: []string{"E: looks truncated (max_tokens too small?) (line 4, col 36)"}},
		{name: "skipped claim", answer: `{"claims": [{"claim_id": "c1", "grounded": true}, {"claim_id": "c2", "grounded": true}]}`,
			passed: "null", score: "0.6667", statuses: "grounded grounded missing", checks: []string{"W: the judge skipped claim c3", "E: undetermined: 1 of 3 claims have no grade (c3)"}},
		{name: "skipped claim but one ungrounded", answer: `{"claims": [{"claim_id": "c1", "grounded": false, "ungrounded_assertions": [{"assertion": "20 mg", "reason": "dose not stated"}]}]}`,
			passed: "false", score: "0", statuses: "ungrounded missing missing", checks: []string{"W: the judge skipped claim c2", "W: the judge skipped claim c3"}},
		{name: "unknown claim id", answer: `{"claims": [{"claim_id": "c1", "grounded": true}, {"claim_id": "c9", "grounded": false}, {"claim_id": "c2", "grounded": true}, {"claim_id": "c3", "grounded": true}]}`,
			passed: "true", score: "1", statuses: "grounded grounded grounded", checks: []string{`W: the judge graded claim "c9", which the inputs do not have; ignored`}},
		// Small models fill the list the prompt shows empty with a placeholder: "None" is no
		// assertion, and the claim graded grounded stays grounded (it was a confident failure).
		{name: "placeholder assertions", answer: `{"claims": [{"claim_id": "c1", "grounded": true, "ungrounded_assertions": ["None"]}, {"claim_id": "c2", "grounded": true, "ungrounded_assertions": "N/A"}, {"claim_id": "c3", "grounded": true, "ungrounded_assertions": [{"assertion": "", "reason": ""}, ""]}]}`,
			passed: "true", score: "1", statuses: "grounded grounded grounded", checks: []string{
				`W: claim c1: an ungrounded assertion is "None", which lists none; ignored`,
				`W: claim c2: an ungrounded assertion is "N/A", which lists none; ignored`,
				"W: claim c3: an ungrounded assertion has neither an assertion nor a reason; ignored",
				`W: claim c3: an ungrounded assertion is "", which lists none; ignored`}},
		// grounded written twice in one entry grades the claim both ways: ungrounded, as a claim
		// graded twice is, whichever comes last (the last value, true, made it grounded).
		{name: "grounded twice in one entry", answer: `{"claims": [{"claim_id": "c1", "grounded": true}, {"claim_id": "c2", "grounded": false, "ungrounded_assertions": [], "grounded": true}, {"claim_id": "c3", "grounded": true}]}`,
			passed: "false", score: "0.6667", statuses: "grounded ungrounded grounded", checks: []string{
				`W: judge answer: the key "grounded" appears twice, the last value is used at 1:118`,
				"W: the judge wrote grounded twice in claim c2's entry, with different values; counted as ungrounded"}},
		{name: "an assertion that starts with None is one", answer: `{"claims": [{"claim_id": "c1", "grounded": true}, {"claim_id": "c2", "grounded": true}, {"claim_id": "c3", "grounded": false, "ungrounded_assertions": ["None of the evidence gives the dose"]}]}`,
			passed: "false", score: "0.6667", statuses: "grounded grounded ungrounded"},
		{name: "self-contradiction", answer: `{"claims": [{"claim_id": "c1", "grounded": true}, {"claim_id": "c2", "grounded": true, "ungrounded_assertions": [{"assertion": "no adverse reactions", "reason": "not in the evidence"}]}, {"claim_id": "c3", "grounded": true}]}`,
			passed: "false", score: "0.6667", statuses: "grounded ungrounded grounded", checks: []string{"W: claim c2: the judge says grounded: true but lists 1 ungrounded assertion(s); counted as ungrounded"}},
		{name: "yes and no strings", answer: claimJSON(`"yes"`, `"No"`, `"true"`), passed: "false", score: "0.6667", statuses: "grounded ungrounded grounded",
			checks: []string{`W: claim c1: read grounded "yes" as true`, `W: claim c2: read grounded "No" as false`, `W: claim c3: read grounded "true" as true`}},
		{name: "one and zero", answer: claimJSON("1", "0", "1"), passed: "false", score: "0.6667", statuses: "grounded ungrounded grounded",
			checks: []string{"W: claim c1: read grounded 1 as true", "W: claim c2: read grounded 0 as false"}},
		{name: "python literals and single quotes", answer: `{'claims': [{'claim_id': 'c1', 'grounded': True, 'ungrounded_assertions': []}, {'claim_id': 'c2', 'grounded': False, 'ungrounded_assertions': [{'assertion': 'no reactions', 'reason': "the note doesn't say"}]}, {'claim_id': 'c3', 'grounded': True, 'ungrounded_assertions': None}]}`,
			passed: "false", score: "0.6667", statuses: "grounded ungrounded grounded", checks: []string{"W: read a single-quoted string", "W: read Python True as true", "W: read Python None as null"}},
		{name: "nested result", answer: `{"result": ` + claimJSON("true", "true", "true") + `, "model": "gpt-4o"}`, passed: "true", score: "1", statuses: "grounded grounded grounded"},
		{name: "example in the reasoning first", answer: "I will answer in the format {\"claims\": [{\"claim_id\": \"c1\", \"grounded\": true, \"ungrounded_assertions\": []}]}.\nNow the real answer:\n" + claimJSON("true", "false", "true"),
			passed: "false", score: "0.6667", statuses: "grounded ungrounded grounded", checks: []string{"W: judge answer: ignored an earlier JSON object at 1:29 (an example in the reasoning?)"}},
		{name: "unescaped inner quotes", answer: `{"claims": [{"claim_id": "c1", "grounded": true, "ungrounded_assertions": []}, {"claim_id": "c2", "grounded": false, "ungrounded_assertions": [{"assertion": "the patient "tolerated it well"", "reason": "the note says "start" only"}]}, {"claim_id": "c3", "grounded": true}]}`,
			passed: "false", score: "0.6667", statuses: "grounded ungrounded grounded", checks: []string{"W: judge answer: read an unescaped quote inside a string as part of the text"}},
		{name: "curly quotes", answer: `{“claims”: [{“claim_id”: “c1”, “grounded”: true}, {“claim_id”: “c2”, “grounded”: true}, {“claim_id”: “c3”, “grounded”: true}]}`,
			passed: "true", score: "1", statuses: "grounded grounded grounded", checks: []string{"W: judge answer: read curly quotes as quotes"}},
		{name: "numeric ids", answer: `{"claims": [{"claim_id": 1, "grounded": true}, {"claim_id": "2", "grounded": true}, {"claim_id": 3, "grounded": true}]}`,
			passed: "true", score: "1", statuses: "grounded grounded grounded", checks: []string{"W: the judge wrote claim_id 1 for claim c1; read the number as the claim's position"}},
		{name: "loose ids", answer: `{"claims": [{"claim_id": "C1", "grounded": true}, {"claim_id": "Claim c2", "grounded": true}, {"claim_id": " c3 ", "grounded": true}]}`,
			passed: "true", score: "1", statuses: "grounded grounded grounded", checks: []string{`W: the judge wrote claim_id "C1" for claim c1; matched ignoring case and spacing`}},
		{name: "duplicate conflicting", answer: `{"claims": [{"claim_id": "c1", "grounded": true}, {"claim_id": "c1", "grounded": false}, {"claim_id": "c2", "grounded": true}, {"claim_id": "c3", "grounded": true}]}`,
			passed: "false", score: "0.6667", statuses: "ungrounded grounded grounded", checks: []string{"W: the judge graded claim c1 twice, as grounded and as ungrounded; counted as ungrounded"}},
		{name: "duplicate agreeing", answer: `{"claims": [{"claim_id": "c1", "grounded": true}, {"claim_id": "c1", "grounded": true}, {"claim_id": "c2", "grounded": true}, {"claim_id": "c3", "grounded": true}]}`,
			passed: "true", score: "1", statuses: "grounded grounded grounded", checks: []string{"W: the judge graded claim c1 more than once, with the same grade"}},
		{name: "no json", answer: "All three claims are supported by the evidence.", passed: "null", score: "null", statuses: "missing missing missing",
			checks: []string{`E: the answer has no JSON object with "claims"`}},
		{name: "claims not a list", answer: `{"claims": "all grounded"}`, passed: "null", score: "null", statuses: "missing missing missing",
			checks: []string{`E: the judge's "claims" is a string, not a list of graded claims`}},
		{name: "grounded missing", answer: `{"claims": [{"claim_id": "c1", "grounded": true}, {"claim_id": "c2"}, {"claim_id": "c3", "grounded": null}]}`,
			passed: "null", score: "0.3333", statuses: "grounded missing missing", checks: []string{"W: claim c2: the judge gave no grounded value; no grade", "W: claim c3: grounded is null, not true or false; no grade", "E: undetermined: 2 of 3 claims have no grade (c2, c3)"}},
		{name: "empty list", answer: `{"claims": []}`, passed: "null", score: "null", statuses: "missing missing missing",
			checks: []string{"W: the judge skipped claim c1", "E: undetermined: 3 of 3 claims have no grade"}},
		{name: "assertions as strings", answer: `{"claims": [{"claim_id": "c1", "grounded": false, "ungrounded_assertions": ["20 mg daily (chunk 1 says 20 mg PO)"]}, {"claim_id": "c2", "grounded": true}, {"claim_id": "c3", "grounded": true}]}`,
			passed: "false", score: "0.6667", statuses: "ungrounded grounded grounded"},
		{name: "comments and unquoted keys", answer: "{\n  claims: [ // all three\n    {claim_id: \"c1\", grounded: true}, /* ok */\n    {claim_id: \"c2\", grounded: true},\n    {claim_id: \"c3\", grounded: true}\n  ]\n}",
			passed: "true", score: "1", statuses: "grounded grounded grounded", checks: []string{"W: judge answer: ignored a // comment at 2:13", "W: judge answer: read an unquoted key at 2:3"}},
		{name: "lone think close", answer: "c1 is supported by ID: 1.</think>\n" + claimJSON("true", "true", "true"), passed: "true", score: "1", statuses: "grounded grounded grounded"},
		{name: "unreadable", answer: "{\"claims\": [{\"claim_id\": \"c1\", \"grounded\": probably}]}", passed: "null", score: "null", statuses: "missing missing missing",
			checks: []string{`E: cannot read the JSON: unexpected word "probably" (text values must be in quotes); reading stopped at "probably}]}" (line 1, col 44)`}},
		{name: "claims keyed by id", answer: `{"claims": {"c1": {"grounded": true, "ungrounded_assertions": []}, "c2": {"grounded": false}, "c3": true}}`,
			passed: "false", score: "0.6667", statuses: "grounded ungrounded grounded", checks: []string{`W: read the judge's "claims" object as a list keyed by claim id`}},
		{name: "capitalised keys", answer: `{"Claims": [{"Claim_ID": "c1", "Grounded": true}, {"claim_id": "c2", "GROUNDED": true}, {"claim_id": "c3", "grounded": true}]}`,
			passed: "true", score: "1", statuses: "grounded grounded grounded"},
		// As real judges answer (GPT-4o/4.1, Claude, Llama 3, Mistral, Gemini, Qwen, DeepSeek-R1).
		{name: "gpt-4o: bare json fence", answer: "```json\n" + c2Ungrounded + "\n```",
			passed: "false", score: "0.6667", statuses: "grounded ungrounded grounded"},
		{name: "gpt-4.1: here is my evaluation", answer: "Here is my evaluation:\n\n```json\n" + c2Ungrounded + "\n```",
			passed: "false", score: "0.6667", statuses: "grounded ungrounded grounded", checks: []string{"W: judge answer: ignored the text before the JSON, from 1:1"}},
		{name: "claude: analysis, fence, summary", answer: "I'll check each claim against the evidence.\n\n**Claim c1:** ID: 1 says \"start atorvastatin 20 mg PO daily\" — supported.\n" +
			"**Claim c2:** nothing about adverse reactions; ID: 3 lists allergies only.\n**Claim c3:** ID: 2 says 12 weeks, which is three months.\n\n```json\n" + c2Ungrounded +
			"\n```\n\nIn summary, c1 and c3 are grounded; c2 is not.",
			passed: "false", score: "0.6667", statuses: "grounded ungrounded grounded",
			checks: []string{"W: judge answer: ignored the text before the JSON, from 1:1", "W: judge answer: ignored the text after the JSON, from 16:1"}},
		{name: "llama 3: json in prose without a fence", answer: "Here is the output in JSON format:\n\n" + claimJSON("true", "true", "true") + "\n\nLet me know if you need anything else!",
			passed: "true", score: "1", statuses: "grounded grounded grounded", checks: []string{"W: judge answer: ignored the text before the JSON, from 1:1", "W: judge answer: ignored the text after the JSON, from 9:1"}},
		{name: "schema with placeholders quoted first", answer: "The required format is:\n{\"claims\": [{\"claim_id\": \"<id>\", \"grounded\": <true|false>, \"ungrounded_assertions\": [{\"assertion\": \"...\", \"reason\": \"...\"}]}]}\n\n" +
			"Evaluating:\n```json\n" + claimJSON("true", "false", "true") + "\n```",
			passed: "false", score: "0.6667", statuses: "grounded ungrounded grounded", checks: []string{"W: judge answer: ignored the text before the JSON, from 1:1"}},
		{name: "fenced schema example then fenced answer", answer: "Expected shape:\n```json\n{\"claims\": [{\"claim_id\": \"c1\", \"grounded\": true, \"ungrounded_assertions\": []}]}\n```\n\nMy answer:\n```json\n" +
			claimJSON("true", "true", "false") + "\n```",
			passed: "false", score: "0.6667", statuses: "grounded grounded ungrounded", checks: []string{"W: judge answer: ignored an earlier JSON object at 3:1 (an example in the reasoning?)"}},
		{name: "llama: python dict", answer: "{'claims': [{'claim_id': 'c1', 'grounded': True, 'ungrounded_assertions': []}, {'claim_id': 'c2', 'grounded': False, 'ungrounded_assertions': [{'assertion': 'no adverse reactions', 'reason': \"The evidence doesn't mention reactions\"}]}, {'claim_id': 'c3', 'grounded': True, 'ungrounded_assertions': []}]}",
			passed: "false", score: "0.6667", statuses: "grounded ungrounded grounded", checks: []string{"W: judge answer: read a single-quoted string", "W: judge answer: read Python True as true", "W: judge answer: read Python False as false"}},
		{name: "mistral: trailing commas in a fence", answer: "```json\n{\n  \"claims\": [\n    {\"claim_id\": \"c1\", \"grounded\": true, \"ungrounded_assertions\": [],},\n    {\"claim_id\": \"c2\", \"grounded\": true, \"ungrounded_assertions\": [],},\n    {\"claim_id\": \"c3\", \"grounded\": true, \"ungrounded_assertions\": [],},\n  ],\n}\n```",
			passed: "true", score: "1", statuses: "grounded grounded grounded", checks: []string{"W: judge answer: repaired a trailing comma at 4:69 (and 4 more)"}},
		{name: "smart quotes from a chat ui", answer: "{“claims”: [{“claim_id”: “c1”, “grounded”: true, “ungrounded_assertions”: []}, {“claim_id”: “c2”, “grounded”: false, “ungrounded_assertions”: [{“assertion”: “no adverse reactions”, “reason”: “not in the evidence”}]}, {“claim_id”: “c3”, “grounded”: true, “ungrounded_assertions”: []}]}",
			passed: "false", score: "0.6667", statuses: "grounded ungrounded grounded", checks: []string{"W: judge answer: read curly quotes as quotes"}},
		{name: "keys in other cases", answer: `{"CLAIMS": [{"Claim_Id": "c1", "Grounded": true, "Ungrounded_Assertions": []}, {"claimId": "c2", "grounded": false, "UngroundedAssertions": [{"Assertion": "no adverse reactions", "Reason": "absent"}]}, {"claim_id": "c3", "GROUNDED": true}]}`,
			passed: "false", score: "0.6667", statuses: "grounded ungrounded grounded"},
		{name: "booleans as Yes, true and 1", answer: claimJSON(`"Yes"`, `"true"`, "1"), passed: "true", score: "1", statuses: "grounded grounded grounded",
			checks: []string{`W: claim c1: read grounded "Yes" as true`, `W: claim c2: read grounded "true" as true`, "W: claim c3: read grounded 1 as true"}},
		{name: "unescaped quotes quoting the evidence", answer: "```json\n{\"claims\": [\n  {\"claim_id\": \"c1\", \"grounded\": true, \"ungrounded_assertions\": []},\n  {\"claim_id\": \"c2\", \"grounded\": false, \"ungrounded_assertions\": [{\"assertion\": \"no adverse reactions\", \"reason\": \"ID: 3 only says \"Allergies: none known.\", which is not about reactions\"}]},\n  {\"claim_id\": \"c3\", \"grounded\": true, \"ungrounded_assertions\": []}\n]}\n```",
			passed: "false", score: "0.6667", statuses: "grounded ungrounded grounded", checks: []string{"W: judge answer: read an unescaped quote inside a string as part of the text"}},
		{name: "cut off by max_tokens inside a reason", answer: "```json\n{\n  \"claims\": [\n    {\"claim_id\": \"c1\", \"grounded\": true, \"ungrounded_assertions\": []},\n    {\"claim_id\": \"c2\", \"grounded\": false, \"ungrounded_assertions\": [{\"assertion\": \"no adverse reactions\", \"reason\": \"The evidence lists allergies but says nothing abo",
			passed: "null", score: "null", statuses: "grounded cut cut", checks: []string{"E: the answer ends inside the JSON that starts at 2:1: it looks truncated (max_tokens too small?)"}},
		{name: "cut off right after the last claim: truncated or brackets forgotten", answer: "{\"claims\": [" + `{"claim_id": "c1", "grounded": true}, {"claim_id": "c2", "grounded": true}, {"claim_id": "c3", "grounded": true}`,
			passed: "null", score: "null", statuses: "missing missing missing", checks: []string{"E: the JSON that starts at 1:1 never closes (expected \",\" or \"]\" after element 3 of a list), though the answer ends with a closing bracket: a quote or bracket is probably missing, unless the answer was cut off there (line 1, col 125)"}},
		{name: "deepseek-r1: think with a draft, then a fence", answer: "<think>\nOkay, let me draft: {\"claims\": [{\"claim_id\": \"c1\", \"grounded\": false}]}. Wait, ID: 1 does say 20 mg. So c1 is grounded.\n</think>\n\n```json\n" +
			claimJSON("true", "false", "true") + "\n```", passed: "false", score: "0.6667", statuses: "grounded ungrounded grounded"},
		{name: "gemini: fence and a bold explanation", answer: "```json\n" + claimJSON("true", "true", "true") + "\n```\n\n**Explanation:**\n* **c1:** ID 1 states the dose.\n* **c3:** 12 weeks is three months.",
			passed: "true", score: "1", statuses: "grounded grounded grounded", checks: []string{"W: judge answer: ignored the text after the JSON, from 9:1"}},
		{name: "qwen: note with braces after the json", answer: claimJSON("true", "true", "true") + "\n\nNote: {c3} relies on 12 weeks = three months.",
			passed: "true", score: "1", statuses: "grounded grounded grounded", checks: []string{"W: judge answer: ignored the text after the JSON, from 7:1"}},
		{name: "markdown-escaped underscores outside a fence", answer: "Here is the JSON:\n\n{\"claims\": [{\"claim\\_id\": \"c1\", \"grounded\": true, \"ungrounded\\_assertions\": []}, {\"claim\\_id\": \"c2\", \"grounded\": false, \"ungrounded\\_assertions\": [{\"assertion\": \"no adverse reactions\", \"reason\": \"absent\"}]}, {\"claim\\_id\": \"c3\", \"grounded\": true, \"ungrounded\\_assertions\": []}]}",
			passed: "false", score: "0.6667", statuses: "grounded ungrounded grounded", checks: []string{`W: judge answer: read the Markdown escape \_ as _ at 3:20 (and 5 more)`}},
		{name: "ungrounded_assertions null and reasons as strings", answer: `{"claims": [{"claim_id": "c1", "grounded": true, "ungrounded_assertions": null}, {"claim_id": "c2", "grounded": false, "ungrounded_assertions": ["no adverse reactions: not in the evidence"]}, {"claim_id": "c3", "grounded": true, "ungrounded_assertions": null}]}`,
			passed: "false", score: "0.6667", statuses: "grounded ungrounded grounded"},
	}
	r := testRegistry(t)
	in := object(t, claimInputs)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := r.Parse(claimID, in, tt.answer)
			require.NoError(t, err)
			assertVerdict(t, v, tt.passed, tt.score, tt.checks)
			d := v.Verdict.(*claimDetail)
			var statuses []string
			for _, c := range d.Claims {
				statuses = append(statuses, c.Status)
			}
			assert.Equal(t, tt.statuses, strings.Join(statuses, " "))
			if tt.checks == nil {
				assert.Empty(t, v.Checks, "an answer with nothing to repair or doubt has no checks")
			}
			assert.Equal(t, 3, d.Counts.Total)
			assert.Equal(t, d.Counts.Total, d.Counts.Grounded+d.Counts.Ungrounded+d.Counts.Missing+d.Counts.Cut)
		})
	}
}

func TestClaimDetail(t *testing.T) {
	r := testRegistry(t)
	v, err := r.Parse(claimID, object(t, claimInputs), c2Ungrounded)
	require.NoError(t, err)
	b, err := json.Marshal(v.Verdict)
	require.NoError(t, err)
	assert.JSONEq(t, `{
	  "claims": [
	    {"id": "c1", "text": "Atorvastatin 20 mg daily was prescribed.", "status": "grounded", "grounded": true, "ungrounded_assertions": [], "evidence_ids": [], "line": 2, "col": 3},
	    {"id": "c2", "text": "The patient had no adverse reactions.", "status": "ungrounded", "grounded": false,
	     "ungrounded_assertions": [{"assertion": "the patient had no adverse reactions", "reason": "ID: 1 only says the drug was started; chunk 3 lists allergies, not reactions"}],
	     "evidence_ids": [1, 3], "line": 3, "col": 3},
	    {"id": "c3", "text": "Follow-up in three months.", "status": "grounded", "grounded": true, "ungrounded_assertions": [], "evidence_ids": [], "line": 5, "col": 3}
	  ],
	  "counts": {"grounded": 2, "ungrounded": 1, "missing": 0, "cut": 0, "total": 3}
	}`, string(b))
}

func TestClaimObjectInputs(t *testing.T) {
	r := testRegistry(t)
	in := object(t, `{"question": "Q", "claims": [{"id": "a", "text": "A"}, {"id": 2, "text": "B"}, {"text": "C"}], "evidence": ["E"]}`)
	v, err := r.Parse(claimID, in, `{"claims": [{"claim_id": "a", "grounded": true}, {"claim_id": 2, "grounded": true}, {"claim_id": "c3", "grounded": false}]}`)
	require.NoError(t, err)
	assertVerdict(t, v, "false", "0.6667", nil)
	assert.Empty(t, v.Checks)
	d := v.Verdict.(*claimDetail)
	assert.Equal(t, []string{"a", "2", "c3"}, []string{d.Claims[0].ID, d.Claims[1].ID, d.Claims[2].ID})
}

func TestEvidenceRefs(t *testing.T) {
	tests := []struct {
		in   string
		want []int
	}{
		{"ID: 2 and ID 3", []int{2, 3}},
		{"chunk #4, chunks 5", []int{4, 5}},
		{"see Evidence 1; source: 7", []int{1, 7}},
		{"valid id is 9", nil},
		{"ID:12ab", nil},
		{"paid 3", nil},
		{"claim_id 3", nil},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, evidenceRefs(tt.in), tt.in)
	}
}

func TestInputErrors(t *testing.T) {
	tests := []struct {
		id, inputs, name, msg string
	}{
		{claimID, `{"claims": ["a"], "evidence": []}`, "question", "is required: give a text"},
		{claimID, `{"question": 3, "claims": ["a"], "evidence": []}`, "question", "want a text, got a number"},
		{claimID, `{"question": "  ", "claims": ["a"], "evidence": []}`, "question", "is empty"},
		{claimID, `{"question": "q", "evidence": []}`, "claims", "is required: give a list"},
		{claimID, `{"question": "q", "claims": "a", "evidence": []}`, "claims", "want a list, got a string"},
		{claimID, `{"question": "q", "claims": ["a", 5], "evidence": []}`, "claims", "item 2: want a text or an {id, text} object, got a number"},
		{claimID, `{"question": "q", "claims": [{"id": "x"}], "evidence": []}`, "claims", `item 1: want a "text" that is a text, got none`},
		{claimID, `{"question": "q", "claims": [{"id": true, "text": "a"}], "evidence": []}`, "claims", "item 1: the id must be a text or a whole number, got a boolean"},
		{claimID, `{"question": "q", "claims": [{"id": "c2", "text": "a"}, "b"], "evidence": []}`, "claims", `items 1 and 2 have the same id "c2"`},
		{claimID, `{"question": "q", "claims": ["a"]}`, "evidence", "is required: give a list"},
		{claimID, `{"question": "q", "claims": ["a"], "evidence": [null]}`, "evidence", "item 1: want a text or a {title, text} object, got null"},
		{claimID, `{"question": "q", "claims": ["a"], "evidence": [{"title": 1, "text": "t"}]}`, "evidence", "item 1: the title must be a text, got a number"},
		{claimID, `{"question": "q", "claims": ["a"], "evidence": [{"title": "t"}]}`, "evidence", `item 1: want a "text" that is a text, got none`},
		{groundingID, `{"facts": ["f"]}`, "answer", "is required"},
		{groundingID, `{"answer": "a"}`, "facts", "is required: give a text or a list of texts"},
		{groundingID, `{"answer": "a", "facts": 4}`, "facts", "want a text or a list of texts, got a number"},
		{groundingID, `{"answer": "a", "facts": ["f", ["g"]]}`, "facts", "item 2: want a text, got a list"},
		{groundingID, `{"answer": "a", "facts": ""}`, "facts", "is empty"},
		{groundingID, `{"answer": "a", "facts": "f", "mode": 1}`, "mode", "want a text (strict or lenient), got a number"},
		{pairwiseID, `{"expected_output": "e", "actual_output": "a"}`, "contexts", "is required: give a list"},
		{pairwiseID, `{"contexts": "c", "expected_output": "e", "actual_output": "a"}`, "contexts", "want a list, got a string"},
		{pairwiseID, `{"contexts": ["c", {"text": "d"}], "expected_output": "e", "actual_output": "a"}`, "contexts", "item 2: want a text, got an object"},
		{pairwiseID, `{"contexts": [], "actual_output": "a"}`, "expected_output", "is required"},
		{pairwiseID, `{"contexts": [], "expected_output": "e", "actual_output": null}`, "actual_output", "is required"},
	}
	r := testRegistry(t)
	for _, tt := range tests {
		in := object(t, tt.inputs)
		for _, call := range []func() error{
			func() error { _, err := r.Render(tt.id, in); return err },
			func() error { _, err := r.Parse(tt.id, in, "yes"); return err },
		} {
			err := call()
			var de *diag.Error
			require.True(t, errors.As(err, &de), "%s %s: %v", tt.id, tt.inputs, err)
			assert.Equal(t, "input", de.Kind, tt.inputs)
			assert.Equal(t, tt.name, de.Name, tt.inputs)
			assert.Contains(t, de.Msg, tt.msg, tt.inputs)
			assert.NotEmpty(t, de.Code, "every input error has a code: %s", tt.inputs)
		}
	}
}

// benchSizes are the evidence sizes the render+parse benchmarks run at besides typical inputs;
// with b.SetBytes the MB/s column stays flat when the cost grows linearly.
var benchSizes = []struct {
	name  string
	bytes int
}{{"256KB", 256 << 10}, {"1MB", 1 << 20}, {"4MB", 4 << 20}}

// benchChunks returns texts of about 1 KB each adding up to n bytes.
func benchChunks(n int) []any {
	base := "Plan: start atorvastatin 20 mg PO daily; recheck the lipid panel in 12 weeks. "
	chunk := strings.Repeat(base, 1024/len(base)+1)[:1000]
	var out []any
	for total := 0; total < n; total += len(chunk) {
		out = append(out, fmt.Sprintf("%d %s", len(out), chunk))
	}
	return out
}

// benchRenderParse renders and parses inputs with evaluator id, b.N times.
func benchRenderParse(b *testing.B, id string, in *value.Object, answer string, bytes int) {
	r := testRegistry(b)
	b.SetBytes(int64(bytes))
	b.ReportAllocs()
	for b.Loop() {
		rendered, err := r.Render(id, in)
		if err != nil {
			b.Fatal(err)
		}
		if len(rendered.Prompt) < bytes {
			b.Fatal("short prompt")
		}
		v, err := r.Parse(id, in, answer)
		if err != nil || v.Passed == nil {
			b.Fatal(err, v.Checks)
		}
	}
}

func BenchmarkRenderParseClaimGroundedness(b *testing.B) {
	b.Run("typical", func(b *testing.B) {
		benchRenderParse(b, claimID, object(b, claimInputs), c2Ungrounded, len(claimInputs))
	})
	for _, size := range benchSizes {
		b.Run(size.name, func(b *testing.B) {
			evidence := benchChunks(size.bytes)
			claims := make([]any, 20)
			var answer strings.Builder
			answer.WriteString("```json\n{\"claims\": [\n")
			for i := range claims {
				claims[i] = fmt.Sprintf("Claim number %d says the dose was 20 mg.", i+1)
				if i > 0 {
					answer.WriteString(",\n")
				}
				fmt.Fprintf(&answer, `  {"claim_id": "c%d", "grounded": false, "ungrounded_assertions": [{"assertion": "20 mg", "reason": "ID: %d says 20 mg PO"}]}`, i+1, i+1)
			}
			answer.WriteString("\n]}\n```")
			in := value.NewObject("question", "What was prescribed?", "claims", claims, "evidence", evidence)
			benchRenderParse(b, claimID, in, answer.String(), size.bytes)
		})
	}
}

// TestPrepayChecks: what can be known before paying for a call is known at render. Inputs that
// cannot be judged are an input error with a code and the input's name; parse reads an answer
// to them anyway (someone may have paid for it) but never gives a verdict on them.
func TestPrepayChecks(t *testing.T) {
	r := testRegistry(t)
	tests := []struct {
		id, inputs, answer string
		code               diag.Code
		input              string
	}{
		{claimID, `{"question": "q", "claims": ["a"], "evidence": []}`,
			`{"claims": [{"claim_id": "c1", "grounded": true, "ungrounded_assertions": []}]}`, diag.InputEmptyList, "evidence"},
		{claimID, `{"question": "q", "claims": [], "evidence": ["e"]}`, `{"claims": []}`, diag.InputEmptyList, "claims"},
		{groundingID, `{"answer": "a", "facts": []}`, "yes", diag.InputEmptyList, "facts"},
		{pairwiseID, `{"contexts": [], "expected_output": "e.", "actual_output": "No document seems to answer it."}`,
			`{"answer_1": {"faithfulness": true}, "answer_2": {"faithfulness": true}}`, diag.InputEmptyList, "contexts"},
		{ragRecallID, `{"passage_gt": "Paris is the capital of France.", "passage_llm": "Paris.", "threshold": 3}`,
			"[ESSENTIAL PASSAGE] 1: Score: 5\nRECALL_Final_Score: 5", diag.InputNoMarkers, "passage_gt"},
	}
	for _, tt := range tests {
		t.Run(tt.id+" "+tt.input, func(t *testing.T) {
			in := object(t, tt.inputs)
			_, err := r.Render(tt.id, in)
			var de *diag.Error
			require.ErrorAs(t, err, &de)
			assert.Equal(t, "input", de.Kind)
			assert.Equal(t, tt.code, de.Code)
			assert.Equal(t, tt.input, de.Name)
			assert.True(t, strings.HasPrefix(de.Error(), "input: "+tt.input+": "), de.Error())

			v, err := r.Parse(tt.id, in, tt.answer)
			require.NoError(t, err, "parse reads an answer to inputs render refused")
			assert.Nil(t, v.Passed, "never a verdict on inputs that cannot be judged")
			assert.Nil(t, v.Score)
			require.NotEmpty(t, v.Checks)
			assert.Equal(t, diag.Check{Severity: diag.SevError, Code: tt.code, Message: tt.input + " " + de.Msg, Input: tt.input}, v.Checks[0])
		})
	}
}

// TestRenderCitationCheck: a pairwise actual output citing a reference that does not exist is
// a warning at render, pointing at the citation in actual_output; parse says the same.
func TestRenderCitationCheck(t *testing.T) {
	r := testRegistry(t)
	in := object(t, `{"contexts": ["The reef is off Queensland.", "Bleaching follows heat."],
		"expected_output": "It is off Queensland [1].",
		"actual_output": "It lies off Queensland [1].\nBleaching comes from overfishing [3]."}`)
	rendered, err := r.Render(pairwiseID, in)
	require.NoError(t, err)
	want := diag.Check{Severity: diag.SevWarning, Code: diag.CitationOutOfRange,
		Message: `citation check: sentence 2 of the actual output cites [3], but the references are [1] to [2]: "Bleaching comes from overfishing [3]."`,
		Input:   "actual_output", Line: 2, Col: 34, Len: 3}
	assert.Equal(t, []diag.Check{want}, rendered.Checks)
	assert.Equal(t, []string{want.Message}, rendered.Warnings, "warnings stay, as the checks' messages")
	v, err := r.Parse(pairwiseID, in, pairJSON("true", "true", "false", "false"))
	require.NoError(t, err)
	assert.Equal(t, want, v.Checks[0])
}

// TestClaimCheckPositions: a check about one of the judge's entries points at that entry.
func TestClaimCheckPositions(t *testing.T) {
	r := testRegistry(t)
	answer := "```json\n{\"claims\": [\n  {\"claim_id\": \"c1\", \"grounded\": \"yes\"},\n  {\"claim_id\": \"c9\", \"grounded\": true},\n  \"c3 is fine\",\n  {\"claim_id\": \"C2\", \"grounded\": true, \"ungrounded_assertions\": [\"the dose\"]}\n]}\n```"
	v, err := r.Parse(claimID, object(t, claimInputs), answer)
	require.NoError(t, err)
	got := map[diag.Code]string{}
	for _, c := range v.Checks {
		if c.Line > 0 {
			got[c.Code] = fmt.Sprintf("%d:%d+%d %s", c.Line, c.Col, c.Len, spanText(answer, c)[:min(c.Len, 16)])
		}
	}
	assert.Equal(t, map[diag.Code]string{
		diag.AnswerCoerced:       `3:3+37 {"claim_id": "c1`,
		diag.ClaimsUnknownID:     `4:3+36 {"claim_id": "c9`,
		diag.ClaimsBadEntry:      `2:1+190 {"claims": [` + "\n" + `  {`,
		diag.ClaimsIDRewritten:   `6:3+75 {"claim_id": "C2`,
		diag.ClaimsContradiction: `6:3+75 {"claim_id": "C2`,
	}, got)
}

// TestDeepAnswers: a judge answer nested past output.MaxDepth is answer.unreadable with where,
// for every JSON evaluator, natively and under wasm; one nested exactly that deep is read.
func TestDeepAnswers(t *testing.T) {
	r := testRegistry(t)
	for id, in := range map[string]*value.Object{claimID: object(t, claimInputs), pairwiseID: object(t, pairwiseInputs)} {
		key := map[string]string{claimID: "claims", pairwiseID: "answer_2"}[id]
		atCap := `{"` + key + `": ` + strings.Repeat("[", output.MaxDepth-1) + strings.Repeat("]", output.MaxDepth-1) + "}"
		v, err := r.Parse(id, in, atCap)
		require.NoError(t, err)
		for _, c := range v.Checks {
			assert.NotEqual(t, diag.AnswerUnreadable, c.Code, "%s at the cap: %v", id, c)
		}
		for _, answer := range []string{
			`{"` + key + `": ` + strings.Repeat("[", output.MaxDepth) + strings.Repeat("]", output.MaxDepth) + "}",
			strings.Repeat("[", 5000) + `{"` + key + `": ` + strings.Repeat("[", 100000),
		} {
			v, err := r.Parse(id, in, answer)
			require.NoError(t, err)
			assert.Nil(t, v.Passed)
			var c diag.Check
			for _, c = range v.Checks {
				if c.Severity == diag.SevError {
					break
				}
			}
			assert.Equal(t, diag.AnswerUnreadable, c.Code, "%s: %v", id, v.Checks)
			assert.Positive(t, c.Line)
			assert.Positive(t, c.Col)
		}
	}
}

// upTo is answer up to and including the first occurrence of mark.
func upTo(t *testing.T, answer, mark string) string {
	t.Helper()
	i := strings.Index(answer, mark)
	require.GreaterOrEqual(t, i, 0, mark)
	return answer[:i+len(mark)]
}

// TestClaimCut reads answers cut short at several points (max_tokens, or a stream stopped): the
// claims whose entries closed before the cut keep their grades, the rest are cut (not skipped,
// not missing), and the verdict is undetermined with answer.truncated first.
func TestClaimCut(t *testing.T) {
	tests := []struct {
		name, answer string
		statuses     string
		codes        []diag.Code // the checks' codes, in order
		lines        [3]int      // where each claim's entry starts (0: none)
	}{
		{"inside c2's object", upTo(t, c2Ungrounded, `"grounded": false,`),
			"grounded cut cut", []diag.Code{diag.AnswerTruncated}, [3]int{2, 3, 0}},
		{"between objects", upTo(t, c2Ungrounded, "not reactions\"}]},\n  "),
			"grounded ungrounded cut", []diag.Code{diag.AnswerTruncated}, [3]int{2, 3, 0}},
		{"inside a string", upTo(t, c2Ungrounded, `"reason": "ID: 1 only`),
			"grounded cut cut", []diag.Code{diag.AnswerTruncated}, [3]int{2, 3, 0}},
		{"inside ungrounded_assertions", upTo(t, c2Ungrounded, "\"ungrounded_assertions\": [\n    "),
			"grounded cut cut", []diag.Code{diag.AnswerTruncated}, [3]int{2, 3, 0}},
		{"inside c3's id", upTo(t, c2Ungrounded, `{"claim_id": "c3`),
			"grounded ungrounded cut", []diag.Code{diag.AnswerTruncated}, [3]int{2, 3, 0}},
		{"before any claim", "```json\n{\"claims\": [\n", "cut cut cut", []diag.Code{diag.AnswerTruncated}, [3]int{}},
		{"inside the reasoning", "<think>c1 is fine, c2", "cut cut cut", []diag.Code{diag.AnswerTruncated}, [3]int{}},
		{"keyed by claim id", `{"claims": {"c1": true, "c2": {"grounded": false, "ungrounded_assertions": ["no reactions: chunk 3"]}, "c3": tr`,
			"grounded ungrounded cut", []diag.Code{diag.AnswerTruncated, diag.ClaimsKeyedObject}, [3]int{0, 1, 0}},
		{"an entry with no grade, then the cut", `{"claims": [{"claim_id": "c1"}, {"claim_id": "c2", "grounded": true`,
			"missing cut cut", []diag.Code{diag.AnswerTruncated, diag.ClaimsNoGrade}, [3]int{1, 1, 0}},
		{"repaired before the cut", `{"claims": [{'claim_id': 'c1', 'grounded': True}, {"claim_id": "c2"`,
			"grounded cut cut", []diag.Code{diag.AnswerTruncated, diag.AnswerRepaired, diag.AnswerRepaired}, [3]int{1, 0, 0}},
	}
	r := testRegistry(t)
	in := object(t, claimInputs)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := r.Parse(claimID, in, tt.answer)
			require.NoError(t, err)
			assertVerdict(t, v, "null", "null", nil)
			var codes []diag.Code
			for _, c := range v.Checks {
				codes = append(codes, c.Code)
			}
			assert.Equal(t, tt.codes, codes, "answer.truncated first, and no claim blamed on the judge for what the cut lost")
			d := v.Verdict.(*claimDetail)
			var statuses []string
			var lines [3]int
			cut := 0
			for i, c := range d.Claims {
				statuses = append(statuses, c.Status)
				lines[i] = c.Line
				if c.Status == statusCut {
					cut++
					assert.Nil(t, c.Grounded)
					assert.Empty(t, c.UngroundedAssertions, "a cut claim has no grade, nor part of one")
				}
			}
			assert.Equal(t, tt.statuses, strings.Join(statuses, " "))
			assert.Equal(t, tt.lines, lines)
			assert.Equal(t, cut, d.Counts.Cut)
			assert.Equal(t, d.Counts.Total, d.Counts.Grounded+d.Counts.Ungrounded+d.Counts.Missing+d.Counts.Cut)
		})
	}

	// What arrived is shown whole: c2's grade, with its assertion and the evidence it cites.
	v, err := r.Parse(claimID, in, upTo(t, c2Ungrounded, "not reactions\"}]},\n  "))
	require.NoError(t, err)
	b, err := json.Marshal(v.Verdict)
	require.NoError(t, err)
	assert.JSONEq(t, `{
	  "claims": [
	    {"id": "c1", "text": "Atorvastatin 20 mg daily was prescribed.", "status": "grounded", "grounded": true, "ungrounded_assertions": [], "evidence_ids": [], "line": 2, "col": 3},
	    {"id": "c2", "text": "The patient had no adverse reactions.", "status": "ungrounded", "grounded": false,
	     "ungrounded_assertions": [{"assertion": "the patient had no adverse reactions", "reason": "ID: 1 only says the drug was started; chunk 3 lists allergies, not reactions"}],
	     "evidence_ids": [1, 3], "line": 3, "col": 3},
	    {"id": "c3", "text": "Follow-up in three months.", "status": "cut", "grounded": null, "ungrounded_assertions": [], "evidence_ids": []}
	  ],
	  "counts": {"grounded": 1, "ungrounded": 1, "missing": 0, "cut": 1, "total": 3}
	}`, string(b))
	assert.Equal(t, "the answer ends inside the JSON that starts at 1:1: it looks truncated (max_tokens too small?) (line 5, col 3)", v.Checks[0].Message)
}

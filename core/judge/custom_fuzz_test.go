package judge

import (
	"math"
	"strings"
	"testing"

	"ragjudge/core/diag"
	"ragjudge/core/value"
)

// FuzzDefineSpec decodes any text as a definition and defines it: never a panic; an error is
// the evaluator kind with a code; a definition accepted renders and reads an answer (or says why
// not) like a built-in.
func FuzzDefineSpec(f *testing.F) {
	f.Add(spec("tone", `"{{ answer }} {{ question }}"`, `{"kind": "yes-no", "pass": "yes"}`))
	f.Add(spec("s", `"{{ answer }}"`, `{"kind": "score", "label": "Score", "min": 1, "max": 5, "pass_at": 4}`))
	f.Add(spec("l", `"{{ answer }}"`, `{"kind": "label", "labels": {"good": true, "bad": false, "meh": null}}`))
	f.Add(spec("j", `"{{ answer }}"`, `{"kind": "json", "pass": {"path": "$.a[*].ok", "combine": "any"}, "pass_values": [true], "score": "$.s", "reason": "$.r"}`))
	f.Add(spec("b", `"{{ reports }}"`, `{"kind": "builtin", "evaluator": "claim-groundedness"}`))
	f.Add(`{"id": "c", "dialect": "jinja", "prompt": "{% for c in claims %}{{ c }}{% endfor %}{{ reports }}", "inputs": [{"name": "question", "kind": "text", "required": true}, {"name": "claims", "kind": "list", "required": true}, {"name": "evidence", "kind": "list", "required": true}], "output": {"kind": "builtin", "evaluator": "claim-groundedness"}}`)
	f.Add(`{"id": "m", "dialect": "format", "messages": [{"role": "user", "content": "{answer}"}], "inputs": [{"name": "answer", "kind": "list"}], "output": {"kind": "yes-no"}}`)
	f.Add(`{"id": 3}`)
	f.Add(`[]`)
	r := testRegistry(f)
	f.Fuzz(func(t *testing.T, text string) {
		v, err := value.Decode([]byte(text))
		if err != nil {
			return
		}
		// Half the time some inputs are said to be unread (the JS API's check finds them).
		var unread []string
		if len(text)%2 == 1 {
			unread = []string{"question", "claims"}
		}
		e, err := r.Define(v, unread...)
		if err != nil {
			de, ok := err.(*diag.Error)
			if !ok || de.Kind != "evaluator" || de.Code == "" {
				t.Fatalf("Define: want an evaluator error with a code, got %#v", err)
			}
			return
		}
		if got, err := r.Get(e.ID); err != nil || got != e {
			t.Fatalf("defined %q is not listed", e.ID)
		}
		in := value.NewObject("answer", "A", "question", "Q", "claims", []any{"c"}, "evidence", []any{"e"})
		if _, err := r.Render(e.ID, in); err != nil {
			if _, ok := err.(*diag.Error); !ok {
				t.Fatalf("Render: not a diag.Error: %v", err)
			}
		}
		if verdict, err := r.Parse(e.ID, in, `Verdict: yes. Score: 4 {"s": 1, "a": [{"ok": true}]}`); err == nil {
			checkVerdict(t, verdict)
		}
		r.Undefine(e.ID)
	})
}

// checkVerdict holds a verdict to the rules every reader keeps: an error check leaves it
// undetermined, and a score is never NaN or infinite.
func checkVerdict(t *testing.T, v *Verdict) {
	t.Helper()
	for _, c := range v.Checks {
		if c.Severity == diag.SevError && (v.Passed != nil || v.Score != nil) {
			t.Fatalf("an error check with a verdict: %+v", v)
		}
	}
	if v.Score != nil && (math.IsNaN(*v.Score) || math.IsInf(*v.Score, 0)) {
		t.Fatalf("score %v", *v.Score)
	}
}

// FuzzCustomReaders reads any answer with each kind of custom reader.
func FuzzCustomReaders(f *testing.F) {
	for _, s := range []string{"Score: 4", "**Score:** 4/5\nScore = 9", "Verdict: partially correct", "<think>x</think>\nyes",
		"```json\n{\"v\": \"pass\", \"s\": [1, 0.5], \"r\": \"x\"}\n```", "{\"v\": true, \"s\": [\"1\"", "Score: 99999999999999999999999999999999999999",
		// Shapes other tools' judges write: Phoenix's LABEL line, an echoed format, a range, an aside, texts for values.
		"EXPLANATION: x\nLABEL: \"correct\"", "Answer: Yes/No", "LABEL: correct|incorrect", "Score: 1-5", "Score (1-5): 4", "Score (1-5 4", "Answer=C",
		"{\"v\": \"TRUE\", \"s\": [\"0.5\", true]}", "{\"v\": \"unsure\", \"s\": []}",
		// Score tags, aspects, numbers in brackets and on the next line, commas; keys twice.
		"<S0>x</S0><S2>4</S2>", "<score>3</score>", "Overall Score: 4\nClarity Score: 2", "Score: [4]", "**Score:**\n4", "Score: 4,5",
		"Judgement: \\boxed{Yes}", "{\"v\": true, \"s\": [1], \"v\": false}", "{\"v\": true, \"V\": false, \"s\": [1e308, 1e308]}"} {
		f.Add(s)
	}
	r := testRegistry(f)
	ids := []string{"yn", "sc", "lb", "js"}
	outputs := []string{`{"kind": "yes-no", "pass": "no"}`, `{"kind": "score", "label": "Score", "min": 1, "max": 5, "pass_at": 3}`,
		`{"kind": "label", "labels": {"correct": true, "partially correct": null, "incorrect": false}}`,
		`{"kind": "json", "pass": "$.v", "pass_values": ["pass", true], "fail_values": ["fail", false], "score": {"path": "$.s[*]", "combine": "mean"}, "reason": "$.r", "min": 0, "max": 1}`}
	for k, id := range ids {
		v, _ := value.Decode([]byte(spec(id, `"{{ answer }}{{ question }}"`, outputs[k])))
		if _, err := r.Define(v); err != nil {
			f.Fatal(err)
		}
	}
	f.Fuzz(func(t *testing.T, answer string) {
		for _, id := range ids {
			v, err := r.Parse(id, inputsQA, answer)
			if err != nil {
				t.Fatal(err)
			}
			checkVerdict(t, v)
		}
	})
}

// FuzzPickPath follows any path in any JSON object: never a panic; every value picked carries
// the concrete path that picks it alone.
func FuzzPickPath(f *testing.F) {
	f.Add(`{"a": {"b": [1, {"c": true}]}}`, "$.a.b[1].c")
	f.Add(`{"items": [{"ok": 1}, {"ok": 2}]}`, "$.items[*].ok")
	f.Add(`{"x": []}`, "$.x[*]")
	f.Add(`{"x": 1}`, "$[0]")
	f.Add(`{"x": 1}`, "$.x[")
	f.Add(`{"Claim ID": 1}`, "$.claim_id")
	f.Fuzz(func(t *testing.T, doc, path string) {
		v, err := value.Decode([]byte(doc))
		o, ok := v.(*value.Object)
		if err != nil || !ok {
			return
		}
		vals, missing := pickPath(o, path)
		if missing != "" && vals != nil {
			t.Fatalf("values and a missing step %q", missing)
		}
		for _, p := range vals {
			if !strings.HasPrefix(p.path, "$") || strings.Contains(p.path, "[*]") {
				t.Fatalf("picked path %q is not concrete", p.path)
			}
			again, m := pickPath(o, p.path)
			if m != "" || len(again) != 1 || !jsonEqual(again[0].v, p.v) {
				t.Fatalf("%q picks %v again, not %v (missing %q)", p.path, again, p.v, m)
			}
		}
	})
}

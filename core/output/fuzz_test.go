package output

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"ragjudge/core/diag"
	"ragjudge/core/value"
)

// fuzzSeeds are answers of the kinds judges write; the committed corpus under testdata/fuzz holds
// more.
var fuzzSeeds = []string{
	`{"claims": [{"claim_id": "c1", "grounded": true, "ungrounded_assertions": []}]}`,
	"```json\n{\"claims\": [{\"claim_id\": \"c1\", \"grounded\": false,}]}\n```",
	"<think>format {\"claims\": []}</think>\nHere: {'claims': [{'claim_id': 'c1', 'grounded': True}]}",
	`{"answer_1": {"faithfulness": null}, "answer_2": {"faithfulness": 1, "faithfulness_justification": "it says "yes" only"}}`,
	`{“claims”: [{claim_id: “c1”, /* ok */ "reason": "line` + "\n" + `two \'x\' \d"}]}`,
	`{"result": {"claims": [{"claim_id": "c2", "grounded": "no"}]}}`,
	`{"claims": [{"claim_id": "c1", "grounded": tr`,
	`[1, 2.5e3, -0, "\ud83d\ude00", null, {"a": [{}]}]`,
	"{\"claims\": [\n  {\"claim_id\": \"c1\", \"grounded\": true, \"ungrounded_assertions\": []},\n  {\"claim_id\": \"c2\", \"grounded\": false, \"ungrounded_assertions\": [{\"assertion\": \"x\", \"reason\": \"ID: 1",
	`{"answer_1": {"faithfulness": true, "content_analysis_sentence_by_sentence": [{"sentence": "a [1]."}]}, "answer_2": {"faithful`,
}

func FuzzFindJSON(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, answer string) {
		p, err := FindJSON("fuzz", answer, "claims", "answer_2")
		if err != nil {
			var de *diag.Error
			if !errors.As(err, &de) || de.Kind != "output" || de.Msg == "" || de.Code == "" {
				t.Fatalf("error %v is not an output *diag.Error with a code", err)
			}
			if p != nil {
				checkCut(t, answer, p, de)
			}
			return
		}
		if p.Cut {
			t.Fatalf("a payload read whole is marked cut")
		}
		for _, r := range p.Repairs {
			if r.Offset < 0 || r.Len < 0 || r.Offset+r.Len > len(answer) || r.Msg == "" || r.Code == "" {
				t.Fatalf("repair %+v outside the %d bytes of the answer", r, len(answer))
			}
		}
		if o, ok := p.Object, true; ok {
			if start, end, has := p.Span(o); has && (answer[start] != '{' || answer[end-1] != '}') {
				t.Fatalf("the payload object's span %d..%d is not an object", start, end)
			}
		}
		if p.Object == nil || p.Start < 0 || p.End > len(answer) || p.Start >= p.End || answer[p.Start] != '{' || answer[p.End-1] != '}' {
			t.Fatalf("bad payload span %d..%d of %d", p.Start, p.End, len(answer))
		}
		if !hasAnyKey(p.Object, "claims", "answer_2") {
			t.Fatalf("payload %s has neither key", Show(p.Object))
		}
		if _, err := json.Marshal(p.Object); err != nil {
			t.Fatalf("payload does not marshal: %v", err)
		}
	})
}

// checkCut checks the payload that comes with an error: only a cut answer has one, it runs from
// a '{' to the end of the answer, and every object in it that closed before the cut reads, on
// its own, exactly as it was read in the payload.
func checkCut(t *testing.T, answer string, p *Payload, de *diag.Error) {
	if de.Code != diag.AnswerTruncated || !p.Cut {
		t.Fatalf("a payload comes with %s (cut %t)", de.Code, p.Cut)
	}
	if p.Object == nil || p.Start < 0 || p.End != len(answer) || answer[p.Start] != '{' {
		t.Fatalf("bad cut payload span %d..%d of %d", p.Start, p.End, len(answer))
	}
	if !hasAnyKey(p.Object, "claims", "answer_2") {
		t.Fatalf("payload %s has neither key", Show(p.Object))
	}
	for _, r := range p.Repairs {
		if r.Offset < 0 || r.Len < 0 || r.Offset+r.Len > len(answer) || r.Msg == "" || r.Code == "" {
			t.Fatalf("repair %+v outside the %d bytes of the answer", r, len(answer))
		}
	}
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case []any:
			for _, e := range x {
				walk(e)
			}
		case *value.Object:
			start, end, ok := p.Span(x)
			if !ok || start < p.Start || end > len(answer) || start >= end || answer[start] != '{' {
				t.Fatalf("object %s has no span in the answer (%d..%d, %t)", Show(x), start, end, ok)
			}
			if p.Closed(x) {
				whole, _, err := Lenient("fuzz", answer[start:end])
				if err != nil {
					t.Fatalf("object %q closed before the cut but does not read on its own: %v", answer[start:end], err)
				}
				if a, b := mustJSON(t, whole), mustJSON(t, x); a != b {
					t.Fatalf("object %q read as %s in the cut payload, %s on its own", answer[start:end], b, a)
				}
			} else if end != len(answer) {
				t.Fatalf("object %s is open but ends at %d of %d", Show(x), end, len(answer))
			}
			for _, k := range x.Keys() {
				e, _ := x.Get(k)
				walk(e)
			}
		}
	}
	walk(p.Object)
	if _, err := json.Marshal(p.Object); err != nil {
		t.Fatalf("payload does not marshal: %v", err)
	}
}

func mustJSON(t *testing.T, v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("does not marshal: %v", err)
	}
	return string(b)
}

// hasAnyKey reports whether o has one of keys as FindJSON compares them.
func hasAnyKey(o *value.Object, keys ...string) bool {
	for _, k := range keys {
		for _, have := range o.Keys() {
			if looseKey(have) == looseKey(k) {
				return true
			}
		}
	}
	return false
}

// FuzzLenient checks that the lenient parser never panics, never yields a NaN or infinity, and
// reads every valid JSON text exactly as encoding/json does, without a repair.
func FuzzLenient(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		v, notes, err := Lenient("fuzz", src)
		for _, n := range notes {
			if n.Offset < 0 || n.Len < 0 || n.Offset+n.Len > len(src) || n.Count < 1 || n.Code != diag.AnswerRepaired {
				t.Fatalf("repair %+v outside the %d bytes of %q", n, len(src), src)
			}
		}
		if err == nil {
			if _, merr := json.Marshal(v); merr != nil {
				t.Fatalf("value does not marshal (NaN or infinity?): %v", merr)
			}
		}
		if !json.Valid([]byte(src)) {
			return
		}
		if err != nil {
			if strings.Contains(err.Error(), "nested deeper") || strings.Contains(err.Error(), "too large") {
				return
			}
			t.Fatalf("valid JSON %q not read: %v", src, err)
		}
		want, derr := value.Decode([]byte(src))
		if derr != nil {
			return
		}
		wb, _ := json.Marshal(want)
		gb, _ := json.Marshal(v)
		if string(wb) != string(gb) {
			t.Fatalf("valid JSON %q read as %s, encoding/json reads %s", src, gb, wb)
		}
		for _, n := range notes {
			if !strings.Contains(n.Msg, "appears twice") {
				t.Fatalf("valid JSON %q got repair %q", src, n.Msg)
			}
		}
	})
}

// FuzzFindReasoning checks that FindReasoning's offsets always lie in the answer, that an
// unclosed block leaves no answer, that what it drops ends at a closing tag and that no block
// is left at the start of the rest.
func FuzzFindReasoning(f *testing.F) {
	for _, s := range []string{
		"<think>\n\n</think>\n\nyes", "a</think>\n<think>b</think>{}", "<THINKING>x", "yes <think>", "</thought>",
		"<think>a</think> <think>b", "<<think>/think>", "\u00e9</think>",
		// gpt-oss's Harmony channels, whole and with the special tokens dropped.
		"<|channel|>analysis<|message|>x<|end|><|start|>assistant<|channel|>final<|message|>yes", "<|channel|>analysis<|message|>x",
		"<|start|>assistant<|channel|>final json<|message|>{}", "analysisWe check.assistantfinalNo", "analysisX", "<|channel|>analysis<|message|>a<|end|> ",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, answer string) {
		end, open := FindReasoning(answer)
		if end < 0 || end > len(answer) {
			t.Fatalf("end %d outside 0..%d", end, len(answer))
		}
		_, _, harmony := findHarmony(answer)
		if open >= 0 {
			if end != len(answer) || open >= len(answer) || answer[open] != '<' && !(harmony && strings.HasPrefix(answer[open:], "analysis")) {
				t.Fatalf("unclosed block at %d, end %d of %d", open, end, len(answer))
			}
			return
		}
		if open != -1 {
			t.Fatalf("open %d", open)
		}
		if harmony {
			// The final channel's message starts after <|message|>, or after "assistantfinal"
			// with the special tokens dropped; an analysis that ended with no final leaves nothing.
			if end < len(answer) && answer[end-1] != '>' && !strings.HasSuffix(answer[:end], harmonyFinal) {
				t.Fatalf("harmony answer starts at %d, after %q", end, answer[max(0, end-20):end])
			}
			return
		}
		if end > 0 && answer[end-1] != '>' {
			t.Fatalf("reasoning ends at %d, not after a closing tag: %q", end, answer[:end])
		}
		rest := strings.TrimLeft(answer[end:], " \t\r\n")
		if at, _, closing := findReasoningTag(rest, 0); at == 0 && !closing {
			t.Fatalf("the rest %q still starts with a reasoning block", rest)
		}
	})
}

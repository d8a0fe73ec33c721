// Package output reads what a judge model answered: it drops the model's reasoning, finds the
// JSON payload among the prose, fences and quoted examples around it, reads that payload with a
// lenient JSON parser that repairs what models commonly get wrong, and normalises field values
// against an evaluator's schema.
//
// The rule throughout (docs/ARCHITECTURE.md, "Reading a judge's answer"): repair only what is
// unambiguous, report every repair and every piece of ignored text so the caller can show it as a
// warning, and never turn what cannot be read into a value. Positions in errors and notes are
// line:col in the ORIGINAL answer, columns counted in code points, so a page can point at them.
package output

import (
	"sort"
	"strconv"
	"strings"
	"unicode"

	"ragjudge/core/diag"
	"ragjudge/core/value"
)

// MaxAnswer is the longest answer, in bytes, that FindJSON reads. Judges answer in kilobytes;
// anything this large is not a judge's answer, and refusing it keeps the work bounded.
const MaxAnswer = 16 << 20

// Payload is the JSON object found in a judge's answer.
type Payload struct {
	// Object is the object whose top level holds one of the requested keys: the payload itself,
	// or the object one level down when the judge wrapped it ({"result": {"claims": …}}).
	Object *value.Object
	// Repairs lists every repair made and every piece of text ignored, each with where it is.
	// Empty when the answer was exactly strict JSON.
	Repairs []Repair
	// Start and End are the byte offsets of the outermost object read, in the original answer.
	Start, End int
	// Cut says the answer ends inside the payload (FindJSON's answer.truncated): the payload
	// holds only what arrived before the cut, and Closed tells its objects that arrived whole.
	Cut bool

	spans     map[*value.Object][2]int
	members   []memberAt
	conflicts []conflictAt
	cut       map[*value.Object]bool
}

// Conflict reports whether the judge wrote o's member key (matched as Field matches it) more
// than once with values that differ: the same key twice ({"pass": true, …, "pass": false}), or
// two keys Field takes for one ("pass" and "Pass"). The lenient reading keeps the last, as
// Python's json does, but a verdict read from either would be a guess. first and last are the
// byte offsets in the answer of two of the values.
func (p *Payload) Conflict(o *value.Object, key string) (first, last int, ok bool) {
	want := looseKey(key)
	for _, c := range p.conflicts {
		if c.obj == o && looseKey(c.key) == want {
			return c.first, c.last, true
		}
	}
	var seen string
	var seenV any
	for _, k := range o.Keys() {
		if looseKey(k) != want {
			continue
		}
		v, _ := o.Get(k)
		if seen == "" {
			seen, seenV = k, v
			continue
		}
		if !sameValue(seenV, v) {
			a, _ := p.ValueAt(o, seen)
			b, _ := p.ValueAt(o, k)
			return a, b, true
		}
	}
	return 0, 0, false
}

// Span returns the byte offsets in the original answer where o, an object of the payload,
// starts and ends (for an object cut short, the end of the answer); ok is false for an object
// that was not read from the answer.
func (p *Payload) Span(o *value.Object) (start, end int, ok bool) {
	s, ok := p.spans[o]
	return s[0], s[1], ok
}

// ValueAt returns the byte offset in the original answer where the value of o's member key (the
// key as o holds it: see FieldKey) starts; ok is false for a member that was not read whole from
// the answer. A later member of the same key, which the parser keeps, wins.
func (p *Payload) ValueAt(o *value.Object, key string) (off int, ok bool) {
	for k := len(p.members) - 1; k >= 0; k-- {
		if m := p.members[k]; m.obj == o && m.key == key {
			return m.off, true
		}
	}
	return 0, false
}

// Closed reports whether o, an object of the payload, arrived whole: it was read to its closing
// brace. Only in a Cut payload can an object of it be open; what such an object holds arrived
// whole, but more of it was coming.
func (p *Payload) Closed(o *value.Object) bool {
	_, read := p.spans[o]
	return read && !p.cut[o]
}

// Repair is one repair made to a judge's answer, or one piece of it ignored, with where it is.
type Repair struct {
	// Code is answer.repaired for a repair of the JSON, answer.prose-skipped for text ignored
	// around it.
	Code diag.Code
	// Msg says what, in words with line:col: "repaired a trailing comma at 4:18 (and 2 more)".
	Msg string
	// Offset and Len are the bytes of the first occurrence in the original answer; Len is 0 for
	// an insertion point (a missing comma).
	Offset, Len int
	// Count is how many times the same repair was made.
	Count int
	_     [0]func() // not comparable: no equality function in the wasm
}

// Check returns r as a warning pointing at its first occurrence in answer.
func (r Repair) Check(answer string) diag.Check {
	return diag.Warn(r.Code, "judge answer: "+r.Msg).AtOffset(answer, r.Offset, r.Len)
}

// reasoningTags are the tag names reasoning models wrap their thinking in: <think> (DeepSeek-R1,
// QwQ, Qwen3 and most open reasoning models), <thinking> (Claude-style prompts) and <thought>
// (Gemini's OpenAI-compatible API with include_thoughts).
var reasoningTags = []string{"thinking>", "thought>", "think>"}

// FindReasoning finds the model's reasoning at the start of answer. It returns end, the byte
// offset where the answer proper starts (0 when there is no reasoning), and open, the offset of
// a reasoning tag that is never closed, or -1. Every evaluator reads reasoning this way, so that
// an answer means the same to each of them.
//
// The rule follows what reasoning models emit. Their reasoning always comes first, so only
// reasoning at the start is dropped:
//   - a block <think>…</think> (or <thinking>, <thought>; tag names in any case) that starts the
//     answer, after white space, and any blocks that directly follow it: DeepSeek-R1 and QwQ
//     sometimes think twice, Qwen3 with thinking off sends an empty "<think>\n\n</think>";
//   - everything up to a closing tag that comes before any opening one: servers that put the
//     opening tag in the prompt (or strip it) send reasoning that ends in a lone </think>; blocks
//     right after it are dropped too;
//   - an opening block that is never closed means the reply ran out of tokens while the model was
//     still thinking: end is len(answer) and open is where that block opens, so callers report
//     the answer as truncated rather than reading the reasoning as the answer.
//
// A tag after the answer has started is text, not reasoning: the answer may quote one, and a
// judge's verdict does not come before its reasoning. Offsets are into answer itself, so positions
// found after end stay positions in the original answer.
//
// gpt-oss writes OpenAI's Harmony channels instead of tags, and servers that do not parse them
// (llama.cpp with reasoning_format none, mlx-lm, LM Studio's and Ollama's early builds) send them
// in the content: "<|channel|>analysis<|message|>…<|end|><|start|>assistant<|channel|>final
// <|message|>Yes", or with the special tokens dropped, "analysisWe need…assistantfinalYes". Both
// are read as reasoning then answer (see findHarmony).
func FindReasoning(answer string) (end, open int) {
	if end, open, ok := findHarmony(answer); ok {
		return end, open
	}
	first, firstEnd, closing := findReasoningTag(answer, 0)
	if first < 0 {
		return 0, -1
	}
	if closing {
		end = firstEnd // a lone closing tag: everything before it is reasoning
	}
	for {
		i := end
		for i < len(answer) && (answer[i] == ' ' || answer[i] == '\t' || answer[i] == '\r' || answer[i] == '\n') {
			i++
		}
		t, tEnd, closing := findReasoningTag(answer, i)
		if t != i || closing {
			return end, -1
		}
		c, cEnd, _ := findClosingTag(answer, tEnd)
		if c < 0 {
			return len(answer), t
		}
		end = cEnd
	}
}

// Harmony's markers, as servers leak them into the content.
const (
	harmonyChannel = "<|channel|>"
	harmonyMessage = "<|message|>"
	harmonyStart   = "<|start|>assistant"
	harmonyFinal   = "assistantfinal" // <|start|>assistant<|channel|>final<|message|> with the special tokens dropped
)

// findHarmony reads gpt-oss's Harmony channels at the start of answer (after white space). ok is
// false when the answer does not start with them. The answer proper is the final channel's
// message: end is where it starts. A reply still in its analysis (or commentary) channel when it
// ends was cut off while the model was reasoning: open is where that channel opens; one whose
// analysis ended (<|end|>) with no final channel after it has no answer: end is len(answer).
//
//	tagged   = ["<|start|>assistant"] "<|channel|>" name ["<|constrain|>" …] "<|message|>" body …
//	dropped  = "analysis" letter … "assistantfinal" answer
//
// The channel name is "final" (or "final json", as gpt-oss names a JSON answer) for the answer.
// With the special tokens dropped only the markers' words remain, so that form is recognised
// only when "analysis" runs straight into the next word, which English never does.
func findHarmony(answer string) (end, open int, ok bool) {
	i := 0
	for i < len(answer) && (answer[i] == ' ' || answer[i] == '\t' || answer[i] == '\r' || answer[i] == '\n') {
		i++
	}
	start := i
	rest := strings.TrimPrefix(answer[i:], harmonyStart)
	if !strings.HasPrefix(rest, harmonyChannel) {
		if !strings.HasPrefix(rest, "analysis") || len(rest) == len("analysis") || !isLetterByte(rest[len("analysis")]) {
			return 0, -1, false
		}
		if f := strings.Index(rest, harmonyFinal); f >= 0 {
			return len(answer) - len(rest) + f + len(harmonyFinal), -1, true
		}
		return len(answer), start, true
	}
	for at := len(answer) - len(rest); ; {
		nameAt := at + len(harmonyChannel)
		m := strings.Index(answer[nameAt:], harmonyMessage)
		if m < 0 {
			return len(answer), start, true // cut off before the channel's message began
		}
		name := strings.TrimSpace(answer[nameAt : nameAt+m])
		body := nameAt + m + len(harmonyMessage)
		if name == "final" || strings.HasPrefix(name, "final ") || strings.HasPrefix(name, "final<") {
			return body, -1, true
		}
		next := strings.Index(answer[body:], harmonyChannel)
		if next < 0 {
			if strings.Contains(answer[body:], "<|end|>") {
				return len(answer), -1, true // the reasoning ended, and no answer followed it
			}
			return len(answer), at, true
		}
		at = body + next
	}
}

// isLetterByte reports whether c is an ASCII letter.
func isLetterByte(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

// findReasoningTag finds the next opening or closing reasoning tag from answer[from], and returns
// its start and end offsets and whether it closes, or -1 when there is none.
func findReasoningTag(answer string, from int) (start, end int, closing bool) {
	for i := from; i < len(answer); i++ {
		j := strings.IndexByte(answer[i:], '<')
		if j < 0 {
			break
		}
		i += j
		k := i + 1
		closing = k < len(answer) && answer[k] == '/'
		if closing {
			k++
		}
		for _, name := range reasoningTags {
			if hasPrefixFold(answer[k:], name) {
				return i, k + len(name), closing
			}
		}
	}
	return -1, -1, false
}

// findClosingTag finds the next closing reasoning tag from answer[from].
func findClosingTag(answer string, from int) (start, end int, ok bool) {
	for i := from; ; {
		t, tEnd, closing := findReasoningTag(answer, i)
		if t < 0 {
			return -1, -1, false
		}
		if closing {
			return t, tEnd, true
		}
		i = tEnd
	}
}

// Lenient reads src as one JSON value, repairing what models commonly get wrong (see the
// parser's doc). It returns the value, the repairs made (positions relative to src) and, when src
// cannot be read, a *diag.Error of Kind "output" named name.
func Lenient(name, src string) (any, []Repair, error) {
	if len(src) > MaxAnswer {
		return nil, nil, &diag.Error{Kind: "output", Code: diag.AnswerTooLong, Name: name, Msg: diag.Sprintf("the text is %s bytes, more than the %s this reads", diag.Thousands(len(src)), diag.Thousands(MaxAnswer))}
	}
	p := &parser{src: src, end: len(src)}
	v, ok := p.value(ctxTop)
	if ok {
		p.skipSpace()
		if p.pos < p.end {
			ok = p.fail(p.pos, "unexpected "+describeAt(src, p.pos)+" after the JSON value")
		}
	}
	if !ok {
		l, c := diag.Position(src, p.err.pos)
		code := diag.AnswerUnreadable
		if p.err.truncated && !endsClosed(src) {
			code = diag.AnswerTruncated
		}
		return nil, nil, &diag.Error{Kind: "output", Code: code, Name: name, Line: l, Col: c, Msg: p.err.message(src)}
	}
	return v, p.repairs(), nil
}

// FindJSON finds the judge's JSON payload in answer: the object that has one of keys at its top
// level (compared ignoring case, and spaces, '_' and '-'), or one level down inside a wrapping
// object.
//
// It drops the reasoning (FindReasoning), then reads every balanced {…} in the rest, in order,
// with the lenient parser; inside a Markdown code fence (```json or plain ```) an object must end
// within the fence. The LAST object that has a key is the payload, so that an example of the
// format quoted in the reasoning is not taken for the answer. When the answer is exactly strict
// JSON this is simply that JSON and Repairs is empty.
//
// Errors are *diag.Error of Kind "output" named name, with the line:col in answer where reading
// stopped: a payload the answer ends inside says it looks truncated; an unreadable one quotes
// the text where reading stopped; no payload at all says so.
//
// An answer cut short (max_tokens, or a stream stopped) is an error, answer.truncated, yet what
// arrived before the cut can still be shown for what it is. So with that error FindJSON also
// returns, when the part that arrived already has one of keys, a Payload of it with Cut set: its
// lists and objects hold the members and elements that arrived whole, and the objects that
// closed before the cut are Closed (see the parser's keep for the rule). Any other error comes
// with a nil Payload.
func FindJSON(name, answer string, keys ...string) (*Payload, error) {
	fail := func(code diag.Code, off int, msg string) error {
		e := &diag.Error{Kind: "output", Code: code, Name: name, Msg: msg}
		if off >= 0 {
			e.Line, e.Col = diag.Position(answer, off)
		}
		return e
	}
	if len(answer) > MaxAnswer {
		return nil, fail(diag.AnswerTooLong, -1, diag.Sprintf("the answer is %s bytes, more than the %s this reads", diag.Thousands(len(answer)), diag.Thousands(MaxAnswer)))
	}
	off, open := FindReasoning(answer)
	if open >= 0 {
		return nil, fail(diag.AnswerTruncated, len(answer), "the answer ends inside the model's <think> reasoning, before any answer: it looks truncated (max_tokens too small?)")
	}
	if strings.TrimSpace(answer[off:]) == "" {
		if off > 0 {
			return nil, fail(diag.AnswerEmpty, -1, "the answer has nothing after the model's reasoning")
		}
		return nil, fail(diag.AnswerEmpty, -1, "the answer is empty")
	}
	s := scan(answer, off, keys)
	return s.result(fail)
}

// candidate is one attempt to read an object starting at a '{'.
type candidate struct {
	start, end int // byte offsets in the answer; end is where reading stopped when err != nil
	obj        *value.Object
	inner      *value.Object // the object holding a key, when obj has one at or one level down
	fixes      *parser       // the parser that read obj, for its repair notes (worded only if chosen)
	fence      *fence
	err        *syntaxError
	keyed      bool      // obj holds a key, or (for a failed attempt) its text mentions one
	_          [0]func() // not comparable: no equality function in the wasm
}

type scanner struct {
	answer string
	off    int
	keys   []string
	fences []fence

	last   *candidate // the last complete object with a key
	before *candidate // the complete object with a key before last, if any
	failed *candidate // the last failed attempt that mentions a key
	trunc  *candidate // an attempt the answer ends inside
	deep   *candidate // an attempt nested deeper than MaxDepth; the scan stops there
	plain  *candidate // the last complete object without a key
}

// scanBudget bounds the bytes re-read by attempts that fail, as a multiple of the answer's
// length: after a failure the scan restarts just past the failed '{' (an object may start inside
// text that merely looked like JSON), which on adversarial input could otherwise be quadratic.
const scanBudget = 8

func scan(answer string, off int, keys []string) *scanner {
	s := &scanner{answer: answer, off: off, keys: keys, fences: findFences(answer, off)}
	work, budget := 0, scanBudget*len(answer)+1<<16
	for i := off; i < len(answer); {
		j := strings.IndexByte(answer[i:], '{')
		if j < 0 {
			break
		}
		i += j
		if cannotStartObject(answer, i+1) {
			// "{{" and "{[" fail at the second byte whatever follows ("expected a key"), mention
			// no key and are not cut off: skip them without a parser, so that a megabyte of
			// braces costs a pass over the bytes, not an attempt (and an error message) each.
			i++
			continue
		}
		c := &candidate{start: i}
		end := len(answer)
		if f := s.fenceAt(i); f != nil {
			c.fence = f
			end = f.contentEnd
		}
		p := &parser{src: answer, pos: i, end: end}
		v, ok := p.value(ctxTop)
		if !ok && c.fence != nil && p.err.pos == end && end < len(answer) {
			// The fence closed inside the object: perhaps a string in it holds ``` itself.
			past := &parser{src: answer, pos: i, end: len(answer)}
			if pv, pok := past.value(ctxTop); pok {
				p, v, ok, c.fence = past, pv, true, nil
			}
		}
		if ok {
			c.end = p.pos
			c.obj = v.(*value.Object)
			c.fixes = p
			c.inner = s.holder(c.obj)
			if c.inner != nil {
				s.before, s.last = s.last, c
			} else {
				s.plain = c
			}
			i = p.pos
			continue
		}
		c.err, c.end = p.err, p.err.pos
		if p.err.deep {
			// Every '{' up to the cap lies inside this object and would fail the same way a level
			// later: no payload can be read from here on.
			s.deep = c
			break
		}
		c.keyed = s.mentionsKey(answer[i:min(len(answer), p.err.pos+1)])
		if p.err.truncated && end == len(answer) {
			// Every later '{' lies inside this unfinished object.
			s.trunc = c
			break
		}
		if c.keyed && (s.failed == nil || i > s.failed.end) {
			s.failed = c
		}
		work += p.err.pos - i
		if work > budget {
			i = max(p.err.pos, i+1)
		} else {
			i++
		}
	}
	return s
}

// cannotStartObject reports whether the '{' before answer[i] cannot start an object: the next
// byte past white space opens another object or list, or closes or separates, where an object
// needs a key or '}'.
func cannotStartObject(answer string, i int) bool {
	for i < len(answer) && (answer[i] == ' ' || answer[i] == '\t' || answer[i] == '\r' || answer[i] == '\n') {
		i++
	}
	return i < len(answer) && strings.IndexByte("{[],:)", answer[i]) >= 0
}

// result chooses the payload among the attempts, or the error that best says why there is none.
func (s *scanner) result(fail func(code diag.Code, off int, msg string) error) (*Payload, error) {
	last := s.last
	if s.deep != nil && (last == nil || s.deep.start >= last.end) {
		return nil, fail(diag.AnswerUnreadable, s.deep.err.pos, "cannot read the JSON that starts at "+diag.LineCol(s.answer, s.deep.start)+": it is nested deeper than "+strconv.Itoa(MaxDepth)+" levels")
	}
	// An unreadable or unfinished object with a key after the last good one is the real answer
	// gone wrong; the good one before it was an example in the reasoning.
	if s.trunc != nil && (last == nil || s.trunc.start >= last.end) && (s.trunc.keyed || last == nil) {
		if endsClosed(s.answer) {
			return nil, fail(diag.AnswerUnreadable, len(s.answer), diag.Sprintf("the JSON that starts at %s never closes (%s), though the answer ends with a closing bracket: a quote or bracket is probably missing, unless the answer was cut off there", diag.LineCol(s.answer, s.trunc.start), s.trunc.err.msg))
		}
		return s.arrived(s.trunc), fail(diag.AnswerTruncated, len(s.answer), diag.Sprintf("the answer ends inside the JSON that starts at %s: it looks truncated (max_tokens too small?)", diag.LineCol(s.answer, s.trunc.start)))
	}
	if s.failed != nil && (last == nil || s.failed.start >= last.end) {
		return nil, fail(diag.AnswerUnreadable, s.failed.err.pos, s.failed.err.message(s.answer))
	}
	if last == nil {
		if s.plain != nil {
			return nil, fail(diag.AnswerNoVerdict, s.plain.start, "the JSON at "+diag.LineCol(s.answer, s.plain.start)+" has no "+keyList(s.keys)+" key (nor one level down)")
		}
		return nil, fail(diag.AnswerNoVerdict, -1, "the answer has no JSON object with "+keyList(s.keys))
	}
	return &Payload{Object: last.inner, Repairs: s.notes(last, s.before), Start: last.start, End: last.end, spans: last.fixes.spans, members: last.fixes.members, conflicts: last.fixes.conflicts}, nil
}

// notes are the repairs made reading c, the payload's object, and the text ignored around it:
// earlier, the complete object with a key before it (an example), or nil.
func (s *scanner) notes(c, earlier *candidate) []Repair {
	notes := c.fixes.repairs()
	skipped := func(msg string, from, to int) {
		to = from + len(strings.TrimRight(s.answer[from:to], " \t\r\n"))
		notes = append(notes, Repair{Code: diag.AnswerProseSkipped, Msg: msg, Offset: from, Len: to - from, Count: 1})
	}
	if earlier != nil {
		skipped("ignored an earlier JSON object at "+diag.LineCol(s.answer, earlier.start)+" (an example in the reasoning?); the last one is the answer", earlier.start, earlier.end)
	}
	before, after := s.outside(c)
	if before >= 0 {
		skipped("ignored the text before the JSON, from "+diag.LineCol(s.answer, before), before, c.start)
	}
	if after >= 0 {
		skipped("ignored the text after the JSON, from "+diag.LineCol(s.answer, after), after, len(s.answer))
	}
	return notes
}

// arrived reads again c, the object the answer ends inside, keeping what arrived before the cut,
// and returns it as a Cut payload; nil when what arrived has none of the keys (nor one level
// down).
func (s *scanner) arrived(c *candidate) *Payload {
	p := &parser{src: s.answer, pos: c.start, end: len(s.answer), partial: true}
	v, _ := p.value(ctxTop)
	obj, ok := v.(*value.Object)
	if !ok {
		return nil
	}
	inner := s.holder(obj)
	if inner == nil {
		return nil
	}
	read := &candidate{start: c.start, end: len(s.answer), fixes: p, fence: c.fence}
	return &Payload{Object: inner, Repairs: s.notes(read, s.last), Start: c.start, End: len(s.answer), Cut: true, spans: p.spans, members: p.members, conflicts: p.conflicts, cut: p.cut}
}

// outside returns the offsets of the first non-space byte before and after c that is not the
// fence around c, or -1.
func (s *scanner) outside(c *candidate) (before, after int) {
	firstText := func(from, to int) int {
		for i := from; i < to; i++ {
			switch s.answer[i] {
			case ' ', '\t', '\r', '\n':
			default:
				return i
			}
		}
		return -1
	}
	before, after = -1, -1
	if f := c.fence; f != nil {
		if before = firstText(s.off, f.open); before < 0 {
			before = firstText(f.contentStart, c.start)
		}
		if after = firstText(c.end, f.contentEnd); after < 0 {
			after = firstText(f.closeEnd, len(s.answer))
		}
		return before, after
	}
	return firstText(s.off, c.start), firstText(c.end, len(s.answer))
}

// holder returns o when it has one of the keys, else the first object value of o that has one.
func (s *scanner) holder(o *value.Object) *value.Object {
	if s.hasKey(o) {
		return o
	}
	for _, k := range o.Keys() {
		v, _ := o.Get(k)
		if inner, ok := v.(*value.Object); ok && s.hasKey(inner) {
			return inner
		}
	}
	return nil
}

// hasKey reports whether o has one of the keys, compared ignoring case and the separators
// ' ', '_' and '-' ("Answer 2" and "answer2" are "answer_2").
func (s *scanner) hasKey(o *value.Object) bool {
	for _, k := range s.keys {
		if _, _, ok := o.GetFold(k); ok {
			return true
		}
		want := looseKey(k)
		for _, have := range o.Keys() {
			if looseKey(have) == want {
				return true
			}
		}
	}
	return false
}

func looseKey(k string) string {
	return strings.Map(func(r rune) rune {
		if r == ' ' || r == '_' || r == '-' {
			return -1
		}
		return unicode.ToLower(r)
	}, k)
}

// mentionsKey reports whether text holds one of the keys as a whole word, any case.
func (s *scanner) mentionsKey(text string) bool {
	for _, k := range s.keys {
		for from := 0; from < len(text); {
			i := indexFold(text[from:], k)
			if i < 0 {
				break
			}
			i += from
			j := i + len(k)
			if (i == 0 || !isWordByte(text[i-1])) && (j >= len(text) || !isWordByte(text[j])) {
				return true
			}
			from = i + 1
		}
	}
	return false
}

func isWordByte(c byte) bool {
	return c == '_' || c == '-' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// fence is a Markdown code fence: ``` with an optional info string, the content, and the closing
// ``` (closeEnd == contentEnd == len(answer) when the answer ends inside the fence).
type fence struct {
	open, contentStart, contentEnd, closeEnd int
}

// findFences finds the ``` code fences in answer from off on. A fence opens with ``` and an
// optional info word (json, JSON, jsonc, js, python, …) and ends at the next ```. On one line,
// "```json {…}```" also counts.
func findFences(answer string, off int) []fence {
	var fences []fence
	for i := off; i < len(answer); {
		j := strings.Index(answer[i:], "```")
		if j < 0 {
			break
		}
		f := fence{open: i + j}
		k := f.open
		for k < len(answer) && answer[k] == '`' {
			k++
		}
		info := k
		for info < len(answer) && isWordByte(answer[info]) {
			info++
		}
		word := info > k
		for info < len(answer) && (answer[info] == ' ' || answer[info] == '\t' || answer[info] == '\r') {
			info++
		}
		switch {
		case info < len(answer) && answer[info] == '\n':
			k = info + 1
		case word:
			k = info // "```json {…}```" on one line
		}
		f.contentStart = k
		if c := strings.Index(answer[k:], "```"); c >= 0 {
			f.contentEnd = k + c
			f.closeEnd = f.contentEnd
			for f.closeEnd < len(answer) && answer[f.closeEnd] == '`' {
				f.closeEnd++
			}
		} else {
			f.contentEnd, f.closeEnd = len(answer), len(answer)
		}
		fences = append(fences, f)
		i = f.closeEnd
	}
	return fences
}

// fenceAt returns the fence whose content holds offset i, or nil. Fences are in order and do
// not overlap.
func (s *scanner) fenceAt(i int) *fence {
	k := sort.Search(len(s.fences), func(k int) bool { return s.fences[k].contentEnd > i })
	if k < len(s.fences) && s.fences[k].contentStart <= i {
		return &s.fences[k]
	}
	return nil
}

func keyList(keys []string) string {
	q := make([]string, len(keys))
	for i, k := range keys {
		q[i] = diag.Quote(k)
	}
	return strings.Join(q, " or ")
}

// pos formats the line:col of byte offset off in src.
// excerpt quotes up to 24 code points of src from off, on one line, for error messages.
func excerpt(src string, off int) string {
	if off >= len(src) {
		return "the end of the answer"
	}
	return diag.Quote(diag.Clip(src[off:], 24))
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}

// indexFold is strings.Index ignoring ASCII case; needle must be ASCII.
func indexFold(s, needle string) int {
	n := len(needle)
	if n == 0 {
		return 0
	}
	first := needle[0] | 0x20
	for i := 0; i+n <= len(s); i++ {
		if s[i]|0x20 == first && strings.EqualFold(s[i:i+n], needle) {
			return i
		}
	}
	return -1
}

// Package checkup makes known-answer cases from a user's own rows, the check-up of a judge model
// without labels: fixed transformations of a row whose right verdict follows from the
// transformation itself (a claim copied verbatim from the evidence is grounded; a sentence from
// another row that shares no content word with this one is not), run through the evaluator like
// any row, and graded by what the judge's verdict says of them (Grade). Matrix counts what was
// caught and missed, with Wilson intervals; position.go combines the two orders of a pairwise
// row judged both ways.
//
// A transformation is offered only where its expected verdict is certain from the transformation
// alone; where a row does not allow it (no number to change, one context only, no other row that
// shares nothing with it) it is skipped, with the reason. The rules, each in the function that
// applies it, are summed up in docs/ARCHITECTURE.md ("The check-up").
//
// Cases are deterministic: the same row, pool and seed give the same cases, on every platform.
package checkup

import (
	"strconv"

	"ragjudge/core/diag"
	"ragjudge/core/judge"
	"ragjudge/core/value"
)

// Options are what Cases takes besides the row: the seed of its choices and other rows of the
// dataset (the same evaluator's inputs), where foreign material comes from.
type Options struct {
	Seed int64
	Pool []*value.Object
}

// maxPool caps how many of the pool's rows one transformation looks through, from a seeded
// start: enough to find an unrelated sentence in any dataset that has one, and a bound on the
// work a check-up of a 100,000-row dataset does per row.
const maxPool = 200

// Case is one known-answer case: inputs for the evaluator and what its verdict must say
// (Expect, read by Grade). BothOrders marks a pairwise case judged in both orders of its two
// answers (SwapInputs, CombineOrders), whose combined verdict Grade reads.
type Case struct {
	Name       string        `json:"name"`
	Transform  string        `json:"transform"`
	Inputs     *value.Object `json:"inputs"`
	Expect     *value.Object `json:"expect"`
	Note       string        `json:"note"`
	BothOrders bool          `json:"both_orders,omitempty"`
}

// Skip is a transformation the row does not allow, and why.
type Skip struct {
	Transform string `json:"transform"`
	Name      string `json:"name"`
	Reason    string `json:"reason"`
}

// Result is the cases one row yields and the transformations it skipped, each in the order the
// evaluator's transformations are listed.
type Result struct {
	Cases   []Case `json:"cases"`
	Skipped []Skip `json:"skipped"`
}

// Cases returns the known-answer cases evaluator id's row inputs yields. The row must be one
// the evaluator can judge (Render accepts it): otherwise its error is returned. Every case's
// inputs render too; a case that would not is skipped with the render's error. Cases never
// changes inputs or the pool's rows (the bridge may hold them).
func Cases(r *judge.Registry, id string, inputs *value.Object, opt Options) (*Result, error) {
	e, err := r.Get(id)
	if err != nil {
		return nil, err
	}
	if _, err := r.Render(id, inputs); err != nil {
		return nil, err
	}
	m := &maker{r: r, e: e, in: inputs, pool: opt.Pool, res: &Result{Cases: []Case{}, Skipped: []Skip{}}}
	enc, _ := value.Marshal(inputs)
	m.seed = mix(fnv(uint64(opt.Seed), enc))
	m.texts = textsOf(inputs, nil)
	m.stems = stemsOf(m.texts)
	switch builtinOf(e) {
	case "claim-groundedness":
		m.claims()
	case "answer-grounding":
		m.grounding()
	case "pairwise-faithfulness":
		m.pairwise()
	case "rag-recall":
		m.recall()
	}
	if e.Custom {
		m.generic()
	}
	return m.res, nil
}

// builtinOf is the built-in whose reader e's verdicts come from: e's own id for a built-in, the
// reader's evaluator for a custom evaluator with a builtin reader, else "".
func builtinOf(e *judge.Evaluator) string {
	if !e.Custom {
		return e.ID
	}
	out := object(e.Spec, "output")
	if k, _ := getS(out, "kind"); k == judge.ReaderBuiltin {
		b, _ := getS(out, "evaluator")
		return b
	}
	return ""
}

// maker makes one row's cases.
type maker struct {
	r     *judge.Registry
	e     *judge.Evaluator
	in    *value.Object
	pool  []*value.Object
	res   *Result
	seed  uint64
	texts []string // every text of the row
	stems stems    // their content words' stems
}

// rng is the random source of one transformation: the seed, the row and the transformation's
// name, so that what one transformation draws does not move another's choices.
func (m *maker) rng(transform string) *rng {
	return &rng{s: mix(fnv(m.seed, []byte(transform)))}
}

// add checks that a case's inputs render and keeps it, or skips the transformation saying why.
func (m *maker) add(c Case) {
	if _, err := m.r.Render(m.e.ID, c.Inputs); err != nil {
		m.skip(c.Transform, c.Name, "the case's inputs cannot be judged: "+err.Error())
		return
	}
	m.res.Cases = append(m.res.Cases, c)
}

func (m *maker) skip(transform, name, reason string) {
	m.res.Skipped = append(m.res.Skipped, Skip{Transform: transform, Name: name, Reason: reason})
}

// with returns a copy of the row's inputs with input name set to v (the row is never changed).
func (m *maker) with(name string, v any) *value.Object {
	out := &value.Object{}
	for _, k := range m.in.Keys() {
		x, _ := m.in.Get(k)
		out.Set(k, x)
	}
	out.Set(name, v)
	return out
}

// foreign returns up to n assertions (isAssertion) from one row of the pool, none of which
// shares a content word with avoid, and which row of the pool they came from (-1 for none).
// The rows are looked through from a seeded start, at most maxPool of them.
func (m *maker) foreign(rg *rng, avoid stems, n int) ([]string, int) {
	if len(m.pool) == 0 {
		return nil, -1
	}
	start := rg.intn(len(m.pool))
	for k := 0; k < len(m.pool) && k < maxPool; k++ {
		at := (start + k) % len(m.pool)
		var found []string
		for _, s := range assertions(textsOf(m.pool[at], nil)) {
			if !avoid.shares(s) && !contains(found, s) {
				found = append(found, s)
			}
		}
		if len(found) == 0 {
			continue
		}
		from := rg.intn(len(found))
		out := make([]string, 0, n)
		for i := 0; i < len(found) && len(out) < n; i++ {
			out = append(out, found[(from+i)%len(found)])
		}
		return out, at
	}
	return nil, -1
}

// noForeign is the reason a transformation needing another row's sentence is skipped.
func (m *maker) noForeign() string {
	if len(m.pool) == 0 {
		return "no other rows were given (options.pool) to take a foreign sentence from"
	}
	return "no other row has a sentence that shares no content word with this row (" + strconv.Itoa(min(len(m.pool), maxPool)) +
		" rows looked at): on a dataset about one subject, a sentence of another row could still be supported here"
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// object is o's field k as an object, or nil.
func object(o *value.Object, k string) *value.Object {
	if o == nil {
		return nil
	}
	v, _ := o.Get(k)
	x, _ := v.(*value.Object)
	return x
}

// quote quotes s for a note, cut to 60 characters.
func quote(s string) string { return diag.Quote(diag.Clip(s, 60)) }

// rng is SplitMix64: a few lines, the same numbers on every platform, and no math/rand (which
// the wasm must not link).
type rng struct{ s uint64 }

func (r *rng) next() uint64 {
	r.s += 0x9e3779b97f4a7c15
	return mix(r.s)
}

// intn is a number in [0, n), n > 0.
func (r *rng) intn(n int) int { return int(r.next() % uint64(n)) }

// mix is SplitMix64's finalizer.
func mix(z uint64) uint64 {
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// fnv is FNV-1a over h's bytes then b's.
func fnv(h uint64, b []byte) uint64 {
	x := uint64(14695981039346656037)
	for i := 0; i < 8; i++ {
		x = (x ^ (h >> (8 * i) & 0xff)) * 1099511628211
	}
	for _, c := range b {
		x = (x ^ uint64(c)) * 1099511628211
	}
	return x
}

// errorf is an input error of the check-up's functions.
func errorf(name, format string, a ...any) error {
	return &diag.Error{Kind: "input", Name: name, Msg: diag.Sprintf(format, a...)}
}

// offer is add of the case that sets input key of the row to v: what most transformations make.
func (m *maker) offer(transform, name, key string, v any, note string, expect *value.Object) {
	m.add(Case{Name: name, Transform: transform, Inputs: m.with(key, v), Note: note, Expect: expect})
}

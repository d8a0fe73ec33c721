package template

import (
	"sync"
	"sync/atomic"

	"ragjudge/core/template/parse"
)

// parsedJinja is a Jinja source parsed and its scopes analysed: everything renderJinja needs
// from the source alone. The tree is not written after MarkInputs, so renders share it.
type parsedJinja struct {
	src     string // the source as Jinja reads it (jinjaSource), which positions count in
	tree    *parse.Tree
	err     *parse.Error
	outSize atomic.Int64 // the size of the last output (and an eighth): the next one's buffer
}

// parsed memoizes parseJinja for the last sources rendered: an evaluator's prompt rendered for
// each row, or a prompt editor rendering the same template on each keystroke, is parsed once.
// In the wasm, parsing the pairwise prompt costs about as much as rendering it. The cache holds
// at most parsedEntries sources and parsedBytes bytes of them; the least recently used goes.
//
// It is a list, not a map: a map hashes the whole source on each lookup, which in the wasm
// (no hardware hashing, no inlining) cost a fifth of parsing it; comparing lengths first and then
// bytes costs next to nothing.
var parsed struct {
	sync.Mutex
	order []*parsedEntry // least recently used first
	bytes int
}

type parsedEntry struct {
	src string
	p   *parsedJinja
	_   [0]func() // not comparable: no equality function in the wasm
}

const (
	parsedEntries = 32
	parsedBytes   = 4 << 20
)

// parseJinja reads src (see jinjaSource), parses it and analyses its scopes, once per source
// while it stays in the cache: the cache is keyed by src as given, so that a render of a
// source parsed before does not read it through again (its UTF-8 checked, its newlines).
func parseJinja(src string) *parsedJinja {
	parsed.Lock()
	for k := len(parsed.order) - 1; k >= 0; k-- {
		if e := parsed.order[k]; e.src == src {
			copy(parsed.order[k:], parsed.order[k+1:])
			parsed.order[len(parsed.order)-1] = e
			parsed.Unlock()
			return e.p
		}
	}
	parsed.Unlock()

	p := &parsedJinja{src: jinjaSource(src)}
	p.tree, p.err = parse.Parse(p.src, &funcs)
	if p.err == nil {
		p.tree.MarkInputs()
	}
	if len(src) > parsedBytes/4 {
		return p // a huge template would push out all others
	}

	parsed.Lock()
	defer parsed.Unlock()
	parsed.order = append(parsed.order, &parsedEntry{src: src, p: p})
	parsed.bytes += len(src)
	for len(parsed.order) > parsedEntries || parsed.bytes > parsedBytes {
		parsed.bytes -= len(parsed.order[0].src)
		parsed.order = append(parsed.order[:0], parsed.order[1:]...)
	}
	return p
}

package template

import "sync"

// parsedJinja is a Jinja source parsed and its scopes analysed: everything renderJinja needs
// from the source alone. The tree is not written after analyzeScopes, so renders share it.
type parsedJinja struct {
	body    []node
	missing []string // the template frame's names that start missing (see scope.go)
	err     *parseError
}

// parsed memoizes parseJinja for the last sources rendered: an evaluator's prompt rendered for
// each row, or a prompt editor rendering the same template on each keystroke, is parsed once.
// In the wasm, parsing the pairwise prompt costs about as much as rendering it. The cache holds
// at most parsedEntries sources and parsedBytes bytes of them; the least recently used goes.
var parsed struct {
	sync.Mutex
	m     map[string]*parsedEntry
	order []*parsedEntry // least recently used first
	bytes int
}

type parsedEntry struct {
	src string
	p   *parsedJinja
}

const (
	parsedEntries = 32
	parsedBytes   = 4 << 20
)

// parseJinja parses src (already through jinjaSource) and analyses its scopes, once per source
// while it stays in the cache.
func parseJinja(src string) *parsedJinja {
	parsed.Lock()
	if e, ok := parsed.m[src]; ok {
		for k, x := range parsed.order {
			if x == e {
				copy(parsed.order[k:], parsed.order[k+1:])
				parsed.order[len(parsed.order)-1] = e
				break
			}
		}
		parsed.Unlock()
		return e.p
	}
	parsed.Unlock()

	p := &parsedJinja{}
	p.body, p.err = parse(src)
	if p.err == nil {
		p.missing = analyzeScopes(p.body)
	}
	if len(src) > parsedBytes/4 {
		return p // a huge template would push out all others
	}

	parsed.Lock()
	defer parsed.Unlock()
	if parsed.m == nil {
		parsed.m = make(map[string]*parsedEntry)
	}
	if _, ok := parsed.m[src]; ok {
		return p
	}
	e := &parsedEntry{src: src, p: p}
	parsed.m[src] = e
	parsed.order = append(parsed.order, e)
	parsed.bytes += len(src)
	for len(parsed.order) > parsedEntries || parsed.bytes > parsedBytes {
		old := parsed.order[0]
		parsed.order = parsed.order[1:]
		delete(parsed.m, old.src)
		parsed.bytes -= len(old.src)
	}
	return p
}

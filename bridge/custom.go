package bridge

import (
	"ragjudge/core/judge"
)

// Custom evaluators (judge.Registry.Define). ragjudge.js checks a definition against its schema
// and normalises it (web/api/speccheck.js) before it crosses: these check and keep what needs
// the core.

// define is rj.define's call: the checked definition, and the inputs its templates do not read
// (made optional, judge.Registry.Define).
func define(b *Bridge, a *Args) (any, error) {
	if b.loadErr != nil {
		return nil, b.loadErr
	}
	var unread []string
	if a.at(1) != nil {
		list, err := a.strList(1, "unread")
		if err != nil {
			return nil, err
		}
		unread = list
	}
	e, err := b.registry.Define(a.at(0), unread...)
	if err != nil {
		return nil, err
	}
	b.held.forgetPrepared()
	return struct {
		ID     string        `json:"id"`
		Inputs []judge.Input `json:"inputs"`
	}{e.ID, e.Inputs}, nil
}

func undefine(b *Bridge, a *Args) (any, error) {
	if b.loadErr != nil {
		return nil, b.loadErr
	}
	id, err := a.str(0, "id")
	if err != nil {
		return nil, err
	}
	ok := b.registry.Undefine(id)
	if ok {
		b.held.forgetPrepared()
	}
	return ok, nil
}

func spec(b *Bridge, a *Args) (any, error) {
	if b.loadErr != nil {
		return nil, b.loadErr
	}
	id, err := a.str(0, "id")
	if err != nil {
		return nil, err
	}
	return b.registry.SpecOf(id)
}

// forgetPrepared drops the inputs read for each evaluator (prepare): a custom evaluator defined
// again under the same id reads them its new way.
func (h *held) forgetPrepared() {
	for _, e := range h.order {
		e.prepared = nil
	}
}

package main

import (
	"context"
	"encoding/json"
	"maps"
	"net/http"
	"slices"
	"sync"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

// models forwards GET /v1/models so the page can offer the upstream's models. This one is
// go-openai's from end to end: the page reads only each model's id from the list.
func (p *proxy) models(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet {
		methodNotAllowed(w, r, "GET")
		return
	}
	u := &p.upstream
	if u.azure != nil && len(u.azure.deployments) > 0 {
		// Azure lists its base models, not the deployments this server can reach; the
		// configured mapping is the list the page should offer.
		models := make([]openai.Model, 0, len(u.azure.deployments))
		for _, name := range slices.Sorted(maps.Keys(u.azure.deployments)) {
			models = append(models, openai.Model{ID: name, Object: "model", OwnedBy: "azure deployment " + u.azure.deployments[name]})
		}
		writeJSON(w, modelList{"list", models})
		return
	}
	if r.ContentLength == 0 {
		// No body to wait for: the upstream may take longer than -body-timeout.
		_ = http.NewResponseController(w).SetReadDeadline(time.Time{})
	}
	key, ok := u.callKey(w, r)
	if !ok {
		return
	}
	release, ok := p.acquire(w)
	if !ok {
		return
	}
	defer release()
	doer := &modelsDoer{p: p, u: u}
	cc := u.clientConfig(key, defaultDeployment)
	cc.HTTPClient = doer
	client := openai.NewClientWithConfig(cc)
	ctx, cancel := context.WithCancelCause(r.Context())
	defer cancel(nil)
	timer := time.AfterFunc(p.cfg.Timeout, func() { cancel(errUpstreamTimeout) })
	defer timer.Stop()
	list, err := client.ListModels(ctx)
	if err != nil {
		p.fail(w, r, ctx, u, doer.headers(), key, err, false)
		return
	}
	models := list.Models
	if models == nil {
		models = []openai.Model{}
	}
	writeJSON(w, modelList{"list", models})
}

// modelList is OpenAI's answer to GET /v1/models.
type modelList struct {
	Object string         `json:"object"`
	Data   []openai.Model `json:"data"`
}

// modelsDoer is go-openai's HTTPClient for GET /v1/models: the proxy's guard and cap, and the
// upstream's response headers kept (go-openai's errors drop them, and the page needs
// Retry-After).
type modelsDoer struct {
	p      *proxy
	u      *upstream
	mu     sync.Mutex
	header http.Header
}

func (d *modelsDoer) Do(req *http.Request) (*http.Response, error) {
	resp, err := d.p.do(d.u, req)
	if resp != nil {
		d.mu.Lock()
		d.header = resp.Header.Clone()
		d.mu.Unlock()
	}
	return resp, err
}

func (d *modelsDoer) headers() http.Header {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.header
}

func writeJSON(w http.ResponseWriter, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		writeError(w, http.StatusBadGateway, "upstream_error", "bad_upstream_response",
			"could not re-encode the upstream's answer: "+err.Error())
		return
	}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	_, _ = w.Write(append(b, '\n'))
}

package main

import (
	"errors"
	"fmt"
	"io"
	"net/http"
)

// proxy forwards the page's model calls, chat completions and the model list, to an upstream.
// Its parts, one file each: this transport (the guard that sends only to the call's
// upstream, the slots, the answer's size cap), the upstream and its request (upstream.go, with
// go-openai's part in openairequest.go), the chat relay (chat.go), the event stream relay (sse.go),
// the model list (models.go), upstream errors translated (upstreamerror.go) and the key
// scrubbed from everything that comes back (scrub.go).
//
// A chat completion's body is sent exactly as the browser sent it and the upstream's answer is
// passed back exactly as it came: judges run on vLLM, llama.cpp and Ollama with parameters no
// client library models (guided_json, chat_template_kwargs, options, top_k, min_p, keep_alive),
// and decoding them into typed structs and encoding them again drops or changes them. go-openai
// keeps the jobs where it earns its place, each marked where it is done: the upstream request's
// URL and key header (OpenAI or Azure, with Azure's deployment path and api-version), the typed
// reading of upstream errors, and GET /v1/models.
type proxy struct {
	cfg config
	// upstream is where calls go; every handler passes it on to what it calls, so that nothing
	// below the handlers assumes there is only one.
	upstream upstream
	// http is shared by all requests so that connections to the upstream are reused.
	http *http.Client
	// slots holds one token per upstream call in flight, HTTP and calls socket alike; a call
	// that finds it full is answered 429 rather than queued.
	slots chan struct{}
}

// errResponseTooLarge is what reading an upstream answer returns past -max-response bytes.
var errResponseTooLarge = errors.New("upstream answer too large")

// errNotUpstream is returned by the transport guard for any request not bound for the upstream.
type errNotUpstream struct{ host string }

func (e errNotUpstream) Error() string {
	return fmt.Sprintf("refused to send a request to %s: the dev server talks only to its -upstream", e.host)
}

func newProxy(cfg config, u upstream) *proxy {
	transport := http.DefaultTransport.(*http.Transport).Clone()
	transport.MaxIdleConnsPerHost = 128
	transport.MaxIdleConns = 256
	return &proxy{
		cfg:      cfg,
		upstream: u,
		slots:    make(chan struct{}, cfg.MaxInflight),
		http: &http.Client{
			Transport: transport,
			// A redirect is followed only within the first request's scheme and host, which do
			// has checked are the upstream's: a 307 to another host would otherwise resend the
			// prompt there.
			CheckRedirect: func(req *http.Request, via []*http.Request) error {
				if first := via[0].URL; req.URL.Scheme != first.Scheme || req.URL.Host != first.Host {
					return errNotUpstream{req.URL.Host}
				}
				if len(via) >= 5 {
					return errors.New("the upstream redirected more than 5 times")
				}
				return nil
			},
		},
	}
}

// acquire takes one of the -max-inflight slots for an upstream call, or answers 429 with
// Retry-After and reports false when all are taken.
func (p *proxy) acquire(w http.ResponseWriter) (release func(), ok bool) {
	select {
	case p.slots <- struct{}{}:
		return func() { <-p.slots }, true
	default:
		w.Header().Set("Retry-After", "1")
		writeError(w, http.StatusTooManyRequests, "rate_limit_error", "too_many_calls_in_flight",
			fmt.Sprintf("the dev server already has %d upstream calls in flight, its limit (-max-inflight); retry in a moment", p.cfg.MaxInflight))
		return nil, false
	}
}

// do sends one request to the upstream u, refusing any other host, and caps the answer's body
// at -max-response bytes.
func (p *proxy) do(u *upstream, req *http.Request) (*http.Response, error) {
	if req.URL.Scheme != u.url.Scheme || req.URL.Host != u.url.Host {
		return nil, errNotUpstream{req.URL.Host}
	}
	resp, err := p.http.Do(req)
	if err != nil {
		return nil, err
	}
	resp.Body = &cappedBody{ReadCloser: resp.Body, left: p.cfg.MaxResponse}
	return resp, nil
}

// cappedBody is an upstream answer that fails with errResponseTooLarge past its limit.
type cappedBody struct {
	io.ReadCloser
	left int64
}

func (b *cappedBody) Read(buf []byte) (int, error) {
	if b.left <= 0 {
		// One byte more tells "exactly the limit" from "over it".
		var one [1]byte
		for {
			n, err := b.ReadCloser.Read(one[:])
			if n > 0 {
				return 0, errResponseTooLarge
			}
			if err != nil {
				return 0, err
			}
		}
	}
	if int64(len(buf)) > b.left {
		buf = buf[:b.left]
	}
	n, err := b.ReadCloser.Read(buf)
	b.left -= int64(n)
	return n, err
}

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"os"
	"strings"
	"time"
	"unicode"
)

// chatCompletions forwards POST /v1/chat/completions, plain or streaming.
func (p *proxy) chatCompletions(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		methodNotAllowed(w, r, "POST")
		return
	}
	// Requiring JSON also makes a cross-site form post impossible without a CORS preflight,
	// which this server never grants.
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/json" {
		writeError(w, http.StatusUnsupportedMediaType, "invalid_request_error", "unsupported_media_type",
			"the request body must be JSON with Content-Type: application/json")
		return
	}
	body, ok := p.readBody(w, r)
	if !ok {
		return
	}
	req, err := parseChatRequest(body)
	if err != nil {
		writeError(w, http.StatusBadRequest, "invalid_request_error", "invalid_request", err.Error())
		return
	}
	u := &p.upstream
	key, ok := u.callKey(w, r)
	if !ok {
		return
	}
	var deployment string
	if u.azure != nil {
		if deployment, err = u.deployment(req.Model); err != nil {
			writeError(w, http.StatusBadRequest, "invalid_request_error", "invalid_deployment", err.Error())
			return
		}
	}
	release, ok := p.acquire(w)
	if !ok {
		return
	}
	defer release()

	ctx, cancel := context.WithCancelCause(r.Context())
	defer cancel(nil)
	// One timer bounds a plain call in total, and a stream's time to its first event and then
	// the silence between events: a long answer that keeps coming is never cut.
	timer := time.AfterFunc(p.cfg.Timeout, func() { cancel(errUpstreamTimeout) })
	defer timer.Stop()

	built, err := u.buildRequest(ctx, key, deployment, req.Stream)
	if err != nil {
		writeError(w, http.StatusInternalServerError, "server_error", "internal", err.Error())
		return
	}
	out, err := http.NewRequestWithContext(ctx, http.MethodPost, built.URL.String(), bytes.NewReader(body))
	if err != nil {
		writeError(w, http.StatusInternalServerError, "server_error", "internal", "could not build the upstream request: "+err.Error())
		return
	}
	out.Header = built.Header.Clone()
	resp, err := p.do(u, out)
	if err != nil {
		p.fail(w, r, ctx, u, nil, key, err, req.Stream)
		return
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		p.failWith(w, r, ctx, u, resp, key, req.Stream)
		return
	}
	if req.Stream {
		p.relay(w, r, ctx, u, timer, resp, key)
		return
	}
	answer, err := io.ReadAll(resp.Body)
	if err != nil {
		p.fail(w, r, ctx, u, nil, key, err, false)
		return
	}
	if !json.Valid(answer) {
		writeError(w, http.StatusBadGateway, "upstream_error", "bad_upstream_response",
			fmt.Sprintf("the upstream %s answered something that is not JSON: %s", u.url.Host, snippet(answer, key)))
		return
	}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(resp.StatusCode)
	_, _ = w.Write(scrubKeyBytes(answer, key))
}

// readBody reads at most -max-body bytes within -body-timeout; a larger body is answered with
// 413, a slower one with 408 and the connection closed.
func (p *proxy) readBody(w http.ResponseWriter, r *http.Request) ([]byte, bool) {
	tooLarge := func() {
		writeError(w, http.StatusRequestEntityTooLarge, "invalid_request_error", "request_too_large",
			fmt.Sprintf("the request body is larger than the dev server's limit of %d bytes (-max-body)", p.cfg.MaxBody))
	}
	if r.ContentLength > p.cfg.MaxBody {
		tooLarge()
		return nil, false
	}
	// ServeHTTP has set the read deadline; a calls socket's body is in memory already and
	// its writer supports no deadline.
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, p.cfg.MaxBody))
	if err != nil {
		var tooBig *http.MaxBytesError
		var netErr net.Error
		switch {
		case errors.As(err, &tooBig):
			tooLarge()
		case errors.Is(err, os.ErrDeadlineExceeded) || errors.As(err, &netErr) && netErr.Timeout():
			w.Header().Set("Connection", "close")
			writeError(w, http.StatusRequestTimeout, "invalid_request_error", "request_timeout",
				fmt.Sprintf("the request body did not arrive within %s (-body-timeout)", formatDuration(p.cfg.BodyTimeout)))
		default:
			writeError(w, http.StatusBadRequest, "invalid_request_error", "bad_body", "could not read the request body")
		}
		return nil, false
	}
	// The body is in: from here on the connection is only watched for the browser leaving,
	// which a read deadline would report as a departure.
	_ = http.NewResponseController(w).SetReadDeadline(time.Time{})
	return body, true
}

// chatRequest is what the proxy itself reads of a chat completion body; the body is forwarded
// as it came.
type chatRequest struct {
	Model  string
	Stream bool
}

// parseChatRequest checks a chat completion body before it is sent: a JSON object with a model
// name and a non-empty messages array, and a boolean stream if any. Members are matched by
// their exact names, as the upstream reads them; everything else is the upstream's to judge.
func parseChatRequest(body []byte) (chatRequest, error) {
	var req chatRequest
	var members map[string]json.RawMessage
	if err := json.Unmarshal(body, &members); err != nil || members == nil {
		if err == nil {
			err = errors.New("null is not an object")
		}
		return req, fmt.Errorf("the request body is not a chat completion request: %v", err)
	}
	model, ok := members["model"]
	if !ok {
		return req, errors.New("the request names no model")
	}
	if err := json.Unmarshal(model, &req.Model); err != nil {
		return req, fmt.Errorf("the request's model is not a string: %s", clip(string(model), 40))
	}
	if req.Model == "" {
		return req, errors.New("the request names no model")
	}
	if len(req.Model) > 256 || strings.IndexFunc(req.Model, func(r rune) bool {
		return unicode.IsControl(r) || unicode.IsSpace(r)
	}) >= 0 || req.Model == "." || req.Model == ".." {
		return req, fmt.Errorf("model %q is not a model name", clip(req.Model, 80))
	}
	var messages []json.RawMessage
	if err := json.Unmarshal(members["messages"], &messages); err != nil || len(messages) == 0 {
		return req, errors.New("the request has no messages")
	}
	if stream, ok := members["stream"]; ok && string(stream) != "null" {
		if err := json.Unmarshal(stream, &req.Stream); err != nil {
			return req, fmt.Errorf("the request's stream is not true or false: %s", clip(string(stream), 40))
		}
	}
	return req, nil
}

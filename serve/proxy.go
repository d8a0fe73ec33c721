package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"mime"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"

	openai "github.com/sashabaranov/go-openai"
)

// proxy forwards chat completions and the model list to the one configured upstream with
// go-openai, a client per request carrying that request's key.
type proxy struct {
	cfg      config
	upstream *url.URL
	// http is shared by all requests so that connections to the upstream are reused.
	http *http.Client
}

// errUpstreamTimeout is the cancel cause when the upstream is slower than -timeout.
var errUpstreamTimeout = errors.New("upstream timeout")

// errNotUpstream is returned by the transport guard for any request not bound for the upstream.
type errNotUpstream struct{ host string }

func (e errNotUpstream) Error() string {
	return fmt.Sprintf("refused to send a request to %s: the dev server talks only to its -upstream", e.host)
}

func newProxy(cfg config, upstream *url.URL) *proxy {
	transport := http.DefaultTransport.(*http.Transport).Clone()
	transport.MaxIdleConnsPerHost = 128
	transport.MaxIdleConns = 256
	return &proxy{
		cfg:      cfg,
		upstream: upstream,
		http: &http.Client{
			Transport: transport,
			// A redirect is followed only within the upstream's own scheme and host: a 307 to
			// another host would otherwise resend the prompt there.
			CheckRedirect: func(req *http.Request, via []*http.Request) error {
				if req.URL.Scheme != upstream.Scheme || req.URL.Host != upstream.Host {
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

// upstreamDoer is the go-openai HTTPClient for one request: it refuses any URL that is not the
// upstream's, and keeps the upstream's response headers (go-openai's errors drop them, and the
// page needs Retry-After).
type upstreamDoer struct {
	p      *proxy
	mu     sync.Mutex
	header http.Header
}

func (d *upstreamDoer) Do(req *http.Request) (*http.Response, error) {
	if req.URL.Scheme != d.p.upstream.Scheme || req.URL.Host != d.p.upstream.Host {
		return nil, errNotUpstream{req.URL.Host}
	}
	resp, err := d.p.http.Do(req)
	if resp != nil {
		d.mu.Lock()
		d.header = resp.Header.Clone()
		d.mu.Unlock()
	}
	return resp, err
}

func (d *upstreamDoer) responseHeader(name string) string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.header.Get(name)
}

// client builds the go-openai client for one request's key.
func (p *proxy) client(key string) (*openai.Client, *upstreamDoer) {
	doer := &upstreamDoer{p: p}
	var cc openai.ClientConfig
	if p.cfg.Azure {
		cc = openai.DefaultAzureConfig(key, p.cfg.Upstream)
		if p.cfg.AzureAPIVersion != "" {
			cc.APIVersion = p.cfg.AzureAPIVersion
		}
		defaultMapper := cc.AzureModelMapperFunc
		cc.AzureModelMapperFunc = func(model string) string {
			deployment, ok := p.cfg.AzureDeployments[model]
			if !ok {
				deployment = defaultMapper(model)
			}
			// The deployment becomes a path segment: escape it so a model name cannot add
			// segments, a query or a fragment to the upstream URL.
			return url.PathEscape(deployment)
		}
	} else {
		cc = openai.DefaultConfig(key)
		cc.BaseURL = p.cfg.Upstream
	}
	cc.HTTPClient = doer
	return openai.NewClientWithConfig(cc), doer
}

// requestKey is the browser's key (Authorization: Bearer, or Azure's api-key header), else the
// server's OPENAI_API_KEY, else "" (local servers such as Ollama need none).
func (p *proxy) requestKey(r *http.Request) (string, error) {
	if auth := strings.TrimSpace(r.Header.Get("Authorization")); auth != "" {
		scheme, key, _ := strings.Cut(auth, " ")
		if !strings.EqualFold(scheme, "Bearer") {
			return "", errors.New("the Authorization header must be \"Bearer <key>\"")
		}
		if key = strings.TrimSpace(key); key != "" {
			return key, nil
		}
	}
	if key := strings.TrimSpace(r.Header.Get("api-key")); key != "" {
		return key, nil
	}
	return p.cfg.ServerKey, nil
}

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
	req, err := decodeChatRequest(body)
	if err != nil {
		writeError(w, http.StatusBadRequest, "invalid_request_error", "invalid_request", err.Error())
		return
	}
	key, err := p.requestKey(r)
	if err != nil {
		writeError(w, http.StatusUnauthorized, "invalid_request_error", "invalid_authorization", err.Error())
		return
	}
	client, doer := p.client(key)
	if req.Stream {
		p.stream(w, r, client, doer, key, req)
		return
	}
	ctx, cancel := context.WithCancelCause(r.Context())
	defer cancel(nil)
	timer := time.AfterFunc(p.cfg.Timeout, func() { cancel(errUpstreamTimeout) })
	defer timer.Stop()

	resp, err := client.CreateChatCompletion(ctx, req)
	if err != nil {
		p.fail(w, r, ctx, doer, key, err, false)
		return
	}
	writeJSON(w, resp)
}

// stream forwards a streaming completion event by event, flushing each as it arrives. The
// response status is committed only at the first event, so a failure before it is a proper
// error response; a failure after it is an SSE event {"error": {...}} and no [DONE].
func (p *proxy) stream(w http.ResponseWriter, r *http.Request, client *openai.Client, doer *upstreamDoer, key string, req openai.ChatCompletionRequest) {
	ctx, cancel := context.WithCancelCause(r.Context())
	defer cancel(nil)
	// One timer bounds the time to the first event and then the silence between events;
	// a long answer that keeps coming is never cut.
	timer := time.AfterFunc(p.cfg.Timeout, func() { cancel(errUpstreamTimeout) })
	defer timer.Stop()

	stream, err := client.CreateChatCompletionStream(ctx, req)
	if err != nil {
		p.fail(w, r, ctx, doer, key, err, true)
		return
	}
	defer stream.Close()

	rc := http.NewResponseController(w)
	started := false
	start := func() {
		h := w.Header()
		h.Set("Content-Type", "text/event-stream; charset=utf-8")
		h.Set("Cache-Control", "no-cache")
		h.Set("X-Accel-Buffering", "no")
		h.Set("X-Content-Type-Options", "nosniff")
		w.WriteHeader(http.StatusOK)
		started = true
	}
	var buf bytes.Buffer
	for {
		raw, err := stream.RecvRaw()
		if err == io.EOF {
			if !started {
				// go-openai reads a plain JSON answer to a streaming request as an empty
				// stream; an empty answer would then pass for the judge's.
				if ct := doer.responseHeader("Content-Type"); ct != "" && !strings.HasPrefix(ct, "text/event-stream") {
					writeError(w, http.StatusBadGateway, "upstream_error", "not_a_stream",
						fmt.Sprintf("the upstream %s answered %s instead of an event stream; turn streaming off for this endpoint",
							p.upstream.Host, scrub(ct, key)))
					return
				}
				start()
			}
			_, _ = io.WriteString(w, "data: [DONE]\n\n")
			_ = rc.Flush()
			return
		}
		if err != nil {
			if !started {
				p.fail(w, r, ctx, doer, key, err, true)
				return
			}
			if r.Context().Err() != nil {
				markClientGone(w)
				return
			}
			_, e := p.describe(ctx, doer, key, err, true)
			if e.Code == "upstream_timeout" {
				e.Message = fmt.Sprintf("the upstream %s sent nothing for %s (-timeout); the answer is incomplete",
					p.upstream.Host, formatDuration(p.cfg.Timeout))
			}
			msg, _ := json.Marshal(struct {
				Error apiError `json:"error"`
			}{e})
			fmt.Fprintf(w, "data: %s\n\n", msg)
			_ = rc.Flush()
			return
		}
		timer.Reset(p.cfg.Timeout)
		if !started {
			start()
		}
		buf.Reset()
		buf.WriteString("data: ")
		buf.Write(raw)
		buf.WriteString("\n\n")
		if _, err := w.Write(buf.Bytes()); err != nil {
			markClientGone(w)
			return
		}
		if err := rc.Flush(); err != nil {
			markClientGone(w)
			return
		}
	}
}

// models forwards GET /v1/models so the page can offer the upstream's models.
func (p *proxy) models(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet {
		methodNotAllowed(w, r, "GET")
		return
	}
	if p.cfg.Azure && len(p.cfg.AzureDeployments) > 0 {
		// Azure lists its base models, not the deployments this server can reach; the
		// configured mapping is the list the page should offer.
		models := make([]openai.Model, 0, len(p.cfg.AzureDeployments))
		for _, name := range slices.Sorted(maps.Keys(p.cfg.AzureDeployments)) {
			models = append(models, openai.Model{ID: name, Object: "model", OwnedBy: "azure deployment " + p.cfg.AzureDeployments[name]})
		}
		writeJSON(w, modelList{"list", models})
		return
	}
	key, err := p.requestKey(r)
	if err != nil {
		writeError(w, http.StatusUnauthorized, "invalid_request_error", "invalid_authorization", err.Error())
		return
	}
	client, doer := p.client(key)
	ctx, cancel := context.WithCancelCause(r.Context())
	defer cancel(nil)
	timer := time.AfterFunc(p.cfg.Timeout, func() { cancel(errUpstreamTimeout) })
	defer timer.Stop()
	list, err := client.ListModels(ctx)
	if err != nil {
		p.fail(w, r, ctx, doer, key, err, false)
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

// readBody reads at most -max-body bytes; a larger body is answered with 413.
func (p *proxy) readBody(w http.ResponseWriter, r *http.Request) ([]byte, bool) {
	tooLarge := func() {
		writeError(w, http.StatusRequestEntityTooLarge, "invalid_request_error", "request_too_large",
			fmt.Sprintf("the request body is larger than the dev server's limit of %d bytes (-max-body)", p.cfg.MaxBody))
	}
	if r.ContentLength > p.cfg.MaxBody {
		tooLarge()
		return nil, false
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, p.cfg.MaxBody))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			tooLarge()
		} else {
			writeError(w, http.StatusBadRequest, "invalid_request_error", "bad_body", "could not read the request body")
		}
		return nil, false
	}
	return body, true
}

// decodeChatRequest reads the browser's request into go-openai's type. Fields go-openai does
// not know are dropped, which is also why no field of the body can choose where it is sent.
func decodeChatRequest(body []byte) (openai.ChatCompletionRequest, error) {
	// go-openai drops a zero temperature or top_p (omitempty on a float32), so the upstream
	// would apply its default of 1 to a judge that asked for 0. The outer pointer fields shadow
	// the embedded ones in one decoding pass and tell an explicit 0 from an absent field; 0 is
	// then sent as the smallest float32 above 0, the go-openai maintainers' workaround, which
	// every server treats as 0.
	var in struct {
		openai.ChatCompletionRequest
		Temperature *float64 `json:"temperature"`
		TopP        *float64 `json:"top_p"`
	}
	if err := json.Unmarshal(body, &in); err != nil {
		return in.ChatCompletionRequest, fmt.Errorf("the request body is not a chat completion request: %v", err)
	}
	req := in.ChatCompletionRequest
	if req.Model == "" {
		return req, errors.New("the request names no model")
	}
	if len(req.Model) > 256 || strings.IndexFunc(req.Model, func(r rune) bool {
		return unicode.IsControl(r) || unicode.IsSpace(r)
	}) >= 0 || req.Model == "." || req.Model == ".." {
		return req, fmt.Errorf("model %q is not a model name", req.Model)
	}
	if len(req.Messages) == 0 {
		return req, errors.New("the request has no messages")
	}
	sampling := func(v *float64) float32 {
		switch {
		case v == nil:
			return 0
		case *v == 0:
			return math.SmallestNonzeroFloat32
		}
		return float32(*v)
	}
	req.Temperature, req.TopP = sampling(in.Temperature), sampling(in.TopP)
	validator := openai.NewReasoningValidator()
	if err := validator.Validate(req); err != nil {
		// Reasoning models take max_completion_tokens and fixed sampling; adapt what the page
		// sends for every model rather than failing.
		if req.MaxTokens > 0 && req.MaxCompletionTokens == 0 {
			req.MaxCompletionTokens, req.MaxTokens = req.MaxTokens, 0
		}
		if req.Temperature == math.SmallestNonzeroFloat32 {
			req.Temperature = 0
		}
		if req.TopP == math.SmallestNonzeroFloat32 {
			req.TopP = 0
		}
		if err := validator.Validate(req); err != nil {
			return req, err
		}
	}
	return req, nil
}

// fail answers a failed upstream call in OpenAI's error shape with the right status.
func (p *proxy) fail(w http.ResponseWriter, r *http.Request, ctx context.Context, doer *upstreamDoer, key string, err error, stream bool) {
	if r.Context().Err() != nil {
		markClientGone(w)
		return
	}
	status, e := p.describe(ctx, doer, key, err, stream)
	if status == http.StatusTooManyRequests || status == http.StatusServiceUnavailable {
		if ra := doer.responseHeader("Retry-After"); ra != "" {
			w.Header().Set("Retry-After", ra)
		}
	}
	writeAPIError(w, status, e)
}

// describe turns an upstream failure into a status and an OpenAI-shaped error whose message
// never contains the key.
func (p *proxy) describe(ctx context.Context, doer *upstreamDoer, key string, err error, stream bool) (int, apiError) {
	host := p.upstream.Host
	if errors.Is(context.Cause(ctx), errUpstreamTimeout) {
		msg := fmt.Sprintf("the upstream %s did not answer within %s (-timeout)", host, formatDuration(p.cfg.Timeout))
		return http.StatusGatewayTimeout, apiError{Message: msg, Type: "timeout", Code: "upstream_timeout"}
	}
	var apiErr *openai.APIError
	if errors.As(err, &apiErr) {
		status := apiErr.HTTPStatusCode
		if status == 0 { // an error event inside a stream
			status = http.StatusBadGateway
		}
		typ := apiErr.Type
		if typ == "" {
			typ = "upstream_error"
		}
		e := apiError{Message: scrub(apiErr.Message, key), Type: scrub(typ, key), Param: apiErr.Param, Code: apiErr.Code}
		switch c := e.Code.(type) {
		case string:
			e.Code = scrub(c, key)
		case int:
			// go-openai reads "code": null as the integer 0; OpenAI's codes are strings or null.
			if c == 0 {
				e.Code = nil
			}
		}
		if p := e.Param; p != nil {
			clean := scrub(*p, key)
			e.Param = &clean
		}
		if e.Message == "" {
			e.Message = fmt.Sprintf("the upstream %s answered %d %s", host, status, http.StatusText(status))
		}
		if status == http.StatusTooManyRequests {
			if ra := doer.responseHeader("Retry-After"); ra != "" && !strings.Contains(e.Message, "Retry") {
				e.Message += " (retry after " + ra + "s)"
			}
		}
		return status, e
	}
	var reqErr *openai.RequestError
	if errors.As(err, &reqErr) {
		status := reqErr.HTTPStatusCode
		if status < 400 {
			status = http.StatusBadGateway
		}
		msg := fmt.Sprintf("the upstream %s answered %s", host, reqErr.HTTPStatus)
		if snippet := strings.TrimSpace(string(reqErr.Body)); snippet != "" {
			if len(snippet) > 300 {
				snippet = snippet[:300] + "…"
			}
			msg += ": " + snippet
		}
		return status, apiError{Message: scrub(msg, key), Type: "upstream_error", Code: nil}
	}
	var notUpstream errNotUpstream
	if errors.As(err, &notUpstream) {
		return http.StatusBadGateway, apiError{Message: scrub(notUpstream.Error(), key), Type: "upstream_error", Code: "upstream_redirect"}
	}
	var netErr net.Error
	var opErr *net.OpError
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) || errors.As(err, &opErr) || (errors.As(err, &netErr) && !netErr.Timeout()) {
		cause := err
		if opErr != nil {
			cause = opErr.Err
		}
		if dnsErr != nil {
			cause = dnsErr
		}
		msg := fmt.Sprintf("could not reach the upstream %s: %v", host, cause)
		return http.StatusBadGateway, apiError{Message: scrub(msg, key), Type: "upstream_error", Code: "upstream_unreachable"}
	}
	if errors.Is(err, openai.ErrChatCompletionInvalidModel) {
		return http.StatusBadRequest, apiError{Message: err.Error(), Type: "invalid_request_error", Code: "invalid_model"}
	}
	var syntaxErr *json.SyntaxError
	var typeErr *json.UnmarshalTypeError
	what := "a chat completion"
	if stream {
		what = "a chat completion stream"
	}
	if errors.As(err, &syntaxErr) || errors.As(err, &typeErr) {
		msg := fmt.Sprintf("the upstream %s answered something that is not %s: %v", host, what, err)
		return http.StatusBadGateway, apiError{Message: scrub(msg, key), Type: "upstream_error", Code: "bad_upstream_response"}
	}
	msg := fmt.Sprintf("the call to the upstream %s failed: %v", host, err)
	return http.StatusBadGateway, apiError{Message: scrub(msg, key), Type: "upstream_error", Code: "upstream_error"}
}

// scrub removes the key, and anything that looks like an API key or a bearer token, from text
// that came from the upstream: OpenAI's own 401 message quotes part of the key, and a
// misconfigured server may echo the whole request.
func scrub(s, key string) string {
	if len(key) >= 4 {
		s = strings.ReplaceAll(s, key, "[key redacted]")
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		rest := s[i:]
		n := 0
		switch {
		case hasPrefixFold(rest, "sk-") && (i == 0 || !isKeyChar(s[i-1])):
			n = 3
		case hasPrefixFold(rest, "bearer "):
			n = 7
		}
		if n == 0 {
			b.WriteByte(s[i])
			i++
			continue
		}
		j := i + n
		for j < len(s) && isKeyChar(s[j]) {
			j++
		}
		if j == i+n { // "sk-" or "Bearer " followed by nothing key-like
			b.WriteString(s[i : i+n])
			i += n
			continue
		}
		b.WriteString(s[i:i+n] + "[key redacted]")
		i = j
	}
	return b.String()
}

func isKeyChar(c byte) bool {
	return c == '-' || c == '_' || c == '*' || c == '.' ||
		('0' <= c && c <= '9') || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z')
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}

// formatDuration prints 120s rather than time.Duration's 2m0s.
func formatDuration(d time.Duration) string {
	if d%time.Second == 0 {
		return strconv.FormatInt(int64(d/time.Second), 10) + "s"
	}
	return d.String()
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

package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"mime"
	"net"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	openai "github.com/sashabaranov/go-openai"
)

// proxy forwards chat completions and the model list to the one configured upstream.
//
// A chat completion's body is sent exactly as the browser sent it and the upstream's answer is
// passed back exactly as it came: judges run on vLLM, llama.cpp and Ollama with parameters no
// client library models (guided_json, chat_template_kwargs, options, top_k, min_p, keep_alive),
// and decoding them into typed structs and encoding them again drops or changes them. go-openai
// keeps the jobs where it earns its place, each marked where it is done: the upstream request's
// URL and key header (OpenAI or Azure, with Azure's deployment path and api-version), the typed
// reading of upstream errors, and GET /v1/models.
type proxy struct {
	cfg      config
	upstream *url.URL
	// http is shared by all requests so that connections to the upstream are reused.
	http *http.Client
	// slots holds one token per upstream call in flight, HTTP and calls socket alike; a call
	// that finds it full is answered 429 rather than queued.
	slots chan struct{}
	// azureMapper is go-openai's default model→deployment mapping, for models that
	// -azure-deployments does not name.
	azureMapper func(string) string
}

// errUpstreamTimeout is the cancel cause when the upstream is slower than -timeout.
var errUpstreamTimeout = errors.New("upstream timeout")

// errResponseTooLarge is what reading an upstream answer returns past -max-response bytes.
var errResponseTooLarge = errors.New("upstream answer too large")

// errRequestBuilt ends go-openai's part of a chat completion: it has built the request, and the
// proxy sends it with the browser's body in place of go-openai's.
var errRequestBuilt = errors.New("request built")

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
		cfg:         cfg,
		upstream:    upstream,
		slots:       make(chan struct{}, cfg.MaxInflight),
		azureMapper: openai.DefaultAzureConfig("", "").AzureModelMapperFunc,
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

// do sends one request to the upstream, refusing any other host, and caps the answer's body
// at -max-response bytes.
func (p *proxy) do(req *http.Request) (*http.Response, error) {
	if req.URL.Scheme != p.upstream.Scheme || req.URL.Host != p.upstream.Host {
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

// modelsDoer is go-openai's HTTPClient for GET /v1/models: the proxy's guard and cap, and the
// upstream's response headers kept (go-openai's errors drop them, and the page needs
// Retry-After).
type modelsDoer struct {
	p      *proxy
	mu     sync.Mutex
	header http.Header
}

func (d *modelsDoer) Do(req *http.Request) (*http.Response, error) {
	resp, err := d.p.do(req)
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

// requestCapture is go-openai's HTTPClient when it only builds a chat completion request: it
// keeps the request and sends nothing.
type requestCapture struct{ req *http.Request }

func (c *requestCapture) Do(req *http.Request) (*http.Response, error) {
	c.req = req
	return nil, errRequestBuilt
}

// clientConfig is go-openai's configuration for one request's key: OpenAI's (Authorization:
// Bearer, the base URL as given) or Azure's (api-key header, /openai/deployments/NAME/…,
// api-version), which is the part of go-openai this proxy relies on most.
func (p *proxy) clientConfig(key string, mapper func(string) string) openai.ClientConfig {
	if p.cfg.Azure {
		cc := openai.DefaultAzureConfig(key, p.cfg.Upstream)
		if p.cfg.AzureAPIVersion != "" {
			cc.APIVersion = p.cfg.AzureAPIVersion
		}
		cc.AzureModelMapperFunc = mapper
		return cc
	}
	cc := openai.DefaultConfig(key)
	cc.BaseURL = p.cfg.Upstream
	return cc
}

// deploymentName is what an Azure deployment may be called. Checked after mapping, it keeps a
// model name from adding path elements, `.` and `..` included, or a query to the upstream URL.
var deploymentName = regexp.MustCompile(`^[A-Za-z0-9._-]+$`)

func validDeployment(d string) bool {
	return deploymentName.MatchString(d) && d != "." && d != ".."
}

// deployment maps a model to its Azure deployment: -azure-deployments first, else go-openai's
// default mapping; the result must be a deployment name.
func (p *proxy) deployment(model string) (string, error) {
	d, ok := p.cfg.AzureDeployments[model]
	if !ok {
		d = p.azureMapper(model)
	}
	if !validDeployment(d) {
		return "", fmt.Errorf("model %q maps to the Azure deployment %q, which is not a deployment name (letters, digits, '.', '_' and '-', not '.' or '..'); map it with -azure-deployments", model, d)
	}
	return d, nil
}

// buildRequest has go-openai build the upstream request for a chat completion, URL and headers
// (key header, Accept, and for Azure the deployment path and api-version), without sending it.
// go-openai gets an empty request, so that its model checks and parameter rewrites, which would
// veto or change what the upstream should decide, see nothing; the deployment comes in through
// the mapper, already checked.
func (p *proxy) buildRequest(ctx context.Context, key, deployment string, stream bool) (*http.Request, error) {
	capture := &requestCapture{}
	cc := p.clientConfig(key, func(string) string { return deployment })
	cc.HTTPClient = capture
	client := openai.NewClientWithConfig(cc)
	var err error
	if stream {
		_, err = client.CreateChatCompletionStream(ctx, openai.ChatCompletionRequest{})
	} else {
		_, err = client.CreateChatCompletion(ctx, openai.ChatCompletionRequest{})
	}
	if !errors.Is(err, errRequestBuilt) || capture.req == nil {
		return nil, fmt.Errorf("could not build the upstream request: %v", err)
	}
	return capture.req, nil
}

// keyHeader names, on every answer to a model call, the key the call was sent upstream with:
// keyFromPage, keyFromServer or keyNone. A 401 then tells "no key was sent" from "the key was
// refused", and whose key it was (the page decides from this, not from the upstream's words).
const keyHeader = "Ragjudge-Key"

const (
	keyFromPage   = "page"
	keyFromServer = "server"
	keyNone       = "none"
)

// requestKey is the browser's key (Authorization: Bearer, or Azure's api-key header), else the
// server's OPENAI_API_KEY, else "" (local servers such as Ollama need none); and which of the
// three it is (keyHeader's values).
func (p *proxy) requestKey(r *http.Request) (key, from string, err error) {
	if auth := strings.TrimSpace(r.Header.Get("Authorization")); auth != "" {
		scheme, key, _ := strings.Cut(auth, " ")
		if !strings.EqualFold(scheme, "Bearer") {
			return "", "", errors.New("the Authorization header must be \"Bearer <key>\"")
		}
		if key = strings.TrimSpace(key); key != "" {
			return key, keyFromPage, nil
		}
	}
	if key := strings.TrimSpace(r.Header.Get("api-key")); key != "" {
		return key, keyFromPage, nil
	}
	if p.cfg.ServerKey != "" {
		return p.cfg.ServerKey, keyFromServer, nil
	}
	return "", keyNone, nil
}

// callKey is requestKey for a model call: a bad Authorization header is answered 401 (and ok is
// false); otherwise the answer names the key's source in keyHeader, whatever comes of the call.
func (p *proxy) callKey(w http.ResponseWriter, r *http.Request) (key string, ok bool) {
	key, from, err := p.requestKey(r)
	if err != nil {
		writeError(w, http.StatusUnauthorized, "invalid_request_error", "invalid_authorization", err.Error())
		return "", false
	}
	w.Header().Set(keyHeader, from)
	return key, true
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
	req, err := parseChatRequest(body)
	if err != nil {
		writeError(w, http.StatusBadRequest, "invalid_request_error", "invalid_request", err.Error())
		return
	}
	key, ok := p.callKey(w, r)
	if !ok {
		return
	}
	var deployment string
	if p.cfg.Azure {
		if deployment, err = p.deployment(req.Model); err != nil {
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

	built, err := p.buildRequest(ctx, key, deployment, req.Stream)
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
	resp, err := p.do(out)
	if err != nil {
		p.fail(w, r, ctx, nil, key, err, req.Stream)
		return
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		p.failWith(w, r, ctx, resp, key, req.Stream)
		return
	}
	if req.Stream {
		p.relay(w, r, ctx, timer, resp, key)
		return
	}
	answer, err := io.ReadAll(resp.Body)
	if err != nil {
		p.fail(w, r, ctx, nil, key, err, false)
		return
	}
	if !json.Valid(answer) {
		writeError(w, http.StatusBadGateway, "upstream_error", "bad_upstream_response",
			fmt.Sprintf("the upstream %s answered something that is not JSON: %s", p.upstream.Host, snippet(answer, key)))
		return
	}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(resp.StatusCode)
	_, _ = w.Write(scrubKeyBytes(answer, key))
}

// relay passes an upstream event stream to the browser event by event, each flushed as it
// arrives and as the upstream wrote it. The response status is committed only at the first
// event, so a failure before it is a proper error response; a failure after it (a timeout, a
// broken connection, more than -max-response bytes) ends the stream with an event
// {"error": {...}} and no [DONE].
func (p *proxy) relay(w http.ResponseWriter, r *http.Request, ctx context.Context, timer *time.Timer, resp *http.Response, key string) {
	if ct := resp.Header.Get("Content-Type"); ct != "" {
		if mt, _, _ := mime.ParseMediaType(ct); mt != "text/event-stream" {
			// A plain answer to a streaming request would otherwise pass for an empty stream.
			writeError(w, http.StatusBadGateway, "upstream_error", "not_a_stream",
				fmt.Sprintf("the upstream %s answered %s instead of an event stream; turn streaming off for this endpoint",
					p.upstream.Host, scrub(ct, key)))
			return
		}
	}
	rc := http.NewResponseController(w)
	started := false
	start := func() {
		h := w.Header()
		h.Set("Content-Type", "text/event-stream; charset=utf-8")
		h.Set("Cache-Control", "no-cache")
		h.Set("X-Accel-Buffering", "no")
		w.WriteHeader(resp.StatusCode)
		started = true
	}
	send := func(event []byte) bool {
		if !started {
			start()
		}
		if _, err := w.Write(event); err != nil {
			markClientGone(w)
			return false
		}
		if err := rc.Flush(); err != nil {
			markClientGone(w)
			return false
		}
		return true
	}
	reader := bufio.NewReaderSize(resp.Body, 32<<10)
	var event []byte
	for {
		line, err := reader.ReadSlice('\n')
		event = append(event, line...)
		if err == bufio.ErrBufferFull {
			continue // a long line: read on
		}
		if err == nil {
			if !isBlankLine(line) {
				continue
			}
			// A blank line ends an event: it goes out now, with its key scrubbed if the
			// upstream echoed it.
			timer.Reset(p.cfg.Timeout)
			if !send(scrubEvent(event, key)) {
				return
			}
			event = event[:0]
			continue
		}
		if err == io.EOF && context.Cause(ctx) == nil {
			// The upstream ended its answer; whatever it sent last goes out as it is.
			if len(event) > 0 || !started {
				send(scrubEvent(event, key))
			}
			return
		}
		if !started {
			p.fail(w, r, ctx, nil, key, err, true)
			return
		}
		if r.Context().Err() != nil {
			markClientGone(w)
			return
		}
		_, e := p.describe(ctx, nil, key, err, true)
		if e.Code == "upstream_timeout" {
			e.Message = fmt.Sprintf("the upstream %s sent nothing for %s (-timeout); the answer is incomplete",
				p.upstream.Host, formatDuration(p.cfg.Timeout))
		}
		msg, _ := json.Marshal(struct {
			Error apiError `json:"error"`
		}{e})
		send([]byte("data: " + string(msg) + "\n\n"))
		return
	}
}

func isBlankLine(line []byte) bool {
	return len(line) == 1 || len(line) == 2 && line[0] == '\r'
}

// scrubEvent removes the key from one SSE event. An error event gets the whole scrub, masked
// keys and bearer tokens included, as an error body does; any other event changes only if it
// holds the key itself, which an honest upstream never sends.
func scrubEvent(event []byte, key string) []byte {
	if bytes.Contains(event, []byte(`"error"`)) && isErrorEvent(event) {
		return []byte(scrub(string(event), key))
	}
	return scrubKeyBytes(event, key)
}

// isErrorEvent reports whether an SSE event's data is a JSON object with an "error" member.
func isErrorEvent(event []byte) bool {
	var data []byte
	for _, line := range bytes.Split(event, []byte("\n")) {
		if rest, ok := bytes.CutPrefix(bytes.TrimRight(line, "\r"), []byte("data:")); ok {
			data = append(data, bytes.TrimPrefix(rest, []byte(" "))...)
			data = append(data, '\n')
		}
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(data, &obj) != nil {
		return false
	}
	_, ok := obj["error"]
	return ok
}

// models forwards GET /v1/models so the page can offer the upstream's models. This one is
// go-openai's from end to end: the page reads only each model's id from the list.
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
	if r.ContentLength == 0 {
		// No body to wait for: the upstream may take longer than -body-timeout.
		_ = http.NewResponseController(w).SetReadDeadline(time.Time{})
	}
	key, ok := p.callKey(w, r)
	if !ok {
		return
	}
	release, ok := p.acquire(w)
	if !ok {
		return
	}
	defer release()
	doer := &modelsDoer{p: p}
	cc := p.clientConfig(key, p.azureMapper)
	cc.HTTPClient = doer
	client := openai.NewClientWithConfig(cc)
	ctx, cancel := context.WithCancelCause(r.Context())
	defer cancel(nil)
	timer := time.AfterFunc(p.cfg.Timeout, func() { cancel(errUpstreamTimeout) })
	defer timer.Stop()
	list, err := client.ListModels(ctx)
	if err != nil {
		p.fail(w, r, ctx, doer.headers(), key, err, false)
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

// failWith answers an upstream error response: go-openai's types read it (OpenAI's error
// shape, Azure's variants, a code that is a number), and fail maps and scrubs it.
func (p *proxy) failWith(w http.ResponseWriter, r *http.Request, ctx context.Context, resp *http.Response, key string, stream bool) {
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		p.fail(w, r, ctx, resp.Header, key, err, stream)
		return
	}
	var errRes openai.ErrorResponse
	if err := json.Unmarshal(body, &errRes); err != nil || errRes.Error == nil {
		reqErr := &openai.RequestError{HTTPStatus: resp.Status, HTTPStatusCode: resp.StatusCode, Err: err, Body: body}
		p.fail(w, r, ctx, resp.Header, key, reqErr, stream)
		return
	}
	errRes.Error.HTTPStatus, errRes.Error.HTTPStatusCode = resp.Status, resp.StatusCode
	p.fail(w, r, ctx, resp.Header, key, errRes.Error, stream)
}

// retryHeaders are the upstream's hints of when to try again, passed on with its errors:
// OpenAI's SDKs read both.
var retryHeaders = []string{"Retry-After", "Retry-After-Ms"}

// fail answers a failed upstream call in OpenAI's error shape with the right status. upstream
// is the upstream's response header, nil when it never answered.
func (p *proxy) fail(w http.ResponseWriter, r *http.Request, ctx context.Context, upstream http.Header, key string, err error, stream bool) {
	if r.Context().Err() != nil {
		markClientGone(w)
		return
	}
	status, e := p.describe(ctx, upstream, key, err, stream)
	for _, name := range retryHeaders {
		if v := upstream.Get(name); v != "" {
			w.Header().Set(name, scrub(v, key))
		}
	}
	writeAPIError(w, status, e)
}

// describe turns an upstream failure into a status and an OpenAI-shaped error whose message
// never contains the key.
func (p *proxy) describe(ctx context.Context, upstream http.Header, key string, err error, stream bool) (int, apiError) {
	host := p.upstream.Host
	if errors.Is(context.Cause(ctx), errUpstreamTimeout) {
		msg := fmt.Sprintf("the upstream %s did not answer within %s (-timeout)", host, formatDuration(p.cfg.Timeout))
		return http.StatusGatewayTimeout, apiError{Message: msg, Type: "timeout", Code: "upstream_timeout"}
	}
	if errors.Is(err, errResponseTooLarge) {
		msg := fmt.Sprintf("the upstream %s answered more than %d bytes, the dev server's limit (-max-response)", host, p.cfg.MaxResponse)
		return http.StatusBadGateway, apiError{Message: msg, Type: "upstream_error", Code: "upstream_response_too_large"}
	}
	var apiErr *openai.APIError
	if errors.As(err, &apiErr) {
		status := apiErr.HTTPStatusCode
		if status == 0 {
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
			if ra := upstream.Get("Retry-After"); ra != "" && !strings.Contains(e.Message, "Retry") {
				e.Message += " (retry after " + scrub(ra, key) + "s)"
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
		if s := snippet(reqErr.Body, key); s != "" {
			msg += ": " + s
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

// snippet is the start of an upstream body for an error message: scrubbed first, then cut, so
// that a cut can never leave a piece of the key that the scrub would no longer recognise.
func snippet(body []byte, key string) string {
	s := strings.TrimSpace(scrub(string(body), key))
	if len(s) > 300 {
		s = clip(s, 300)
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}

// scrub removes the key, written plainly or escaped, and anything that looks like an API key
// or a bearer token, from text that came from the upstream: OpenAI's own 401 message quotes part
// of the key, and a misconfigured server may echo the whole request.
func scrub(s, key string) string {
	s = scrubKey(s, key)
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

const keyRedacted = "[key redacted]"

// scrubKey replaces every occurrence of the key in s, in any of the forms keyAt recognises.
// Keys shorter than 4 bytes are left alone: they would match ordinary text.
func scrubKey(s, key string) string {
	if len(key) < 4 {
		return s
	}
	var b strings.Builder
	last := 0
	for i := 0; i < len(s); i++ {
		if c := s[i]; c != key[0] && c != '\\' && c != '%' {
			continue
		}
		if n := keyAt(s[i:], key); n > 0 {
			b.WriteString(s[last:i])
			b.WriteString(keyRedacted)
			i += n - 1
			last = i + 1
		}
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// scrubKeyBytes is scrubKey for a body that is passed on as it is when it holds no key.
func scrubKeyBytes(b []byte, key string) []byte {
	if len(key) < 4 {
		return b
	}
	s := string(b)
	if clean := scrubKey(s, key); clean != s {
		return []byte(clean)
	}
	return b
}

// keyAt returns the length of the key's text at the start of s, or 0. Each of the key's
// characters may be written as itself or as a JSON encoder may escape it (\/ as PHP writes a
// slash, \" \\ \b \f \n \r \t, \uXXXX in either case of hex, a surrogate pair past U+FFFF), or
// percent-encoded as in an echoed URL. A budget bounds the backtracking that keys full of
// backslashes or percent signs could cause.
func keyAt(s, key string) int {
	// failed remembers the (text, key) positions already known not to match, so a run of
	// backslashes, each readable as itself or as half of an escape, is tried once per position
	// pair rather than once per way of reaching it (exponential: a 9-backslash key escaped as 18
	// backslashes ran out of the budget and was let through). Made on the first failure only.
	var failed map[[2]int]bool
	budget := 64*len(key) + 2*len(key)*len(key)
	var match func(i, k int) int
	match = func(i, k int) int {
		if k == len(key) {
			return i
		}
		if failed[[2]int{i, k}] {
			return -1
		}
		if budget--; budget < 0 {
			return -1
		}
		r, size := rune(key[k]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(key[k:])
		}
		forms, count := charForms(s[i:], key[k:k+size], r)
		for _, n := range forms[:count] {
			if end := match(i+n, k+size); end >= 0 {
				return end
			}
		}
		if k > 0 {
			if failed == nil {
				failed = map[[2]int]bool{}
			}
			failed[[2]int{i, k}] = true
		}
		return -1
	}
	if end := match(0, 0); end > 0 {
		return end
	}
	return 0
}

// charForms returns the lengths of the prefixes of s that write the key character lit (whose
// rune is r, or utf8.RuneError for a byte that is not UTF-8): forms[:count], without
// allocating, since bodies full of backslashes call it often.
func charForms(s, lit string, r rune) (forms [3]int, count int) {
	add := func(n int) {
		forms[count] = n
		count++
	}
	if strings.HasPrefix(s, lit) {
		add(len(lit))
	}
	if len(s) >= 2 && s[0] == '\\' {
		switch c := s[1]; c {
		case '/', '"', '\\':
			if r == rune(c) {
				add(2)
			}
		case 'b', 'f', 'n', 'r', 't':
			if r == shortEscapes[c] {
				add(2)
			}
		case 'u':
			if r < 0x10000 {
				if v, ok := hex4(s[2:]); ok && v == r {
					add(6)
				}
			} else if len(s) >= 12 && s[6] == '\\' && s[7] == 'u' {
				hi, ok1 := hex4(s[2:])
				lo, ok2 := hex4(s[8:])
				if ok1 && ok2 && 0xD800 <= hi && hi < 0xDC00 && 0xDC00 <= lo && lo < 0xE000 &&
					0x10000+(hi-0xD800)<<10+(lo-0xDC00) == r {
					add(12)
				}
			}
		}
	}
	if len(s) >= 3 && s[0] == '%' && len(lit) == 1 {
		if v, err := strconv.ParseUint(s[1:3], 16, 8); err == nil && byte(v) == lit[0] {
			add(3)
		}
	}
	return forms, count
}

// shortEscapes are JSON's one-letter escapes of control characters.
var shortEscapes = map[byte]rune{'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

func hex4(s string) (rune, bool) {
	if len(s) < 4 {
		return 0, false
	}
	v, err := strconv.ParseUint(s[:4], 16, 16)
	return rune(v), err == nil
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

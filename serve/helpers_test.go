package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// testKey is long and unique so that any copy of it, whole or in part, is easy to find.
const testKey = "sk-test-4f1c9e0b7a2d4c55b8e1d3f6a9c0b2e7XYZ"

// seenRequest is what the fake upstream saw of one request.
type seenRequest struct {
	Method, Path, RawQuery string
	EscapedPath            string
	Header                 http.Header
	Authorization, APIKey  string
	Body                   []byte
}

// fakeUpstream is an OpenAI-compatible server that lives in the test: the only stand-in.
type fakeUpstream struct {
	*httptest.Server
	mu   sync.Mutex
	seen []seenRequest
}

func newFakeUpstream(t *testing.T, handler http.HandlerFunc) *fakeUpstream {
	t.Helper()
	f := &fakeUpstream{}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		f.mu.Lock()
		f.seen = append(f.seen, seenRequest{
			Method: r.Method, Path: r.URL.Path, RawQuery: r.URL.RawQuery, EscapedPath: r.URL.EscapedPath(), Header: r.Header.Clone(),
			Authorization: r.Header.Get("Authorization"), APIKey: r.Header.Get("api-key"), Body: body,
		})
		f.mu.Unlock()
		r.Body = io.NopCloser(bytes.NewReader(body))
		handler(w, r)
	}))
	t.Cleanup(f.Close)
	return f
}

func (f *fakeUpstream) requests() []seenRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]seenRequest(nil), f.seen...)
}

// syncBuffer is the access log, written by server goroutines and read by the test.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// testConfig is the config parseConfig would build, pointed at base (an upstream base URL).
func testConfig(t *testing.T, base string) config {
	return config{
		Addr:      defaultAddr,
		Upstreams: []upstreamSpec{{Name: defaultUpstreamName, URL: base}},
		WebDir:    t.TempDir(),
		MaxBody:   defaultMaxBody,
		Timeout:   10 * time.Second,
	}
}

// startProxy runs newServer(cfg) on a real loopback listener and returns it with its log.
func startProxy(t *testing.T, cfg config) (*httptest.Server, *syncBuffer) {
	t.Helper()
	logs := &syncBuffer{}
	cfg.Log = logs
	srv := httptest.NewServer(newServer(cfg))
	t.Cleanup(srv.Close)
	return srv, logs
}

// noGzipClient talks to the proxy without Go's transparent gzip, so tests see the wire.
var noGzipClient = &http.Client{Transport: &http.Transport{DisableCompression: true}}

func chatBody(model string, stream bool) string {
	return fmt.Sprintf(`{"model":%q,"messages":[{"role":"user","content":"Is the claim grounded?"}],"temperature":0,"stream":%t}`, model, stream)
}

func postChat(t *testing.T, proxyURL, key, body string) *http.Response {
	t.Helper()
	return postChatTo(t, proxyURL, "", key, body)
}

// postChatTo sends a chat completion naming upstream (none when "") with key (none when "").
func postChatTo(t *testing.T, proxyURL, upstream, key, body string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, proxyURL+"/v1/chat/completions", strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	if upstream != "" {
		req.Header.Set(upstreamHeader, upstream)
	}
	resp, err := noGzipClient.Do(req)
	require.NoError(t, err)
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

func readAll(t *testing.T, r io.Reader) string {
	t.Helper()
	b, err := io.ReadAll(r)
	require.NoError(t, err)
	return string(b)
}

// completionJSON is a minimal OpenAI chat completion whose answer is content.
func completionJSON(content string) string {
	c, _ := json.Marshal(content)
	return `{"id":"chatcmpl-1","object":"chat.completion","created":1700000000,"model":"judge-1",` +
		`"choices":[{"index":0,"message":{"role":"assistant","content":` + string(c) + `},"finish_reason":"stop"}],` +
		`"usage":{"prompt_tokens":12,"completion_tokens":1,"total_tokens":13}}`
}

// chunkJSON is one streaming chunk carrying delta content.
func chunkJSON(content string) string {
	c, _ := json.Marshal(content)
	return `{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1700000000,"model":"judge-1",` +
		`"choices":[{"index":0,"delta":{"content":` + string(c) + `},"finish_reason":null}],"x_vendor_extra":42}`
}

func answerCompletion(content string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, completionJSON(content))
	}
}

// answerStream streams one chunk per piece and [DONE].
func answerStream(pieces ...string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for _, p := range pieces {
			fmt.Fprintf(w, "data: %s\n\n", chunkJSON(p))
			w.(http.Flusher).Flush()
		}
		io.WriteString(w, "data: [DONE]\n\n")
	}
}

// decodeError reads the OpenAI error shape and fails the test if the body is not in it.
func decodeError(t *testing.T, body string) apiError {
	t.Helper()
	var e struct {
		Error *struct {
			Message string `json:"message"`
			Type    string `json:"type"`
			Code    any    `json:"code"`
		} `json:"error"`
	}
	require.NoError(t, json.Unmarshal([]byte(body), &e), "body: %s", body)
	require.NotNil(t, e.Error, "body: %s", body)
	require.NotEmpty(t, e.Error.Message)
	require.NotEmpty(t, e.Error.Type)
	require.Contains(t, body, `"code":`, "OpenAI's shape always has code, even if null")
	return apiError{Message: e.Error.Message, Type: e.Error.Type, Code: e.Error.Code}
}

// sseEvents splits an SSE body into its data payloads.
func sseEvents(body string) []string {
	var out []string
	for _, block := range strings.Split(body, "\n\n") {
		if data, ok := strings.CutPrefix(strings.TrimSpace(block), "data: "); ok {
			out = append(out, data)
		}
	}
	return out
}

// namedUpstream is a fake upstream that says its name in every answer: a completion "from
// NAME", a stream of it, and a model list of one model "NAME-model".
func namedUpstream(t *testing.T, name string) *fakeUpstream {
	return newFakeUpstream(t, func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/models") {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"object":"list","data":[{"id":%q,"object":"model","created":0,"owned_by":"test"}]}`, name+"-model")
			return
		}
		var req struct{ Stream bool }
		_ = json.Unmarshal(mustRead(r.Body), &req)
		if req.Stream {
			answerStream("from ", name)(w, r)
			return
		}
		answerCompletion("from "+name)(w, r)
	})
}

func mustRead(r io.Reader) []byte {
	b, _ := io.ReadAll(r)
	return b
}

// twoUpstreams is a config with two fake upstreams: "local" (the default, at /v1) and "hosted"
// (at /hosted/v1, a path the page is never told).
func twoUpstreams(t *testing.T) (cfg config, local, hosted *fakeUpstream) {
	local, hosted = namedUpstream(t, "local"), namedUpstream(t, "hosted")
	cfg = testConfig(t, "")
	cfg.Upstreams = []upstreamSpec{{Name: "local", URL: local.URL + "/v1"}, {Name: "hosted", URL: hosted.URL + "/hosted/v1"}}
	return cfg, local, hosted
}

// callUpstream is postChatTo with the answer read.
func callUpstream(t *testing.T, proxyURL, upstream, key, body string) (*http.Response, string) {
	t.Helper()
	resp := postChatTo(t, proxyURL, upstream, key, body)
	return resp, readAll(t, resp.Body)
}

// contentOf is a chat completion's first answer.
func contentOf(t *testing.T, body string) string {
	t.Helper()
	var c struct {
		Choices []struct{ Message struct{ Content string } }
	}
	require.NoError(t, json.Unmarshal([]byte(body), &c), body)
	require.NotEmpty(t, c.Choices, body)
	return c.Choices[0].Message.Content
}

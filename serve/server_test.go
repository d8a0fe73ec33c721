package main

import (
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDNSRebindingHostIsRefused(t *testing.T) {
	fake := newFakeUpstream(t, answerCompletion("yes"))
	proxy, _ := startProxy(t, testConfig(t, fake.URL+"/v1"))
	for _, host := range []string{"evil.example", "evil.example:8080", "127.0.0.1.nip.io"} {
		req, err := http.NewRequest(http.MethodGet, proxy.URL+"/ragjudge/config", nil)
		require.NoError(t, err)
		req.Host = host
		resp, err := noGzipClient.Do(req)
		require.NoError(t, err)
		body := readAll(t, resp.Body)
		resp.Body.Close()
		assert.Equal(t, http.StatusForbidden, resp.StatusCode, host)
		assert.Equal(t, "bad_host", decodeError(t, body).Code)
	}
	for _, host := range []string{"localhost:8080", "127.0.0.1:9", "[::1]:8080", "ragjudge.localhost", "0.0.0.0:8080"} {
		req, err := http.NewRequest(http.MethodGet, proxy.URL+"/ragjudge/config", nil)
		require.NoError(t, err)
		req.Host = host
		resp, err := noGzipClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		assert.Equal(t, http.StatusOK, resp.StatusCode, host)
	}
}

var accessLogLine = regexp.MustCompile(`^\d{4}/\d\d/\d\d \d\d:\d\d:\d\d\.\d{6} (GET|POST|PUT|HEAD) /\S* \d{3} [0-9.]+(µs|ms|s)$`)

func TestAccessLogHoldsMethodPathStatusDurationOnly(t *testing.T) {
	fake := newFakeUpstream(t, answerCompletion("yes"))
	proxy, logs := startProxy(t, testConfig(t, fake.URL+"/v1"))
	resp := postChat(t, proxy.URL, testKey, chatBody("secret-model-name", false))
	resp.Body.Close()
	r2, err := http.Get(proxy.URL + "/v1/models?api_key=" + testKey)
	require.NoError(t, err)
	r2.Body.Close()
	r3, err := http.Get(proxy.URL + "/no/such/file.js")
	require.NoError(t, err)
	r3.Body.Close()

	require.Eventually(t, func() bool { return strings.Count(logs.String(), "\n") >= 3 }, 10*time.Second, 10*time.Millisecond)
	for _, line := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
		assert.Regexp(t, accessLogLine, line)
	}
	assert.Contains(t, logs.String(), "POST /v1/chat/completions 200 ")
	assert.Contains(t, logs.String(), "GET /no/such/file.js 404 ")
	assert.NotContains(t, logs.String(), "secret-model-name")
	assert.NotContains(t, logs.String(), testKey)
	assert.NotContains(t, logs.String(), "api_key")
}

func TestEveryResponseIsNosniff(t *testing.T) {
	dir, _ := webFixture(t)
	fake := newFakeUpstream(t, answerCompletion("yes"))
	cfg := testConfig(t, fake.URL+"/v1")
	cfg.WebDir = dir
	proxy, _ := startProxy(t, cfg)

	requests := []struct {
		name, method, path, body string
		header                   map[string]string
		status                   int
	}{
		{"page", "GET", "/", "", nil, 200},
		{"wasm", "GET", "/ragjudge.wasm", "", nil, 200},
		{"not modified", "GET", "/tiny.js", "", map[string]string{"If-None-Match": "*"}, 304},
		{"missing file", "GET", "/missing.js", "", nil, 404},
		{"hidden file", "GET", "/.git/config", "", nil, 404},
		{"directory redirect", "GET", "/batch", "", nil, 301},
		{"static POST", "POST", "/index.html", "", nil, 405},
		{"config", "GET", "/ragjudge/config", "", nil, 200},
		{"models", "GET", "/v1/models", "", nil, 200},
		{"completion", "POST", "/v1/chat/completions", chatBody("judge-1", false), map[string]string{"Content-Type": "application/json"}, 200},
		{"bad request", "POST", "/v1/chat/completions", `{}`, map[string]string{"Content-Type": "application/json"}, 400},
		{"unknown endpoint", "GET", "/v1/embeddings", "", nil, 404},
		{"cross-origin", "GET", "/v1/models", "", map[string]string{"Origin": "https://evil.example"}, 403},
		{"calls without upgrade", "GET", callsPath, "", nil, 426},
	}
	client := &http.Client{
		Transport:     &http.Transport{DisableCompression: true},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	for _, tc := range requests {
		t.Run(tc.name, func(t *testing.T) {
			req, err := http.NewRequest(tc.method, proxy.URL+tc.path, strings.NewReader(tc.body))
			require.NoError(t, err)
			for k, v := range tc.header {
				req.Header.Set(k, v)
			}
			resp, err := client.Do(req)
			require.NoError(t, err)
			resp.Body.Close()
			require.Equal(t, tc.status, resp.StatusCode)
			assert.Equal(t, "nosniff", resp.Header.Get("X-Content-Type-Options"))
		})
	}
	t.Run("bad host", func(t *testing.T) {
		req, err := http.NewRequest(http.MethodGet, proxy.URL+"/", nil)
		require.NoError(t, err)
		req.Host = "evil.example"
		resp, err := client.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		require.Equal(t, http.StatusForbidden, resp.StatusCode)
		assert.Equal(t, "nosniff", resp.Header.Get("X-Content-Type-Options"))
	})
	t.Run("stream", func(t *testing.T) {
		fake := newFakeUpstream(t, answerStream("yes"))
		proxy, _ := startProxy(t, testConfig(t, fake.URL+"/v1"))
		resp := postChat(t, proxy.URL, testKey, chatBody("judge-1", true))
		readAll(t, resp.Body)
		assert.Equal(t, "nosniff", resp.Header.Get("X-Content-Type-Options"))
	})
	t.Run("calls socket upgrade", func(t *testing.T) {
		conn, resp, err := dialCallsWith(proxy.URL, &websocket.DialOptions{
			Subprotocols: []string{callsSubprotocol},
			HTTPHeader:   http.Header{"Origin": {proxy.URL}},
		})
		require.NoError(t, err)
		defer conn.CloseNow()
		require.Equal(t, http.StatusSwitchingProtocols, resp.StatusCode)
		assert.Equal(t, "nosniff", resp.Header.Get("X-Content-Type-Options"))
	})
}

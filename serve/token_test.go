package main

import (
	"context"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const testToken = "tok-0123456789abcdef-XYZ"

// noRedirect is a client that shows redirects instead of following them, without a cookie jar.
var noRedirect = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

// startTokened runs a server that needs testToken, in front of fake.
func startTokened(t *testing.T, fake *fakeUpstream) (*httptest.Server, *syncBuffer) {
	t.Helper()
	web, _ := webFixture(t)
	cfg := testConfig(t, fake.URL+"/v1")
	cfg.WebDir = web
	cfg.Token = testToken
	cfg.ServerKey = "sk-server-key-0123456789abcdef"
	return startProxy(t, cfg)
}

// do sends method path to srv with the given headers (and a chat body for a POST).
func do(t *testing.T, srv *httptest.Server, method, path string, header map[string]string) (*http.Response, string) {
	t.Helper()
	var body io.Reader
	if method == http.MethodPost {
		body = strings.NewReader(chatBody("judge-1", false))
	}
	req, err := http.NewRequest(method, srv.URL+path, body)
	require.NoError(t, err)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := noRedirect.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	return resp, readAll(t, resp.Body)
}

// postWith sends a chat completion to the server at base with client (its cookie jar) and
// returns the status.
func postWith(t *testing.T, client *http.Client, base string) int {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, base+"/v1/chat/completions", strings.NewReader(chatBody("judge-1", false)))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	resp, err := client.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	return resp.StatusCode
}

func TestParseConfigToken(t *testing.T) {
	web := t.TempDir()
	parse := func(env map[string]string, args ...string) (config, error) {
		return parseConfig(append([]string{"-web", web}, args...), func(k string) string { return env[k] }, io.Discard)
	}
	cfg, err := parse(nil)
	require.NoError(t, err)
	assert.Empty(t, cfg.Token, "loopback without -token: no token")

	for _, addr := range []string{"0.0.0.0:8080", ":8080", "192.168.1.2:80", "[::]:9000"} {
		cfg, err = parse(map[string]string{"OPENAI_API_KEY": "sk-x"}, "-addr", addr)
		require.NoError(t, err, addr)
		assert.Regexp(t, `^[0-9a-f]{48}$`, cfg.Token, "%s: beyond loopback a token is made", addr)
		assert.True(t, cfg.TokenMade)
		other, _ := parse(nil, "-addr", addr)
		assert.NotEqual(t, cfg.Token, other.Token, "a new one each start")
	}

	cfg, err = parse(nil, "-token", testToken)
	require.NoError(t, err)
	assert.Equal(t, testToken, cfg.Token, "given on loopback, it is needed there too")
	assert.False(t, cfg.TokenMade)
	cfg, err = parse(map[string]string{"RAGJUDGE_TOKEN": testToken}, "-addr", "0.0.0.0:1")
	require.NoError(t, err)
	assert.Equal(t, testToken, cfg.Token, "RAGJUDGE_TOKEN keeps it out of the process list")
	cfg, err = parse(map[string]string{"RAGJUDGE_TOKEN": "from-the-environment-1"}, "-token", testToken)
	require.NoError(t, err)
	assert.Equal(t, testToken, cfg.Token, "the flag wins")

	for tok, want := range map[string]string{"short": "at least 16", "has space in it 0123": "only letters", "semi;colon-0123456789": "only letters", "percent%41-0123456789": "only letters"} {
		_, err := parse(nil, "-token", tok)
		require.Error(t, err, tok)
		assert.Contains(t, err.Error(), want, tok)
	}
}

func TestModelCallsNeedTheToken(t *testing.T) {
	fake := newFakeUpstream(t, answerCompletion("yes"))
	srv, logs := startTokened(t, fake)
	cookie := "ragjudge-token-8080=" + testToken

	refused := []struct {
		name, method, path string
		header             map[string]string
		code               string
	}{
		{"chat, no token", "POST", "/v1/chat/completions", nil, "token_required"},
		{"chat, the page's key but no token", "POST", "/v1/chat/completions", map[string]string{"Authorization": "Bearer " + testKey}, "token_required"},
		{"chat, wrong token header", "POST", "/v1/chat/completions", map[string]string{"Ragjudge-Token": "tok-0123456789abcdef-XYy"}, "invalid_token"},
		{"chat, the token's prefix", "POST", "/v1/chat/completions", map[string]string{"Ragjudge-Token": testToken[:len(testToken)-1]}, "invalid_token"},
		{"chat, the token and more", "POST", "/v1/chat/completions", map[string]string{"Ragjudge-Token": testToken + "0"}, "invalid_token"},
		{"chat, wrong cookie", "POST", "/v1/chat/completions", map[string]string{"Cookie": "ragjudge-token-8080=nope"}, "invalid_token"},
		{"chat, another port's cookie", "POST", "/v1/chat/completions", map[string]string{"Cookie": "ragjudge-token-9090=" + testToken}, "token_required"},
		{"chat, token in the query", "POST", "/v1/chat/completions?token=" + testToken, nil, "token_required"},
		{"models, no token", "GET", "/v1/models", nil, "token_required"},
		{"models, wrong token", "GET", "/v1/models", map[string]string{"Ragjudge-Token": "x"}, "invalid_token"},
	}
	for _, tc := range refused {
		resp, body := do(t, srv, tc.method, tc.path, tc.header)
		assert.Equal(t, http.StatusUnauthorized, resp.StatusCode, "%s: %s", tc.name, body)
		e := decodeError(t, body)
		assert.Equal(t, tc.code, e.Code, tc.name)
		assert.Contains(t, e.Message, "?token=", "%s: the message says what to open", tc.name)
		assert.NotContains(t, body, testToken, tc.name)
	}
	assert.Empty(t, fake.requests(), "no upstream call without the token")

	for _, header := range []map[string]string{{"Ragjudge-Token": testToken}, {"Cookie": cookie}} {
		resp, body := do(t, srv, "POST", "/v1/chat/completions", header)
		assert.Equal(t, http.StatusOK, resp.StatusCode, body)
		resp, body = do(t, srv, "GET", "/v1/models", header)
		assert.Equal(t, http.StatusOK, resp.StatusCode, body)
	}
	require.Len(t, fake.requests(), 4)
	for _, req := range fake.requests() {
		assert.NotContains(t, req.Header.Get("Cookie"), testToken, "the token never goes upstream")
		assert.Empty(t, req.Header.Get("Ragjudge-Token"))
	}

	// The page itself, and its config, answer without the token: the page must be able to say
	// what is missing.
	resp, _ := do(t, srv, "GET", "/", nil)
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	resp, body := do(t, srv, "GET", "/ragjudge/config", nil)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Contains(t, body, `"token":"required"`)
	assert.Contains(t, body, `"upstream":""`, "a page without the token is not told the upstream")
	assert.NotContains(t, body, fake.URL)
	_, body = do(t, srv, "GET", "/ragjudge/config", map[string]string{"Cookie": cookie})
	assert.Contains(t, body, `"token":"ok"`)
	assert.Contains(t, body, fake.URL)

	require.Eventually(t, func() bool { return strings.Count(logs.String(), "\n") >= len(refused)+7 }, 5*time.Second, 10*time.Millisecond)
	assert.NotContains(t, logs.String(), testToken, "never logged")
	assert.NotContains(t, logs.String(), "token=")
}

func TestCallsSocketNeedsTheToken(t *testing.T) {
	fake := newFakeUpstream(t, answerCompletion("yes"))
	srv, _ := startTokened(t, fake)
	for name, header := range map[string]http.Header{
		"none":  {"Origin": {srv.URL}},
		"wrong": {"Origin": {srv.URL}, "Cookie": {"ragjudge-token-8080=" + strings.Repeat("a", 24)}},
	} {
		conn, resp, err := dialCallsWith(srv.URL, &websocket.DialOptions{Subprotocols: []string{callsSubprotocol}, HTTPHeader: header})
		require.Error(t, err, name)
		if conn != nil {
			conn.CloseNow()
		}
		require.NotNil(t, resp, name)
		assert.Equal(t, http.StatusUnauthorized, resp.StatusCode, "%s: refused before the upgrade", name)
	}
	conn, resp, err := dialCallsWith(srv.URL, &websocket.DialOptions{
		Subprotocols: []string{callsSubprotocol},
		HTTPHeader:   http.Header{"Origin": {srv.URL}, "Cookie": {"ragjudge-token-8080=" + testToken}},
	})
	require.NoError(t, err)
	defer conn.CloseNow()
	assert.Equal(t, http.StatusSwitchingProtocols, resp.StatusCode)
	sendText(t, conn, callMessage(1, "", chatBody("judge-1", false)))
	res := readResult(t, conn)
	assert.Equal(t, http.StatusOK, res.Status)
	assert.Equal(t, "server", res.Headers["ragjudge-key"])
	require.Len(t, fake.requests(), 1, "only the call with the token reached the upstream")
}

func TestTheTokenedAddressIsTradedForACookie(t *testing.T) {
	fake := newFakeUpstream(t, answerCompletion("yes"))
	srv, logs := startTokened(t, fake)

	cases := []struct{ path, location string }{
		{"/?token=" + testToken, "/"},
		{"/index.html?token=" + testToken, "/index.html"},
		{"/?a=1&token=" + testToken + "&b=two%20words", "/?a=1&b=two+words"},
		{"//evil.example/?token=" + testToken, "/"},
	}
	for _, tc := range cases {
		resp, _ := do(t, srv, "GET", tc.path, nil)
		require.Equal(t, http.StatusSeeOther, resp.StatusCode, tc.path)
		assert.Equal(t, tc.location, resp.Header.Get("Location"), "%s: the same address without the token", tc.path)
		assert.Equal(t, "no-store", resp.Header.Get("Cache-Control"))
		assert.Equal(t, "no-referrer", resp.Header.Get("Referrer-Policy"))
		cookies := resp.Cookies()
		require.Len(t, cookies, 1, tc.path)
		c := cookies[0]
		assert.Equal(t, "ragjudge-token-8080", c.Name, "named after the port: two servers on one host keep their own")
		assert.Equal(t, testToken, c.Value)
		assert.True(t, c.HttpOnly, "the page's scripts never see it")
		assert.Equal(t, http.SameSiteStrictMode, c.SameSite)
		assert.Equal(t, "/", c.Path)
	}

	resp, body := do(t, srv, "GET", "/?token=not-the-token-0123", nil)
	assert.Equal(t, http.StatusUnauthorized, resp.StatusCode)
	assert.Empty(t, resp.Cookies(), "a wrong token sets nothing")
	assert.Contains(t, body, "not this dev server's")
	assert.NotContains(t, body, "not-the-token-0123")

	// A browser: the tokened address, followed to the clean one, then a model call with the cookie.
	jar, err := cookiejar.New(nil)
	require.NoError(t, err)
	browser := &http.Client{Jar: jar}
	resp, err = browser.Get(srv.URL + "/?token=" + testToken)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, "/", resp.Request.URL.Path)
	assert.Empty(t, resp.Request.URL.RawQuery, "the page is at the address without the token")
	assert.Equal(t, http.StatusOK, postWith(t, browser, srv.URL), "the cookie carries the token")

	require.Eventually(t, func() bool { return strings.Contains(logs.String(), "POST /v1/chat/completions 200") }, 5*time.Second, 10*time.Millisecond)
	assert.NotContains(t, logs.String(), testToken)

	t.Run("a server without a token only cleans the address", func(t *testing.T) {
		web, _ := webFixture(t)
		cfg := testConfig(t, fake.URL+"/v1")
		cfg.WebDir = web
		open, _ := startProxy(t, cfg)
		resp, _ := do(t, open, "GET", "/?token=whatever-it-was-0", nil)
		assert.Equal(t, http.StatusSeeOther, resp.StatusCode)
		assert.Equal(t, "/", resp.Header.Get("Location"))
		assert.Empty(t, resp.Cookies())
	})
}

func TestRunBeyondLoopbackWithAServerKeyNeedsTheToken(t *testing.T) {
	fake := newFakeUpstream(t, answerCompletion("yes"))
	web, _ := webFixture(t)
	stdout, stderr := &syncBuffer{}, &syncBuffer{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	env := func(k string) string {
		if k == "OPENAI_API_KEY" {
			return "sk-server-key-0123456789abcdef"
		}
		return ""
	}
	go func() {
		done <- run(ctx, []string{"-addr", "0.0.0.0:0", "-web", web, "-upstream", fake.URL + "/v1"}, env, stdout, stderr)
	}()
	line := regexp.MustCompile(`ragjudge: serving (http://127\.0\.0\.1:(\d+))/\?token=([0-9a-f]{48}) \(upstream`)
	require.Eventually(t, func() bool { return line.MatchString(stdout.String()) }, 5*time.Second, 10*time.Millisecond, stdout.String())
	m := line.FindStringSubmatch(stdout.String())
	base, port, token := m[1], m[2], m[3]
	if strings.Contains(stdout.String(), "from other machines") {
		assert.Regexp(t, `ragjudge: from other machines: http://\S+:`+port+`/\?token=`+token+`\n`, stdout.String())
	}

	// Anyone who reaches it without the token spends nothing.
	resp := postChat(t, base, "", chatBody("judge-1", false))
	assert.Equal(t, http.StatusUnauthorized, resp.StatusCode)
	assert.Empty(t, fake.requests())

	jar, err := cookiejar.New(nil)
	require.NoError(t, err)
	browser := &http.Client{Jar: jar}
	resp, err = browser.Get(base + "/?token=" + url.QueryEscape(token))
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, http.StatusOK, postWith(t, browser, base))
	require.Len(t, fake.requests(), 1)
	assert.Equal(t, "Bearer sk-server-key-0123456789abcdef", fake.requests()[0].Authorization)

	cancel()
	require.NoError(t, <-done)
	assert.Contains(t, stderr.String(), "reachable from other machines: model calls need the access token")
	assert.NotContains(t, stderr.String(), token, "the access log never has it")
}

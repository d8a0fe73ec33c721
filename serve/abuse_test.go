package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// slashKey has the characters JSON encoders escape in their own ways: '/' (\/ in PHP, \u002f
// in some), '+' and '=' of base64 keys, and '<', '>' and '&' (\u003c… in Go's encoder).
const slashKey = "AbC/dEf+gh1=2<3>4&5/Zz9"

func TestKeyIsScrubbedInEveryEscapedForm(t *testing.T) {
	goForm, err := json.Marshal(slashKey)
	require.NoError(t, err)
	forms := map[string]string{
		"plain":               slashKey,
		"Go's encoder":        strings.Trim(string(goForm), `"`),
		"PHP's \\/":           strings.ReplaceAll(slashKey, "/", `\/`),
		"\\u002f":             strings.ReplaceAll(slashKey, "/", `\u002f`),
		"\\u002F":             strings.ReplaceAll(slashKey, "/", `\u002F`),
		"every character \\u": unicodeEscaped(slashKey),
		"percent-encoded":     strings.NewReplacer("/", "%2F", "+", "%2B", "=", "%3D").Replace(slashKey),
		"mixed escapes":       strings.NewReplacer("/", `\/`, "<", `\u003C`, "&", "%26").Replace(slashKey),
		"quote and backslash": `q\"x\\y`, // the key q"x\y written as JSON writes it
	}
	for name, form := range forms {
		t.Run(name, func(t *testing.T) {
			key := slashKey
			if name == "quote and backslash" {
				key = `q"x\y-long`
				form += "-long"
			}
			text := `{"error":{"message":"bad key ` + form + ` given"}}`
			out := scrub(text, key)
			assert.NotContains(t, out, form)
			assert.Contains(t, out, "bad key [key redacted] given")
		})
	}
	t.Run("past U+FFFF as a surrogate pair", func(t *testing.T) {
		out := scrub(`key k-\ud83d\ude00-abc!`, "k-😀-abc")
		assert.Equal(t, "key [key redacted]!", out)
	})
	t.Run("near misses stay", func(t *testing.T) {
		for _, text := range []string{
			strings.Replace(slashKey, "/", `\u002e`, 1),
			strings.Replace(slashKey, "/", `%2E`, 1),
			slashKey[:len(slashKey)-1],
		} {
			assert.Equal(t, text, scrub(text, slashKey))
		}
	})
}

func unicodeEscaped(s string) string {
	var b strings.Builder
	for _, r := range s {
		fmt.Fprintf(&b, `\u%04x`, r)
	}
	return b.String()
}

func TestEscapedKeyNeverReachesTheBrowser(t *testing.T) {
	goForm, _ := json.Marshal(slashKey)
	escaped := strings.Trim(string(goForm), `"`)
	php := strings.ReplaceAll(slashKey, "/", `\/`)
	cases := []struct {
		name    string
		stream  bool
		handler http.HandlerFunc
	}{
		// Not OpenAI's error shape, so the body itself becomes the message, cut at 300 bytes:
		// the key straddles the cut and must be scrubbed before it.
		{"raw body cut across the key", false, func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprintf(w, `{"detail":"%s rejected %s"}`, strings.Repeat("x", 290-len(`{"detail":"`)-len(" rejected ")), php)
		}},
		{"raw body with Go's escapes", false, func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusUnauthorized)
			fmt.Fprintf(w, `{"detail":"key %s is wrong"}`, escaped)
		}},
		{"error member with PHP's escapes", false, func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusUnauthorized)
			fmt.Fprintf(w, `{"error":{"message":"sent {\"key\":\"%s\"}","type":"invalid_request_error","code":"%s"}}`, strings.ReplaceAll(php, `\`, `\\`), php)
		}},
		{"escaped key in a stream's error event", true, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprintf(w, "data: %s\n\n", chunkJSON("partial"))
			fmt.Fprintf(w, `data: {"error":{"message":"key %s was revoked","type":"server_error","code":null}}`+"\n\n", php)
		}},
		{"escaped key echoed in a completion", false, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, completionJSON("your key is "+slashKey))
		}},
		{"escaped key echoed in a stream chunk", true, answerStream("your key is " + slashKey)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fake := newFakeUpstream(t, tc.handler)
			proxy, _ := startProxy(t, testConfig(t, fake.URL+"/v1"))
			resp := postChat(t, proxy.URL, slashKey, chatBody("judge-1", tc.stream))
			body := readAll(t, resp.Body)
			assert.Equal(t, "Bearer "+slashKey, fake.requests()[0].Authorization, "the key did reach the upstream")
			for _, form := range []string{slashKey, escaped, php, strings.ReplaceAll(escaped, `\`, `\\`)} {
				assert.NotContains(t, body, form)
			}
			for _, piece := range []string{"AbC", "dEf+gh1", `dEf\u002bgh1`, "4&5", `4\u00265`} {
				assert.NotContains(t, body, piece, "not a piece of it either")
			}
			assert.Contains(t, body, "[k", "the key was there, and is redacted (or cut within the redaction)")
		})
	}
}

func TestSlowRequestBodyIsCutOff(t *testing.T) {
	fake := newFakeUpstream(t, answerCompletion("yes"))
	cfg := testConfig(t, fake.URL+"/v1")
	cfg.BodyTimeout = 300 * time.Millisecond
	proxy, logs := startProxy(t, cfg)
	addr := strings.TrimPrefix(proxy.URL, "http://")

	for _, path := range []string{"/v1/chat/completions", "/v1/embeddings", "/index.html"} {
		t.Run(path, func(t *testing.T) {
			// A real client that sends its headers and a few bytes of a 1000-byte body, then
			// trickles nothing more.
			conn, err := net.Dial("tcp", addr)
			require.NoError(t, err)
			defer conn.Close()
			start := time.Now()
			fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"model\":", path, addr)
			require.NoError(t, conn.SetReadDeadline(time.Now().Add(10*time.Second)))
			all, err := io.ReadAll(conn) // ends when the server closes the connection
			require.NoError(t, err, "the server closed the connection rather than wait")
			took := time.Since(start)
			assert.GreaterOrEqual(t, took, 250*time.Millisecond)
			assert.Less(t, took, 5*time.Second)
			if path == "/v1/chat/completions" {
				resp, err := http.ReadResponse(bufio.NewReader(strings.NewReader(string(all))), nil)
				require.NoError(t, err)
				body := readAll(t, resp.Body)
				assert.Equal(t, http.StatusRequestTimeout, resp.StatusCode, body)
				e := decodeError(t, body)
				assert.Equal(t, "request_timeout", e.Code)
				assert.Contains(t, e.Message, "300ms (-body-timeout)")
				assert.Equal(t, "nosniff", resp.Header.Get("X-Content-Type-Options"))
			}
		})
	}
	assert.Empty(t, fake.requests(), "nothing half-read is forwarded")
	assert.Contains(t, logs.String(), "POST /v1/chat/completions 408")

	t.Run("a steady body and a long answer are not cut", func(t *testing.T) {
		const bodyTimeout = 2 * time.Second
		slow := newFakeUpstream(t, func(w http.ResponseWriter, r *http.Request) {
			// The body has arrived whole, and the body timeout's clock started before it did:
			// answering after a body timeout from now is answering after its deadline.
			time.Sleep(bodyTimeout + 300*time.Millisecond)
			answerCompletion("yes")(w, r)
		})
		cfg := testConfig(t, slow.URL+"/v1")
		// The body comes in pieces, each written as soon as the proxy has read the one before
		// (an io.Pipe write waits for its read): no sleeps, so its time is only the machine's
		// scheduling, against 2 s (1 s left a loaded machine's stalls too little room once the
		// pieces had slept 200 ms).
		cfg.BodyTimeout = bodyTimeout
		proxy, _ := startProxy(t, cfg)
		pr, pw := io.Pipe()
		go func() {
			body := chatBody("judge-1", false)
			for i := 0; i < len(body); i += len(body) / 4 {
				pw.Write([]byte(body[i:min(i+len(body)/4, len(body))]))
			}
			pw.Close()
		}()
		req, err := http.NewRequest(http.MethodPost, proxy.URL+"/v1/chat/completions", pr)
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		resp, err := noGzipClient.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		assert.Equal(t, http.StatusOK, resp.StatusCode, readAll(t, resp.Body))

		r2, err := http.Get(proxy.URL + "/v1/models") // its upstream call outlasts the body timeout
		require.NoError(t, err)
		r2.Body.Close()
		assert.Equal(t, http.StatusOK, r2.StatusCode)
	})
}

func TestUpstreamCallsInFlightAreCapped(t *testing.T) {
	h := newHangOrAnswer()
	fake := newFakeUpstream(t, h.serve)
	cfg := testConfig(t, fake.URL+"/v1")
	cfg.MaxInflight = 3
	proxy, _ := startProxy(t, cfg)

	// Two calls over HTTP and one over a calls socket fill the cap.
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel) // before the servers close: they wait for their connections
	for i := 0; i < 2; i++ {
		go func() {
			req, _ := http.NewRequestWithContext(ctx, http.MethodPost, proxy.URL+"/v1/chat/completions", strings.NewReader(chatBody("slow", false)))
			req.Header.Set("Content-Type", "application/json")
			if resp, err := noGzipClient.Do(req); err == nil {
				resp.Body.Close()
			}
		}()
	}
	conn := dialCalls(t, proxy.URL)
	sendText(t, conn, callMessage(1, testKey, chatBody("slow", false)))
	h.await(t, h.started, 3, "the upstream never saw the calls")

	resp := postChat(t, proxy.URL, testKey, chatBody("fast", false))
	body := readAll(t, resp.Body)
	require.Equal(t, http.StatusTooManyRequests, resp.StatusCode, body)
	assert.Equal(t, "1", resp.Header.Get("Retry-After"))
	e := decodeError(t, body)
	assert.Equal(t, "too_many_calls_in_flight", e.Code)
	assert.Contains(t, e.Message, "3 upstream calls in flight")

	sendText(t, conn, callMessage(2, testKey, chatBody("fast", false)))
	res := readResult(t, conn)
	assert.Equal(t, int64(2), res.ID)
	assert.Equal(t, http.StatusTooManyRequests, res.Status, "the calls socket shares the cap")
	assert.Equal(t, "1", res.Headers["retry-after"])
	assert.Equal(t, body, res.Body)

	req, err := http.NewRequest(http.MethodGet, proxy.URL+"/v1/models", nil)
	require.NoError(t, err)
	mresp, err := noGzipClient.Do(req)
	require.NoError(t, err)
	mresp.Body.Close()
	assert.Equal(t, http.StatusTooManyRequests, mresp.StatusCode, "listing models is an upstream call too")

	// A call that ends frees its slot.
	sendText(t, conn, `{"type":"cancel","id":1}`)
	h.await(t, h.ended, 1, "the cancelled call was not cancelled")
	require.Eventually(t, func() bool {
		resp := postChat(t, proxy.URL, testKey, chatBody("fast", false))
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	}, 5*time.Second, 20*time.Millisecond)
}

func TestUpstreamAnswerOverTheCapIs502(t *testing.T) {
	const limit = 4096
	big := completionJSON(strings.Repeat("y", limit))
	cases := []struct {
		name    string
		stream  bool
		handler http.HandlerFunc
	}{
		{"plain", false, answerCompletion(strings.Repeat("y", limit))},
		{"error body", false, func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusInternalServerError)
			io.WriteString(w, strings.Repeat("<p>oops</p>", limit))
		}},
		{"stream before its first event", true, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			io.WriteString(w, "data: "+big+"\n\n")
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fake := newFakeUpstream(t, tc.handler)
			cfg := testConfig(t, fake.URL+"/v1")
			cfg.MaxResponse = limit
			proxy, _ := startProxy(t, cfg)
			resp := postChat(t, proxy.URL, testKey, chatBody("judge-1", tc.stream))
			body := readAll(t, resp.Body)
			assert.Equal(t, http.StatusBadGateway, resp.StatusCode, body)
			e := decodeError(t, body)
			assert.Equal(t, "upstream_response_too_large", e.Code)
			assert.Contains(t, e.Message, "more than 4096 bytes")
		})
	}

	t.Run("stream under way", func(t *testing.T) {
		fake := newFakeUpstream(t, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			for i := 0; i < 100; i++ {
				fmt.Fprintf(w, "data: %s\n\n", chunkJSON("token "))
			}
			io.WriteString(w, "data: [DONE]\n\n")
		})
		cfg := testConfig(t, fake.URL+"/v1")
		cfg.MaxResponse = limit
		proxy, _ := startProxy(t, cfg)
		resp := postChat(t, proxy.URL, testKey, chatBody("judge-1", true))
		body := readAll(t, resp.Body)
		require.Equal(t, http.StatusOK, resp.StatusCode)
		events := sseEvents(body)
		require.Greater(t, len(events), 2)
		last := events[len(events)-1]
		assert.NotEqual(t, "[DONE]", last, "a cut stream does not claim to be complete")
		e := decodeError(t, last)
		assert.Equal(t, "upstream_response_too_large", e.Code)
		assert.LessOrEqual(t, len(body)-len(last), limit+len("data: \n\n"), "no more than the cap was passed on")
	})

	t.Run("exactly the cap passes", func(t *testing.T) {
		exact := completionJSON(strings.Repeat("y", 100))
		fake := newFakeUpstream(t, answerCompletion(strings.Repeat("y", 100)))
		cfg := testConfig(t, fake.URL+"/v1")
		cfg.MaxResponse = int64(len(exact))
		proxy, _ := startProxy(t, cfg)
		resp := postChat(t, proxy.URL, testKey, chatBody("judge-1", false))
		body := readAll(t, resp.Body)
		assert.Equal(t, http.StatusOK, resp.StatusCode, body)
		assert.Equal(t, exact, body)
	})

	t.Run("models", func(t *testing.T) {
		fake := newFakeUpstream(t, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"object":"list","data":[`+strings.Repeat(`{"id":"m","object":"model"},`, limit)+`{"id":"m"}]}`)
		})
		cfg := testConfig(t, fake.URL+"/v1")
		cfg.MaxResponse = limit
		proxy, _ := startProxy(t, cfg)
		resp, err := http.Get(proxy.URL + "/v1/models")
		require.NoError(t, err)
		defer resp.Body.Close()
		body := readAll(t, resp.Body)
		assert.Equal(t, http.StatusBadGateway, resp.StatusCode, body)
		assert.Equal(t, "upstream_response_too_large", decodeError(t, body).Code)
	})
}

func TestRetryHintsPassThrough(t *testing.T) {
	fake := newFakeUpstream(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Retry-After", "2")
		w.Header().Set("Retry-After-Ms", "1500")
		w.WriteHeader(http.StatusTooManyRequests)
		io.WriteString(w, `{"error":{"message":"Rate limit reached","type":"requests","param":null,"code":"rate_limit_exceeded"}}`)
	})
	proxy, _ := startProxy(t, testConfig(t, fake.URL+"/v1"))
	for _, stream := range []bool{false, true} {
		resp := postChat(t, proxy.URL, testKey, chatBody("judge-1", stream))
		body := readAll(t, resp.Body)
		assert.Equal(t, http.StatusTooManyRequests, resp.StatusCode, body)
		assert.Equal(t, "2", resp.Header.Get("Retry-After"))
		assert.Equal(t, "1500", resp.Header.Get("Retry-After-Ms"))
	}
	conn := dialCalls(t, proxy.URL)
	sendText(t, conn, callMessage(1, testKey, chatBody("judge-1", false)))
	res := readResult(t, conn)
	assert.Equal(t, "1500", res.Headers["retry-after-ms"])
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

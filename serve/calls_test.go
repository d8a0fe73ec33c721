package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// dialCalls opens the calls socket of proxy as the page would: its own origin, the subprotocol.
func dialCalls(t testing.TB, proxyURL string) *websocket.Conn {
	t.Helper()
	conn, resp, err := dialCallsWith(proxyURL, &websocket.DialOptions{
		Subprotocols: []string{callsSubprotocol},
		HTTPHeader:   http.Header{"Origin": {proxyURL}},
	})
	require.NoError(t, err)
	require.Equal(t, http.StatusSwitchingProtocols, resp.StatusCode)
	require.Equal(t, callsSubprotocol, conn.Subprotocol())
	conn.SetReadLimit(-1)
	t.Cleanup(func() { conn.CloseNow() })
	return conn
}

func dialCallsWith(proxyURL string, opts *websocket.DialOptions) (*websocket.Conn, *http.Response, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return websocket.Dial(ctx, "ws"+strings.TrimPrefix(proxyURL, "http")+callsPath, opts)
}

// callMessage is a call envelope as the page sends it.
func callMessage(id int64, key, body string) string {
	k, _ := json.Marshal(key)
	return fmt.Sprintf(`{"type":"call","id":%d,"key":%s,"body":%s}`, id, k, body)
}

func sendText(t testing.TB, conn *websocket.Conn, msg string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	require.NoError(t, conn.Write(ctx, websocket.MessageText, []byte(msg)))
}

// readResult reads the next result, past the "started" messages before it (every call gets
// one; the tests of the limit read them with messageLog).
func readResult(t testing.TB, conn *websocket.Conn) callResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for {
		typ, msg, err := conn.Read(ctx)
		require.NoError(t, err)
		require.Equal(t, websocket.MessageText, typ)
		var res callResult
		require.NoError(t, json.Unmarshal(msg, &res), "%s", msg)
		if res.Type == "started" {
			continue
		}
		require.Equal(t, "result", res.Type, "%s", msg)
		return res
	}
}

// readClose reads until the server closes the socket and returns the close status and reason.
func readClose(t *testing.T, conn *websocket.Conn) (websocket.StatusCode, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for {
		_, msg, err := conn.Read(ctx)
		if err != nil {
			var ce websocket.CloseError
			require.ErrorAs(t, err, &ce)
			return ce.Code, ce.Reason
		}
		t.Logf("message before the close: %s", msg)
	}
}

func TestCallsSocketAnswersExactlyAsHTTP(t *testing.T) {
	cases := []struct {
		name    string
		handler http.HandlerFunc
		status  int
	}{
		{"200 with usage", answerCompletion(`{"claims":[]}`), http.StatusOK},
		{"429 with Retry-After", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Retry-After", "7")
			w.WriteHeader(http.StatusTooManyRequests)
			io.WriteString(w, `{"error":{"message":"Rate limit reached for requests","type":"requests","param":null,"code":"rate_limit_exceeded"}}`)
		}, http.StatusTooManyRequests},
		{"500", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusInternalServerError)
			io.WriteString(w, `{"error":{"message":"The server had an error while processing your request.","type":"server_error","param":null,"code":null}}`)
		}, http.StatusInternalServerError},
		{"401 quoting the key", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusUnauthorized)
			fmt.Fprintf(w, `{"error":{"message":"Incorrect API key provided: %s.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}`, testKey)
		}, http.StatusUnauthorized},
		{"503 not JSON", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Retry-After", "30")
			w.WriteHeader(http.StatusServiceUnavailable)
			io.WriteString(w, `<html>503 Service Unavailable</html>`)
		}, http.StatusServiceUnavailable},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fake := newFakeUpstream(t, tc.handler)
			proxy, logs := startProxy(t, testConfig(t, fake.URL+"/v1"))

			resp := postChat(t, proxy.URL, testKey, chatBody("judge-1", false))
			httpBody := readAll(t, resp.Body)
			require.Equal(t, tc.status, resp.StatusCode, httpBody)

			conn := dialCalls(t, proxy.URL)
			sendText(t, conn, callMessage(1, testKey, chatBody("judge-1", false)))
			res := readResult(t, conn)
			assert.Equal(t, int64(1), res.ID)
			assert.Equal(t, tc.status, res.Status)
			assert.Equal(t, httpBody, res.Body, "the same body, byte for byte")
			for _, name := range []string{"Content-Type", "Retry-After", "Retry-After-Ms", "Cache-Control"} {
				v, ok := res.Headers[strings.ToLower(name)]
				assert.Equal(t, resp.Header.Get(name), v, name)
				assert.Equal(t, resp.Header.Get(name) != "", ok, "%s present exactly when HTTP has it", name)
			}
			reqs := fake.requests()
			require.Len(t, reqs, 2)
			assert.Equal(t, reqs[0].Body, reqs[1].Body, "the upstream sees the same request")
			assert.Equal(t, "Bearer "+testKey, reqs[1].Authorization)

			switch tc.status {
			case http.StatusOK:
				var completion struct {
					Usage struct {
						TotalTokens int `json:"total_tokens"`
					} `json:"usage"`
				}
				require.NoError(t, json.Unmarshal([]byte(res.Body), &completion))
				assert.Equal(t, 13, completion.Usage.TotalTokens)
			case http.StatusTooManyRequests:
				assert.Equal(t, "7", res.Headers["retry-after"])
				decodeError(t, res.Body)
			case http.StatusUnauthorized:
				assert.NotContains(t, res.Body, testKey)
				assert.NotContains(t, res.Body, testKey[len(testKey)-8:])
				assert.Contains(t, res.Body, "[key redacted]")
				decodeError(t, res.Body)
			default:
				decodeError(t, res.Body)
			}
			require.NoError(t, conn.Close(websocket.StatusNormalClosure, ""))
			require.Eventually(t, func() bool { return strings.Contains(logs.String(), "GET /ragjudge/calls 101") }, 10*time.Second, 10*time.Millisecond)
			assert.Contains(t, logs.String(), fmt.Sprintf("WS /v1/chat/completions %d ", tc.status))
			assert.NotContains(t, logs.String(), testKey[len(testKey)-8:], "no key in the access log")
			assert.NotContains(t, logs.String(), "Is the claim grounded", "no body in the access log")
		})
	}
}

func TestCallsSocketKeyIsSentAsHTTPWouldSendIt(t *testing.T) {
	fake := newFakeUpstream(t, answerCompletion("yes"))
	cfg := testConfig(t, fake.URL+"/v1")
	proxy, _ := startProxy(t, cfg)
	conn := dialCalls(t, proxy.URL)
	sendText(t, conn, callMessage(1, "", chatBody("judge-1", false)))
	assert.Equal(t, http.StatusOK, readResult(t, conn).Status)
	sendText(t, conn, `{"type":"call","id":2,"body":`+chatBody("judge-1", false)+`}`)
	assert.Equal(t, http.StatusOK, readResult(t, conn).Status)
	sendText(t, conn, callMessage(3, "bad\nkey", chatBody("judge-1", false)))
	res := readResult(t, conn)
	assert.Equal(t, http.StatusUnauthorized, res.Status)
	assert.Equal(t, "invalid_authorization", decodeError(t, res.Body).Code)
	reqs := fake.requests()
	require.Len(t, reqs, 2, "a key with a newline never leaves")
	assert.Empty(t, reqs[0].Authorization, "an empty key sends no Authorization")
	assert.Empty(t, reqs[1].Authorization, "an absent key sends no Authorization")

	t.Run("the server's key when the call has none", func(t *testing.T) {
		const serverKey = "sk-server-0123456789abcdef0123456789"
		cfg := testConfig(t, fake.URL+"/v1")
		cfg.ServerKey = serverKey
		proxy, _ := startProxy(t, cfg)
		conn := dialCalls(t, proxy.URL)
		sendText(t, conn, callMessage(1, "", chatBody("judge-1", false)))
		assert.Equal(t, http.StatusOK, readResult(t, conn).Status)
		reqs := fake.requests()
		assert.Equal(t, "Bearer "+serverKey, reqs[len(reqs)-1].Authorization)
	})
}

func TestCallsSocketBodyOverMaxBodyIs413(t *testing.T) {
	fake := newFakeUpstream(t, answerCompletion("yes"))
	cfg := testConfig(t, fake.URL+"/v1")
	cfg.MaxBody = 1024
	proxy, _ := startProxy(t, cfg)
	conn := dialCalls(t, proxy.URL)
	big := fmt.Sprintf(`{"model":"judge-1","stream":true,"messages":[{"role":"user","content":%q}]}`, strings.Repeat("x", 2000))
	sendText(t, conn, callMessage(1, testKey, big))
	res := readResult(t, conn)
	assert.Equal(t, http.StatusRequestEntityTooLarge, res.Status)
	assert.Contains(t, decodeError(t, res.Body).Message, "1024 bytes")
	httpResp := postChat(t, proxy.URL, testKey, big)
	assert.Equal(t, readAll(t, httpResp.Body), res.Body)

	t.Run("a message over -max-body plus 64 KiB closes the socket with 1009", func(t *testing.T) {
		huge := fmt.Sprintf(`{"model":"judge-1","messages":[{"role":"user","content":%q}]}`, strings.Repeat("x", 1024+envelopeAllowance))
		sendText(t, conn, callMessage(2, testKey, huge))
		code, _ := readClose(t, conn)
		assert.Equal(t, websocket.StatusMessageTooBig, code)
	})
	assert.Len(t, fake.requests(), 0, "oversized bodies never reach the upstream")
}

func TestCallsSocketHangingUpstreamIs504(t *testing.T) {
	fake := newFakeUpstream(t, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(20 * time.Second):
		}
	})
	cfg := testConfig(t, fake.URL+"/v1")
	cfg.Timeout = 300 * time.Millisecond
	proxy, _ := startProxy(t, cfg)
	conn := dialCalls(t, proxy.URL)
	start := time.Now()
	sendText(t, conn, callMessage(1, testKey, chatBody("judge-1", false)))
	res := readResult(t, conn)
	assert.Less(t, time.Since(start), 5*time.Second)
	assert.Equal(t, http.StatusGatewayTimeout, res.Status)
	e := decodeError(t, res.Body)
	assert.Contains(t, e.Message, "did not answer within 300ms")
	assert.Equal(t, "upstream_timeout", e.Code)
}

// hangOrAnswer is an upstream that answers model "fast" at once and holds every other call
// until its request's context ends, reporting both moments.
type hangOrAnswer struct {
	started, ended chan string
}

func newHangOrAnswer() *hangOrAnswer {
	return &hangOrAnswer{started: make(chan string, 128), ended: make(chan string, 128)}
}

func (h *hangOrAnswer) serve(w http.ResponseWriter, r *http.Request) {
	var req struct{ Model string }
	_ = json.NewDecoder(r.Body).Decode(&req)
	if req.Model == "fast" {
		answerCompletion("yes")(w, r)
		return
	}
	h.started <- req.Model
	select {
	case <-r.Context().Done():
		h.ended <- req.Model
	case <-time.After(20 * time.Second):
	}
}

func (h *hangOrAnswer) await(t *testing.T, ch chan string, n int, what string) []string {
	t.Helper()
	var got []string
	for len(got) < n {
		select {
		case m := <-ch:
			got = append(got, m)
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: %d of %d after 5s", what, len(got), n)
		}
	}
	return got
}

func TestCallsSocketCancelEndsTheUpstreamCallAndSendsNoResult(t *testing.T) {
	h := newHangOrAnswer()
	fake := newFakeUpstream(t, h.serve)
	proxy, logs := startProxy(t, testConfig(t, fake.URL+"/v1"))
	conn := dialCalls(t, proxy.URL)

	sendText(t, conn, callMessage(1, testKey, chatBody("slow", false)))
	h.await(t, h.started, 1, "the upstream never saw the call")
	sendText(t, conn, `{"type":"cancel","id":1}`)
	assert.Equal(t, []string{"slow"}, h.await(t, h.ended, 1, "the upstream call was not cancelled"))
	sendText(t, conn, `{"type":"cancel","id":99}`) // not in flight: ignored
	sendText(t, conn, callMessage(2, testKey, chatBody("fast", false)))
	res := readResult(t, conn)
	assert.Equal(t, int64(2), res.ID, "the cancelled call sent no result")
	assert.Equal(t, http.StatusOK, res.Status)
	require.Eventually(t, func() bool { return strings.Contains(logs.String(), "WS /v1/chat/completions 499") }, 10*time.Second, 10*time.Millisecond)

	t.Run("an id can be used again once its call is over", func(t *testing.T) {
		sendText(t, conn, callMessage(1, testKey, chatBody("fast", false)))
		assert.Equal(t, int64(1), readResult(t, conn).ID)
	})
}

func TestCallsSocketCloseCancelsEveryCallInFlight(t *testing.T) {
	h := newHangOrAnswer()
	fake := newFakeUpstream(t, h.serve)
	proxy, logs := startProxy(t, testConfig(t, fake.URL+"/v1"))
	conn := dialCalls(t, proxy.URL)
	for id := int64(1); id <= 3; id++ {
		sendText(t, conn, callMessage(id, testKey, chatBody(fmt.Sprint("slow-", id), false)))
	}
	h.await(t, h.started, 3, "the upstream never saw the calls")
	require.NoError(t, conn.Close(websocket.StatusGoingAway, "page closed"))
	assert.ElementsMatch(t, []string{"slow-1", "slow-2", "slow-3"}, h.await(t, h.ended, 3, "the upstream calls were not cancelled"))
	require.Eventually(t, func() bool { return strings.Contains(logs.String(), "GET /ragjudge/calls 101") }, 10*time.Second, 10*time.Millisecond)
	assert.Equal(t, 3, strings.Count(logs.String(), "WS /v1/chat/completions 499"))

	t.Run("without a close frame too", func(t *testing.T) {
		conn := dialCalls(t, proxy.URL)
		sendText(t, conn, callMessage(1, testKey, chatBody("slow-4", false)))
		h.await(t, h.started, 1, "the upstream never saw the call")
		require.NoError(t, conn.CloseNow())
		h.await(t, h.ended, 1, "the upstream call was not cancelled")
	})
}

func TestCallsSocketCarriesManyCallsAtOnce(t *testing.T) {
	const n = 16
	var inFlight, most atomic.Int64
	arrived := make(chan struct{})
	var once sync.Once
	fake := newFakeUpstream(t, func(w http.ResponseWriter, r *http.Request) {
		now := inFlight.Add(1)
		defer inFlight.Add(-1)
		for m := most.Load(); now > m && !most.CompareAndSwap(m, now); m = most.Load() {
		}
		if now == n {
			once.Do(func() { close(arrived) })
		}
		// Hold every call until all n are in at once (or give up after 5s and let the
		// assertion below say how many were).
		select {
		case <-arrived:
		case <-time.After(5 * time.Second):
		}
		answerCompletion("yes")(w, r)
	})
	proxy, _ := startProxy(t, testConfig(t, fake.URL+"/v1"))
	conn := dialCalls(t, proxy.URL)
	for id := int64(1); id <= n; id++ {
		sendText(t, conn, callMessage(id, testKey, chatBody("judge-1", false)))
	}
	seen := map[int64]bool{}
	for range n {
		res := readResult(t, conn)
		assert.Equal(t, http.StatusOK, res.Status)
		seen[res.ID] = true
	}
	assert.Len(t, seen, n, "one result per call")
	assert.Equal(t, int64(n), most.Load(), "all calls in flight at the upstream at the same time")
}

func TestCallsSocketRefusesACallBeyondItsCap(t *testing.T) {
	h := newHangOrAnswer()
	fake := newFakeUpstream(t, h.serve)
	proxy, _ := startProxy(t, testConfig(t, fake.URL+"/v1"))
	conn := dialCalls(t, proxy.URL)
	for id := int64(1); id <= maxCallsInFlight; id++ {
		sendText(t, conn, callMessage(id, testKey, chatBody("slow", false)))
	}
	h.await(t, h.started, maxCallsInFlight, "the upstream never saw the calls")
	sendText(t, conn, callMessage(maxCallsInFlight+1, testKey, chatBody("fast", false)))
	res := readResult(t, conn)
	assert.Equal(t, int64(maxCallsInFlight+1), res.ID)
	assert.Equal(t, http.StatusTooManyRequests, res.Status)
	e := decodeError(t, res.Body)
	assert.Contains(t, e.Message, fmt.Sprintf("%d calls in flight", maxCallsInFlight))
	assert.Equal(t, "too_many_calls_in_flight", e.Code, "the dev server's own limit, not the upstream's")
	assert.NotContains(t, res.Headers, "retry-after")

	sendText(t, conn, `{"type":"cancel","id":5}`)
	h.await(t, h.ended, 1, "the cancelled call was not cancelled")
	sendText(t, conn, callMessage(maxCallsInFlight+2, testKey, chatBody("fast", false)))
	res = readResult(t, conn)
	assert.Equal(t, http.StatusOK, res.Status, "a slot is free again after a cancel")
}

func TestCallsSocketRefusesStreaming(t *testing.T) {
	fake := newFakeUpstream(t, answerStream("yes"))
	proxy, _ := startProxy(t, testConfig(t, fake.URL+"/v1"))
	conn := dialCalls(t, proxy.URL)
	sendText(t, conn, callMessage(1, testKey, chatBody("judge-1", true)))
	res := readResult(t, conn)
	assert.Equal(t, http.StatusBadRequest, res.Status)
	assert.Equal(t, "application/json", res.Headers["content-type"])
	assert.Equal(t, "streaming is not available over the calls socket; use POST /v1/chat/completions", decodeError(t, res.Body).Message)
	assert.Empty(t, fake.requests())
}

func TestCallsSocketClosesOnABadEnvelope(t *testing.T) {
	fake := newFakeUpstream(t, answerCompletion("yes"))
	proxy, _ := startProxy(t, testConfig(t, fake.URL+"/v1"))
	body := chatBody("judge-1", false)
	cases := []struct{ name, msg, reason string }{
		{"not JSON", `call 1 please`, "envelope is not JSON"},
		{"not an object", `[1,2]`, "envelope is not a JSON object"},
		{"trailing garbage", `{"type":"cancel","id":1} x`, "envelope is not JSON"},
		{"no type", `{"id":1,"body":{}}`, `envelope has no "type"`},
		{"unknown type", `{"type":"ping","id":1}`, `unknown envelope type "ping"`},
		{"type not a string", `{"type":1,"id":1}`, `envelope field "type" is not a string`},
		{"no id", `{"type":"call","body":` + body + `}`, `call has no "id"`},
		{"id zero", callMessage(0, "", body), "call id 0 is not an integer in 1..2^53-1"},
		{"negative id", `{"type":"cancel","id":-3}`, "cancel id -3 is not"},
		{"fractional id", `{"type":"call","id":1.5,"body":` + body + `}`, "call id 1.5 is not"},
		{"id as a string", `{"type":"call","id":"1","body":` + body + `}`, `call id "1" is not`},
		{"id beyond 2^53", `{"type":"call","id":9007199254740992,"body":` + body + `}`, "is not an integer"},
		{"no body", `{"type":"call","id":1,"key":""}`, "call 1 has no JSON object as its body"},
		{"body not an object", `{"type":"call","id":1,"body":"{}"}`, "call 1 has no JSON object as its body"},
		{"key not a string", `{"type":"call","id":1,"key":5,"body":{}}`, `envelope field "key" is not a string`},
		{"limit 0", `{"type":"limit","n":0}`, "limit n 0 is not an integer in 1..64"},
		{"limit 65", `{"type":"limit","n":65}`, "limit n 65 is not an integer in 1..64"},
		{"limit 1.0", `{"type":"limit","n":1.0}`, "limit n 1.0 is not an integer in 1..64"},
		{"limit as a string", `{"type":"limit","n":"2"}`, `limit n "2" is not an integer in 1..64`},
		{"limit null", `{"type":"limit","n":null}`, "limit n null is not an integer in 1..64"},
		{"limit without n", `{"type":"limit","id":2}`, `limit has no "n"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			conn := dialCalls(t, proxy.URL)
			sendText(t, conn, tc.msg)
			code, reason := readClose(t, conn)
			assert.Equal(t, websocket.StatusPolicyViolation, code)
			assert.Contains(t, reason, tc.reason)
		})
	}
	t.Run("duplicate id in flight", func(t *testing.T) {
		h := newHangOrAnswer()
		fake := newFakeUpstream(t, h.serve)
		proxy, _ := startProxy(t, testConfig(t, fake.URL+"/v1"))
		conn := dialCalls(t, proxy.URL)
		sendText(t, conn, callMessage(7, testKey, chatBody("slow", false)))
		h.await(t, h.started, 1, "the upstream never saw the call")
		sendText(t, conn, callMessage(7, testKey, chatBody("slow", false)))
		code, reason := readClose(t, conn)
		assert.Equal(t, websocket.StatusPolicyViolation, code)
		assert.Equal(t, "call id 7 is already in flight", reason)
		h.await(t, h.ended, 1, "closing for a bad envelope cancels the calls in flight")
	})
	t.Run("binary message", func(t *testing.T) {
		conn := dialCalls(t, proxy.URL)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		require.NoError(t, conn.Write(ctx, websocket.MessageBinary, []byte(callMessage(1, "", body))))
		code, _ := readClose(t, conn)
		assert.Equal(t, websocket.StatusUnsupportedData, code)
	})
	assert.Empty(t, fake.requests())
}

func TestCallsSocketUpgradeIsRefusedBeforeUpgrading(t *testing.T) {
	fake := newFakeUpstream(t, answerCompletion("yes"))
	proxy, logs := startProxy(t, testConfig(t, fake.URL+"/v1"))
	cases := []struct {
		name   string
		opts   websocket.DialOptions
		status int
		code   string
	}{
		{"another site's page", websocket.DialOptions{Subprotocols: []string{callsSubprotocol}, HTTPHeader: http.Header{"Origin": {"https://evil.example"}}}, http.StatusForbidden, "cross_origin"},
		{"another port on loopback", websocket.DialOptions{Subprotocols: []string{callsSubprotocol}, HTTPHeader: http.Header{"Origin": {"http://127.0.0.1:1"}}}, http.StatusForbidden, "cross_origin"},
		{"a same-site page by Sec-Fetch-Site", websocket.DialOptions{Subprotocols: []string{callsSubprotocol}, HTTPHeader: http.Header{"Sec-Fetch-Site": {"same-site"}}}, http.StatusForbidden, "cross_origin"},
		{"DNS rebinding Host", websocket.DialOptions{Subprotocols: []string{callsSubprotocol}, Host: "rebind.example:80", HTTPHeader: http.Header{"Origin": {"http://rebind.example:80"}}}, http.StatusForbidden, "bad_host"},
		{"no subprotocol", websocket.DialOptions{HTTPHeader: http.Header{"Origin": {proxy.URL}}}, http.StatusBadRequest, "unsupported_subprotocol"},
		{"another subprotocol", websocket.DialOptions{Subprotocols: []string{"ragjudge-calls-2"}, HTTPHeader: http.Header{"Origin": {proxy.URL}}}, http.StatusBadRequest, "unsupported_subprotocol"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			conn, resp, err := dialCallsWith(proxy.URL, &tc.opts)
			require.Error(t, err)
			assert.Nil(t, conn)
			require.NotNil(t, resp)
			assert.Equal(t, tc.status, resp.StatusCode)
			assert.Empty(t, resp.Header.Get("Upgrade"), "no upgrade offered")
			require.NotNil(t, resp.Body)
			assert.Equal(t, tc.code, decodeError(t, readAll(t, resp.Body)).Code)
		})
	}
	t.Run("an absent Origin is allowed, as for HTTP", func(t *testing.T) {
		conn, resp, err := dialCallsWith(proxy.URL, &websocket.DialOptions{Subprotocols: []string{callsSubprotocol}})
		require.NoError(t, err)
		defer conn.CloseNow()
		assert.Equal(t, http.StatusSwitchingProtocols, resp.StatusCode)
	})
	t.Run("plain GET is told to upgrade", func(t *testing.T) {
		resp, err := noGzipClient.Get(proxy.URL + callsPath)
		require.NoError(t, err)
		defer resp.Body.Close()
		assert.Equal(t, http.StatusUpgradeRequired, resp.StatusCode)
		assert.Equal(t, "upgrade_required", decodeError(t, readAll(t, resp.Body)).Code)
	})
	assert.Empty(t, fake.requests())
	assert.Contains(t, logs.String(), "GET /ragjudge/calls 403")
}

func TestConfigNamesTheCallsSocket(t *testing.T) {
	proxy, _ := startProxy(t, testConfig(t, "http://127.0.0.1:1/v1"))
	resp, err := noGzipClient.Get(proxy.URL + "/ragjudge/config")
	require.NoError(t, err)
	defer resp.Body.Close()
	var cfg map[string]any
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&cfg))
	assert.Equal(t, "/ragjudge/calls", cfg["calls"])
}

func TestDecodeEnvelope(t *testing.T) {
	env, err := decodeEnvelope([]byte(`{"type":"call","id":9007199254740991,"key":"k","body":{"model":"m"},"extra":1}`))
	require.NoError(t, err)
	assert.Equal(t, callEnvelope{Type: "call", ID: maxCallID, Key: "k", Body: json.RawMessage(`{"model":"m"}`)}, env)
	env, err = decodeEnvelope([]byte(` {"id":3,"type":"cancel"} `))
	require.NoError(t, err)
	assert.Equal(t, callEnvelope{Type: "cancel", ID: 3}, env)
	env, err = decodeEnvelope([]byte(`{"type":"limit","n":64}`))
	require.NoError(t, err)
	assert.Equal(t, callEnvelope{Type: "limit", N: 64}, env)
	_, err = decodeEnvelope([]byte(`{"type":"limit","n":99999999999999999999999}`))
	assert.EqualError(t, err, "limit n 99999999999999999999999 is not an integer in 1..64")
	_, err = decodeEnvelope([]byte(`{"type":"` + strings.Repeat("é", 200) + `","id":1}`))
	require.Error(t, err)
	assert.LessOrEqual(t, len(err.Error()), maxCloseReason)
}

func TestShutdownClosesCallsSocketsAsGoingAway(t *testing.T) {
	h := newHangOrAnswer()
	fake := newFakeUpstream(t, h.serve)
	stdout, stderr := &syncBuffer{}, &syncBuffer{}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"-addr", "127.0.0.1:0", "-web", t.TempDir(), "-upstream", fake.URL + "/v1"}, noEnv, stdout, stderr)
	}()
	line := regexp.MustCompile(`serving (http://\S+) `)
	require.Eventually(t, func() bool { return line.MatchString(stdout.String()) }, 5*time.Second, 10*time.Millisecond)
	conn := dialCalls(t, line.FindStringSubmatch(stdout.String())[1])
	sendText(t, conn, callMessage(1, testKey, chatBody("slow", false)))
	h.await(t, h.started, 1, "the upstream never saw the call")

	cancel()
	code, reason := readClose(t, conn)
	assert.Equal(t, websocket.StatusGoingAway, code)
	assert.Equal(t, "the dev server is shutting down", reason)
	h.await(t, h.ended, 1, "the call in flight was not cancelled")
	select {
	case err := <-done:
		assert.NoError(t, err)
	case <-time.After(10 * time.Second):
		t.Fatal("run did not stop")
	}
}

func TestCallsSocketReachesAzureAsHTTPDoes(t *testing.T) {
	fake := newFakeUpstream(t, answerCompletion("yes"))
	cfg := testConfig(t, fake.URL)
	cfg.Azure = true
	cfg.AzureAPIVersion = "2024-10-21"
	cfg.AzureDeployments = map[string]string{"gpt-4o": "prod-4o"}
	proxy, _ := startProxy(t, cfg)
	conn := dialCalls(t, proxy.URL)
	sendText(t, conn, callMessage(1, testKey, chatBody("gpt-4o", false)))
	assert.Equal(t, http.StatusOK, readResult(t, conn).Status)
	seen := fake.requests()
	require.Len(t, seen, 1)
	assert.Equal(t, "/openai/deployments/prod-4o/chat/completions", seen[0].Path)
	assert.Equal(t, "api-version=2024-10-21", seen[0].RawQuery)
	assert.Equal(t, testKey, seen[0].APIKey, "Azure's api-key header")
	assert.Empty(t, seen[0].Authorization)
}

func TestCallsSocketUnreachableUpstreamIs502AsHTTP(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	host := ln.Addr().String()
	ln.Close() // nothing listens there now
	proxy, _ := startProxy(t, testConfig(t, "http://"+host+"/v1"))
	resp := postChat(t, proxy.URL, testKey, chatBody("judge-1", false))
	httpBody := readAll(t, resp.Body)
	conn := dialCalls(t, proxy.URL)
	sendText(t, conn, callMessage(1, testKey, chatBody("judge-1", false)))
	res := readResult(t, conn)
	assert.Equal(t, http.StatusBadGateway, res.Status)
	assert.Equal(t, httpBody, res.Body)
	assert.Equal(t, "upstream_unreachable", decodeError(t, res.Body).Code)
}

// gatedUpstream holds each call, named by its model, until the test releases that model (model
// "fast" is answered at once), and counts the calls it holds at the same time.
type gatedUpstream struct {
	mu        sync.Mutex
	gates     map[string]chan struct{}
	held      int
	most      int
	arrived   chan string
	cancelled chan string
}

func newGatedUpstream() *gatedUpstream {
	return &gatedUpstream{gates: map[string]chan struct{}{}, arrived: make(chan string, 128), cancelled: make(chan string, 128)}
}

func (g *gatedUpstream) gate(model string) chan struct{} {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.gates[model] == nil {
		g.gates[model] = make(chan struct{})
	}
	return g.gates[model]
}

func (g *gatedUpstream) release(model string) { close(g.gate(model)) }

func (g *gatedUpstream) mostAtOnce() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.most
}

func (g *gatedUpstream) serve(w http.ResponseWriter, r *http.Request) {
	var req struct{ Model string }
	_ = json.NewDecoder(r.Body).Decode(&req)
	if req.Model == "fast" {
		answerCompletion("yes")(w, r)
		return
	}
	g.mu.Lock()
	g.held++
	g.most = max(g.most, g.held)
	g.mu.Unlock()
	// The count drops before the answer goes out: once the proxy has the answer, its next
	// call may arrive.
	letGo := func() {
		g.mu.Lock()
		g.held--
		g.mu.Unlock()
	}
	g.arrived <- req.Model
	select {
	case <-g.gate(req.Model):
		letGo()
		answerCompletion(req.Model)(w, r)
	case <-r.Context().Done():
		letGo()
		g.cancelled <- req.Model
	}
}

// awaitArrivals returns the next n models to reach the upstream, failing after 5s.
func (g *gatedUpstream) awaitArrivals(t *testing.T, n int) []string {
	t.Helper()
	var got []string
	for len(got) < n {
		select {
		case m := <-g.arrived:
			got = append(got, m)
		case <-time.After(5 * time.Second):
			t.Fatalf("%d of %d calls reached the upstream after 5s: %v", len(got), n, got)
		}
	}
	return got
}

// assertNoArrival checks that no call reaches the upstream for a while.
func (g *gatedUpstream) assertNoArrival(t *testing.T, why string) {
	t.Helper()
	select {
	case m := <-g.arrived:
		t.Errorf("%s reached the upstream: %s", m, why)
	case <-time.After(150 * time.Millisecond):
	}
}

// socketMessage is any server message: a result or a started.
type socketMessage struct {
	Type   string `json:"type"`
	ID     int64  `json:"id"`
	Status int    `json:"status"`
}

// messageLog reads a calls socket's messages in order, keeping them all.
type messageLog struct {
	t    *testing.T
	conn *websocket.Conn
	seen []socketMessage
}

// readUntil reads messages until one of type typ for call id has arrived (it may have already).
func (l *messageLog) readUntil(typ string, id int64) {
	l.t.Helper()
	for l.index(typ, id) < 0 {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_, msg, err := l.conn.Read(ctx)
		cancel()
		require.NoError(l.t, err, "waiting for %s %d; so far %v", typ, id, l.seen)
		var m socketMessage
		require.NoError(l.t, json.Unmarshal(msg, &m), "%s", msg)
		require.Contains(l.t, []string{"result", "started"}, m.Type, "%s", msg)
		l.seen = append(l.seen, m)
	}
}

// index is the position of the message of type typ for call id, or -1.
func (l *messageLog) index(typ string, id int64) int {
	return slices.IndexFunc(l.seen, func(m socketMessage) bool { return m.Type == typ && m.ID == id })
}

// started lists the ids of the started messages in the order they came.
func (l *messageLog) started() []int64 {
	var ids []int64
	for _, m := range l.seen {
		if m.Type == "started" {
			ids = append(ids, m.ID)
		}
	}
	return ids
}

func startGated(t *testing.T) (*gatedUpstream, *websocket.Conn, *messageLog, *syncBuffer, *fakeUpstream) {
	g, conn, log, logs, fake, _ := startGatedServer(t)
	return g, conn, log, logs, fake
}

// startGatedServer is startGated that also hands back the server, for tests that must wait
// until it has read a message which gives no answer of its own (a call put in the queue).
func startGatedServer(t *testing.T) (*gatedUpstream, *websocket.Conn, *messageLog, *syncBuffer, *fakeUpstream, *server) {
	g := newGatedUpstream()
	fake := newFakeUpstream(t, g.serve)
	logs := &syncBuffer{}
	cfg := testConfig(t, fake.URL+"/v1")
	cfg.Log = logs
	s := newServer(cfg).(*server)
	proxy := httptest.NewServer(s)
	t.Cleanup(proxy.Close)
	conn := dialCalls(t, proxy.URL)
	return g, conn, &messageLog{t: t, conn: conn}, logs, fake, s
}

// waitingCalls counts the calls waiting for a slot over all of s's open calls sockets.
func waitingCalls(s *server) int {
	s.sockets.mu.Lock()
	defer s.sockets.mu.Unlock()
	n := 0
	for c := range s.sockets.open {
		c.mu.Lock()
		n += len(c.waiting)
		c.mu.Unlock()
	}
	return n
}

func TestCallsSocketLimitQueuesCallsInArrivalOrder(t *testing.T) {
	g, conn, log, _, _, srv := startGatedServer(t)
	sendText(t, conn, `{"type":"limit","n":2}`)
	for id := int64(1); id <= 5; id++ {
		sendText(t, conn, callMessage(id, testKey, chatBody(fmt.Sprint("c", id), false)))
	}
	require.Eventually(t, func() bool { return waitingCalls(srv) == 3 }, 10*time.Second, time.Millisecond, "the server has read every call")
	assert.ElementsMatch(t, []string{"c1", "c2"}, g.awaitArrivals(t, 2))
	g.assertNoArrival(t, "the limit is 2 and 2 run")

	log.readUntil("started", 1)
	log.readUntil("started", 2)
	// Each release lets exactly the next waiting call in, and tells the page it started, after
	// the result of the call whose slot it took: the page never hears of more calls started than
	// the limit.
	for i, next := range []int64{3, 4, 5} {
		ended := int64(i + 1)
		g.release(fmt.Sprint("c", ended))
		assert.Equal(t, []string{fmt.Sprint("c", next)}, g.awaitArrivals(t, 1))
		log.readUntil("started", next)
		assert.Less(t, log.index("result", ended), log.index("started", next), "call %d's result before call %d's start", ended, next)
		g.assertNoArrival(t, "one call ended, one started")
	}
	for id := int64(4); id <= 5; id++ {
		g.release(fmt.Sprint("c", id))
	}
	for id := int64(1); id <= 5; id++ {
		log.readUntil("result", id)
		assert.Equal(t, http.StatusOK, log.seen[log.index("result", id)].Status)
	}
	started := log.started()
	assert.ElementsMatch(t, []int64{1, 2}, started[:2], "the calls that started at once are told so too")
	assert.Equal(t, []int64{3, 4, 5}, started[2:], "the calls that waited, in their order")
	for id := int64(1); id <= 5; id++ {
		assert.Less(t, log.index("started", id), log.index("result", id), "call %d: started before its result", id)
	}
	assert.Equal(t, 2, g.mostAtOnce(), "never more than the limit at the upstream")
	assert.Len(t, log.seen, 10)
}

func TestCallsSocketCancelOfAWaitingCallDropsIt(t *testing.T) {
	g, conn, log, logs, fake, srv := startGatedServer(t)
	sendText(t, conn, `{"type":"limit","n":2}`)
	for id := int64(1); id <= 4; id++ {
		sendText(t, conn, callMessage(id, testKey, chatBody(fmt.Sprint("c", id), false)))
	}
	assert.ElementsMatch(t, []string{"c1", "c2"}, g.awaitArrivals(t, 2))
	sendText(t, conn, `{"type":"cancel","id":3}`)
	require.Eventually(t, func() bool { return strings.Contains(logs.String(), "WS /v1/chat/completions 499") }, 10*time.Second, 10*time.Millisecond,
		"a dropped waiting call is logged as cancelled")
	// Its id is free at once: a new call 3 waits behind call 4.
	sendText(t, conn, callMessage(3, testKey, chatBody("c3-again", false)))
	// The server answers nothing to a queued call, so wait until it has read this one: on a
	// loaded machine its read loop may otherwise come to it only after c2 has ended, when it
	// would start at once with no "started".
	require.Eventually(t, func() bool { return waitingCalls(srv) == 2 }, 10*time.Second, time.Millisecond,
		"calls 4 and the new 3 wait")

	g.release("c1")
	assert.Equal(t, []string{"c4"}, g.awaitArrivals(t, 1), "the next waiting call starts in its turn")
	log.readUntil("started", 4)
	g.release("c2")
	assert.Equal(t, []string{"c3-again"}, g.awaitArrivals(t, 1))
	g.release("c4")
	g.release("c3-again")
	for _, id := range []int64{1, 2, 4, 3} {
		log.readUntil("result", id)
	}
	sendText(t, conn, callMessage(5, testKey, chatBody("fast", false)))
	log.readUntil("result", 5)
	assert.Equal(t, []int64{4, 3, 5}, log.started()[2:], "after 1 and 2, the calls in the order they started")
	assert.Len(t, log.seen, 10, "a started and a result for each call that ran; for id 3, the second call's only")
	for _, req := range fake.requests() {
		assert.NotContains(t, string(req.Body), `"c3"`, "the cancelled call never reached the upstream")
	}
	assert.Len(t, fake.requests(), 5)
	assert.Equal(t, 1, strings.Count(logs.String(), "WS /v1/chat/completions 499"))
}

func TestCallsSocketRaisingTheLimitStartsWaitingCalls(t *testing.T) {
	g, conn, log, _, _, srv := startGatedServer(t)
	sendText(t, conn, `{"type":"limit","n":2}`)
	for id := int64(1); id <= 5; id++ {
		sendText(t, conn, callMessage(id, testKey, chatBody(fmt.Sprint("c", id), false)))
	}
	require.Eventually(t, func() bool { return waitingCalls(srv) == 3 }, 10*time.Second, time.Millisecond, "the server has read every call")
	assert.ElementsMatch(t, []string{"c1", "c2"}, g.awaitArrivals(t, 2))
	g.assertNoArrival(t, "the limit is 2 and 2 run")
	sendText(t, conn, `{"type":"limit","n":5}`)
	assert.ElementsMatch(t, []string{"c3", "c4", "c5"}, g.awaitArrivals(t, 3), "all 3 waiting calls start at once")
	for id := int64(3); id <= 5; id++ {
		log.readUntil("started", id)
	}
	assert.Equal(t, 5, g.mostAtOnce())
	for id := int64(1); id <= 5; id++ {
		log.readUntil("started", id)
	}
	assert.Len(t, log.seen, 5, "no result before any call is released")
	for id := int64(1); id <= 5; id++ {
		g.release(fmt.Sprint("c", id))
		log.readUntil("result", id)
	}
	assert.ElementsMatch(t, []int64{1, 2, 3, 4, 5}, log.started())
}

func TestCallsSocketLoweringTheLimitLetsRunningCallsFinish(t *testing.T) {
	g, conn, log, _, _, srv := startGatedServer(t)
	sendText(t, conn, `{"type":"limit","n":4}`)
	for id := int64(1); id <= 6; id++ {
		sendText(t, conn, callMessage(id, testKey, chatBody(fmt.Sprint("c", id), false)))
	}
	require.Eventually(t, func() bool { return waitingCalls(srv) == 2 }, 10*time.Second, time.Millisecond, "the server has read every call")
	assert.ElementsMatch(t, []string{"c1", "c2", "c3", "c4"}, g.awaitArrivals(t, 4))
	sendText(t, conn, `{"type":"limit","n":1}`)
	g.assertNoArrival(t, "lowering the limit starts nothing")
	// With the limit at 1, nothing starts while 3 of the 4 running calls end (the 4th still
	// runs); the next starts when the 4th ends.
	for id := int64(1); id <= 3; id++ {
		g.release(fmt.Sprint("c", id))
		log.readUntil("result", id)
		g.assertNoArrival(t, fmt.Sprintf("%d of the 4 running calls ended, the limit is 1", id))
	}
	assert.ElementsMatch(t, []int64{1, 2, 3, 4}, log.started(), "only the 4 that run have started")
	g.release("c4")
	assert.Equal(t, []string{"c5"}, g.awaitArrivals(t, 1))
	g.assertNoArrival(t, "the limit is 1 and call 5 runs")
	g.release("c5")
	assert.Equal(t, []string{"c6"}, g.awaitArrivals(t, 1))
	g.release("c6")
	log.readUntil("result", 6)
	assert.Equal(t, []int64{5, 6}, log.started()[4:])
	assert.Equal(t, 4, g.mostAtOnce())
}

func TestCallsSocketCloseDropsWaitingCalls(t *testing.T) {
	g, conn, _, logs, fake, srv := startGatedServer(t)
	sendText(t, conn, `{"type":"limit","n":1}`)
	for id := int64(1); id <= 3; id++ {
		sendText(t, conn, callMessage(id, testKey, chatBody(fmt.Sprint("c", id), false)))
	}
	require.Eventually(t, func() bool { return waitingCalls(srv) == 2 }, 10*time.Second, time.Millisecond, "the server has read every call")
	assert.Equal(t, []string{"c1"}, g.awaitArrivals(t, 1))
	require.NoError(t, conn.Close(websocket.StatusGoingAway, "page closed"))
	select {
	case m := <-g.cancelled:
		assert.Equal(t, "c1", m)
	case <-time.After(5 * time.Second):
		t.Fatal("the running call was not cancelled")
	}
	g.assertNoArrival(t, "the socket closed with it waiting")
	assert.Len(t, fake.requests(), 1)
	require.Eventually(t, func() bool { return strings.Count(logs.String(), "WS /v1/chat/completions 499") == 3 }, 10*time.Second, 10*time.Millisecond,
		"the running call and both waiting ones are logged as cancelled")
}

func TestCallsSocketWaitingCallsCountAsInFlight(t *testing.T) {
	g, conn, log, _, fake := startGated(t)
	sendText(t, conn, `{"type":"limit","n":1}`)
	for id := int64(1); id <= maxCallsInFlight; id++ {
		sendText(t, conn, callMessage(id, testKey, chatBody(fmt.Sprint("c", id), false)))
	}
	g.awaitArrivals(t, 1)
	sendText(t, conn, callMessage(maxCallsInFlight+1, testKey, chatBody("fast", false)))
	log.readUntil("result", maxCallsInFlight+1)
	assert.Equal(t, http.StatusTooManyRequests, log.seen[log.index("result", maxCallsInFlight+1)].Status, "1 running and the rest waiting fill the socket")

	sendText(t, conn, callMessage(2, testKey, chatBody("c2", false)))
	code, reason := readClose(t, conn)
	assert.Equal(t, websocket.StatusPolicyViolation, code)
	assert.Equal(t, "call id 2 is already in flight", reason, "a waiting call's id is taken")
	assert.Len(t, fake.requests(), 1)
}

func TestCallsSocketTakesThePagesHighestLimitAndItsCallsAhead(t *testing.T) {
	// The page's highest concurrency is maxCallLimit, and over the socket it sends a quarter of
	// its limit more (calls.js socketAhead): none of those may be refused.
	ahead := max(2, (maxCallLimit+3)/4)
	require.GreaterOrEqual(t, maxCallsInFlight, maxCallLimit+ahead)
	h := newHangOrAnswer()
	fake := newFakeUpstream(t, h.serve)
	cfg := testConfig(t, fake.URL+"/v1")
	s := newServer(cfg).(*server)
	proxy := httptest.NewServer(s)
	t.Cleanup(proxy.Close)
	conn := dialCalls(t, proxy.URL)
	log := &messageLog{t: t, conn: conn}
	sendText(t, conn, fmt.Sprintf(`{"type":"limit","n":%d}`, maxCallLimit))
	for id := int64(1); id <= int64(maxCallLimit+ahead); id++ {
		sendText(t, conn, callMessage(id, testKey, chatBody("slow", false)))
	}
	h.await(t, h.started, maxCallLimit, "the upstream never saw the calls")
	require.Eventually(t, func() bool { return waitingCalls(s) == ahead }, 10*time.Second, time.Millisecond, "the calls ahead wait")
	for id := int64(1); id <= int64(maxCallLimit); id++ {
		log.readUntil("started", id)
	}
	assert.Len(t, log.seen, maxCallLimit, "a started for each running call, no result: nothing refused")

	sendText(t, conn, `{"type":"cancel","id":1}`)
	h.await(t, h.ended, 1, "the cancelled call was not cancelled")
	log.readUntil("started", int64(maxCallLimit+1))
	assert.Equal(t, -1, slices.IndexFunc(log.seen, func(m socketMessage) bool { return m.Type == "result" }), "%v", log.seen)
}

// FuzzDecodeEnvelope checks that any calls socket message is either a well-formed envelope or
// an error short enough to be a close frame's reason, never a panic.
func FuzzDecodeEnvelope(f *testing.F) {
	f.Add([]byte(`{"type":"call","id":1,"key":"sk-x","body":{"model":"judge-1","messages":[{"role":"user","content":"hi"}]}}`))
	f.Add([]byte(`{"type":"cancel","id":9007199254740991}`))
	f.Add([]byte(`{"type":"call","id":1.0,"body":{}}`))
	f.Add([]byte(`{"type":"call","id":1,"body":"{}"}`))
	f.Add([]byte(`{"type":"ping","id":-1}`))
	f.Add([]byte(`[1,2`))
	f.Add([]byte(`{"type":"limit","n":16}`))
	f.Add([]byte(`{"type":"limit","n":1.0}`))
	f.Add([]byte(`{"type":"limit","n":"2"}`))
	f.Add([]byte(`{"type":"limit","n":65}`))
	f.Fuzz(func(t *testing.T, msg []byte) {
		env, err := decodeEnvelope(msg)
		if err != nil {
			if len(err.Error()) > maxCloseReason || !utf8.ValidString(err.Error()) {
				t.Fatalf("decodeEnvelope(%q): reason %q does not fit a close frame", msg, err)
			}
			return
		}
		switch env.Type {
		case "limit":
			if env.N < 1 || env.N > maxCallLimit || env.ID != 0 || env.Body != nil {
				t.Fatalf("decodeEnvelope(%q) accepted %+v", msg, env)
			}
			return
		case "call", "cancel":
			if env.ID < 1 || env.ID > maxCallID || env.N != 0 {
				t.Fatalf("decodeEnvelope(%q) accepted %+v", msg, env)
			}
		default:
			t.Fatalf("decodeEnvelope(%q) accepted %+v", msg, env)
		}
		if env.Type == "call" && !json.Valid(env.Body) {
			t.Fatalf("decodeEnvelope(%q) accepted a body that is not JSON: %q", msg, env.Body)
		}
	})
}

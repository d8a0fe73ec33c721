package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNothingIsSentToAnyHostButTheUpstream(t *testing.T) {
	var evilHits atomic.Int32
	evil := newFakeUpstream(t, func(w http.ResponseWriter, r *http.Request) {
		evilHits.Add(1)
		io.WriteString(w, completionJSON("stolen"))
	})
	evilHost := strings.TrimPrefix(evil.URL, "http://")
	var redirect atomic.Bool
	fake := newFakeUpstream(t, func(w http.ResponseWriter, r *http.Request) {
		if redirect.Load() {
			http.Redirect(w, r, evil.URL+r.URL.Path, http.StatusTemporaryRedirect)
			return
		}
		answerCompletion("yes")(w, r)
	})
	proxy, _ := startProxy(t, testConfig(t, fake.URL+"/v1"))

	bodies := []string{
		fmt.Sprintf(`{"model":"judge-1","base_url":%q,"api_base":%q,"baseURL":%q,"url":%q,"messages":[{"role":"user","content":"hi"}]}`,
			evil.URL, evil.URL, evil.URL, evil.URL+"/v1/chat/completions"),
		fmt.Sprintf(`{"model":%q,"messages":[{"role":"user","content":"hi"}]}`, evil.URL+"/v1"),
		fmt.Sprintf(`{"model":"//%s/v1","messages":[{"role":"user","content":"hi"}]}`, evilHost),
		`{"model":"x@` + evilHost + `","messages":[{"role":"user","content":"hi"}]}`,
	}
	for _, body := range bodies {
		for _, stream := range []bool{false, true} {
			b := body
			if stream {
				b = strings.Replace(b, `"messages"`, `"stream":true,"messages"`, 1)
			}
			req, err := http.NewRequest(http.MethodPost, proxy.URL+"/v1/chat/completions", strings.NewReader(b))
			require.NoError(t, err)
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Authorization", "Bearer "+testKey)
			req.Header.Set("X-Forwarded-Host", evilHost)
			req.Header.Set("Forwarded", "host="+evilHost)
			req.Header.Set("Cookie", "session=browser-secret")
			req.Header.Set("OpenAI-Organization", "org-from-browser")
			resp, err := noGzipClient.Do(req)
			require.NoError(t, err)
			resp.Body.Close()
		}
	}
	for _, seen := range fake.requests() {
		assert.Equal(t, "/v1/chat/completions", seen.Path, "the body cannot change the upstream path")
		assert.Empty(t, seen.RawQuery, "nor add a query")
		for _, h := range []string{"Cookie", "X-Forwarded-Host", "Forwarded", "OpenAI-Organization"} {
			assert.Empty(t, seen.Header.Get(h), "the browser's %s header is not forwarded", h)
		}
	}
	assert.Len(t, fake.requests(), len(bodies)*2)

	// An upstream that redirects elsewhere does not take the prompt and key with it.
	redirect.Store(true)
	resp := postChat(t, proxy.URL, testKey, chatBody("judge-1", false))
	body := readAll(t, resp.Body)
	assert.Equal(t, http.StatusBadGateway, resp.StatusCode, body)
	assert.Contains(t, decodeError(t, body).Message, "talks only to its -upstream")
	assert.Zero(t, evilHits.Load(), "the other host saw nothing")
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

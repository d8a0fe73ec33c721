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

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestChatCompletionReachesUpstreamWithTheBrowsersKey(t *testing.T) {
	for _, stream := range []bool{false, true} {
		t.Run(fmt.Sprintf("stream=%t", stream), func(t *testing.T) {
			handler := answerCompletion("yes")
			if stream {
				handler = answerStream("y", "es")
			}
			fake := newFakeUpstream(t, handler)
			proxy, logs := startProxy(t, testConfig(t, fake.URL+"/v1"))

			resp := postChat(t, proxy.URL, testKey, chatBody("judge-1", stream))
			body := readAll(t, resp.Body)
			require.Equal(t, http.StatusOK, resp.StatusCode, body)

			seen := fake.requests()
			require.Len(t, seen, 1)
			assert.Equal(t, http.MethodPost, seen[0].Method)
			assert.Equal(t, "/v1/chat/completions", seen[0].Path)
			assert.Equal(t, "Bearer "+testKey, seen[0].Authorization)
			var sent map[string]any
			require.NoError(t, json.Unmarshal(seen[0].Body, &sent))
			assert.Equal(t, "judge-1", sent["model"])
			assert.Equal(t, stream, sent["stream"])
			assert.Contains(t, string(seen[0].Body), "Is the claim grounded?")

			if stream {
				assert.Equal(t, "text/event-stream; charset=utf-8", resp.Header.Get("Content-Type"))
				events := sseEvents(body)
				require.Equal(t, []string{chunkJSON("y"), chunkJSON("es"), "[DONE]"}, events,
					"chunks pass through byte for byte, vendor fields included")
			} else {
				assert.Equal(t, "application/json", resp.Header.Get("Content-Type"))
				var got struct {
					Choices []struct{ Message struct{ Content string } }
					Usage   struct {
						TotalTokens int `json:"total_tokens"`
					}
				}
				require.NoError(t, json.Unmarshal([]byte(body), &got))
				require.Len(t, got.Choices, 1)
				assert.Equal(t, "yes", got.Choices[0].Message.Content)
				assert.Equal(t, 13, got.Usage.TotalTokens, "token usage reaches the page")
			}
			assert.NotContains(t, body, testKey)
			require.Eventually(t, func() bool { return strings.Contains(logs.String(), "POST /v1/chat/completions 200") }, 10*time.Second, 10*time.Millisecond)
			assert.NotContains(t, logs.String(), testKey)
			assert.NotContains(t, logs.String(), "Is the claim grounded?")
		})
	}
}

func TestBodyOverTheCapIs413(t *testing.T) {
	fake := newFakeUpstream(t, answerCompletion("yes"))
	cfg := testConfig(t, fake.URL+"/v1")
	cfg.MaxBody = 1024
	proxy, _ := startProxy(t, cfg)
	big := fmt.Sprintf(`{"model":"judge-1","messages":[{"role":"user","content":%q}]}`, strings.Repeat("x", 2000))

	t.Run("with Content-Length", func(t *testing.T) {
		resp := postChat(t, proxy.URL, testKey, big)
		body := readAll(t, resp.Body)
		assert.Equal(t, http.StatusRequestEntityTooLarge, resp.StatusCode)
		assert.Contains(t, decodeError(t, body).Message, "1024 bytes")
	})
	t.Run("chunked", func(t *testing.T) {
		req, err := http.NewRequest(http.MethodPost, proxy.URL+"/v1/chat/completions", io.NopCloser(strings.NewReader(big)))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		require.Zero(t, req.ContentLength, "unknown length: the client sends it chunked")
		resp, err := noGzipClient.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		assert.Equal(t, http.StatusRequestEntityTooLarge, resp.StatusCode)
		decodeError(t, readAll(t, resp.Body))
	})
	t.Run("just under the cap passes", func(t *testing.T) {
		small := fmt.Sprintf(`{"model":"judge-1","messages":[{"role":"user","content":%q}]}`, strings.Repeat("x", 900))
		resp := postChat(t, proxy.URL, testKey, small)
		assert.Equal(t, http.StatusOK, resp.StatusCode, readAll(t, resp.Body))
	})
	assert.Len(t, fake.requests(), 1, "oversized bodies never reach the upstream")
}

func TestHangingUpstreamTimesOut(t *testing.T) {
	hang := func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(20 * time.Second):
		}
	}
	cases := []struct {
		name    string
		stream  bool
		handler http.HandlerFunc
	}{
		{"plain", false, hang},
		{"stream with no headers", true, hang},
		{"stream with headers but no event", true, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			w.WriteHeader(http.StatusOK)
			w.(http.Flusher).Flush()
			hang(w, r)
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fake := newFakeUpstream(t, tc.handler)
			cfg := testConfig(t, fake.URL+"/v1")
			cfg.Timeout = 300 * time.Millisecond
			proxy, _ := startProxy(t, cfg)
			start := time.Now()
			resp := postChat(t, proxy.URL, testKey, chatBody("judge-1", tc.stream))
			body := readAll(t, resp.Body)
			assert.Less(t, time.Since(start), 5*time.Second)
			assert.Equal(t, http.StatusGatewayTimeout, resp.StatusCode, body)
			e := decodeError(t, body)
			assert.Contains(t, e.Message, "did not answer within 300ms")
			assert.Equal(t, "upstream_timeout", e.Code)
		})
	}

	t.Run("stream that goes quiet midway", func(t *testing.T) {
		// Six events a quarter of the timeout apart: longer in total than the timeout, never idle
		// that long. The gap leaves the timeout 750 ms for scheduling delays: with 200 ms gaps
		// and a 300 ms timeout a loaded machine (go test -race beside two busy cores) went
		// quiet for 300 ms between two events once in twenty runs.
		const events, gap = 6, 250 * time.Millisecond
		fake := newFakeUpstream(t, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			for i := 0; i < events; i++ {
				if i > 0 {
					time.Sleep(gap)
				}
				fmt.Fprintf(w, "data: %s\n\n", chunkJSON(fmt.Sprint(i)))
				w.(http.Flusher).Flush()
			}
			hang(w, r)
		})
		cfg := testConfig(t, fake.URL+"/v1")
		cfg.Timeout = time.Second
		proxy, _ := startProxy(t, cfg)
		resp := postChat(t, proxy.URL, testKey, chatBody("judge-1", true))
		got := sseEvents(readAll(t, resp.Body))
		require.Len(t, got, events+1)
		assert.Equal(t, chunkJSON(fmt.Sprint(events-1)), got[events-1], "a stream is timed per event, not in total")
		assert.Contains(t, decodeError(t, got[events]).Message, "sent nothing for 1s")
	})
}

func TestDisconnectingClientCancelsTheUpstreamCall(t *testing.T) {
	for _, stream := range []bool{false, true} {
		t.Run(fmt.Sprintf("stream=%t", stream), func(t *testing.T) {
			started := make(chan struct{})
			cancelled := make(chan struct{})
			fake := newFakeUpstream(t, func(w http.ResponseWriter, r *http.Request) {
				if stream {
					w.Header().Set("Content-Type", "text/event-stream")
					fmt.Fprintf(w, "data: %s\n\n", chunkJSON("thinking"))
					w.(http.Flusher).Flush()
				}
				close(started)
				select {
				case <-r.Context().Done():
					close(cancelled)
				case <-time.After(20 * time.Second):
				}
			})
			proxy, logs := startProxy(t, testConfig(t, fake.URL+"/v1"))

			ctx, cancel := context.WithCancel(context.Background())
			req, err := http.NewRequestWithContext(ctx, http.MethodPost, proxy.URL+"/v1/chat/completions", strings.NewReader(chatBody("judge-1", stream)))
			require.NoError(t, err)
			req.Header.Set("Content-Type", "application/json")
			done := make(chan struct{})
			go func() {
				defer close(done)
				resp, err := noGzipClient.Do(req)
				if err == nil {
					// Read the first event so the stream is really under way, then hang up.
					bufio.NewReader(resp.Body).ReadString('\n')
					cancel()
					resp.Body.Close()
				}
			}()
			select {
			case <-started:
			case <-time.After(5 * time.Second):
				t.Fatal("the upstream never saw the request")
			}
			if !stream {
				cancel()
			}
			select {
			case <-cancelled:
			case <-time.After(5 * time.Second):
				t.Fatal("the upstream call was not cancelled when the browser went away")
			}
			<-done
			require.Eventually(t, func() bool { return strings.Contains(logs.String(), "POST /v1/chat/completions") }, 10*time.Second, 10*time.Millisecond)
			if !stream {
				assert.Contains(t, logs.String(), "POST /v1/chat/completions 499")
			}
		})
	}
}

func TestBadRequestsAreRefusedBeforeTheUpstream(t *testing.T) {
	fake := newFakeUpstream(t, answerCompletion("yes"))
	proxy, _ := startProxy(t, testConfig(t, fake.URL+"/v1"))
	cases := []struct {
		name, method, path, contentType, body string
		header                                map[string]string
		status                                int
		code                                  string
	}{
		{"not JSON", "POST", "/v1/chat/completions", "application/json", `{"model":`, nil, 400, "invalid_request"},
		{"no model", "POST", "/v1/chat/completions", "application/json", `{"messages":[{"role":"user","content":"hi"}]}`, nil, 400, "invalid_request"},
		{"no messages", "POST", "/v1/chat/completions", "application/json", `{"model":"m","messages":[]}`, nil, 400, "invalid_request"},
		{"null body", "POST", "/v1/chat/completions", "application/json", `null`, nil, 400, "invalid_request"},
		{"model not a string", "POST", "/v1/chat/completions", "application/json", `{"model":7,"messages":[{"role":"user","content":"hi"}]}`, nil, 400, "invalid_request"},
		{"model only in another case", "POST", "/v1/chat/completions", "application/json", `{"Model":"m","messages":[{"role":"user","content":"hi"}]}`, nil, 400, "invalid_request"},
		{"messages not an array", "POST", "/v1/chat/completions", "application/json", `{"model":"m","messages":"hi"}`, nil, 400, "invalid_request"},
		{"stream not a boolean", "POST", "/v1/chat/completions", "application/json", `{"model":"m","stream":"yes","messages":[{"role":"user","content":"hi"}]}`, nil, 400, "invalid_request"},
		{"trailing garbage", "POST", "/v1/chat/completions", "application/json", `{"model":"m","messages":[{"role":"user","content":"hi"}]} x`, nil, 400, "invalid_request"},
		{"model with a space", "POST", "/v1/chat/completions", "application/json", `{"model":"a b","messages":[{"role":"user","content":"hi"}]}`, nil, 400, "invalid_request"},
		{"form post", "POST", "/v1/chat/completions", "text/plain", chatBody("m", false), nil, 415, "unsupported_media_type"},
		{"GET chat", "GET", "/v1/chat/completions", "", "", nil, 405, "method_not_allowed"},
		{"other endpoint", "POST", "/v1/embeddings", "application/json", `{}`, nil, 404, "not_found"},
		{"basic auth", "POST", "/v1/chat/completions", "application/json", chatBody("m", false), map[string]string{"Authorization": "Basic Zm9vOmJhcg=="}, 401, "invalid_authorization"},
		{"cross-origin page", "POST", "/v1/chat/completions", "application/json", chatBody("m", false), map[string]string{"Origin": "https://evil.example"}, 403, "cross_origin"},
		{"cross-site fetch", "GET", "/v1/models", "", "", map[string]string{"Sec-Fetch-Site": "cross-site"}, 403, "cross_origin"},
		{"sandboxed origin", "GET", "/ragjudge/config", "", "", map[string]string{"Origin": "null"}, 403, "cross_origin"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req, err := http.NewRequest(tc.method, proxy.URL+tc.path, strings.NewReader(tc.body))
			require.NoError(t, err)
			if tc.contentType != "" {
				req.Header.Set("Content-Type", tc.contentType)
			}
			for k, v := range tc.header {
				req.Header.Set(k, v)
			}
			resp, err := noGzipClient.Do(req)
			require.NoError(t, err)
			defer resp.Body.Close()
			body := readAll(t, resp.Body)
			assert.Equal(t, tc.status, resp.StatusCode, body)
			assert.Equal(t, tc.code, decodeError(t, body).Code)
		})
	}
	assert.Empty(t, fake.requests())

	t.Run("the page's own origin is welcome", func(t *testing.T) {
		req, err := http.NewRequest(http.MethodPost, proxy.URL+"/v1/chat/completions", strings.NewReader(chatBody("m", false)))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json; charset=utf-8")
		req.Header.Set("Origin", proxy.URL)
		req.Header.Set("Sec-Fetch-Site", "same-origin")
		resp, err := noGzipClient.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		assert.Equal(t, http.StatusOK, resp.StatusCode, readAll(t, resp.Body))
	})
}

// judgeRequest is a request as judges on vLLM, llama.cpp and Ollama are run: parameters no
// client library models, a zero temperature, unicode in every form JSON allows, numbers no
// float64 holds, member order and spacing of its own, and a duplicate member.
const judgeRequest = `{"model":"qwen3:8b", "temperature":0, "top_p":0.0, "top_k":1, "min_p":0.05,` +
	`"max_tokens":512,"seed":18446744073709551615,"keep_alive":"5m",` +
	`"messages":[{"role":"system","content":"Réponds par oui ou non \u00e9 \ud83d\ude00 日本語 😀 \"quoted\" \/slash"},` +
	`{"role":"user","content":[{"type":"text","text":"Is the claim grounded?\n\tYes or no."}]}],` +
	`"guided_json":{"type":"object","properties":{"verdict":{"enum":["yes","no"]}},"required":["verdict"]},` +
	`"options":{"num_ctx":8192,"num_predict":-1,"big":123456789012345678901234567890,"tiny":1e-400,"huge":1E+400},` +
	`"chat_template_kwargs":{"enable_thinking":false},` +
	`"response_format":{"type":"json_schema","json_schema":{"name":"verdict","strict":true,"schema":{"type":"object"}}},` +
	`"logit_bias":{"1234":-100},"stop":null,"x_vendor":[1,2.50,3e2],"top_k":2}`

// vendorCompletion is an answer with what real upstreams add: a reasoning field, timings,
// Azure's filter results, numbers in their own spelling, escapes of their own choice.
const vendorCompletion = `{"id":"chatcmpl-9","object":"chat.completion","created":1700000000,"model":"qwen3:8b",` +
	`"system_fingerprint":null,"choices":[{"index":0,"message":{"role":"assistant","content":"{\"verdict\":\"yes\"}",` +
	`"reasoning_content":"Le texte dit \u00ab oui \u00bb \ud83d\ude00"},"logprobs":null,"finish_reason":"stop",` +
	`"stop_reason":null}],"usage":{"prompt_tokens":12,"completion_tokens":1,"total_tokens":13,"prompt_tokens_details":null},` +
	`"prompt_filter_results":[],"timings":{"predicted_per_second":41.50,"big":123456789012345678901234567890},` +
	`"kv_transfer_params":null}`

func TestChatCompletionBytesPassThroughBothWays(t *testing.T) {
	for _, stream := range []bool{false, true} {
		t.Run(fmt.Sprintf("stream=%t", stream), func(t *testing.T) {
			fake := newFakeUpstream(t, func(w http.ResponseWriter, r *http.Request) {
				if !stream {
					w.Header().Set("Content-Type", "application/json; charset=utf-8")
					io.WriteString(w, vendorCompletion)
					return
				}
				w.Header().Set("Content-Type", "text/event-stream; charset=utf-8")
				for _, c := range vendorChunks {
					io.WriteString(w, c)
					w.(http.Flusher).Flush()
				}
			})
			proxy, _ := startProxy(t, testConfig(t, fake.URL+"/v1"))
			sent := judgeRequest
			if stream {
				sent = strings.Replace(sent, `"max_tokens":512,`, `"max_tokens":512,"stream":true,"stream_options":{"include_usage":true},`, 1)
			}
			resp := postChat(t, proxy.URL, testKey, sent)
			got := readAll(t, resp.Body)
			require.Equal(t, http.StatusOK, resp.StatusCode, got)

			seen := fake.requests()
			require.Len(t, seen, 1)
			assert.Equal(t, sent, string(seen[0].Body), "the upstream receives the browser's bytes")
			assert.Equal(t, "Bearer "+testKey, seen[0].Authorization)
			if stream {
				assert.Equal(t, strings.Join(vendorChunks, ""), got, "the browser receives the upstream's bytes")
				assert.Equal(t, "text/event-stream", seen[0].Header.Get("Accept"))
			} else {
				assert.Equal(t, vendorCompletion, got, "the browser receives the upstream's bytes")
				assert.Equal(t, "application/json", seen[0].Header.Get("Accept"))
			}
			assert.NotContains(t, got, "content_filter_results", "nothing the upstream did not send")
		})
	}

	t.Run("over the calls socket", func(t *testing.T) {
		fake := newFakeUpstream(t, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, vendorCompletion)
		})
		proxy, _ := startProxy(t, testConfig(t, fake.URL+"/v1"))
		conn := dialCalls(t, proxy.URL)
		sendText(t, conn, callMessage(1, testKey, judgeRequest))
		res := readResult(t, conn)
		require.Equal(t, http.StatusOK, res.Status, res.Body)
		assert.Equal(t, vendorCompletion, res.Body)
		assert.Equal(t, judgeRequest, string(fake.requests()[0].Body))
	})
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

// FuzzParseChatRequest checks that any body is either a request with a model and messages or
// an error, never a panic.
func FuzzParseChatRequest(f *testing.F) {
	f.Add([]byte(`{"model":"judge-1","temperature":0,"messages":[{"role":"user","content":"hi"}]}`))
	f.Add([]byte(`{"model":"gpt-5","max_tokens":10,"top_p":0,"messages":[{"role":"user","content":[{"type":"text","text":"hi"}]}]}`))
	f.Add([]byte(`{"model":"..","messages":[]}`))
	f.Add([]byte(`[1,2`))
	f.Fuzz(func(t *testing.T, body []byte) {
		req, err := parseChatRequest(body)
		if err == nil && req.Model == "" {
			t.Fatalf("accepted %q without a model or messages", body)
		}
	})
}

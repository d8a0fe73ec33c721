package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"regexp"
	"strings"
	"sync/atomic"
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

func TestKeyAppearsInNoErrorBodyAndNoLogLine(t *testing.T) {
	tail := testKey[len(testKey)-8:]
	echoes := []struct {
		name    string
		stream  bool
		handler http.HandlerFunc
		status  int
	}{
		{"openai 401 quoting the key", false, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusUnauthorized)
			fmt.Fprintf(w, `{"error":{"message":"Incorrect API key provided: %s. You can find your API key at https://platform.openai.com/account/api-keys.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}`, testKey)
		}, http.StatusUnauthorized},
		{"masked key as OpenAI prints it", false, func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusUnauthorized)
			fmt.Fprintf(w, `{"error":{"message":"Incorrect API key provided: sk-test-********%s.","type":"invalid_request_error","code":"invalid_api_key"}}`, tail)
		}, http.StatusUnauthorized},
		{"html error page echoing the headers", false, func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusBadGateway)
			fmt.Fprintf(w, "<html><body>bad gateway; you sent Authorization: %s</body></html>", r.Header.Get("Authorization"))
		}, http.StatusBadGateway},
		{"error event inside a stream", true, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprintf(w, "data: %s\n\n", chunkJSON("partial"))
			w.(http.Flusher).Flush()
			fmt.Fprintf(w, `data: {"error":{"message":"key %s was revoked","type":"server_error","code":null}}`+"\n\n", testKey)
		}, http.StatusOK},
		{"error before a stream starts", true, func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusForbidden)
			fmt.Fprintf(w, `{"error":{"message":"key %s may not use this model","type":"permission_error","code":%q}}`, testKey, testKey)
		}, http.StatusForbidden},
	}
	for _, tc := range echoes {
		t.Run(tc.name, func(t *testing.T) {
			fake := newFakeUpstream(t, tc.handler)
			proxy, logs := startProxy(t, testConfig(t, fake.URL+"/v1"))
			resp := postChat(t, proxy.URL, testKey, chatBody("judge-1", tc.stream))
			body := readAll(t, resp.Body)
			assert.Equal(t, tc.status, resp.StatusCode, body)
			assert.Equal(t, "Bearer "+testKey, fake.requests()[0].Authorization, "the key did reach the upstream")
			assert.NotContains(t, body, testKey)
			assert.NotContains(t, body, tail, "not even the masked tail")
			assert.Contains(t, body, "[key redacted]")
			if tc.status != http.StatusOK {
				decodeError(t, body)
			} else {
				events := sseEvents(body)
				require.Len(t, events, 2)
				assert.NotEqual(t, "[DONE]", events[1], "a failed stream does not claim to be complete")
				decodeError(t, events[1])
			}
			for name, values := range resp.Header {
				for _, v := range values {
					assert.NotContains(t, v, tail, "header %s", name)
				}
			}
			require.Eventually(t, func() bool { return strings.Contains(logs.String(), "POST /v1/chat/completions") }, 10*time.Second, 10*time.Millisecond)
			assert.NotContains(t, logs.String(), tail)
		})
	}
}

func TestServerKeyIsUsedWhenTheBrowserSendsNone(t *testing.T) {
	const serverKey = "sk-server-0123456789abcdef0123456789"
	fake := newFakeUpstream(t, answerCompletion("yes"))
	cfg := testConfig(t, fake.URL+"/v1")
	cfg.ServerKey = serverKey
	proxy, logs := startProxy(t, cfg)

	resp := postChat(t, proxy.URL, "", chatBody("judge-1", false))
	require.Equal(t, http.StatusOK, resp.StatusCode, readAll(t, resp.Body))
	assert.Equal(t, "server", resp.Header.Get("Ragjudge-Key"), "the page learns whose key went upstream")
	resp = postChat(t, proxy.URL, testKey, chatBody("judge-1", false))
	require.Equal(t, http.StatusOK, resp.StatusCode, readAll(t, resp.Body))
	assert.Equal(t, "page", resp.Header.Get("Ragjudge-Key"))

	seen := fake.requests()
	require.Len(t, seen, 2)
	assert.Equal(t, "Bearer "+serverKey, seen[0].Authorization, "OPENAI_API_KEY when the browser sends no key")
	assert.Equal(t, "Bearer "+testKey, seen[1].Authorization, "the browser's key wins")

	cfgResp, err := http.Get(proxy.URL + "/ragjudge/config")
	require.NoError(t, err)
	defer cfgResp.Body.Close()
	cfgBody := readAll(t, cfgResp.Body)
	assert.JSONEq(t, fmt.Sprintf(`{"upstream":%q,"upstream_host":%q,"azure":false,"server_key":true,"calls":"/ragjudge/calls",
		"max_inflight":%d,"socket_calls":%d,"socket_limit":%d,"token":"none"}`,
		fake.URL+"/v1", strings.TrimPrefix(fake.URL, "http://"), defaultMaxInflight, maxCallsInFlight, maxCallLimit), cfgBody)
	assert.NotContains(t, cfgBody, serverKey)
	assert.NotContains(t, logs.String(), serverKey)

	// parseConfig is where OPENAI_API_KEY comes from.
	parsed, err := parseConfig([]string{"-web", t.TempDir()}, func(k string) string {
		if k == "OPENAI_API_KEY" {
			return serverKey
		}
		return ""
	}, io.Discard)
	require.NoError(t, err)
	assert.Equal(t, serverKey, parsed.ServerKey)
}

func TestNoKeyAtAllSendsNoAuthorization(t *testing.T) {
	fake := newFakeUpstream(t, answerCompletion("yes"))
	proxy, _ := startProxy(t, testConfig(t, fake.URL+"/v1"))
	resp := postChat(t, proxy.URL, "", chatBody("llama3:8b", false))
	require.Equal(t, http.StatusOK, resp.StatusCode, readAll(t, resp.Body))
	assert.Empty(t, fake.requests()[0].Authorization, "Ollama and friends need no key")
}

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

func TestAzureDeploymentCannotLeaveTheUpstreamPath(t *testing.T) {
	fake := newFakeUpstream(t, answerCompletion("yes"))
	cfg := testConfig(t, fake.URL)
	cfg.Azure = true
	cfg.AzureAPIVersion = "2024-10-21"
	cfg.AzureDeployments = map[string]string{"gpt-4o": "prod-4o"}
	proxy, _ := startProxy(t, cfg)

	for _, model := range []string{"gpt-4o", "gpt-35-turbo", "gpt-3.5-turbo", "llama3:8b"} {
		resp := postChat(t, proxy.URL, testKey, chatBody(model, false))
		require.Equal(t, http.StatusOK, resp.StatusCode, readAll(t, resp.Body))
	}
	seen := fake.requests()
	require.Len(t, seen, 4)
	assert.Equal(t, "/openai/deployments/prod-4o/chat/completions", seen[0].Path)
	assert.Equal(t, "api-version=2024-10-21", seen[0].RawQuery)
	assert.Equal(t, testKey, seen[0].APIKey, "Azure's api-key header")
	assert.Empty(t, seen[0].Authorization)
	assert.Equal(t, chatBody("gpt-4o", false), string(seen[0].Body), "the body is sent as it came, model included")
	assert.Equal(t, "/openai/deployments/gpt-35-turbo/chat/completions", seen[1].Path)
	assert.Equal(t, "/openai/deployments/gpt-35-turbo/chat/completions", seen[2].Path, "go-openai's default mapping")
	assert.Equal(t, "/openai/deployments/llama38b/chat/completions", seen[3].Path)

	// A deployment is checked after mapping: no model can name a path element of its own.
	for _, model := range []string{"a/b", "%2e%2e", "../../../evil?x=1#", "a\\b", "x#y", "d\u00e9ploiement", ".:", "..:"} {
		t.Run(model, func(t *testing.T) {
			resp := postChat(t, proxy.URL, testKey, chatBody(model, false))
			body := readAll(t, resp.Body)
			require.Equal(t, http.StatusBadRequest, resp.StatusCode, body)
			e := decodeError(t, body)
			assert.Equal(t, "invalid_deployment", e.Code)
			assert.Contains(t, e.Message, "not a deployment name")
		})
	}
	// ".." and "." are not even model names.
	for _, model := range []string{"..", "."} {
		resp := postChat(t, proxy.URL, testKey, chatBody(model, false))
		body := readAll(t, resp.Body)
		require.Equal(t, http.StatusBadRequest, resp.StatusCode, body)
		assert.Contains(t, decodeError(t, body).Message, "is not a model name")
	}
	assert.Len(t, fake.requests(), 4, "no bad deployment reached Azure")

	// The models the page offers are the configured ones, not Azure's base model list.
	resp, err := http.Get(proxy.URL + "/v1/models")
	require.NoError(t, err)
	defer resp.Body.Close()
	var list struct{ Data []struct{ ID string } }
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&list))
	require.Len(t, list.Data, 1)
	assert.Equal(t, "gpt-4o", list.Data[0].ID)
	assert.Len(t, fake.requests(), 4, "answered without calling Azure")
}

func TestAzureDeploymentsFlagTakesOnlyDeploymentNames(t *testing.T) {
	for _, d := range []string{"..", ".", "a/b", "%2e%2e", "a?b"} {
		_, err := parseConfig([]string{"-web", t.TempDir(), "-azure", "-upstream", "https://my.openai.azure.com", "-azure-deployments", "gpt-4o=" + d}, noEnv, io.Discard)
		require.Error(t, err, d)
		assert.Contains(t, err.Error(), "not a deployment name", d)
	}
	assert.True(t, validDeployment("gpt-4o.prod_2-x"))
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

func TestStreamEventsArriveBeforeTheStreamEnds(t *testing.T) {
	release := make(chan struct{})
	fake := newFakeUpstream(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprintf(w, "data: %s\n\n", chunkJSON("first"))
		w.(http.Flusher).Flush()
		select {
		case <-release:
		case <-time.After(10 * time.Second):
		}
		fmt.Fprintf(w, "data: %s\n\ndata: [DONE]\n\n", chunkJSON("second"))
	})
	proxy, _ := startProxy(t, testConfig(t, fake.URL+"/v1"))
	resp := postChat(t, proxy.URL, testKey, chatBody("judge-1", true))
	require.Equal(t, http.StatusOK, resp.StatusCode)

	reader := bufio.NewReader(resp.Body)
	first := make(chan string, 1)
	go func() {
		line, _ := reader.ReadString('\n')
		first <- line
	}()
	select {
	case line := <-first:
		assert.Equal(t, "data: "+chunkJSON("first")+"\n", line)
	case <-time.After(5 * time.Second):
		t.Fatal("the first event was held back until the stream ended: the proxy buffers")
	}
	close(release)
	rest := readAll(t, reader)
	assert.Equal(t, []string{chunkJSON("second"), "[DONE]"}, sseEvents(rest))
}

func TestUpstreamErrorsAreMappedToOpenAIShape(t *testing.T) {
	cases := []struct {
		name       string
		status     int
		header     map[string]string
		body       string
		wantType   string
		wantCode   any
		wantInText string
	}{
		{"bad key", 401, nil, `{"error":{"message":"Incorrect API key provided.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}`,
			"invalid_request_error", "invalid_api_key", "Incorrect API key"},
		{"unknown model", 404, nil, `{"error":{"message":"The model 'judge-9' does not exist","type":"invalid_request_error","param":"model","code":"model_not_found"}}`,
			"invalid_request_error", "model_not_found", "does not exist"},
		{"rate limited", 429, map[string]string{"Retry-After": "7"}, `{"error":{"message":"Rate limit reached for requests","type":"requests","param":null,"code":"rate_limit_exceeded"}}`,
			"requests", "rate_limit_exceeded", "retry after 7s"},
		{"server error", 500, nil, `{"error":{"message":"The server had an error while processing your request.","type":"server_error","param":null,"code":null}}`,
			"server_error", nil, "server had an error"},
		{"overloaded, not JSON", 503, map[string]string{"Retry-After": "30"}, `<html>503 Service Unavailable</html>`,
			"upstream_error", nil, "503 Service Unavailable"},
	}
	for _, tc := range cases {
		for _, stream := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/stream=%t", tc.name, stream), func(t *testing.T) {
				fake := newFakeUpstream(t, func(w http.ResponseWriter, r *http.Request) {
					for k, v := range tc.header {
						w.Header().Set(k, v)
					}
					w.WriteHeader(tc.status)
					io.WriteString(w, tc.body)
				})
				proxy, _ := startProxy(t, testConfig(t, fake.URL+"/v1"))
				resp := postChat(t, proxy.URL, testKey, chatBody("judge-9", stream))
				body := readAll(t, resp.Body)
				assert.Equal(t, tc.status, resp.StatusCode, body)
				assert.Equal(t, "application/json", resp.Header.Get("Content-Type"))
				e := decodeError(t, body)
				assert.Equal(t, tc.wantType, e.Type)
				assert.Equal(t, tc.wantCode, e.Code)
				assert.Contains(t, e.Message, tc.wantInText)
				if ra, ok := tc.header["Retry-After"]; ok {
					assert.Equal(t, ra, resp.Header.Get("Retry-After"), "Retry-After passes through")
				}
			})
		}
	}
}

func TestUpstreamIgnoringStreamIsAnErrorNotAnEmptyAnswer(t *testing.T) {
	fake := newFakeUpstream(t, answerCompletion("yes"))
	proxy, _ := startProxy(t, testConfig(t, fake.URL+"/v1"))
	resp := postChat(t, proxy.URL, testKey, chatBody("judge-1", true))
	body := readAll(t, resp.Body)
	assert.Equal(t, http.StatusBadGateway, resp.StatusCode, body)
	e := decodeError(t, body)
	assert.Equal(t, "not_a_stream", e.Code)
	assert.Contains(t, e.Message, "turn streaming off")
}

func TestUnreachableUpstreamIs502NamingTheHost(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	host := ln.Addr().String()
	ln.Close() // nothing listens there now

	proxy, _ := startProxy(t, testConfig(t, "http://"+host+"/v1"))
	for _, stream := range []bool{false, true} {
		resp := postChat(t, proxy.URL, testKey, chatBody("judge-1", stream))
		body := readAll(t, resp.Body)
		assert.Equal(t, http.StatusBadGateway, resp.StatusCode, body)
		e := decodeError(t, body)
		assert.Contains(t, e.Message, "could not reach the upstream "+host)
		assert.Equal(t, "upstream_unreachable", e.Code)
	}
	resp, err := http.Get(proxy.URL + "/v1/models")
	require.NoError(t, err)
	defer resp.Body.Close()
	assert.Equal(t, http.StatusBadGateway, resp.StatusCode)
}

func TestModelsAreForwarded(t *testing.T) {
	fake := newFakeUpstream(t, func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+testKey {
			w.WriteHeader(http.StatusUnauthorized)
			io.WriteString(w, `{"error":{"message":"Missing bearer authentication in header","type":"invalid_request_error","code":null}}`)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"object":"list","data":[{"id":"gpt-4o-mini","object":"model","created":1,"owned_by":"system"},{"id":"llama3:8b","object":"model","created":2,"owned_by":"library"}]}`)
	})
	proxy, _ := startProxy(t, testConfig(t, fake.URL+"/v1"))

	get := func(key string) (*http.Response, string) {
		req, err := http.NewRequest(http.MethodGet, proxy.URL+"/v1/models", nil)
		require.NoError(t, err)
		if key != "" {
			req.Header.Set("Authorization", "Bearer "+key)
		}
		resp, err := noGzipClient.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		return resp, readAll(t, resp.Body)
	}
	resp, body := get(testKey)
	require.Equal(t, http.StatusOK, resp.StatusCode, body)
	var list struct {
		Object string
		Data   []struct{ ID, Object string }
	}
	require.NoError(t, json.Unmarshal([]byte(body), &list))
	assert.Equal(t, "list", list.Object)
	require.Len(t, list.Data, 2)
	assert.Equal(t, "gpt-4o-mini", list.Data[0].ID)
	assert.Equal(t, "llama3:8b", list.Data[1].ID)
	assert.Equal(t, "/v1/models", fake.requests()[0].Path)

	resp, body = get("")
	assert.Equal(t, http.StatusUnauthorized, resp.StatusCode)
	assert.Contains(t, decodeError(t, body).Message, "Missing bearer")
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

func TestScrub(t *testing.T) {
	cases := []struct{ in, key, want string }{
		{"Incorrect API key provided: sk-abc123xyz.", "sk-abc123xyz", "Incorrect API key provided: [key redacted]."},
		{"Incorrect API key provided: sk-proj-****wxyz.", "", "Incorrect API key provided: sk-[key redacted]"},
		{"sent Authorization: Bearer abc.def-ghi", "", "sent Authorization: Bearer [key redacted]"},
		{"azure key 0123456789abcdef is wrong", "0123456789abcdef", "azure key [key redacted] is wrong"},
		{"task-list and risk-free prose stay", "", "task-list and risk-free prose stay"},
		{"", "k", ""},
		{"sk-", "", "sk-"},
	}
	for _, tc := range cases {
		assert.Equal(t, tc.want, scrub(tc.in, tc.key), tc.in)
	}
}

package main

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

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

// vendorChunks are stream events as vLLM and llama.cpp write them, comments and spacing included.
var vendorChunks = []string{
	": keep-alive comment\n\n",
	"data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"logprobs\":null,\"finish_reason\":null}]}\n\n",
	"data: {\"choices\":[{\"index\":0,\"delta\":{\"reasoning_content\":\"\\u00e9 \\ud83d\\ude00\"}}],\"timings\":{\"t\":1.50}}\n\n",
	"event: message\r\ndata:{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"oui\"},\"finish_reason\":\"stop\"}]}\r\n\r\n",
	"data: {\"choices\":[],\"usage\":{\"prompt_tokens\":12,\"completion_tokens\":1,\"total_tokens\":13}}\n\n",
	"data: [DONE]\n\n",
}

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

func TestStreamIsRelayedEventByEvent(t *testing.T) {
	// The upstream writes each event in two pieces and waits between events: every event must
	// reach the browser whole, before the next one is written.
	next := make(chan struct{})
	fake := newFakeUpstream(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for i, c := range vendorChunks {
			half := len(c) / 2
			io.WriteString(w, c[:half])
			w.(http.Flusher).Flush()
			io.WriteString(w, c[half:])
			w.(http.Flusher).Flush()
			if i < len(vendorChunks)-1 {
				select {
				case <-next:
				case <-r.Context().Done():
					return
				}
			}
		}
	})
	proxy, _ := startProxy(t, testConfig(t, fake.URL+"/v1"))
	resp := postChat(t, proxy.URL, testKey, chatBody("judge-1", true))
	require.Equal(t, http.StatusOK, resp.StatusCode)
	reader := bufio.NewReader(resp.Body)
	for i, want := range vendorChunks {
		got := make(chan string, 1)
		go func() {
			buf := make([]byte, len(want))
			_, err := io.ReadFull(reader, buf)
			if err != nil {
				got <- "error: " + err.Error()
				return
			}
			got <- string(buf)
		}()
		select {
		case g := <-got:
			assert.Equal(t, want, g, "event %d", i)
		case <-time.After(5 * time.Second):
			t.Fatalf("event %d was held back: the proxy buffers", i)
		}
		if i < len(vendorChunks)-1 {
			next <- struct{}{}
		}
	}
	rest, err := io.ReadAll(reader)
	require.NoError(t, err)
	assert.Empty(t, rest)
}

package main

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

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

// vendorChunks are stream events as vLLM and llama.cpp write them, comments and spacing included.
var vendorChunks = []string{
	": keep-alive comment\n\n",
	"data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"logprobs\":null,\"finish_reason\":null}]}\n\n",
	"data: {\"choices\":[{\"index\":0,\"delta\":{\"reasoning_content\":\"\\u00e9 \\ud83d\\ude00\"}}],\"timings\":{\"t\":1.50}}\n\n",
	"event: message\r\ndata:{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"oui\"},\"finish_reason\":\"stop\"}]}\r\n\r\n",
	"data: {\"choices\":[],\"usage\":{\"prompt_tokens\":12,\"completion_tokens\":1,\"total_tokens\":13}}\n\n",
	"data: [DONE]\n\n",
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

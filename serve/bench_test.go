package main

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// BenchmarkProxyLatency measures what the dev server adds to a chat completion: the same
// requests go to the fake upstream directly and through newServer, on loopback, at 1 and 64
// concurrent clients, plain and streaming (5 chunks). b.N is the total number of requests of a
// sub-benchmark; bench/proxy.sh fixes it and prints proxy minus direct per percentile.
func BenchmarkProxyLatency(b *testing.B) {
	upstream, proxy := benchServers(b)
	client := benchClient()
	for _, stream := range []bool{false, true} {
		body := fmt.Sprintf(`{"model":"judge-1","temperature":0,"max_tokens":512,"stream":%t,"messages":[{"role":"user","content":%q}]}`, stream, benchPrompt)
		for _, conc := range []int{1, 64} {
			for _, target := range []struct{ name, url string }{
				{"direct", upstream.URL + "/v1/chat/completions"},
				{"proxy", proxy.URL + "/v1/chat/completions"},
			} {
				kind := "plain"
				if stream {
					kind = "stream"
				}
				b.Run(fmt.Sprintf("%s/c=%d/%s", kind, conc, target.name), func(b *testing.B) {
					benchCalls(b, conc, func() error { return benchPost(client, target.url, body, stream) })
				})
			}
		}
	}
}

// benchPrompt is a ~4 KB judge prompt.
var benchPrompt = strings.Repeat("Evidence chunk with some words in it. ", 100)

// benchServers starts a zero-latency fake upstream (plain, or 5 SSE chunks when the request asks
// for a stream) and the dev server in front of it; both close when b ends.
func benchServers(b *testing.B) (upstream, proxy *httptest.Server) {
	const chunks = 5
	upstream = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		if strings.Contains(r.Header.Get("Accept"), "event-stream") || r.URL.Query().Has("stream") {
			w.Header().Set("Content-Type", "text/event-stream")
			for i := 0; i < chunks; i++ {
				fmt.Fprintf(w, "data: %s\n\n", chunkJSON("tok "))
				w.(http.Flusher).Flush()
			}
			_, _ = io.WriteString(w, "data: [DONE]\n\n")
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, completionJSON(`{"claims":[{"claim_id":"c1","grounded":true,"ungrounded_assertions":[]}]}`))
	}))
	b.Cleanup(upstream.Close)
	proxy = httptest.NewServer(newServer(config{
		Addr: defaultAddr, Upstreams: []upstreamSpec{{Name: defaultUpstreamName, URL: upstream.URL + "/v1"}}, WebDir: b.TempDir(),
		MaxBody: defaultMaxBody, Timeout: 30 * time.Second, Log: io.Discard,
	}))
	b.Cleanup(proxy.Close)
	return upstream, proxy
}

// benchClient opens as many connections as the benchmark's callers need, and keeps them.
func benchClient() *http.Client {
	return &http.Client{Transport: &http.Transport{MaxIdleConns: 512, MaxIdleConnsPerHost: 256, DisableCompression: true}}
}

// benchPost makes one chat completion request with the test key and reads the whole answer; a
// status other than 200 or an empty body is an error.
func benchPost(client *http.Client, url, body string, stream bool) error {
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+testKey)
	if stream {
		req.Header.Set("Accept", "text/event-stream")
	}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	n, err := io.Copy(io.Discard, resp.Body)
	if err == nil && (resp.StatusCode != http.StatusOK || n == 0) {
		err = fmt.Errorf("status %d, %d bytes", resp.StatusCode, n)
	}
	return err
}

// benchCalls makes b.N calls from conc goroutines, after 2*conc to warm the connection pools, and
// reports the latency percentiles and the CPU per call. CPU per call (client, upstream and the dev
// server: all in this process) does not depend on what else the machine runs, unlike latency.
func benchCalls(b *testing.B, conc int, call func() error) {
	for i := 0; i < 2*conc; i++ {
		if err := call(); err != nil {
			b.Fatal(err)
		}
	}
	lat := make([]time.Duration, b.N)
	var next atomic.Int64
	var failed atomic.Value
	var wg sync.WaitGroup
	cpu0 := processCPU()
	b.ResetTimer()
	for w := 0; w < conc; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= len(lat) {
					return
				}
				start := time.Now()
				if err := call(); err != nil {
					failed.Store(err)
					return
				}
				lat[i] = time.Since(start)
			}
		}()
	}
	wg.Wait()
	b.StopTimer()
	cpu := processCPU() - cpu0
	if err, _ := failed.Load().(error); err != nil {
		b.Fatal(err)
	}
	slices.Sort(lat)
	pct := func(p float64) float64 {
		return float64(lat[int(p*float64(len(lat)-1))].Nanoseconds()) / 1e3
	}
	b.ReportMetric(pct(0.50), "p50-µs")
	b.ReportMetric(pct(0.99), "p99-µs")
	b.ReportMetric(float64(cpu.Nanoseconds())/1e3/float64(b.N), "cpu-µs/req")
}

// processCPU is the user plus system time this process has used so far.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

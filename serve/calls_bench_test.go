package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// BenchmarkCallOverhead compares one chat completion call over the calls socket with the same
// call over POST /v1/chat/completions, both through newServer to a zero-latency fake upstream
// on loopback, so the difference is the transport's own cost. c=1 is one call at a time; c=16
// is 16 callers, over one socket or over Go's HTTP client (which, unlike a browser, opens as many
// connections as it needs, so this HTTP figure is better than a page could get).
func BenchmarkCallOverhead(b *testing.B) {
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, completionJSON(`{"claims":[{"claim_id":"c1","grounded":true,"ungrounded_assertions":[]}]}`))
	}))
	defer upstream.Close()
	proxy := httptest.NewServer(newServer(config{
		Addr: defaultAddr, Upstream: upstream.URL + "/v1", WebDir: b.TempDir(),
		MaxBody: defaultMaxBody, Timeout: 30 * time.Second, Log: io.Discard,
	}))
	defer proxy.Close()

	prompt := strings.Repeat("Evidence chunk with some words in it. ", 100) // a ~4 KB judge prompt
	body := fmt.Sprintf(`{"model":"judge-1","temperature":0,"max_tokens":512,"messages":[{"role":"user","content":%q}]}`, prompt)
	client := &http.Client{Transport: &http.Transport{MaxIdleConns: 512, MaxIdleConnsPerHost: 256, DisableCompression: true}}
	overHTTP := func() error {
		req, err := http.NewRequest(http.MethodPost, proxy.URL+"/v1/chat/completions", strings.NewReader(body))
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+testKey)
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
	sock, err := dialSocketClient(proxy.URL)
	if err != nil {
		b.Fatal(err)
	}
	defer sock.conn.CloseNow()
	overSocket := func() error {
		res, err := sock.call(testKey, body)
		if err == nil && (res.Status != http.StatusOK || res.Body == "") {
			err = fmt.Errorf("status %d, %d bytes", res.Status, len(res.Body))
		}
		return err
	}

	for _, conc := range []int{1, 16} {
		for _, target := range []struct {
			name string
			call func() error
		}{{"http", overHTTP}, {"socket", overSocket}} {
			b.Run(fmt.Sprintf("c=%d/%s", conc, target.name), func(b *testing.B) {
				benchCalls(b, conc, target.call)
			})
		}
	}
}

// socketClient is a minimal page-side calls socket client: callers wait on their own id while
// one goroutine reads every result.
type socketClient struct {
	conn    *websocket.Conn
	mu      sync.Mutex
	waiting map[int64]chan callResult
	nextID  atomic.Int64
}

func dialSocketClient(proxyURL string) (*socketClient, error) {
	conn, _, err := dialCallsWith(proxyURL, &websocket.DialOptions{
		Subprotocols: []string{callsSubprotocol},
		HTTPHeader:   http.Header{"Origin": {proxyURL}},
	})
	if err != nil {
		return nil, err
	}
	conn.SetReadLimit(-1)
	c := &socketClient{conn: conn, waiting: map[int64]chan callResult{}}
	go c.read()
	return c, nil
}

func (c *socketClient) read() {
	for {
		_, msg, err := c.conn.Read(context.Background())
		var res callResult
		if err == nil {
			err = json.Unmarshal(msg, &res)
		}
		c.mu.Lock()
		if err != nil {
			for id, ch := range c.waiting {
				close(ch)
				delete(c.waiting, id)
			}
			c.waiting = nil
			c.mu.Unlock()
			return
		}
		ch := c.waiting[res.ID]
		delete(c.waiting, res.ID)
		c.mu.Unlock()
		if ch != nil {
			ch <- res
		}
	}
}

func (c *socketClient) call(key, body string) (callResult, error) {
	id := c.nextID.Add(1)
	ch := make(chan callResult, 1)
	c.mu.Lock()
	if c.waiting == nil {
		c.mu.Unlock()
		return callResult{}, errors.New("the socket is closed")
	}
	c.waiting[id] = ch
	c.mu.Unlock()
	if err := c.conn.Write(context.Background(), websocket.MessageText, []byte(callMessage(id, key, body))); err != nil {
		return callResult{}, err
	}
	res, ok := <-ch
	if !ok {
		return callResult{}, errors.New("the socket closed before the result")
	}
	return res, nil
}

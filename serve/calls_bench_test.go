package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/coder/websocket"
)

// BenchmarkCallOverhead compares one chat completion call over the calls socket with the same
// call over POST /v1/chat/completions, both through newServer to a zero-latency fake upstream
// on loopback, so the difference is the transport's own cost. c=1 is one call at a time; c=16
// is 16 callers, over one socket or over Go's HTTP client (which, unlike a browser, opens as many
// connections as it needs, so this HTTP figure is better than a page could get).
func BenchmarkCallOverhead(b *testing.B) {
	_, proxy := benchServers(b)
	client := benchClient()
	body := fmt.Sprintf(`{"model":"judge-1","temperature":0,"max_tokens":512,"messages":[{"role":"user","content":%q}]}`, benchPrompt)
	overHTTP := func() error { return benchPost(client, proxy.URL+"/v1/chat/completions", body, false) }
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

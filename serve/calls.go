package main

// The calls socket: one WebSocket at /ragjudge/calls carries any number of concurrent chat
// completion calls, because a browser opens at most 6 HTTP/1.1 connections per host and a batch
// run through the dev server would otherwise never have more than 6 calls in flight.
//
// Protocol ragjudge-calls-1, JSON text messages:
//
//	client -> server  {"type":"call","id":<1..2^53-1>,"key":"<key or empty>","body":{<chat completion request>}}
//	                  {"type":"cancel","id":<id>}
//	server -> client  {"type":"result","id":<id>,"status":<int>,"headers":{<lowercase name>:<value>},"body":"<text>"}
//
// Every call runs through the same handler as POST /v1/chat/completions, so a result's status,
// headers and body are what that request would have been answered. A cancelled call gets no
// result. The server closes the socket with 1008 on an envelope it cannot read (not JSON, an
// unknown type, a bad or duplicate id, a call without an object body), 1009 on a message over
// -max-body plus 64 KiB, and 1003 on a binary message.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/coder/websocket"
)

const (
	callsPath        = "/ragjudge/calls"
	callsSubprotocol = "ragjudge-calls-1"
	// maxCallsInFlight bounds the upstream calls one socket can hold open, as the browser's
	// connection cap did for HTTP, but high enough for any concurrency the page offers.
	maxCallsInFlight = 64
	// envelopeAllowance is what a call message may hold beyond its body: the key, the id and
	// the JSON around them.
	envelopeAllowance = 64 << 10
	// maxCallID is JavaScript's largest safe integer, so every id the page can hold is exact.
	maxCallID = 1<<53 - 1
	// maxCloseReason is the most a WebSocket close frame's reason can hold.
	maxCloseReason = 123
)

// callEnvelope is one client message, checked: Type is "call" or "cancel", ID is in
// 1..maxCallID, and a call's Body is a JSON object.
type callEnvelope struct {
	Type string
	ID   int64
	Key  string
	Body json.RawMessage
}

// decodeEnvelope reads one client message. Its error says what is wrong in a few words, short
// enough for a close frame's reason.
func decodeEnvelope(msg []byte) (callEnvelope, error) {
	var raw struct {
		Type *string         `json:"type"`
		ID   json.RawMessage `json:"id"`
		Key  *string         `json:"key"`
		Body json.RawMessage `json:"body"`
	}
	if err := json.Unmarshal(msg, &raw); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) && typeErr.Field != "" {
			return callEnvelope{}, fmt.Errorf("envelope field %q is not a %s", typeErr.Field, typeErr.Type)
		}
		if errors.As(err, &typeErr) {
			return callEnvelope{}, errors.New("envelope is not a JSON object")
		}
		return callEnvelope{}, errors.New("envelope is not JSON")
	}
	if raw.Type == nil {
		return callEnvelope{}, errors.New(`envelope has no "type"`)
	}
	env := callEnvelope{Type: *raw.Type}
	if env.Type != "call" && env.Type != "cancel" {
		return callEnvelope{}, fmt.Errorf("unknown envelope type %q", clip(env.Type, 40))
	}
	if len(raw.ID) == 0 {
		return callEnvelope{}, fmt.Errorf(`%s has no "id"`, env.Type)
	}
	// The id is read from its literal: 1.0, 1e3 and "1" are not ids, and no float rounds a
	// large one to a neighbour's.
	id, err := strconv.ParseInt(string(raw.ID), 10, 64)
	if err != nil || id < 1 || id > maxCallID {
		return callEnvelope{}, fmt.Errorf("%s id %s is not an integer in 1..2^53-1", env.Type, clip(string(raw.ID), 40))
	}
	env.ID = id
	if env.Type == "cancel" {
		return env, nil
	}
	if raw.Key != nil {
		env.Key = *raw.Key
	}
	if body := bytes.TrimLeft(raw.Body, " \t\r\n"); len(body) == 0 || body[0] != '{' {
		return callEnvelope{}, fmt.Errorf("call %d has no JSON object as its body", id)
	}
	env.Body = raw.Body
	return env, nil
}

// clip shortens s to at most n bytes at a character boundary.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// callResult is the server's one message per call that was not cancelled.
type callResult struct {
	Type    string            `json:"type"`
	ID      int64             `json:"id"`
	Status  int               `json:"status"`
	Headers map[string]string `json:"headers"`
	Body    string            `json:"body"`
}

// calls upgrades GET /ragjudge/calls to the calls socket and serves it until either side closes
// it. ServeHTTP has already refused a bad Host and a cross-origin request, before any upgrade.
func (s *server) calls(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet {
		methodNotAllowed(w, r, "GET")
		return
	}
	if !headerHasToken(r.Header, "Upgrade", "websocket") {
		w.Header().Set("Upgrade", "websocket")
		writeError(w, http.StatusUpgradeRequired, "invalid_request_error", "upgrade_required",
			fmt.Sprintf("%s is a WebSocket (subprotocol %s); plain HTTP calls go to POST /v1/chat/completions", callsPath, callsSubprotocol))
		return
	}
	if !headerHasToken(r.Header, "Sec-WebSocket-Protocol", callsSubprotocol) {
		writeError(w, http.StatusBadRequest, "invalid_request_error", "unsupported_subprotocol",
			fmt.Sprintf("the calls socket speaks only the subprotocol %s; ask for it in Sec-WebSocket-Protocol", callsSubprotocol))
		return
	}
	conn, err := websocket.Accept(w, r, &websocket.AcceptOptions{Subprotocols: []string{callsSubprotocol}})
	if err != nil {
		return // Accept has answered the request
	}
	conn.SetReadLimit(s.cfg.MaxBody + envelopeAllowance)
	// The socket outlives the request's context once the connection is hijacked; its calls
	// hang off a context of its own, cancelled when reading ends.
	ctx, cancel := context.WithCancel(context.Background())
	sess := &callsSession{s: s, conn: conn, ctx: ctx, inFlight: map[int64]context.CancelFunc{}}
	if !s.sockets.add(sess) {
		_ = conn.Close(websocket.StatusGoingAway, "the dev server is shutting down")
		cancel()
		return
	}
	sess.serve()
	s.sockets.remove(sess)
	cancel()
	sess.wg.Wait()
	_ = conn.CloseNow()
}

// callsSockets is the set of open calls sockets.
type callsSockets struct {
	mu     sync.Mutex
	open   map[*callsSession]struct{}
	closed bool
}

// add registers a new socket, or reports false once the server is shutting down.
func (cs *callsSockets) add(c *callsSession) bool {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if cs.closed {
		return false
	}
	if cs.open == nil {
		cs.open = map[*callsSession]struct{}{}
	}
	cs.open[c] = struct{}{}
	return true
}

func (cs *callsSockets) remove(c *callsSession) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	delete(cs.open, c)
}

// closeSockets closes every calls socket with 1001 (going away), which cancels its calls in
// flight; the page sends those again once a server is back. Sockets opened later are refused.
func (s *server) closeSockets() {
	s.sockets.mu.Lock()
	s.sockets.closed = true
	open := make([]*callsSession, 0, len(s.sockets.open))
	for c := range s.sockets.open {
		open = append(open, c)
	}
	s.sockets.mu.Unlock()
	for _, c := range open {
		go c.conn.Close(websocket.StatusGoingAway, "the dev server is shutting down")
	}
}

// callsSession is one open calls socket.
type callsSession struct {
	s    *server
	conn *websocket.Conn
	ctx  context.Context

	mu       sync.Mutex
	inFlight map[int64]context.CancelFunc
	wg       sync.WaitGroup
}

// serve reads messages until the socket closes or a message breaks the protocol.
func (c *callsSession) serve() {
	defer c.cancelAll()
	for {
		typ, msg, err := c.conn.Read(c.ctx)
		if err != nil {
			return // closed by the client, or too big (the library has sent 1009)
		}
		if typ != websocket.MessageText {
			_ = c.conn.Close(websocket.StatusUnsupportedData, "binary messages are not part of "+callsSubprotocol)
			return
		}
		env, err := decodeEnvelope(msg)
		if err == nil && env.Type == "call" {
			err = c.start(env)
		}
		if err != nil {
			_ = c.conn.Close(websocket.StatusPolicyViolation, clip(err.Error(), maxCloseReason-3))
			return
		}
		if env.Type == "cancel" {
			c.cancel(env.ID)
		}
	}
}

// start runs one call in its own goroutine, or answers 429 at once when the socket already has
// maxCallsInFlight calls open. A duplicate id is an error: its results could not be told apart.
func (c *callsSession) start(env callEnvelope) error {
	c.mu.Lock()
	if _, dup := c.inFlight[env.ID]; dup {
		c.mu.Unlock()
		return fmt.Errorf("call id %d is already in flight", env.ID)
	}
	if len(c.inFlight) >= maxCallsInFlight {
		c.mu.Unlock()
		c.wg.Add(1)
		go func() {
			defer c.wg.Done()
			mem := newMemoryResponse()
			writeError(mem, http.StatusTooManyRequests, "rate_limit_error", "too_many_calls_in_flight",
				fmt.Sprintf("this calls socket already has %d calls in flight, its limit; send the next when one ends", maxCallsInFlight))
			c.s.log.Printf("%s %s %d %s", "WS", "/v1/chat/completions", mem.status, time.Duration(0))
			c.send(env.ID, mem)
		}()
		return nil
	}
	ctx, cancel := context.WithCancel(c.ctx)
	c.inFlight[env.ID] = cancel
	c.mu.Unlock()

	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		defer cancel()
		start := time.Now()
		mem := c.s.runCall(ctx, env)
		c.mu.Lock()
		delete(c.inFlight, env.ID)
		cancelled := ctx.Err() != nil
		c.mu.Unlock()
		status := mem.status
		if cancelled {
			status = 499 // as for an HTTP client that went away
		}
		// As the access log of HTTP requests: no key, no body.
		c.s.log.Printf("%s %s %d %s", "WS", "/v1/chat/completions", status, time.Since(start).Round(10*time.Microsecond))
		if !cancelled {
			c.send(env.ID, mem)
		}
	}()
	return nil
}

// cancel ends a call's upstream request; its result is never sent. An id not in flight (done
// already, or never sent) is not an error: a cancel can cross its result on the wire.
func (c *callsSession) cancel(id int64) {
	c.mu.Lock()
	cancel := c.inFlight[id]
	delete(c.inFlight, id)
	c.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

func (c *callsSession) cancelAll() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for id, cancel := range c.inFlight {
		cancel()
		delete(c.inFlight, id)
	}
}

// send writes one call's result; Conn.Write is safe for concurrent use. A failed write has
// closed the socket, which ends the read loop and with it every other call.
func (c *callsSession) send(id int64, mem *memoryResponse) {
	headers := make(map[string]string, len(mem.header))
	for name, values := range mem.header {
		headers[strings.ToLower(name)] = strings.Join(values, ", ")
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(callResult{Type: "result", ID: id, Status: mem.status, Headers: headers, Body: mem.body.String()}); err != nil {
		return // cannot happen: every field is a plain string, number or map of strings
	}
	_ = c.conn.Write(c.ctx, websocket.MessageText, bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
}

// runCall answers one call with the POST /v1/chat/completions handler itself, through a
// synthetic request whose context ends with the call, so everything the HTTP path does
// (413, 504, errors mapped and scrubbed, Retry-After, Azure) holds for the socket too.
func (s *server) runCall(ctx context.Context, env callEnvelope) *memoryResponse {
	mem := newMemoryResponse()
	if int64(len(env.Body)) <= s.cfg.MaxBody {
		var probe struct {
			Stream bool `json:"stream"`
		}
		if json.Unmarshal(env.Body, &probe) == nil && probe.Stream {
			writeError(mem, http.StatusBadRequest, "invalid_request_error", "stream_not_supported",
				"streaming is not available over the calls socket; use POST /v1/chat/completions")
			return mem
		}
	}
	if strings.ContainsFunc(env.Key, func(r rune) bool { return r < 0x20 && r != '\t' || r == 0x7f }) {
		// A browser cannot send such a key in a header; here it would fail deep in net/http.
		writeError(mem, http.StatusUnauthorized, "invalid_request_error", "invalid_authorization",
			"the key holds control characters, which an Authorization header cannot carry")
		return mem
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "/v1/chat/completions", bytes.NewReader(env.Body))
	if err != nil {
		writeError(mem, http.StatusInternalServerError, "server_error", "internal", "could not build the call: "+err.Error())
		return mem
	}
	req.Header.Set("Content-Type", "application/json")
	if env.Key != "" {
		req.Header.Set("Authorization", "Bearer "+env.Key)
	}
	s.proxy.chatCompletions(mem, req)
	if mem.status == 0 {
		mem.status = http.StatusOK
	}
	return mem
}

// memoryResponse is an http.ResponseWriter that keeps the response for a calls socket result.
type memoryResponse struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func newMemoryResponse() *memoryResponse { return &memoryResponse{header: http.Header{}} }

func (m *memoryResponse) Header() http.Header { return m.header }

func (m *memoryResponse) WriteHeader(status int) {
	if m.status == 0 {
		m.status = status
	}
}

func (m *memoryResponse) Write(b []byte) (int, error) {
	if m.status == 0 {
		m.status = http.StatusOK
	}
	return m.body.Write(b)
}

// headerHasToken reports whether a comma-separated header (all its lines) holds token, in any case.
func headerHasToken(h http.Header, name, token string) bool {
	for _, line := range h.Values(name) {
		for _, t := range strings.Split(line, ",") {
			if strings.EqualFold(strings.TrimSpace(t), token) {
				return true
			}
		}
	}
	return false
}

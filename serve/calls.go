package main

// The calls socket: one WebSocket at /ragjudge/calls carries any number of concurrent chat
// completion calls, because a browser opens at most 6 HTTP/1.1 connections per host and a batch
// run through the dev server would otherwise never have more than 6 calls in flight.
//
// Protocol ragjudge-calls-1, JSON text messages:
//
//	client -> server  {"type":"call","id":<1..2^53-1>,"key":"<key or empty>","body":{<chat completion request>}}
//	                  {"type":"cancel","id":<id>}
//	                  {"type":"limit","n":<1..64>}
//	server -> client  {"type":"result","id":<id>,"status":<int>,"headers":{<lowercase name>:<value>},"body":"<text>"}
//	                  {"type":"started","id":<id>}
//
// Every call runs through the same handler as POST /v1/chat/completions, so a result's status,
// headers and body are what that request would have been answered. A cancelled call gets no
// result. The server closes the socket with 1008 on an envelope it cannot read (not JSON, an
// unknown type, a bad or duplicate id, a call without an object body, a limit whose n is not an
// integer in 1..64), 1009 on a message over -max-body plus 64 KiB, and 1003 on a binary message.
//
// A limit message caps the socket's calls that run (reach the upstream) at once, from then on;
// before the first one only maxCallsInFlight does. The page keeps a few calls more than its
// concurrency on the socket, so the next call is already here when one ends, instead of a round
// trip through the browser later. Calls over the limit wait in arrival order and start as
// running ones end; a new limit applies at once (raised, waiting calls start; lowered, running
// calls finish and none starts until the socket is under it). Every call gets {"type":"started"}
// when it starts (at once, or when its turn comes), before its result: the page starts its
// timeout then, and counts it as in flight only from then. A call's result is written before its
// slot goes to the next call, so the page never hears of more calls started than the limit.
// Waiting calls count toward maxCallsInFlight and the duplicate-id check; a cancel (or the
// socket's close) drops a waiting call, which never reaches the upstream and gets no result.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
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
	// maxCallsInFlight bounds the calls one socket may hold, running and waiting, as the
	// browser's connection cap did for HTTP: room for maxCallLimit running and the page's calls
	// sent ahead (calls.js socketAhead: a quarter of the limit, at least 2), with some to spare.
	// /ragjudge/config says it as socket_calls, and the page keeps under it.
	maxCallsInFlight = maxCallLimit + maxCallLimit/2
	// envelopeAllowance is what a call message may hold beyond its body: the key, the id and
	// the JSON around them.
	envelopeAllowance = 64 << 10
	// maxCallID is JavaScript's largest safe integer, so every id the page can hold is exact.
	maxCallID = 1<<53 - 1
	// maxCloseReason is the most a WebSocket close frame's reason can hold.
	maxCloseReason = 123
	// maxCallLimit is the largest limit a client may set, the page's highest concurrency
	// (/ragjudge/config's socket_limit).
	maxCallLimit = 64
)

// callEnvelope is one client message, checked: Type is "call", "cancel" or "limit"; a call's
// or cancel's ID is in 1..maxCallID, a call's Body is a JSON object, and a limit's N is in
// 1..maxCallLimit.
type callEnvelope struct {
	Type string
	ID   int64
	Key  string
	Body json.RawMessage
	N    int
}

// decodeEnvelope reads one client message. Its error says what is wrong in a few words, short
// enough for a close frame's reason.
func decodeEnvelope(msg []byte) (callEnvelope, error) {
	var raw struct {
		Type *string         `json:"type"`
		ID   json.RawMessage `json:"id"`
		Key  *string         `json:"key"`
		Body json.RawMessage `json:"body"`
		N    json.RawMessage `json:"n"`
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
	if env.Type != "call" && env.Type != "cancel" && env.Type != "limit" {
		return callEnvelope{}, fmt.Errorf("unknown envelope type %q", clip(env.Type, 40))
	}
	if env.Type == "limit" {
		if len(raw.N) == 0 {
			return callEnvelope{}, errors.New(`limit has no "n"`)
		}
		// Read from its literal, as an id is: 1.0, 2e0 and "2" are not limits.
		n, err := strconv.Atoi(string(raw.N))
		if err != nil || n < 1 || n > maxCallLimit {
			return callEnvelope{}, fmt.Errorf("limit n %s is not an integer in 1..%d", quoteLiteral(raw.N), maxCallLimit)
		}
		env.N = n
		return env, nil
	}
	if len(raw.ID) == 0 {
		return callEnvelope{}, fmt.Errorf(`%s has no "id"`, env.Type)
	}
	// The id is read from its literal: 1.0, 1e3 and "1" are not ids, and no float rounds a
	// large one to a neighbour's.
	id, err := strconv.ParseInt(string(raw.ID), 10, 64)
	if err != nil || id < 1 || id > maxCallID {
		return callEnvelope{}, fmt.Errorf("%s id %s is not an integer in 1..2^53-1", env.Type, quoteLiteral(raw.ID))
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

// quoteLiteral is a JSON literal as an error shows it: at most 40 bytes and valid UTF-8 (a
// raw literal keeps any bytes the client sent, and a close frame's reason must be UTF-8).
func quoteLiteral(lit json.RawMessage) string {
	return clip(strings.ToValidUTF8(string(lit), "\uFFFD"), 40)
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

// callStarted tells the client that a call runs now (reaches the upstream handler).
type callStarted struct {
	Type string `json:"type"`
	ID   int64  `json:"id"`
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
	// The hijacked connection keeps its read deadline, which would end the socket.
	_ = http.NewResponseController(w).SetReadDeadline(time.Time{})
	conn, err := websocket.Accept(w, r, &websocket.AcceptOptions{Subprotocols: []string{callsSubprotocol}})
	if err != nil {
		return // Accept has answered the request
	}
	conn.SetReadLimit(s.cfg.MaxBody + envelopeAllowance)
	// The socket outlives the request's context once the connection is hijacked; its calls
	// hang off a context of its own, cancelled when reading ends.
	ctx, cancel := context.WithCancel(context.Background())
	sess := &callsSession{s: s, conn: conn, ctx: ctx, inFlight: map[int64]*socketCall{}}
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

	mu sync.Mutex
	// inFlight holds every call that is waiting or running and not cancelled, by id.
	inFlight map[int64]*socketCall
	// limit is the most calls that may run at once, 0 until the client sets one.
	limit int
	// running counts the calls that hold a slot: from their start until runCall returns,
	// cancelled ones included, since their upstream request lasts until then.
	running int
	// waiting is the calls over the limit, in arrival order.
	waiting []*socketCall
	wg      sync.WaitGroup
}

// socketCall is one call of a calls socket, waiting or running.
type socketCall struct {
	ctx    context.Context
	cancel context.CancelFunc
	// wake is closed when a waiting call is given a slot; nil for a call that started at once.
	wake chan struct{}
	// slot is whether the call holds one of the running slots (set under the session's mu).
	slot bool
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
		switch env.Type {
		case "cancel":
			c.cancel(env.ID)
		case "limit":
			c.setLimit(env.N)
		}
	}
}

// start runs one call in its own goroutine, at once or, over the socket's limit, once its turn
// comes; or it answers 429 at once when the socket already has maxCallsInFlight calls open. A
// duplicate id is an error: its results could not be told apart.
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
	call := &socketCall{ctx: ctx, cancel: cancel}
	c.inFlight[env.ID] = call
	if c.limit == 0 || c.running < c.limit && len(c.waiting) == 0 {
		call.slot = true
		c.running++
	} else {
		call.wake = make(chan struct{})
		c.waiting = append(c.waiting, call)
	}
	c.mu.Unlock()

	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		defer cancel()
		if call.wake != nil {
			arrived := time.Now()
			if !c.awaitSlot(env.ID, call) {
				c.s.log.Printf("%s %s %d %s", "WS", "/v1/chat/completions", 499, time.Since(arrived).Round(10*time.Microsecond))
				return
			}
		}
		c.sendStarted(env.ID)
		start := time.Now()
		mem := c.s.runCall(ctx, env)
		c.mu.Lock()
		// The id is free at once (the page may send its next call as soon as it has the
		// result); the slot is held until the result is written.
		c.forget(env.ID, call)
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
		c.mu.Lock()
		c.releaseSlot(call)
		c.mu.Unlock()
	}()
	return nil
}

// awaitSlot waits until a waiting call is given a slot or is cancelled, and reports whether it
// may run. A call cancelled just as its slot came gives the slot back.
func (c *callsSession) awaitSlot(id int64, call *socketCall) bool {
	select {
	case <-call.wake:
	case <-call.ctx.Done():
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if call.ctx.Err() == nil {
		return true // woken, so it holds a slot
	}
	if call.slot {
		c.releaseSlot(call)
	} else {
		c.waiting = slices.DeleteFunc(c.waiting, func(w *socketCall) bool { return w == call })
	}
	c.forget(id, call)
	return false
}

// releaseSlot gives call's slot back and starts the next waiting calls the limit allows. The
// caller holds c.mu.
func (c *callsSession) releaseSlot(call *socketCall) {
	if !call.slot {
		return
	}
	call.slot = false
	c.running--
	c.startWaiting()
}

// startWaiting gives slots to waiting calls, first come first served, while the limit allows.
// The caller holds c.mu.
func (c *callsSession) startWaiting() {
	for len(c.waiting) > 0 && (c.limit == 0 || c.running < c.limit) {
		call := c.waiting[0]
		c.waiting = c.waiting[1:]
		if call.ctx.Err() != nil {
			continue // cancelled; its goroutine is on its way out
		}
		call.slot = true
		c.running++
		close(call.wake)
	}
}

// setLimit applies a client's limit: more waiting calls start if it was raised; if it was
// lowered, running calls finish and none starts until the socket is under it.
func (c *callsSession) setLimit(n int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.limit = n
	c.startWaiting()
}

// forget removes call from inFlight, unless its id already belongs to a later call (a cancel
// frees an id at once). The caller holds c.mu.
func (c *callsSession) forget(id int64, call *socketCall) {
	if c.inFlight[id] == call {
		delete(c.inFlight, id)
	}
}

// cancel ends a call: a running one's upstream request, or a waiting one's wait, so that it
// never starts. Its result is never sent. An id not in flight (done already, or never sent) is
// not an error: a cancel can cross its result on the wire.
func (c *callsSession) cancel(id int64) {
	c.mu.Lock()
	call := c.inFlight[id]
	delete(c.inFlight, id)
	if call != nil && !call.slot {
		c.waiting = slices.DeleteFunc(c.waiting, func(w *socketCall) bool { return w == call })
	}
	c.mu.Unlock()
	if call != nil {
		call.cancel()
	}
}

func (c *callsSession) cancelAll() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for id, call := range c.inFlight {
		call.cancel()
		delete(c.inFlight, id)
	}
	c.waiting = nil
}

// sendStarted tells the client that a call runs now.
func (c *callsSession) sendStarted(id int64) {
	msg, err := json.Marshal(callStarted{Type: "started", ID: id})
	if err != nil {
		return // cannot happen: a string and a number
	}
	_ = c.conn.Write(c.ctx, websocket.MessageText, msg)
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
		if req, err := parseChatRequest(env.Body); err == nil && req.Stream {
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

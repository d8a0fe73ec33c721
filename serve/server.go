package main

import (
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// server routes the dev server's few endpoints; it holds no per-request state.
type server struct {
	cfg config
	// loopbackOnly is set when the listen address is loopback: then a request whose Host is
	// not a loopback name is a DNS-rebinding attempt and is refused.
	loopbackOnly bool
	proxy        *proxy
	static       http.Handler
	log          *log.Logger
	// sockets are the open calls sockets, which http.Server.Shutdown cannot see (hijacked).
	sockets callsSockets
	// access is the token check of model calls and the calls socket (token.go).
	access access
}

// newServer builds the whole dev server for cfg: the static page, the proxy and the access log.
// cfg comes from parseConfig (or a test), so its Upstream is a valid absolute URL.
func newServer(cfg config) http.Handler {
	if cfg.Timeout <= 0 {
		cfg.Timeout = defaultTimeout
	}
	if cfg.MaxBody <= 0 {
		cfg.MaxBody = defaultMaxBody
	}
	if cfg.BodyTimeout <= 0 {
		cfg.BodyTimeout = defaultBodyTimeout
	}
	if cfg.MaxInflight <= 0 {
		cfg.MaxInflight = defaultMaxInflight
	}
	if cfg.MaxResponse <= 0 {
		cfg.MaxResponse = defaultMaxResponse
	}
	logger := log.New(discardIfNil(cfg.Log), "", log.LstdFlags|log.Lmicroseconds)
	s := &server{
		cfg:          cfg,
		loopbackOnly: isLoopback(cfg.Addr),
		proxy:        newProxy(cfg, newUpstream(cfg)),
		static:       newStatic(cfg.WebDir),
		log:          logger,
		access:       newAccess(cfg.Token, cfg.Addr),
	}
	return s
}

func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	rec := &statusRecorder{ResponseWriter: w}
	defer func() {
		status := rec.status
		if status == 0 {
			status = http.StatusOK
		}
		if rec.clientGone {
			status = 499 // nginx's "client closed request": nothing was written
		}
		// The access log is deliberately this and nothing more: no query string, no headers,
		// no body, so that a key cannot reach it by any route.
		s.log.Printf("%s %s %d %s", r.Method, r.URL.EscapedPath(), status, time.Since(start).Round(10*time.Microsecond))
	}()

	// Every answer, page, API, error or upgrade, is read as the type it says it is.
	rec.Header().Set("X-Content-Type-Options", "nosniff")
	// A request's body must arrive within -body-timeout, whichever handler reads it (or
	// net/http, which reads what a handler left before reusing the connection); handlers that
	// run longer than that clear the deadline once the body is in.
	_ = http.NewResponseController(rec).SetReadDeadline(start.Add(s.cfg.BodyTimeout))

	if s.loopbackOnly && !hostAllowed(r.Host) {
		writeError(rec, http.StatusForbidden, "forbidden", "bad_host",
			fmt.Sprintf("host %q is not a loopback name; open the page at 127.0.0.1, [::1] or localhost", r.Host))
		return
	}
	switch p := r.URL.Path; {
	case p == "/v1" || strings.HasPrefix(p, "/v1/") || strings.HasPrefix(p, "/ragjudge/"):
		if msg := crossOrigin(r); msg != "" {
			writeError(rec, http.StatusForbidden, "forbidden", "cross_origin", msg)
			return
		}
		if (p == "/v1/chat/completions" || p == "/v1/models" || p == callsPath) && !s.access.allows(r) {
			// Before anything is read or sent upstream, and before a socket is upgraded.
			s.access.refuse(rec, r)
			return
		}
		switch p {
		case "/v1/chat/completions":
			s.proxy.chatCompletions(rec, r)
		case "/v1/models":
			s.proxy.models(rec, r)
		case "/ragjudge/config":
			s.config(rec, r)
		case callsPath:
			s.calls(rec, r)
		default:
			writeError(rec, http.StatusNotFound, "invalid_request_error", "not_found",
				fmt.Sprintf("the dev server forwards only POST /v1/chat/completions and GET /v1/models, not %s %s", r.Method, p))
		}
	default:
		if s.access.exchange(rec, r) {
			return
		}
		s.static.ServeHTTP(rec, r)
	}
}

// warm prepares the static files in the background of a starting server.
func (s *server) warm() {
	if st, ok := s.static.(*static); ok {
		st.warm()
	}
}

// serverConfig is GET /ragjudge/config: what the page needs to know of this server to call
// through it and to stay within its limits.
type serverConfig struct {
	// Upstream and UpstreamHost say where calls go ("via dev server → host"); empty for a page
	// without the token.
	Upstream     string `json:"upstream"`
	UpstreamHost string `json:"upstream_host"`
	Azure        bool   `json:"azure"`
	// ServerKey says the server has OPENAI_API_KEY: the page's calls need no key of their own.
	ServerKey bool `json:"server_key"`
	// Calls is where the calls socket listens; the page uses it only when this is present.
	Calls string `json:"calls"`
	// MaxInflight is -max-inflight, the upstream calls in flight at once the server takes from
	// all its pages and sockets together; one more is answered 429 too_many_calls_in_flight.
	MaxInflight int `json:"max_inflight"`
	// SocketCalls is the most calls one calls socket may hold, waiting and running; SocketLimit
	// the largest limit it accepts.
	SocketCalls int `json:"socket_calls"`
	SocketLimit int `json:"socket_limit"`
	// Token is "none" (no token needed), "ok" (this request carried it) or "required".
	Token string `json:"token"`
}

// config tells the page where its calls go, so it can show "via dev server → host", and the
// limits it must stay within.
func (s *server) config(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		methodNotAllowed(w, r, "GET")
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	c := serverConfig{
		Upstream: s.cfg.Upstream, UpstreamHost: s.proxy.upstream.url.Host, Azure: s.cfg.Azure, ServerKey: s.cfg.ServerKey != "",
		Calls: callsPath, MaxInflight: s.cfg.MaxInflight, SocketCalls: maxCallsInFlight, SocketLimit: maxCallLimit,
		Token: s.access.state(r),
	}
	if c.Token == "required" {
		c.Upstream, c.UpstreamHost = "", "" // not told to whoever reaches a shared server
	}
	_ = json.NewEncoder(w).Encode(c)
}

// hostAllowed reports whether a request's Host can reach a loopback-bound server honestly: an
// IP address, or a name that is loopback by definition. Any other name resolving to 127.0.0.1
// is DNS rebinding, a foreign site's way to make its pages same-origin with this server.
func hostAllowed(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	return net.ParseIP(strings.Trim(host, "[]")) != nil || isLoopback(host)
}

// crossOrigin explains why a request to the API comes from another site, or returns "".
// Without this check any web page the user visits could spend the server's OPENAI_API_KEY
// with a form post to 127.0.0.1.
func crossOrigin(r *http.Request) string {
	if site := r.Header.Get("Sec-Fetch-Site"); site == "cross-site" || site == "same-site" {
		return "cross-origin requests are refused: the dev server answers only its own page"
	}
	origin := r.Header.Get("Origin")
	if origin == "" {
		return "" // not a browser's cross-origin call: curl, Node, the page's own GET
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" || !strings.EqualFold(u.Host, r.Host) {
		return fmt.Sprintf("cross-origin requests are refused: origin %q is not this dev server's page", origin)
	}
	return ""
}

// statusRecorder remembers the status for the access log and whether the client went away.
type statusRecorder struct {
	http.ResponseWriter
	status     int
	clientGone bool
}

func (r *statusRecorder) WriteHeader(status int) {
	if r.status == 0 {
		r.status = status
	}
	r.ResponseWriter.WriteHeader(status)
}

func (r *statusRecorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	return r.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the real writer's Flush.
func (r *statusRecorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// markClientGone records, for the access log, that the browser left before the answer.
func markClientGone(w http.ResponseWriter) {
	if r, ok := w.(*statusRecorder); ok {
		r.clientGone = true
	}
}

// apiError is OpenAI's error object; the page reads errors in this one shape whether they come
// from the upstream or from the dev server itself.
type apiError struct {
	Message string  `json:"message"`
	Type    string  `json:"type"`
	Param   *string `json:"param,omitempty"`
	Code    any     `json:"code"`
}

func writeError(w http.ResponseWriter, status int, typ string, code any, msg string) {
	writeAPIError(w, status, apiError{Message: msg, Type: typ, Code: code})
}

func writeAPIError(w http.ResponseWriter, status int, e apiError) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(struct {
		Error apiError `json:"error"`
	}{e})
}

func methodNotAllowed(w http.ResponseWriter, r *http.Request, allow string) {
	w.Header().Set("Allow", allow)
	writeError(w, http.StatusMethodNotAllowed, "invalid_request_error", "method_not_allowed",
		fmt.Sprintf("%s %s is not supported; use %s", r.Method, r.URL.Path, allow))
}

func discardIfNil(w io.Writer) io.Writer {
	if w == nil {
		return io.Discard
	}
	return w
}

// formatDuration prints 120s rather than time.Duration's 2m0s.
func formatDuration(d time.Duration) string {
	if d%time.Second == 0 {
		return strconv.FormatInt(int64(d/time.Second), 10) + "s"
	}
	return d.String()
}

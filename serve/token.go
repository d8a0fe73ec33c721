package main

// The access token. A dev server reachable from other machines would otherwise spend its
// OPENAI_API_KEY (or reach a keyless local upstream such as Ollama) for anyone who finds it, so
// beyond loopback, or whenever -token (or RAGJUDGE_TOKEN) is given, model calls and the calls
// socket need the server's token, as a Jupyter server does. The server prints its address with
// the token (http://host:8080/?token=…); opening it trades the token for an HttpOnly,
// SameSite=Strict cookie and redirects to the same address without it, so the token is never in
// the page's address, its scripts, a report, an export or a share link, and every request of the
// page (fetch, the call worker, the calls socket) carries it without the page knowing it. Other
// clients send it in the Ragjudge-Token header. A missing or wrong token gets 401 before anything
// is read or sent upstream.

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"fmt"
	"net"
	"net/http"
	"strings"
)

const (
	// tokenParam is the query parameter of the address the server prints.
	tokenParam = "token"
	// tokenHeaderName carries the token for clients other than the page (curl, an SDK).
	tokenHeaderName = "Ragjudge-Token"
	// minTokenLen keeps a token given by hand from being guessable.
	minTokenLen = 16
)

// newToken is a fresh random token: 24 bytes, hex, as Jupyter's.
func newToken() (string, error) {
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("could not make an access token: %v", err)
	}
	return hex.EncodeToString(b), nil
}

// checkToken says what is wrong with a token given by hand, or nil. Its characters are those a
// URL's query and a cookie carry as they are.
func checkToken(t string) error {
	if len(t) < minTokenLen {
		return fmt.Errorf("-token: at least %d characters (or leave it out for a random one)", minTokenLen)
	}
	for _, c := range t {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.ContainsRune("-._~", c)) {
			return fmt.Errorf("-token: only letters, digits and - . _ ~ (got %q)", c)
		}
	}
	return nil
}

// access is the server's token check; the zero value lets everyone in (a loopback server
// without -token).
type access struct {
	// sum is the SHA-256 of the token: comparing sums takes the same time whatever the token
	// given, its length included.
	sum [32]byte
	on  bool
	// cookie is the cookie's name, with the port in it: cookies are shared by every port of a
	// host, and two servers on one machine must not overwrite each other's.
	cookie string
}

func newAccess(token, addr string) access {
	if token == "" {
		return access{}
	}
	name := "ragjudge-token"
	if _, port, err := net.SplitHostPort(addr); err == nil && port != "" && port != "0" {
		name += "-" + port
	}
	return access{sum: sha256.Sum256([]byte(token)), on: true, cookie: name}
}

// matches reports in constant time whether t is the token.
func (a access) matches(t string) bool {
	sum := sha256.Sum256([]byte(t))
	return subtle.ConstantTimeCompare(sum[:], a.sum[:]) == 1
}

// given is the token a request carries (header first, then cookie), or "".
func (a access) given(r *http.Request) string {
	if t := r.Header.Get(tokenHeaderName); t != "" {
		return t
	}
	if c, err := r.Cookie(a.cookie); err == nil {
		return c.Value
	}
	return ""
}

// allows reports whether r may use the server's model calls.
func (a access) allows(r *http.Request) bool {
	return !a.on || a.matches(a.given(r))
}

// refuse answers a request without the token, saying whether it had none or a wrong one.
func (a access) refuse(w http.ResponseWriter, r *http.Request) {
	if a.given(r) == "" {
		writeError(w, http.StatusUnauthorized, "invalid_request_error", "token_required",
			"this dev server is shared and needs its access token: open the address it printed at its start (…/?token=…), or send the token in the Ragjudge-Token header")
		return
	}
	writeError(w, http.StatusUnauthorized, "invalid_request_error", "invalid_token",
		"the access token is not this dev server's (it makes a new one at each start unless given -token): open the address it printed at its start (…/?token=…)")
}

// exchange handles a page address that carries ?token=: the right token is traded for the
// cookie, and either way the browser is sent to the address without it (303), so that the token
// never stays in the address bar, the history entry, a bookmark or a shared link. A wrong token
// is answered 401 instead, in words. It reports whether it answered r.
func (a access) exchange(w http.ResponseWriter, r *http.Request) bool {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		return false
	}
	q := r.URL.Query()
	if !q.Has(tokenParam) {
		return false
	}
	h := w.Header()
	h.Set("Cache-Control", "no-store")
	h.Set("Referrer-Policy", "no-referrer")
	if a.on && !a.matches(q.Get(tokenParam)) {
		h.Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(http.StatusUnauthorized)
		fmt.Fprintln(w, "ragjudge: the token in this address is not this dev server's (it makes a new one at each start unless given -token): open the address it printed at its start.")
		return true
	}
	if a.on {
		http.SetCookie(w, &http.Cookie{Name: a.cookie, Value: q.Get(tokenParam), Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil})
	}
	q.Del(tokenParam)
	clean := *r.URL
	clean.RawQuery = q.Encode()
	// Only the path and the other parameters: never an absolute URL built from the request's
	// Host. The browser keeps the address's #fragment across the redirect.
	target := clean.EscapedPath()
	if clean.RawQuery != "" {
		target += "?" + clean.RawQuery
	}
	if !strings.HasPrefix(target, "/") || strings.HasPrefix(target, "//") || strings.HasPrefix(target, "/\\") {
		target = "/" // a path such as //host would be read as another site's address
	}
	h.Set("Location", target)
	w.WriteHeader(http.StatusSeeOther)
	return true
}

// tokenState is what /ragjudge/config says of the token: "none" (the server needs none), "ok"
// (this page has it) or "required" (this page lacks it: its model calls will be refused).
func (a access) state(r *http.Request) string {
	switch {
	case !a.on:
		return "none"
	case a.allows(r):
		return "ok"
	default:
		return "required"
	}
}

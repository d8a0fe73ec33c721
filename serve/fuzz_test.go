package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// FuzzScrub checks that a key shaped like a real one (8 or more printable ASCII characters
// with a digit) never survives scrub, whatever text surrounds it, written plainly or as JSON
// encoders write it (Go's, PHP's \/ and \u escapes of every character).
func FuzzScrub(f *testing.F) {
	f.Add("Incorrect API key provided: sk-abc123xyz.", "sk-abc123xyz")
	f.Add("Bearer sk-proj-****wxyz and more", "0123456789abcdef")
	f.Add("a1a1a1a1a1", "a1a1a1a1")
	f.Add("", "k")
	f.Add(`{"detail":"AbC\/dEf"}`, "AbC/dEf+gh1=2<3>4&5")
	f.Fuzz(func(t *testing.T, text, key string) {
		out := scrub(text, key) // never panics, whatever the inputs
		if len(key) < 8 || !strings.ContainsFunc(key, unicode.IsDigit) {
			return
		}
		for i := 0; i < len(key); i++ {
			if key[i] < 0x20 || key[i] > 0x7e {
				return
			}
		}
		goForm, _ := json.Marshal(key)
		var every strings.Builder
		for _, r := range key {
			fmt.Fprintf(&every, `\u%04X`, r)
		}
		for _, form := range []string{key, string(goForm[1 : len(goForm)-1]), strings.ReplaceAll(key, "/", `\/`), every.String()} {
			out := scrub(text+form+text, key)
			if strings.Contains(out, form) {
				t.Fatalf("scrub(%q, %q) = %q still holds the key as %q", text+form+text, key, out, form)
			}
		}
		if strings.Contains(out, key) {
			t.Fatalf("scrub(%q, %q) = %q still holds the key", text, key, out)
		}
	})
}

// FuzzParseChatRequest checks that any body is either a request with a model and messages or
// an error, never a panic.
func FuzzParseChatRequest(f *testing.F) {
	f.Add([]byte(`{"model":"judge-1","temperature":0,"messages":[{"role":"user","content":"hi"}]}`))
	f.Add([]byte(`{"model":"gpt-5","max_tokens":10,"top_p":0,"messages":[{"role":"user","content":[{"type":"text","text":"hi"}]}]}`))
	f.Add([]byte(`{"model":"..","messages":[]}`))
	f.Add([]byte(`[1,2`))
	f.Fuzz(func(t *testing.T, body []byte) {
		req, err := parseChatRequest(body)
		if err == nil && req.Model == "" {
			t.Fatalf("accepted %q without a model or messages", body)
		}
	})
}

// FuzzNegotiate checks the Accept-Encoding reader on any header: it sends only a coding the header
// names (or allows with *), and refuses only when the file as it is was refused.
func FuzzNegotiate(f *testing.F) {
	for _, h := range []string{"gzip, deflate, br", "gzip;q=0", "*;q=0.5", "identity", "GZIP ; Q=0.000", "", "br;q=1.0, gzip;q=0.999, identity;q=0", "*;q=0"} {
		f.Add(h)
	}
	f.Fuzz(func(t *testing.T, header string) {
		lower := strings.ToLower(header)
		for _, have := range [][2]bool{{false, false}, {true, false}, {false, true}, {true, true}} {
			c, ok := negotiate(header, have[0], have[1])
			switch {
			case !ok:
				if c != "" || !strings.Contains(lower, "identity") && !strings.Contains(header, "*") {
					t.Fatalf("negotiate(%q, %v) refused (%q) without refusing identity", header, have, c)
				}
			case c == "br":
				if !have[0] || !strings.Contains(lower, "br") && !strings.Contains(header, "*") {
					t.Fatalf("negotiate(%q, %v) = br", header, have)
				}
			case c == "gzip":
				if !have[1] || !strings.Contains(lower, "gzip") && !strings.Contains(header, "*") {
					t.Fatalf("negotiate(%q, %v) = gzip", header, have)
				}
			case c != "identity":
				t.Fatalf("negotiate(%q, %v) = %q", header, have, c)
			}
		}
	})
}

// FuzzDecodeEnvelope checks that any calls socket message is either a well-formed envelope or
// an error short enough to be a close frame's reason, never a panic.
func FuzzDecodeEnvelope(f *testing.F) {
	f.Add([]byte(`{"type":"call","id":1,"key":"sk-x","body":{"model":"judge-1","messages":[{"role":"user","content":"hi"}]}}`))
	f.Add([]byte(`{"type":"cancel","id":9007199254740991}`))
	f.Add([]byte(`{"type":"call","id":1.0,"body":{}}`))
	f.Add([]byte(`{"type":"call","id":1,"body":"{}"}`))
	f.Add([]byte(`{"type":"ping","id":-1}`))
	f.Add([]byte(`[1,2`))
	f.Add([]byte(`{"type":"limit","n":16}`))
	f.Add([]byte(`{"type":"limit","n":1.0}`))
	f.Add([]byte(`{"type":"limit","n":"2"}`))
	f.Add([]byte(`{"type":"limit","n":65}`))
	f.Fuzz(func(t *testing.T, msg []byte) {
		env, err := decodeEnvelope(msg)
		if err != nil {
			if len(err.Error()) > maxCloseReason || !utf8.ValidString(err.Error()) {
				t.Fatalf("decodeEnvelope(%q): reason %q does not fit a close frame", msg, err)
			}
			return
		}
		switch env.Type {
		case "limit":
			if env.N < 1 || env.N > maxCallLimit || env.ID != 0 || env.Body != nil {
				t.Fatalf("decodeEnvelope(%q) accepted %+v", msg, env)
			}
			return
		case "call", "cancel":
			if env.ID < 1 || env.ID > maxCallID || env.N != 0 {
				t.Fatalf("decodeEnvelope(%q) accepted %+v", msg, env)
			}
		default:
			t.Fatalf("decodeEnvelope(%q) accepted %+v", msg, env)
		}
		if env.Type == "call" && !json.Valid(env.Body) {
			t.Fatalf("decodeEnvelope(%q) accepted a body that is not JSON: %q", msg, env.Body)
		}
	})
}

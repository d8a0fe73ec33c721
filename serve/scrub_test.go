package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestKeyAppearsInNoErrorBodyAndNoLogLine(t *testing.T) {
	tail := testKey[len(testKey)-8:]
	echoes := []struct {
		name    string
		stream  bool
		handler http.HandlerFunc
		status  int
	}{
		{"openai 401 quoting the key", false, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusUnauthorized)
			fmt.Fprintf(w, `{"error":{"message":"Incorrect API key provided: %s. You can find your API key at https://platform.openai.com/account/api-keys.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}`, testKey)
		}, http.StatusUnauthorized},
		{"masked key as OpenAI prints it", false, func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusUnauthorized)
			fmt.Fprintf(w, `{"error":{"message":"Incorrect API key provided: sk-test-********%s.","type":"invalid_request_error","code":"invalid_api_key"}}`, tail)
		}, http.StatusUnauthorized},
		{"html error page echoing the headers", false, func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusBadGateway)
			fmt.Fprintf(w, "<html><body>bad gateway; you sent Authorization: %s</body></html>", r.Header.Get("Authorization"))
		}, http.StatusBadGateway},
		{"error event inside a stream", true, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprintf(w, "data: %s\n\n", chunkJSON("partial"))
			w.(http.Flusher).Flush()
			fmt.Fprintf(w, `data: {"error":{"message":"key %s was revoked","type":"server_error","code":null}}`+"\n\n", testKey)
		}, http.StatusOK},
		{"error before a stream starts", true, func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusForbidden)
			fmt.Fprintf(w, `{"error":{"message":"key %s may not use this model","type":"permission_error","code":%q}}`, testKey, testKey)
		}, http.StatusForbidden},
	}
	for _, tc := range echoes {
		t.Run(tc.name, func(t *testing.T) {
			fake := newFakeUpstream(t, tc.handler)
			proxy, logs := startProxy(t, testConfig(t, fake.URL+"/v1"))
			resp := postChat(t, proxy.URL, testKey, chatBody("judge-1", tc.stream))
			body := readAll(t, resp.Body)
			assert.Equal(t, tc.status, resp.StatusCode, body)
			assert.Equal(t, "Bearer "+testKey, fake.requests()[0].Authorization, "the key did reach the upstream")
			assert.NotContains(t, body, testKey)
			assert.NotContains(t, body, tail, "not even the masked tail")
			assert.Contains(t, body, "[key redacted]")
			if tc.status != http.StatusOK {
				decodeError(t, body)
			} else {
				events := sseEvents(body)
				require.Len(t, events, 2)
				assert.NotEqual(t, "[DONE]", events[1], "a failed stream does not claim to be complete")
				decodeError(t, events[1])
			}
			for name, values := range resp.Header {
				for _, v := range values {
					assert.NotContains(t, v, tail, "header %s", name)
				}
			}
			require.Eventually(t, func() bool { return strings.Contains(logs.String(), "POST /v1/chat/completions") }, 10*time.Second, 10*time.Millisecond)
			assert.NotContains(t, logs.String(), tail)
		})
	}
}

func TestScrub(t *testing.T) {
	cases := []struct{ in, key, want string }{
		{"Incorrect API key provided: sk-abc123xyz.", "sk-abc123xyz", "Incorrect API key provided: [key redacted]."},
		{"Incorrect API key provided: sk-proj-****wxyz.", "", "Incorrect API key provided: sk-[key redacted]"},
		{"sent Authorization: Bearer abc.def-ghi", "", "sent Authorization: Bearer [key redacted]"},
		{"azure key 0123456789abcdef is wrong", "0123456789abcdef", "azure key [key redacted] is wrong"},
		{"task-list and risk-free prose stay", "", "task-list and risk-free prose stay"},
		{"", "k", ""},
		{"sk-", "", "sk-"},
	}
	for _, tc := range cases {
		assert.Equal(t, tc.want, scrub(tc.in, tc.key), tc.in)
	}
}

// slashKey has the characters JSON encoders escape in their own ways: '/' (\/ in PHP, \u002f
// in some), '+' and '=' of base64 keys, and '<', '>' and '&' (\u003c… in Go's encoder).
const slashKey = "AbC/dEf+gh1=2<3>4&5/Zz9"

func TestKeyIsScrubbedInEveryEscapedForm(t *testing.T) {
	goForm, err := json.Marshal(slashKey)
	require.NoError(t, err)
	forms := map[string]string{
		"plain":               slashKey,
		"Go's encoder":        strings.Trim(string(goForm), `"`),
		"PHP's \\/":           strings.ReplaceAll(slashKey, "/", `\/`),
		"\\u002f":             strings.ReplaceAll(slashKey, "/", `\u002f`),
		"\\u002F":             strings.ReplaceAll(slashKey, "/", `\u002F`),
		"every character \\u": unicodeEscaped(slashKey),
		"percent-encoded":     strings.NewReplacer("/", "%2F", "+", "%2B", "=", "%3D").Replace(slashKey),
		"mixed escapes":       strings.NewReplacer("/", `\/`, "<", `\u003C`, "&", "%26").Replace(slashKey),
		"quote and backslash": `q\"x\\y`, // the key q"x\y written as JSON writes it
	}
	for name, form := range forms {
		t.Run(name, func(t *testing.T) {
			key := slashKey
			if name == "quote and backslash" {
				key = `q"x\y-long`
				form += "-long"
			}
			text := `{"error":{"message":"bad key ` + form + ` given"}}`
			out := scrub(text, key)
			assert.NotContains(t, out, form)
			assert.Contains(t, out, "bad key [key redacted] given")
		})
	}
	t.Run("past U+FFFF as a surrogate pair", func(t *testing.T) {
		out := scrub(`key k-\ud83d\ude00-abc!`, "k-😀-abc")
		assert.Equal(t, "key [key redacted]!", out)
	})
	t.Run("near misses stay", func(t *testing.T) {
		for _, text := range []string{
			strings.Replace(slashKey, "/", `\u002e`, 1),
			strings.Replace(slashKey, "/", `%2E`, 1),
			slashKey[:len(slashKey)-1],
		} {
			assert.Equal(t, text, scrub(text, slashKey))
		}
	})
}

func unicodeEscaped(s string) string {
	var b strings.Builder
	for _, r := range s {
		fmt.Fprintf(&b, `\u%04x`, r)
	}
	return b.String()
}

func TestEscapedKeyNeverReachesTheBrowser(t *testing.T) {
	goForm, _ := json.Marshal(slashKey)
	escaped := strings.Trim(string(goForm), `"`)
	php := strings.ReplaceAll(slashKey, "/", `\/`)
	cases := []struct {
		name    string
		stream  bool
		handler http.HandlerFunc
	}{
		// Not OpenAI's error shape, so the body itself becomes the message, cut at 300 bytes:
		// the key straddles the cut and must be scrubbed before it.
		{"raw body cut across the key", false, func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprintf(w, `{"detail":"%s rejected %s"}`, strings.Repeat("x", 290-len(`{"detail":"`)-len(" rejected ")), php)
		}},
		{"raw body with Go's escapes", false, func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusUnauthorized)
			fmt.Fprintf(w, `{"detail":"key %s is wrong"}`, escaped)
		}},
		{"error member with PHP's escapes", false, func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusUnauthorized)
			fmt.Fprintf(w, `{"error":{"message":"sent {\"key\":\"%s\"}","type":"invalid_request_error","code":"%s"}}`, strings.ReplaceAll(php, `\`, `\\`), php)
		}},
		{"escaped key in a stream's error event", true, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprintf(w, "data: %s\n\n", chunkJSON("partial"))
			fmt.Fprintf(w, `data: {"error":{"message":"key %s was revoked","type":"server_error","code":null}}`+"\n\n", php)
		}},
		{"escaped key echoed in a completion", false, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, completionJSON("your key is "+slashKey))
		}},
		{"escaped key echoed in a stream chunk", true, answerStream("your key is " + slashKey)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fake := newFakeUpstream(t, tc.handler)
			proxy, _ := startProxy(t, testConfig(t, fake.URL+"/v1"))
			resp := postChat(t, proxy.URL, slashKey, chatBody("judge-1", tc.stream))
			body := readAll(t, resp.Body)
			assert.Equal(t, "Bearer "+slashKey, fake.requests()[0].Authorization, "the key did reach the upstream")
			for _, form := range []string{slashKey, escaped, php, strings.ReplaceAll(escaped, `\`, `\\`)} {
				assert.NotContains(t, body, form)
			}
			for _, piece := range []string{"AbC", "dEf+gh1", `dEf\u002bgh1`, "4&5", `4\u00265`} {
				assert.NotContains(t, body, piece, "not a piece of it either")
			}
			assert.Contains(t, body, "[k", "the key was there, and is redacted (or cut within the redaction)")
		})
	}
}

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

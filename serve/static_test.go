package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// webFixture writes a small page with every file type the real one has.
func webFixture(t *testing.T) (string, map[string][]byte) {
	t.Helper()
	dir := t.TempDir()
	// The wasm is compressible like the real one: a magic number and repetitive code.
	wasm := append([]byte("\x00asm\x01\x00\x00\x00"), bytes.Repeat([]byte("\x20\x00\x41\x01\x6a\x21\x00"), 20000)...)
	files := map[string][]byte{
		"index.html":         []byte("<!doctype html><title>ragjudge</title>" + strings.Repeat("<p>page</p>", 100)),
		"ragjudge.wasm":      wasm,
		"ragjudge.js":        []byte("export async function load() {}\n" + strings.Repeat("// api\n", 200)),
		"app.mjs":            []byte("import './ragjudge.js';\n" + strings.Repeat("// app\n", 200)),
		"style.css":          []byte(strings.Repeat("body { color: black; }\n", 100)),
		"tiny.js":            []byte("1"),
		"batch/index.html":   []byte("<!doctype html><title>batch</title>"),
		".git/config":        []byte("[core]"),
		"examples/seed.json": []byte(`{"a":1}`),
	}
	for name, data := range files {
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), data, 0o644))
	}
	return dir, files
}

func get(t *testing.T, url string, header map[string]string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	require.NoError(t, err)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	client := &http.Client{
		Transport:     &http.Transport{DisableCompression: true},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	resp, err := client.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp, body
}

func gunzip(t *testing.T, b []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(b))
	require.NoError(t, err)
	out, err := io.ReadAll(zr)
	require.NoError(t, err)
	return out
}

func TestStaticFilesHaveTheRightTypeAndCompression(t *testing.T) {
	dir, files := webFixture(t)
	cfg := testConfig(t, "http://127.0.0.1:1/v1")
	cfg.WebDir = dir
	srv, _ := startProxy(t, cfg)

	cases := []struct {
		path, file, ctype string
		gzipped           bool
	}{
		{"/", "index.html", "text/html; charset=utf-8", true},
		{"/ragjudge.wasm", "ragjudge.wasm", "application/wasm", true},
		{"/ragjudge.js", "ragjudge.js", "text/javascript; charset=utf-8", true},
		{"/app.mjs", "app.mjs", "text/javascript; charset=utf-8", true},
		{"/style.css", "style.css", "text/css; charset=utf-8", true},
		{"/tiny.js", "tiny.js", "text/javascript; charset=utf-8", false}, // too small to pay
		{"/batch/", "batch/index.html", "text/html; charset=utf-8", false},
		{"/examples/seed.json", "examples/seed.json", "application/json", false},
	}
	for _, tc := range cases {
		t.Run(tc.path, func(t *testing.T) {
			resp, body := get(t, srv.URL+tc.path, map[string]string{"Accept-Encoding": "gzip, deflate, br"})
			require.Equal(t, http.StatusOK, resp.StatusCode)
			assert.Equal(t, tc.ctype, resp.Header.Get("Content-Type"))
			assert.Equal(t, "no-cache", resp.Header.Get("Cache-Control"), "the wasm changes on rebuild: always revalidate")
			assert.Equal(t, "nosniff", resp.Header.Get("X-Content-Type-Options"))
			assert.NotEmpty(t, resp.Header.Get("ETag"))
			if strings.HasSuffix(tc.file, ".html") {
				assert.Equal(t, "frame-ancestors 'none'", resp.Header.Get("Content-Security-Policy"))
				assert.Equal(t, "DENY", resp.Header.Get("X-Frame-Options"))
			}
			if tc.gzipped {
				assert.Equal(t, "gzip", resp.Header.Get("Content-Encoding"))
				assert.Contains(t, resp.Header.Values("Vary"), "Accept-Encoding")
				assert.Less(t, len(body), len(files[tc.file]))
				assert.Equal(t, files[tc.file], gunzip(t, body))
			} else {
				assert.Empty(t, resp.Header.Get("Content-Encoding"))
				assert.Equal(t, files[tc.file], body)
			}

			// A client that does not accept gzip gets the plain bytes.
			resp, body = get(t, srv.URL+tc.path, nil)
			assert.Empty(t, resp.Header.Get("Content-Encoding"))
			assert.Equal(t, files[tc.file], body)
		})
	}

	t.Run("gzip;q=0 is a refusal", func(t *testing.T) {
		resp, body := get(t, srv.URL+"/ragjudge.wasm", map[string]string{"Accept-Encoding": "gzip;q=0, identity"})
		assert.Empty(t, resp.Header.Get("Content-Encoding"))
		assert.Equal(t, files["ragjudge.wasm"], body)
	})
}

func TestStaticRevalidatesWithETagsAndSeesRebuilds(t *testing.T) {
	dir, _ := webFixture(t)
	cfg := testConfig(t, "http://127.0.0.1:1/v1")
	cfg.WebDir = dir
	srv, _ := startProxy(t, cfg)
	gz := map[string]string{"Accept-Encoding": "gzip"}

	resp, _ := get(t, srv.URL+"/ragjudge.wasm", gz)
	etag := resp.Header.Get("ETag")
	require.NotEmpty(t, etag)
	plain, _ := get(t, srv.URL+"/ragjudge.wasm", nil)
	assert.NotEqual(t, etag, plain.Header.Get("ETag"), "the gzip and identity forms are different representations")

	resp, body := get(t, srv.URL+"/ragjudge.wasm", map[string]string{"Accept-Encoding": "gzip", "If-None-Match": etag})
	assert.Equal(t, http.StatusNotModified, resp.StatusCode)
	assert.Empty(t, body)

	// A rebuild: new content, new time.
	rebuilt := append([]byte("\x00asm\x01\x00\x00\x00"), bytes.Repeat([]byte("rebuilt!"), 5000)...)
	path := filepath.Join(dir, "ragjudge.wasm")
	require.NoError(t, os.WriteFile(path, rebuilt, 0o644))
	later := time.Now().Add(2 * time.Second)
	require.NoError(t, os.Chtimes(path, later, later))

	resp, body = get(t, srv.URL+"/ragjudge.wasm", map[string]string{"Accept-Encoding": "gzip", "If-None-Match": etag})
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.NotEqual(t, etag, resp.Header.Get("ETag"))
	assert.Equal(t, rebuilt, gunzip(t, body))
}

func TestStaticServesOnlyTheWebDirectory(t *testing.T) {
	dir, _ := webFixture(t)
	secret := filepath.Join(filepath.Dir(dir), "secret.txt")
	require.NoError(t, os.WriteFile(secret, []byte("OPENAI_API_KEY=sk-x"), 0o600))
	t.Cleanup(func() { os.Remove(secret) })
	require.NoError(t, os.Symlink(secret, filepath.Join(dir, "link.txt")))
	cfg := testConfig(t, "http://127.0.0.1:1/v1")
	cfg.WebDir = dir
	srv, _ := startProxy(t, cfg)

	for _, p := range []string{"/../secret.txt", "/%2e%2e/secret.txt", "/link.txt", "/.git/config", "/missing.js", "/examples/"} {
		resp, body := get(t, srv.URL+p, nil)
		assert.Equal(t, http.StatusNotFound, resp.StatusCode, p)
		assert.NotContains(t, string(body), "sk-x", p)
	}
	resp, _ := get(t, srv.URL+"/batch", nil)
	assert.Equal(t, http.StatusMovedPermanently, resp.StatusCode)
	assert.Equal(t, "/batch/", resp.Header.Get("Location"))

	req, err := http.NewRequest(http.MethodPost, srv.URL+"/index.html", nil)
	require.NoError(t, err)
	resp, err = http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusMethodNotAllowed, resp.StatusCode)
}

func TestWarmCompressesAheadOfTheFirstRequest(t *testing.T) {
	dir, files := webFixture(t)
	s := newStatic(dir)
	s.warm()
	s.mu.Lock()
	defer s.mu.Unlock()
	require.Contains(t, s.cache, "ragjudge.wasm")
	assert.NotNil(t, s.cache["ragjudge.wasm"].gz)
	assert.Equal(t, files["batch/index.html"], s.cache["batch/index.html"].data)
	assert.NotContains(t, s.cache, ".git/config", "hidden directories are never read")

	newStatic(filepath.Join(dir, "missing")).warm() // a missing directory is not a panic
}

// precompressedFixture adds ragjudge.wasm.br and ragjudge.wasm.gz beside the fixture's wasm, with
// its modification time, as scripts/precompress.mjs writes them. The server sends a sibling as it
// is and never decodes it, so the .br holds marked bytes: a body equal to them proves which file
// was sent.
func precompressedFixture(t *testing.T) (dir string, wasm, br, gz []byte) {
	t.Helper()
	dir, files := webFixture(t)
	wasm = files["ragjudge.wasm"]
	br = append([]byte("brotli form of the wasm:"), bytes.Repeat([]byte{0x8b}, 300)...)
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	require.NoError(t, err)
	_, _ = zw.Write(wasm)
	require.NoError(t, zw.Close())
	gz = buf.Bytes()
	src := filepath.Join(dir, "ragjudge.wasm")
	info, err := os.Stat(src)
	require.NoError(t, err)
	for name, data := range map[string][]byte{"ragjudge.wasm.br": br, "ragjudge.wasm.gz": gz} {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, data, 0o644))
		require.NoError(t, os.Chtimes(p, info.ModTime(), info.ModTime()))
	}
	return dir, wasm, br, gz
}

func TestStaticSendsTheBestPrecompressedFormAccepted(t *testing.T) {
	dir, wasm, br, gz := precompressedFixture(t)
	cfg := testConfig(t, "http://127.0.0.1:1/v1")
	cfg.WebDir = dir
	srv, _ := startProxy(t, cfg)

	cases := []struct {
		accept string // "-": no header at all
		coding string // "": 406
	}{
		{"gzip, deflate, br, zstd", "br"}, // what Chromium sends
		{"gzip, deflate", "gzip"},         // a browser without brotli
		{"-", "identity"},
		{"identity", "identity"},
		{"deflate", "identity"},
		{"BR", "br"},
		{"x-gzip", "gzip"},
		{"br;q=0.5, gzip", "gzip"},
		{"br;q=0, gzip;q=0.1", "gzip"},
		{"gzip;q=0.8, br;q=0.8", "br"}, // a tie goes to the smaller form
		{"gzip;q=0.8, br;q=0.8, identity", "identity"},
		{"*", "br"},
		{"*;q=0.5, gzip", "gzip"},
		{"*;q=0, identity", "identity"},
		{"br, identity;q=0", "br"},
		{"gzip;q=1.5, br;q=abc", "identity"}, // malformed weights: as if not listed
		{"br;q=0, gzip;q=0", "identity"},
		{"identity;q=0", ""},
		{"*;q=0", ""},
		{"br;q=0, gzip;q=0, identity;q=0", ""},
	}
	want := map[string][]byte{"br": br, "gzip": gz, "identity": wasm}
	etags := map[string]string{}
	for _, tc := range cases {
		t.Run(tc.accept, func(t *testing.T) {
			header := map[string]string{}
			if tc.accept != "-" {
				header["Accept-Encoding"] = tc.accept
			}
			resp, body := get(t, srv.URL+"/ragjudge.wasm", header)
			assert.Contains(t, resp.Header.Values("Vary"), "Accept-Encoding", "caches must key on the encoding")
			if tc.coding == "" {
				assert.Equal(t, http.StatusNotAcceptable, resp.StatusCode)
				return
			}
			require.Equal(t, http.StatusOK, resp.StatusCode)
			assert.Equal(t, "application/wasm", resp.Header.Get("Content-Type"))
			assert.Equal(t, "no-cache", resp.Header.Get("Cache-Control"))
			if tc.coding == "identity" {
				assert.Empty(t, resp.Header.Get("Content-Encoding"))
			} else {
				assert.Equal(t, tc.coding, resp.Header.Get("Content-Encoding"))
			}
			assert.True(t, bytes.Equal(want[tc.coding], body), "the %s form is sent byte for byte", tc.coding)
			assert.Equal(t, int64(len(body)), resp.ContentLength, "the download's size is known")
			etag := resp.Header.Get("ETag")
			assert.Regexp(t, `^"[0-9a-f]{24}(-br|-gz)?"$`, etag, "a strong ETag")
			if prev, ok := etags[tc.coding]; ok {
				assert.Equal(t, prev, etag, "one ETag per form")
			}
			etags[tc.coding] = etag
		})
	}
	assert.Len(t, etags, 3)
	assert.NotEqual(t, etags["br"], etags["gzip"])
	assert.NotEqual(t, etags["gzip"], etags["identity"])

	// A file with no compressed form, when the file itself is refused, cannot be sent.
	resp, _ := get(t, srv.URL+"/tiny.js", map[string]string{"Accept-Encoding": "gzip, identity;q=0"})
	assert.Equal(t, http.StatusNotAcceptable, resp.StatusCode)

	// HEAD says what GET would send, without the body.
	req, err := http.NewRequest(http.MethodHead, srv.URL+"/ragjudge.wasm", nil)
	require.NoError(t, err)
	req.Header.Set("Accept-Encoding", "br")
	head, err := (&http.Transport{DisableCompression: true}).RoundTrip(req)
	require.NoError(t, err)
	head.Body.Close()
	assert.Equal(t, "br", head.Header.Get("Content-Encoding"))
	assert.Equal(t, etags["br"], head.Header.Get("ETag"))
	assert.Equal(t, int64(len(br)), head.ContentLength)
}

func TestStaticRevalidatesEachFormByItsOwnETag(t *testing.T) {
	dir, _, br, gz := precompressedFixture(t)
	cfg := testConfig(t, "http://127.0.0.1:1/v1")
	cfg.WebDir = dir
	srv, _ := startProxy(t, cfg)
	url := srv.URL + "/ragjudge.wasm"

	first, _ := get(t, url, map[string]string{"Accept-Encoding": "br"})
	brTag := first.Header.Get("ETag")
	require.NotEmpty(t, brTag)

	resp, body := get(t, url, map[string]string{"Accept-Encoding": "gzip, br", "If-None-Match": brTag})
	assert.Equal(t, http.StatusNotModified, resp.StatusCode)
	assert.Empty(t, body)
	assert.Equal(t, brTag, resp.Header.Get("ETag"))
	assert.Contains(t, resp.Header.Values("Vary"), "Accept-Encoding")

	// The brotli form's tag does not validate the gzip form: that one is sent in full.
	resp, body = get(t, url, map[string]string{"Accept-Encoding": "gzip", "If-None-Match": brTag})
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.True(t, bytes.Equal(gz, body))
	gzTag := resp.Header.Get("ETag")
	resp, _ = get(t, url, map[string]string{"Accept-Encoding": "gzip", "If-None-Match": `"other", ` + gzTag})
	assert.Equal(t, http.StatusNotModified, resp.StatusCode)

	// A rebuild: the wasm gets a new time, the siblings are not rewritten yet. They are not of
	// this build, so they are not sent; the wasm is gzipped here instead.
	src := filepath.Join(dir, "ragjudge.wasm")
	rebuilt := append([]byte("\x00asm\x01\x00\x00\x00"), bytes.Repeat([]byte("rebuilt!"), 5000)...)
	require.NoError(t, os.WriteFile(src, rebuilt, 0o644))
	later := time.Now().Add(2 * time.Second)
	require.NoError(t, os.Chtimes(src, later, later))
	resp, body = get(t, url, map[string]string{"Accept-Encoding": "gzip, br", "If-None-Match": brTag})
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, "gzip", resp.Header.Get("Content-Encoding"))
	assert.True(t, bytes.Equal(rebuilt, gunzip(t, body)))

	// The build writes the siblings with the wasm's time: they are sent again.
	newBr := append([]byte("brotli form of the rebuilt wasm:"), br...)
	require.NoError(t, os.WriteFile(src+".br", newBr, 0o644))
	require.NoError(t, os.Chtimes(src+".br", later, later))
	resp, body = get(t, url, map[string]string{"Accept-Encoding": "gzip, br", "If-None-Match": brTag})
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, "br", resp.Header.Get("Content-Encoding"))
	assert.True(t, bytes.Equal(newBr, body))
	assert.NotEqual(t, brTag, resp.Header.Get("ETag"))
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

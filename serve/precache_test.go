package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// readPrecache parses precache.js's list out of its text.
func readPrecache(t *testing.T, body []byte) precacheList {
	t.Helper()
	s := string(body)
	i, j := strings.Index(s, "self.PRECACHE = "), strings.LastIndex(s, ";")
	require.True(t, i >= 0 && j > i, "precache.js: %q", s)
	var list precacheList
	require.NoError(t, json.Unmarshal([]byte(s[i+len("self.PRECACHE = "):j]), &list))
	return list
}

func TestPrecacheListsThePublishedFilesWithTheirSums(t *testing.T) {
	dir, files := webFixture(t)
	// The wasm's precompressed forms, the service worker and a list left on disk are not listed.
	for name, data := range map[string]string{"ragjudge.wasm.br": "br", "ragjudge.wasm.gz": "gz", "sw.js": "//", "precache.js": "stale", "notes.gz": "a file of its own"} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644))
	}
	srv := httptest.NewServer(newServer(config{WebDir: dir, Upstreams: []upstreamSpec{{Name: defaultUpstreamName, URL: "http://127.0.0.1:1"}}}))
	defer srv.Close()

	resp, body := get(t, srv.URL+"/precache.js", nil)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, "text/javascript; charset=utf-8", resp.Header.Get("Content-Type"))
	assert.Equal(t, "no-cache", resp.Header.Get("Cache-Control"))
	list := readPrecache(t, body)
	var names []string
	for _, f := range list.Files {
		names = append(names, f[0])
	}
	assert.Equal(t, []string{"app.mjs", "batch/index.html", "examples/seed.json", "index.html", "notes.gz", "ragjudge.js", "ragjudge.wasm", "style.css", "tiny.js"}, names)
	for _, f := range list.Files {
		if data, ok := files[f[0]]; ok {
			assert.Equal(t, hashHex(data), f[1], f[0])
		}
	}
	assert.Len(t, list.Version, 16)
	assert.Equal(t, `"`+list.Version+`"`, resp.Header.Get("ETag"))

	// Unchanged: a 304. Any file changed: a new version, at once.
	resp, _ = get(t, srv.URL+"/precache.js", map[string]string{"If-None-Match": `"` + list.Version + `"`})
	assert.Equal(t, http.StatusNotModified, resp.StatusCode)
	later := time.Now().Add(time.Second)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "tiny.js"), []byte("2"), 0o644))
	require.NoError(t, os.Chtimes(filepath.Join(dir, "tiny.js"), later, later))
	_, body = get(t, srv.URL+"/precache.js", nil)
	assert.NotEqual(t, list.Version, readPrecache(t, body).Version)
}

// The dev server's list and the one `make dist` writes (scripts/webfiles.mjs) are the same bytes.
func TestPrecacheIsTheSameAsTheBuildScripts(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	dir, _ := webFixture(t)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "ragjudge.wasm.br"), []byte("br"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "sw.js"), []byte("//"), 0o644))
	srv := httptest.NewServer(newServer(config{WebDir: dir, Upstreams: []upstreamSpec{{Name: defaultUpstreamName, URL: "http://127.0.0.1:1"}}}))
	defer srv.Close()
	_, body := get(t, srv.URL+"/precache.js", nil)

	out := filepath.Join(t.TempDir(), "precache.js")
	cmd := exec.Command(node, filepath.Join("..", "scripts", "webfiles.mjs"), "precache", dir, out)
	msg, err := cmd.CombinedOutput()
	require.NoError(t, err, string(msg))
	want, err := os.ReadFile(out)
	require.NoError(t, err)
	assert.Equal(t, string(want), string(body))
}

// The page as the dev server serves it, with its list, is the one `make dist` writes.
func TestPageIsTheSameAsTheBuildScripts(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	dir, _ := webFixture(t)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "index.html"), []byte(versionedPage), 0o644))
	srv := httptest.NewServer(newStatic(dir))
	defer srv.Close()
	_, body := get(t, srv.URL+"/precache.js", nil)
	_, page := get(t, srv.URL+"/", nil)

	dist := filepath.Join(t.TempDir(), "dist")
	msg, err := exec.Command(node, filepath.Join("..", "scripts", "webfiles.mjs"), "dist", dir, dist).CombinedOutput()
	require.NoError(t, err, string(msg))
	wantPage, err := os.ReadFile(filepath.Join(dist, "index.html"))
	require.NoError(t, err)
	assert.Equal(t, string(wantPage), string(page))
	wantList, err := os.ReadFile(filepath.Join(dist, "precache.js"))
	require.NoError(t, err)
	assert.Equal(t, string(wantList), string(body))
	assert.Contains(t, string(page), `src="v/`+readPrecache(t, body).Version+`/app.mjs"`)
}

// versionedPage is an index.html with references of every kind: to the build's files (versioned),
// to the manifest, an icon, the API, an anchor and a file there is not (left as they are).
const versionedPage = `<!doctype html><html><head>
<link rel="stylesheet" href="style.css">
<link rel="preload" href="ragjudge.wasm" as="fetch" type="application/wasm" crossorigin>
<link rel="preload" href="examples/seed.json" as="fetch">
<link rel="preload" href="ragjudge/config" as="fetch">
<link rel="modulepreload" href="ragjudge.js">
<link rel="manifest" href="manifest.webmanifest"><link rel="icon" href="icons/icon.svg">
<script type="module" src="app.mjs"></script>
</head><body><a href="#main">skip</a><script src="missing.js"></script><script src="tiny.js"></script></body></html>
`

func TestPageNamesTheBuildsFilesUnderItsVersionKeptForGood(t *testing.T) {
	dir, files := webFixture(t)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "index.html"), []byte(versionedPage), 0o644))
	srv := httptest.NewServer(newStatic(dir))
	defer srv.Close()
	_, body := get(t, srv.URL+"/precache.js", nil)
	list := readPrecache(t, body)
	v := "v/" + list.Version + "/"

	for _, path := range []string{"/", "/index.html"} {
		resp, page := get(t, srv.URL+path, nil)
		require.Equal(t, http.StatusOK, resp.StatusCode, path)
		assert.Equal(t, "no-cache", resp.Header.Get("Cache-Control"), path)
		assert.Equal(t, "text/html; charset=utf-8", resp.Header.Get("Content-Type"))
		assert.Equal(t, "DENY", resp.Header.Get("X-Frame-Options"))
		for _, ref := range []string{`href="` + v + `style.css"`, `href="` + v + `ragjudge.wasm"`, `href="` + v + `examples/seed.json"`, `href="` + v + `ragjudge.js"`, `src="` + v + `app.mjs"`, `src="` + v + `tiny.js"`,
			`href="ragjudge/config"`, `href="manifest.webmanifest"`, `href="icons/icon.svg"`, `href="#main"`, `src="missing.js"`} {
			assert.Contains(t, string(page), ref, path)
		}
		// The list's sum of index.html is the page as served: what the service worker checks.
		for _, f := range list.Files {
			if f[0] == "index.html" {
				assert.Equal(t, hashHex(page), f[1])
			}
		}
		// Compressed, and revalidated by its own ETag.
		resp, gz := get(t, srv.URL+path, map[string]string{"Accept-Encoding": "gzip"})
		assert.Equal(t, "gzip", resp.Header.Get("Content-Encoding"))
		assert.Equal(t, string(page), string(gunzip(t, gz)))
		resp2, _ := get(t, srv.URL+path, map[string]string{"Accept-Encoding": "gzip", "If-None-Match": resp.Header.Get("ETag")})
		assert.Equal(t, http.StatusNotModified, resp2.StatusCode)
	}

	// The build's files under its version: the same bytes, kept for good.
	for _, f := range []string{"style.css", "ragjudge.wasm", "app.mjs", "examples/seed.json"} {
		resp, got := get(t, srv.URL+"/"+v+f, nil)
		require.Equal(t, http.StatusOK, resp.StatusCode, f)
		assert.Equal(t, "public, max-age=31536000, immutable", resp.Header.Get("Cache-Control"), f)
		assert.Equal(t, string(files[f]), string(got), f)
		resp, _ = get(t, srv.URL+"/"+f, nil)
		assert.Equal(t, "no-cache", resp.Header.Get("Cache-Control"), "at its own name: "+f)
	}
	resp, _ := get(t, srv.URL+"/"+v+"ragjudge.wasm", nil)
	assert.Equal(t, "application/wasm", resp.Header.Get("Content-Type"))
	// Another version (an earlier build's page): the file as it is now, revalidated.
	resp, got := get(t, srv.URL+"/v/0123456789abcdef/style.css", nil)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, "no-cache", resp.Header.Get("Cache-Control"))
	assert.Equal(t, string(files["style.css"]), string(got))
	// Not files: a version folder alone, a path outside the web directory, a dotfile.
	for _, path := range []string{"/v/", "/v/" + list.Version, "/" + v + "../../.git/config", "/" + v + ".git/config", "/" + v + "nothing.js"} {
		resp, _ := get(t, srv.URL+path, nil)
		assert.Contains(t, []int{http.StatusNotFound, http.StatusMovedPermanently}, resp.StatusCode, path)
		assert.NotEqual(t, "public, max-age=31536000, immutable", resp.Header.Get("Cache-Control"), path)
	}

	// A rebuild is a new version: the old one's URLs are no longer kept for good.
	later := time.Now().Add(time.Second)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "style.css"), []byte("body { color: red; }"), 0o644))
	require.NoError(t, os.Chtimes(filepath.Join(dir, "style.css"), later, later))
	resp, got = get(t, srv.URL+"/"+v+"style.css", nil)
	assert.Equal(t, "no-cache", resp.Header.Get("Cache-Control"))
	assert.Equal(t, "body { color: red; }", string(got))
	_, page := get(t, srv.URL+"/", nil)
	assert.NotContains(t, string(page), v)
	// A file the rebuild left as it was is still those bytes under the old version: kept for good
	// (a page of the earlier build still open asks for it there), and under the new one.
	resp, _ = get(t, srv.URL+"/"+v+"app.mjs", nil)
	assert.Equal(t, "public, max-age=31536000, immutable", resp.Header.Get("Cache-Control"))
	_, body = get(t, srv.URL+"/precache.js", nil)
	resp, got = get(t, srv.URL+"/v/"+readPrecache(t, body).Version+"/style.css", nil)
	assert.Equal(t, "public, max-age=31536000, immutable", resp.Header.Get("Cache-Control"))
	assert.Equal(t, "body { color: red; }", string(got))
	// index.html itself is never kept without asking, wherever it is asked for.
	resp, _ = get(t, srv.URL+"/v/"+readPrecache(t, body).Version+"/index.html", nil)
	assert.Equal(t, "no-cache", resp.Header.Get("Cache-Control"))
}

func TestManifestAndServiceWorkerTypes(t *testing.T) {
	dir, _ := webFixture(t)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "manifest.webmanifest"), []byte(`{"name":"ragjudge"}`), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "sw.js"), []byte("self.importScripts('precache.js');"), 0o644))
	srv := httptest.NewServer(newServer(config{WebDir: dir, Upstreams: []upstreamSpec{{Name: defaultUpstreamName, URL: "http://127.0.0.1:1"}}}))
	defer srv.Close()
	for path, ctype := range map[string]string{
		"/manifest.webmanifest": "application/manifest+json",
		"/sw.js":                "text/javascript; charset=utf-8",
		"/ragjudge.wasm":        "application/wasm",
	} {
		resp, _ := get(t, srv.URL+path, nil)
		require.Equal(t, http.StatusOK, resp.StatusCode, path)
		assert.Equal(t, ctype, resp.Header.Get("Content-Type"), path)
		// Never kept without asking: a new build is seen on the next load.
		assert.Equal(t, "no-cache", resp.Header.Get("Cache-Control"), path)
	}
}

// hashHex is the hex SHA-256 of data.
func hashHex(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

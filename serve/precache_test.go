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

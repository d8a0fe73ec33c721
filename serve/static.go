package main

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"io/fs"
	"mime"
	"net/http"
	"os"
	"path"
	"strings"
	"sync"
	"time"
)

// static serves the page's files from one directory with explicit MIME types, gzip for text and
// wasm, and validators instead of freshness: the wasm changes on every `make build`, so the
// browser must revalidate (Cache-Control: no-cache) and gets a 304 when nothing changed.
type static struct {
	root    *os.Root // confines every open to the web directory, symlinks included
	rootErr error
	mu      sync.Mutex
	cache   map[string]*staticEntry
}

// staticEntry is one file as last read, with its gzip form; it is reused while the file's
// size and modification time stay the same.
type staticEntry struct {
	size    int64
	modTime time.Time
	data    []byte
	etag    string
	gz      []byte // nil when compression does not pay
	gzEtag  string
}

// maxCachedFile bounds what is read into memory; web/ holds a few MB in all.
const maxCachedFile = 64 << 20

var contentTypes = map[string]string{
	".wasm":  "application/wasm",
	".js":    "text/javascript; charset=utf-8",
	".mjs":   "text/javascript; charset=utf-8",
	".css":   "text/css; charset=utf-8",
	".html":  "text/html; charset=utf-8",
	".json":  "application/json",
	".map":   "application/json",
	".svg":   "image/svg+xml",
	".png":   "image/png",
	".jpg":   "image/jpeg",
	".ico":   "image/x-icon",
	".txt":   "text/plain; charset=utf-8",
	".md":    "text/plain; charset=utf-8",
	".csv":   "text/csv; charset=utf-8",
	".jsonl": "application/jsonl; charset=utf-8",
	".woff2": "font/woff2",
}

var compressible = map[string]bool{
	".wasm": true, ".js": true, ".mjs": true, ".css": true, ".html": true, ".json": true,
	".map": true, ".svg": true, ".txt": true, ".md": true, ".csv": true, ".jsonl": true,
}

func newStatic(dir string) *static {
	s := &static{cache: map[string]*staticEntry{}}
	s.root, s.rootErr = os.OpenRoot(dir)
	return s
}

func (s *static) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		methodNotAllowed(w, r, "GET, HEAD")
		return
	}
	if s.rootErr != nil {
		http.Error(w, "the web directory is missing: "+s.rootErr.Error(), http.StatusNotFound)
		return
	}
	name := path.Clean("/" + r.URL.Path)
	if strings.HasSuffix(r.URL.Path, "/") && name != "/" {
		name += "/"
	}
	rel := strings.TrimPrefix(name, "/")
	if strings.HasSuffix(name, "/") {
		rel += "index.html"
	}
	for _, seg := range strings.Split(rel, "/") {
		if strings.HasPrefix(seg, ".") {
			http.NotFound(w, r) // dotfiles and editor droppings are not part of the page
			return
		}
	}
	info, err := s.root.Stat(rel)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	if info.IsDir() {
		if strings.HasSuffix(name, "/") {
			http.NotFound(w, r) // a directory without index.html: no listings
			return
		}
		http.Redirect(w, r, path.Base(name)+"/", http.StatusMovedPermanently)
		return
	}
	if !info.Mode().IsRegular() {
		http.NotFound(w, r)
		return
	}
	ext := strings.ToLower(path.Ext(rel))
	ctype := contentTypes[ext]
	if ctype == "" {
		ctype = mime.TypeByExtension(ext)
	}
	if ctype == "" {
		ctype = "application/octet-stream"
	}
	h := w.Header()
	h.Set("Content-Type", ctype)
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Content-Type-Options", "nosniff")
	if ext == ".html" {
		// The page carries its own CSP in a meta tag; framing can only be refused by header.
		h.Set("Content-Security-Policy", "frame-ancestors 'none'")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "no-referrer")
	}

	if info.Size() > maxCachedFile {
		f, err := s.root.Open(rel)
		if err != nil {
			http.NotFound(w, r)
			return
		}
		defer f.Close()
		http.ServeContent(w, r, "", info.ModTime(), f)
		return
	}
	e, err := s.entry(rel, info, compressible[ext])
	if err != nil {
		http.NotFound(w, r)
		return
	}
	if compressible[ext] {
		h.Add("Vary", "Accept-Encoding")
	}
	if e.gz != nil && acceptsGzip(r.Header.Get("Accept-Encoding")) {
		h.Set("Content-Encoding", "gzip")
		h.Set("ETag", e.gzEtag)
		http.ServeContent(w, r, "", e.modTime, bytes.NewReader(e.gz))
		return
	}
	h.Set("ETag", e.etag)
	http.ServeContent(w, r, "", e.modTime, bytes.NewReader(e.data))
}

// warm reads and compresses the page's files ahead of the first request, so that the first
// load of the wasm does not wait for gzip. Errors are left for the request that meets them.
func (s *static) warm() {
	if s.rootErr != nil {
		return
	}
	_ = fs.WalkDir(s.root.FS(), ".", func(rel string, d fs.DirEntry, err error) error {
		if err != nil || strings.HasPrefix(d.Name(), ".") && rel != "." {
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			return nil
		}
		info, err := d.Info()
		if err == nil && info.Mode().IsRegular() && info.Size() <= maxCachedFile {
			_, _ = s.entry(rel, info, compressible[strings.ToLower(path.Ext(rel))])
		}
		return nil
	})
}

// entry returns the cached file, rereading it when its size or time changed (a rebuild).
func (s *static) entry(rel string, info fs.FileInfo, compress bool) (*staticEntry, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if e, ok := s.cache[rel]; ok && e.size == info.Size() && e.modTime.Equal(info.ModTime()) {
		return e, nil
	}
	f, err := s.root.Open(rel)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxCachedFile+1))
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(data)
	tag := hex.EncodeToString(sum[:12])
	e := &staticEntry{size: info.Size(), modTime: info.ModTime(), data: data, etag: `"` + tag + `"`}
	if compress && len(data) >= 512 {
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.DefaultCompression)
		_, _ = zw.Write(data)
		if zw.Close() == nil && buf.Len() < len(data)*9/10 {
			e.gz = buf.Bytes()
			e.gzEtag = `"` + tag + `-gz"`
		}
	}
	s.cache[rel] = e
	return e, nil
}

// acceptsGzip reads an Accept-Encoding header: gzip (or *) listed with a nonzero q.
func acceptsGzip(header string) bool {
	for _, part := range strings.Split(header, ",") {
		coding, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		coding = strings.ToLower(strings.TrimSpace(coding))
		if coding != "gzip" && coding != "x-gzip" && coding != "*" {
			continue
		}
		q := strings.ReplaceAll(strings.ToLower(params), " ", "")
		if strings.HasPrefix(q, "q=0") && strings.Trim(strings.TrimPrefix(q, "q=0"), ".0") == "" {
			return false
		}
		return true
	}
	return false
}

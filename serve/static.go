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
	"strconv"
	"strings"
	"sync"
	"time"
)

// static serves the page's files from one directory with explicit MIME types, compressed when
// the browser accepts it. The page (index.html) names the build's files under
// v/VERSION/ (versionPage, VERSION the precache version, a hash over every file): those are sent
// with Cache-Control: immutable while they are the bytes they were in VERSION, so a warm load asks
// for nothing that has not changed, and a rebuild is a new VERSION, new URLs. Everything else
// (index.html, the files at their own names, a file changed since its VERSION) has validators
// instead of freshness: Cache-Control: no-cache, a 304 when nothing changed.
//
// A file with precompressed siblings beside it (`make build` writes ragjudge.wasm.br and
// ragjudge.wasm.gz) is sent as the best of them the request accepts: brotli, then gzip, then the
// file itself, by the q-values of Accept-Encoding. A sibling counts only when its modification
// time equals the file's (scripts/precompress.mjs sets it so), so one left from an older build is
// never sent. Other text files are gzipped here, once per version.
type static struct {
	root    *os.Root // confines every open to the web directory, symlinks included
	rootErr error
	mu      sync.Mutex
	cache   map[string]*staticEntry
	// The precache list and the page of the files as they were when listStamp was taken
	// (precache.go).
	list      precacheList
	page      *staticEntry
	listStamp string
	// The files' sums in the last versions listed, newest last (sumIn).
	versions []listedVersion
}

// staticEntry is one file as last read, with its compressed forms; it is reused while the file
// and its siblings keep their sizes and modification times.
type staticEntry struct {
	size    int64
	modTime time.Time
	sibs    [2]sibling // what the siblings were when read: .br, .gz
	data    []byte
	sum     [32]byte // SHA-256 of data
	etag    string
	br      []byte // the .br sibling, nil when there is none
	brEtag  string
	gz      []byte // the .gz sibling, else gzipped here; nil when compression does not pay
	gzEtag  string
}

// sibling is what a precompressed sibling looked like (size -1: absent or not of this version).
type sibling struct {
	size    int64
	modTime time.Time
}

// siblingExts are the precompressed siblings looked for, in the order of staticEntry.sibs.
var siblingExts = [2]string{".br", ".gz"}

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
	// The web app manifest (manifest.webmanifest), as the W3C spec registers it.
	".webmanifest": "application/manifest+json",
}

var compressible = map[string]bool{
	".wasm": true, ".js": true, ".mjs": true, ".css": true, ".html": true, ".json": true,
	".map": true, ".svg": true, ".txt": true, ".md": true, ".csv": true, ".jsonl": true,
	".webmanifest": true,
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
	if rel == precacheName {
		s.servePrecache(w, r)
		return
	}
	// A file of the build under v/VERSION/: kept for good when it is the bytes it had in VERSION
	// (known from the lists computed here, precache.go sumIn); one that has changed since, or of a
	// VERSION this server never listed, is the file as it is now, revalidated.
	var want [32]byte
	versionedFile := false
	if version, file, ok := versioned(rel); ok {
		rel = file
		want, versionedFile = s.sumIn(version, file)
	}
	if rel == pageName {
		s.servePage(w, r)
		return
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
		pageHeaders(h)
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
	if versionedFile && e.sum == want {
		h.Set("Cache-Control", immutable)
	}
	serveEntry(w, r, e)
}

// immutable is the cache life of a file of the build under v/VERSION/: its bytes never change.
const immutable = "public, max-age=31536000, immutable"

// pageHeaders are the headers of an HTML page: it carries its own CSP in a meta tag; framing can
// only be refused by header.
func pageHeaders(h http.Header) {
	h.Set("Content-Security-Policy", "frame-ancestors 'none'")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "no-referrer")
}

// servePage answers index.html as the service worker's list has it: with its references to the
// build's files under v/VERSION/ (precache.go versionPage).
func (s *static) servePage(w http.ResponseWriter, r *http.Request) {
	_, page, err := s.precache()
	if err != nil || page == nil {
		http.NotFound(w, r)
		return
	}
	h := w.Header()
	h.Set("Content-Type", contentTypes[".html"])
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Add("Vary", "Accept-Encoding")
	pageHeaders(h)
	serveEntry(w, r, page)
}

// serveEntry sends e in the best form the request accepts, with its ETag.
func serveEntry(w http.ResponseWriter, r *http.Request, e *staticEntry) {
	h := w.Header()
	coding, ok := negotiate(r.Header.Get("Accept-Encoding"), e.br != nil, e.gz != nil)
	if !ok {
		// The request refuses the file as it is (identity;q=0) and every form there is.
		http.Error(w, "none of the accepted content codings is available", http.StatusNotAcceptable)
		return
	}
	body, etag := e.data, e.etag
	switch coding {
	case "br":
		body, etag = e.br, e.brEtag
	case "gzip":
		body, etag = e.gz, e.gzEtag
	}
	if coding != "identity" {
		h.Set("Content-Encoding", coding)
		// http.ServeContent leaves out Content-Length once a coding is set, and its ranges would
		// count in the encoded bytes: the encoded forms go whole, with their length, so the
		// browser knows the download's size.
		r.Header.Del("Range")
		h.Set("Content-Length", strconv.Itoa(len(body)))
	}
	h.Set("ETag", etag)
	http.ServeContent(w, r, "", e.modTime, bytes.NewReader(body))
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
		if isSibling(rel) {
			return nil // read with the file it is a form of
		}
		info, err := d.Info()
		if err == nil && info.Mode().IsRegular() && info.Size() <= maxCachedFile {
			_, _ = s.entry(rel, info, compressible[strings.ToLower(path.Ext(rel))])
		}
		return nil
	})
}

// isSibling reports whether rel is a precompressed form of another file.
func isSibling(rel string) bool {
	return strings.HasSuffix(rel, ".br") || strings.HasSuffix(rel, ".gz")
}

// siblings stats the precompressed siblings of rel; one whose time differs from the file's is
// not of this version and counts as absent.
func (s *static) siblings(rel string, info fs.FileInfo) (out [2]sibling) {
	for i, ext := range siblingExts {
		out[i].size = -1
		si, err := s.root.Stat(rel + ext)
		if err == nil && si.Mode().IsRegular() && si.Size() <= maxCachedFile && si.ModTime().Equal(info.ModTime()) {
			out[i] = sibling{size: si.Size(), modTime: si.ModTime()}
		}
	}
	return out
}

// entry returns the cached file, rereading it when its size or time changed (a rebuild) or its
// precompressed siblings did.
func (s *static) entry(rel string, info fs.FileInfo, compress bool) (*staticEntry, error) {
	var sibs [2]sibling
	if compress {
		sibs = s.siblings(rel, info)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if e, ok := s.cache[rel]; ok && e.size == info.Size() && e.modTime.Equal(info.ModTime()) && e.sibs == sibs {
		return e, nil
	}
	data, err := s.read(rel, maxCachedFile)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(data)
	tag := hex.EncodeToString(sum[:12])
	e := &staticEntry{size: info.Size(), modTime: info.ModTime(), sibs: sibs, data: data, sum: sum, etag: `"` + tag + `"`}
	if compress && sibs[0].size >= 0 {
		if br, err := s.read(rel+".br", sibs[0].size); err == nil && int64(len(br)) == sibs[0].size {
			e.br = br
			e.brEtag = `"` + hashTag(br) + `-br"`
		}
	}
	if compress && sibs[1].size >= 0 {
		if gz, err := s.read(rel+".gz", sibs[1].size); err == nil && int64(len(gz)) == sibs[1].size {
			e.gz = gz
			e.gzEtag = `"` + hashTag(gz) + `-gz"`
		}
	}
	if compress && e.gz == nil {
		e.gz, e.gzEtag = gzipped(data, tag)
	}
	s.cache[rel] = e
	return e, nil
}

// gzipped is data gzipped and its ETag (tag, the file's, with -gz), or nil when that does not pay.
func gzipped(data []byte, tag string) ([]byte, string) {
	if len(data) < 512 {
		return nil, ""
	}
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.DefaultCompression)
	_, _ = zw.Write(data)
	if zw.Close() != nil || buf.Len() >= len(data)*9/10 {
		return nil, ""
	}
	return buf.Bytes(), `"` + tag + `-gz"`
}

// read reads at most limit bytes of rel.
func (s *static) read(rel string, limit int64) ([]byte, error) {
	f, err := s.root.Open(rel)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, limit+1))
}

// hashTag is the opaque part of a strong ETag for data: a prefix of its SHA-256.
func hashTag(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:12])
}

// negotiate chooses the content coding of a response from an Accept-Encoding header (RFC 9110,
// 12.5.3) and the forms there are (the file itself always): the one with the highest q-value,
// brotli before gzip before identity when they tie. A coding not listed takes the q of "*" if
// that is listed, else 0, except identity, which is acceptable unless refused by name or by "*"
// (identity;q=0, *;q=0), but below any coding listed ("gzip;q=0.1" still gets gzip). No header at
// all asks for the file as it is. ok is false when nothing there is may be sent.
func negotiate(header string, haveBr, haveGzip bool) (coding string, ok bool) {
	if strings.TrimSpace(header) == "" {
		return "identity", true
	}
	q := map[string]float64{}
	for _, part := range strings.Split(header, ",") {
		name, params, _ := strings.Cut(part, ";")
		name = strings.ToLower(strings.TrimSpace(name))
		if name == "" {
			continue
		}
		if name == "x-gzip" {
			name = "gzip"
		}
		v, valid := qValue(params)
		if !valid {
			continue // a malformed q: as if the coding were not listed
		}
		if old, seen := q[name]; !seen || v > old {
			q[name] = v
		}
	}
	weight := func(c string) float64 {
		if v, ok := q[c]; ok {
			return v
		}
		if v, ok := q["*"]; ok {
			return v
		}
		if c == "identity" {
			return implicitIdentity
		}
		return 0
	}
	best, bestQ := "", 0.0
	for _, c := range []struct {
		name string
		have bool
	}{{"br", haveBr}, {"gzip", haveGzip}, {"identity", true}} {
		if w := weight(c.name); c.have && w > bestQ {
			best, bestQ = c.name, w
		}
	}
	return best, best != ""
}

// implicitIdentity is the weight of identity when the header does not name it: under the
// smallest q a header can write (0.001).
const implicitIdentity = 0.0001

// qValue reads the weight among an Accept-Encoding element's parameters ("q=0.5"): 1 when there
// is none; valid is false for a q that is not a number from 0 to 1 with at most three decimals.
func qValue(params string) (q float64, valid bool) {
	for _, p := range strings.Split(params, ";") {
		k, v, _ := strings.Cut(strings.TrimSpace(p), "=")
		if !strings.EqualFold(strings.TrimSpace(k), "q") {
			continue
		}
		v = strings.TrimSpace(v)
		if len(v) == 0 || len(v) > 5 || (v[0] != '0' && v[0] != '1') || (len(v) > 1 && v[1] != '.') {
			return 0, false
		}
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || f < 0 || f > 1 {
			return 0, false
		}
		return f, true
	}
	return 1, true
}

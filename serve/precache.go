package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"path"
	"regexp"
	"sort"
	"strings"
	"time"
)

// precacheName is the service worker's precache list (web/sw.js imports it). The dev server
// computes it from its web directory on every request, so it always names the files as they are
// now and a rebuild or an edit is a new version at once; `make dist` writes the same bytes into
// the folder it makes (scripts/webfiles.mjs, precacheList and precacheScript, whose rules these
// follow).
const precacheName = "precache.js"

// notPrecached are the published files the service worker does not cache: itself and its list.
var notPrecached = map[string]bool{"sw.js": true, precacheName: true, "_headers": true}

// precacheList is what sw.js caches: each published file with the hex SHA-256 of its bytes,
// sorted by path, and the version, a hash over the lot.
type precacheList struct {
	Version string      `json:"version"`
	Files   [][2]string `json:"files"`
}

// publishedFiles lists the web directory's files as the page's URLs name them: every regular
// file but dotfiles (and what is under a dot directory) and the precompressed siblings (.br,
// .gz) of another file; and stamp, the names, sizes and times of every file it walked, which
// change whenever the list or a sum may have.
func (s *static) publishedFiles() (files []string, stamp string, err error) {
	var out []string
	var st strings.Builder
	err = fs.WalkDir(s.root.FS(), ".", func(rel string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if rel != "." && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() {
			out = append(out, rel)
			if info, err := d.Info(); err == nil {
				fmt.Fprintf(&st, "%s %d %d\n", rel, info.Size(), info.ModTime().UnixNano())
			}
		}
		return nil
	})
	if err != nil {
		return nil, "", err
	}
	all := map[string]bool{}
	for _, f := range out {
		all[f] = true
	}
	kept := out[:0]
	for _, f := range out {
		if isSibling(f) && all[f[:len(f)-3]] {
			continue
		}
		kept = append(kept, f)
	}
	sort.Strings(kept)
	return kept, st.String(), nil
}

// precache is the precache list of the web directory as it is now (computed again only when a
// file's name, size or time changed) and the page, index.html as served for that version.
func (s *static) precache() (precacheList, *staticEntry, error) {
	files, stamp, err := s.publishedFiles()
	if err != nil {
		return precacheList{}, nil, err
	}
	s.mu.Lock()
	if s.listStamp == stamp && stamp != "" {
		list, page := s.list, s.page
		s.mu.Unlock()
		return list, page, nil
	}
	s.mu.Unlock()
	list, page, err := s.computePrecache(files)
	if err != nil {
		return precacheList{}, nil, err
	}
	s.mu.Lock()
	s.list, s.page, s.listStamp = list, page, stamp
	if n := len(s.versions); n == 0 || s.versions[n-1].version != list.Version {
		sums := make(map[string]string, len(list.Files))
		for _, f := range list.Files {
			sums[f[0]] = f[1]
		}
		s.versions = append(s.versions, listedVersion{list.Version, sums})
		if len(s.versions) > keptVersions {
			s.versions = s.versions[1:]
		}
	}
	s.mu.Unlock()
	return list, page, nil
}

// listedVersion is the sum of each file of a version this server listed.
type listedVersion struct {
	version string
	sums    map[string]string // path → hex SHA-256
}

// keptVersions is how many versions' sums are kept: the pages still open after a few rebuilds.
const keptVersions = 16

// sumIn is file's SHA-256 in version, when this server listed that version (index.html excepted:
// its listed sum is of the page as served); ok is false otherwise. A request for
// v/VERSION/FILE is kept for good only when FILE still has those bytes: one stat and no walk of
// the directory per request.
func (s *static) sumIn(version, file string) (sum [32]byte, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, v := range s.versions {
		if v.version != version {
			continue
		}
		h, found := v.sums[file]
		if !found || file == pageName {
			return sum, false
		}
		if b, err := hex.DecodeString(h); err == nil && len(b) == len(sum) {
			copy(sum[:], b)
			return sum, true
		}
	}
	return sum, false
}

// computePrecache sums files. The version is a hash over every file's name and sum, index.html
// as it is on disk; index.html's own sum in the list is then that of the page as served, its
// references versioned (versionPage), which is what the service worker gets and checks.
func (s *static) computePrecache(files []string) (precacheList, *staticEntry, error) {
	list := precacheList{Files: [][2]string{}}
	all := sha256.New()
	var raw []byte
	pageAt := -1
	published := map[string]bool{}
	for _, f := range files {
		published[f] = true
	}
	for _, f := range files {
		if notPrecached[f] {
			continue
		}
		info, err := s.root.Stat(f)
		if err != nil {
			return precacheList{}, nil, err
		}
		var sum [32]byte
		if info.Size() > maxCachedFile {
			data, err := s.read(f, info.Size())
			if err != nil {
				return precacheList{}, nil, err
			}
			sum = sha256.Sum256(data)
		} else {
			e, err := s.entry(f, info, compressible[strings.ToLower(path.Ext(f))])
			if err != nil {
				return precacheList{}, nil, err
			}
			sum = e.sum
			if f == pageName {
				raw, pageAt = e.data, len(list.Files)
			}
		}
		hexSum := hex.EncodeToString(sum[:])
		list.Files = append(list.Files, [2]string{f, hexSum})
		all.Write([]byte(f + " " + hexSum + "\n"))
	}
	list.Version = hex.EncodeToString(all.Sum(nil))[:16]
	var page *staticEntry
	if pageAt >= 0 {
		data := versionPage(raw, list.Version, published)
		sum := sha256.Sum256(data)
		list.Files[pageAt][1] = hex.EncodeToString(sum[:])
		page = compressedEntry(data, sum)
	}
	return list, page, nil
}

// pageName is the page: served with its references to the build's files versioned.
const pageName = "index.html"

// versionDir is the folder under which every file of the build is also served, as
// versionDir/VERSION/PATH, VERSION being the precache version: index.html names the build's files
// there, so that a browser may keep them for good (Cache-Control: immutable), and the files those
// name relative to themselves (modules importing modules, a worker's script, a stylesheet) are of
// the same build. `make dist` writes the same folder (scripts/webfiles.mjs).
const versionDir = "v"

// pageRef is a reference in index.html to a file the build versions: a relative src or href
// naming a script, a stylesheet, the wasm, JSON or an image (not the web app manifest, whose own
// references are relative to it, nor the dev server's API, which has no file extension).
var pageRef = regexp.MustCompile(`(\s(?:src|href)=")([A-Za-z0-9_][A-Za-z0-9_./-]*\.(?:js|mjs|css|wasm|json|svg|png|ico))"`)

// versionPage is index.html with each of its references to a published file (pageRef) moved under
// versionDir/version/; scripts/webfiles.mjs versionPage does the same, byte for byte.
func versionPage(html []byte, version string, published map[string]bool) []byte {
	return pageRef.ReplaceAllFunc(html, func(m []byte) []byte {
		sub := pageRef.FindSubmatch(m)
		if !published[path.Clean(string(sub[2]))] || strings.Contains(string(sub[2]), "..") {
			return m
		}
		return []byte(string(sub[1]) + versionDir + "/" + version + "/" + string(sub[2]) + `"`)
	})
}

// compressedEntry is data as a staticEntry: its ETag, and its gzip form when that pays.
func compressedEntry(data []byte, sum [32]byte) *staticEntry {
	tag := hex.EncodeToString(sum[:12])
	e := &staticEntry{size: int64(len(data)), data: data, sum: sum, etag: `"` + tag + `"`}
	e.gz, e.gzEtag = gzipped(data, tag)
	return e
}

// versioned splits rel, a path under versionDir/VERSION/, into the version and the file's own
// path; ok is false for any other path.
func versioned(rel string) (version, file string, ok bool) {
	rest, found := strings.CutPrefix(rel, versionDir+"/")
	if !found {
		return "", "", false
	}
	version, file, found = strings.Cut(rest, "/")
	if !found || version == "" || file == "" {
		return "", "", false
	}
	return version, file, true
}

// precacheScript is precache.js's text for list, byte for byte what scripts/webfiles.mjs writes.
func precacheScript(list precacheList) ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteString("// The service worker's precache list, generated from the published files.\nself.PRECACHE = ")
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(list); err != nil {
		return nil, err
	}
	buf.Truncate(buf.Len() - 1) // Encode's newline
	buf.WriteString(";\n")
	return buf.Bytes(), nil
}

// servePrecache answers GET /precache.js with the list computed now, revalidated by its version.
func (s *static) servePrecache(w http.ResponseWriter, r *http.Request) {
	list, _, err := s.precache()
	if err != nil {
		http.Error(w, "cannot list the web directory: "+err.Error(), http.StatusInternalServerError)
		return
	}
	body, err := precacheScript(list)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/javascript; charset=utf-8")
	h.Set("Cache-Control", "no-cache")
	h.Set("ETag", `"`+list.Version+`"`)
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(body))
}

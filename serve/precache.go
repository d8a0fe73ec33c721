package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io/fs"
	"net/http"
	"path"
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
// .gz) of another file.
func (s *static) publishedFiles() ([]string, error) {
	var out []string
	err := fs.WalkDir(s.root.FS(), ".", func(rel string, d fs.DirEntry, err error) error {
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
		}
		return nil
	})
	if err != nil {
		return nil, err
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
	return kept, nil
}

// precache computes the precache list of the web directory as it is now.
func (s *static) precache() (precacheList, error) {
	files, err := s.publishedFiles()
	if err != nil {
		return precacheList{}, err
	}
	list := precacheList{Files: [][2]string{}}
	all := sha256.New()
	for _, f := range files {
		if notPrecached[f] {
			continue
		}
		info, err := s.root.Stat(f)
		if err != nil {
			return precacheList{}, err
		}
		var sum [32]byte
		if info.Size() > maxCachedFile {
			data, err := s.read(f, info.Size())
			if err != nil {
				return precacheList{}, err
			}
			sum = sha256.Sum256(data)
		} else {
			e, err := s.entry(f, info, compressible[strings.ToLower(path.Ext(f))])
			if err != nil {
				return precacheList{}, err
			}
			sum = e.sum
		}
		hexSum := hex.EncodeToString(sum[:])
		list.Files = append(list.Files, [2]string{f, hexSum})
		all.Write([]byte(f + " " + hexSum + "\n"))
	}
	list.Version = hex.EncodeToString(all.Sum(nil))[:16]
	return list, nil
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
	list, err := s.precache()
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

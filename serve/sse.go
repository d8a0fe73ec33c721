package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"time"
)

// relay passes an upstream event stream to the browser event by event, each flushed as it
// arrives and as the upstream wrote it. The response status is committed only at the first
// event, so a failure before it is a proper error response; a failure after it (a timeout, a
// broken connection, more than -max-response bytes) ends the stream with an event
// {"error": {...}} and no [DONE].
func (p *proxy) relay(w http.ResponseWriter, r *http.Request, ctx context.Context, u *upstream, timer *time.Timer, resp *http.Response, key string) {
	if ct := resp.Header.Get("Content-Type"); ct != "" {
		if mt, _, _ := mime.ParseMediaType(ct); mt != "text/event-stream" {
			// A plain answer to a streaming request would otherwise pass for an empty stream.
			writeError(w, http.StatusBadGateway, "upstream_error", "not_a_stream",
				fmt.Sprintf("the upstream %s answered %s instead of an event stream; turn streaming off for this endpoint",
					u.url.Host, scrub(ct, key)))
			return
		}
	}
	rc := http.NewResponseController(w)
	started := false
	start := func() {
		h := w.Header()
		h.Set("Content-Type", "text/event-stream; charset=utf-8")
		h.Set("Cache-Control", "no-cache")
		h.Set("X-Accel-Buffering", "no")
		w.WriteHeader(resp.StatusCode)
		started = true
	}
	send := func(event []byte) bool {
		if !started {
			start()
		}
		if _, err := w.Write(event); err != nil {
			markClientGone(w)
			return false
		}
		if err := rc.Flush(); err != nil {
			markClientGone(w)
			return false
		}
		return true
	}
	reader := bufio.NewReaderSize(resp.Body, 32<<10)
	var event []byte
	for {
		line, err := reader.ReadSlice('\n')
		event = append(event, line...)
		if err == bufio.ErrBufferFull {
			continue // a long line: read on
		}
		if err == nil {
			if !isBlankLine(line) {
				continue
			}
			// A blank line ends an event: it goes out now, with its key scrubbed if the
			// upstream echoed it.
			timer.Reset(p.cfg.Timeout)
			if !send(scrubEvent(event, key)) {
				return
			}
			event = event[:0]
			continue
		}
		if err == io.EOF && context.Cause(ctx) == nil {
			// The upstream ended its answer; whatever it sent last goes out as it is.
			if len(event) > 0 || !started {
				send(scrubEvent(event, key))
			}
			return
		}
		if !started {
			p.fail(w, r, ctx, u, nil, key, err, true)
			return
		}
		if r.Context().Err() != nil {
			markClientGone(w)
			return
		}
		_, e := p.describe(ctx, u, nil, key, err, true)
		if e.Code == "upstream_timeout" {
			e.Message = fmt.Sprintf("the upstream %s sent nothing for %s (-timeout); the answer is incomplete",
				u.url.Host, formatDuration(p.cfg.Timeout))
		}
		msg, _ := json.Marshal(struct {
			Error apiError `json:"error"`
		}{e})
		send([]byte("data: " + string(msg) + "\n\n"))
		return
	}
}

func isBlankLine(line []byte) bool {
	return len(line) == 1 || len(line) == 2 && line[0] == '\r'
}

// scrubEvent removes the key from one SSE event. An error event gets the whole scrub, masked
// keys and bearer tokens included, as an error body does; any other event changes only if it
// holds the key itself, which an honest upstream never sends.
func scrubEvent(event []byte, key string) []byte {
	if bytes.Contains(event, []byte(`"error"`)) && isErrorEvent(event) {
		return []byte(scrub(string(event), key))
	}
	return scrubKeyBytes(event, key)
}

// isErrorEvent reports whether an SSE event's data is a JSON object with an "error" member.
func isErrorEvent(event []byte) bool {
	var data []byte
	for _, line := range bytes.Split(event, []byte("\n")) {
		if rest, ok := bytes.CutPrefix(bytes.TrimRight(line, "\r"), []byte("data:")); ok {
			data = append(data, bytes.TrimPrefix(rest, []byte(" "))...)
			data = append(data, '\n')
		}
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(data, &obj) != nil {
		return false
	}
	_, ok := obj["error"]
	return ok
}

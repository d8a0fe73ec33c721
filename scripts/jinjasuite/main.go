// Command jinjasuite renders templates with ragjudge's Jinja engine for scripts/jinja_suite.py:
// one JSON object per input line ({"id", "template", "vars"}), one per output line ({"id",
// "output"} or {"id", "error", "refused"}), so that the script can hold each render against real
// Jinja2's. It is a measuring tool, never linked into the wasm.
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"ragjudge/core/diag"
	"ragjudge/core/template"
	"ragjudge/core/value"
)

type request struct {
	ID       string          `json:"id"`
	Template string          `json:"template"`
	Vars     json.RawMessage `json:"vars"`
}

type response struct {
	ID      string  `json:"id"`
	Output  *string `json:"output,omitempty"`
	Error   string  `json:"error,omitempty"`
	Msg     string  `json:"msg,omitempty"`
	Refused bool    `json:"refused,omitempty"`
	Panic   bool    `json:"panic,omitempty"`
	Millis  int64   `json:"ms"`
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 64<<20)
	out := json.NewEncoder(os.Stdout)
	for in.Scan() {
		var req request
		if err := json.Unmarshal(in.Bytes(), &req); err != nil {
			fmt.Fprintln(os.Stderr, "jinjasuite: bad input line:", err)
			os.Exit(2)
		}
		if err := out.Encode(render(req)); err != nil {
			fmt.Fprintln(os.Stderr, "jinjasuite:", err)
			os.Exit(2)
		}
	}
	if err := in.Err(); err != nil {
		fmt.Fprintln(os.Stderr, "jinjasuite:", err)
		os.Exit(2)
	}
}

// render renders one request; a panic is reported as data (it is a bug the script must list).
func render(req request) (resp response) {
	resp.ID = req.ID
	start := time.Now()
	defer func() {
		resp.Millis = time.Since(start).Milliseconds()
		if r := recover(); r != nil {
			resp.Output = nil
			resp.Panic = true
			resp.Error = fmt.Sprintf("panic: %v", r)
		}
	}()
	vars := &value.Object{}
	if len(req.Vars) > 0 {
		v, err := value.Decode(req.Vars)
		if err != nil {
			resp.Error = "vars: " + err.Error()
			return resp
		}
		o, ok := v.(*value.Object)
		if !ok {
			resp.Error = "vars: not a JSON object"
			return resp
		}
		vars = o
	}
	s, err := template.Render("suite", req.Template, template.Jinja, vars)
	if err != nil {
		resp.Error = err.Error()
		resp.Msg = err.Error()
		var de *diag.Error
		if errors.As(err, &de) {
			resp.Msg = de.Msg
		}
		resp.Refused = strings.HasPrefix(resp.Msg, "not supported")
		return resp
	}
	resp.Output = &s
	return resp
}

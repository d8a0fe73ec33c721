// Command describe writes the built-in evaluators' descriptions, exactly what rj.evaluators()
// returns in the page, as a static JSON file (web/evaluators.json, written by `make build`). The
// page reads it at once and draws the evaluator picker and the forms while the wasm is still
// downloading and compiling, instead of waiting for the engine to list them.
//
// It asks the same bridge the wasm calls, over the same prompts, natively: one source of truth,
// no second description to keep in step.
//
//	go run ./cmd/describe -o web/evaluators.json
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"ragjudge/bridge"
	"ragjudge/prompts"
)

func main() {
	out := flag.String("o", "web/evaluators.json", "the file to write")
	flag.Parse()
	if err := write(*out); err != nil {
		fmt.Fprintln(os.Stderr, "describe:", err)
		os.Exit(1)
	}
}

// describe returns the JSON text of the evaluators' descriptions: the "ok" of the bridge's
// answer to evaluators(), byte for byte what ragjudge.js parses in the page.
func describe() ([]byte, error) {
	wire := bridge.New(prompts.FS).Call("evaluators", nil)
	const pre, post = `{"ok":`, `}`
	if !strings.HasPrefix(wire, pre) || !strings.HasSuffix(wire, post) {
		return nil, errors.New("the bridge did not list the evaluators: " + wire)
	}
	return []byte(wire[len(pre):len(wire)-len(post)] + "\n"), nil
}

// write writes the descriptions to path through a temporary file renamed into place, so that a
// server never sends half a file while `make build` runs.
func write(path string) error {
	data, err := describe()
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".evaluators-*.json")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

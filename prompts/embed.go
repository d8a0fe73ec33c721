// Package prompts holds the built-in judge prompts, one file per evaluator, each verbatim as its
// authors wrote it. The one change: claim-groundedness.md leaves out its source's first line (the
// path it was taken from) and the blank line after it, which are not part of the prompt.
package prompts

import "embed"

// FS holds the prompts, each named "<evaluator id>.md"; judge.Load reads one per built-in
// evaluator, so a new evaluator's prompt is a new file here. The wasm reads the same files from
// package inline, Go strings generated from them, as it must not link package embed.
//
//go:embed *.md
var FS embed.FS

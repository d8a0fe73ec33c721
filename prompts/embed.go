// Package prompts holds the built-in judge prompts, one file per evaluator id, verbatim from the
// seeds in shared/seeds/. The only change is that claim-groundedness.md drops the seed's first
// line (the source path it was taken from) and the blank line after it, which are not part of
// the prompt.
package prompts

import "embed"

// FS holds claim-groundedness.md, answer-grounding.md, pairwise-faithfulness.md and
// rag-recall.md, named by evaluator id.
//
//go:embed *.md
var FS embed.FS

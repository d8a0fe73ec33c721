// Package dataset reads evaluation datasets (JSONL, JSON, CSV) into rows and maps their columns
// onto an evaluator's inputs.
//
// STUB: the API below is the contract; the implementation is being written.
package dataset

import (
	"ragjudge/core/diag"
	"ragjudge/core/value"
)

// RowError is a row that could not be read; the other rows still load.
type RowError struct {
	Line    int    `json:"line"` // 1-based line in the text where the row starts
	Message string `json:"message"`
}

// Table is a read dataset.
type Table struct {
	Format  string          `json:"format"` // "jsonl", "json" or "csv": the one given or detected
	Columns []string        `json:"columns"`
	Rows    []*value.Object `json:"rows"`
	Errors  []RowError      `json:"errors"`
}

// Read reads text in format ("jsonl", "json", "csv", or "" to detect). It fails only for an
// unknown format name or a text that is not any format at all; bad rows go into Table.Errors.
func Read(text, format string) (*Table, error) {
	return nil, &diag.Error{Kind: "dataset", Msg: "not implemented"}
}

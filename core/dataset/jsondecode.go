package dataset

import (
	"errors"
	"strconv"

	"ragjudge/core/value"
)

// errTooDeep is decodeJSON's error for JSON nested deeper than value.MaxDepth, worded for a row
// error (without value's package prefix). The cap keeps a hostile dataset from overflowing the
// wasm's stack; checking a text as JSON (value.Valid, Skip) does not recurse and needs no cap.
var errTooDeep = errors.New("JSON nested deeper than " + strconv.Itoa(value.MaxDepth) + " levels")

// decodeJSON reads one strict JSON value with value.Decode. A syntax error is a
// *value.SyntaxError, worded and placed as encoding/json would; so is nesting deeper than
// value.MaxDepth, placed at the bracket that goes too deep, so that a row error says where.
//
// Package value returns its errors as they are, never wrapped, so this file finds them with type
// assertions: errors.As would link internal/reflectlite's assignability checks into the wasm
// (50 KB of code, 8 KB of its brotli size) for nothing.
func decodeJSON(data []byte) (any, error) {
	v, err := value.Decode(data)
	if de, ok := err.(*value.DepthError); ok {
		return nil, &value.SyntaxError{Offset: de.Offset + 1, Msg: errTooDeep.Error()}
	}
	return v, err
}

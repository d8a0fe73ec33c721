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
func decodeJSON(data []byte) (any, error) {
	v, err := value.Decode(data)
	var de *value.DepthError
	if errors.As(err, &de) {
		return nil, &value.SyntaxError{Offset: de.Offset + 1, Msg: errTooDeep.Error()}
	}
	return v, err
}

package dataset

import (
	"errors"
	"strconv"

	"ragjudge/core/value"
)

// maxJSONDepth matches value.Decode's cap on nesting.
const maxJSONDepth = 1000

// errTooDeep is decodeJSON's error for JSON nested deeper than maxJSONDepth, worded for a row
// error (without value's package prefix).
var errTooDeep = errors.New("JSON nested deeper than " + strconv.Itoa(maxJSONDepth))

// decodeJSON reads one strict JSON value with value.Decode. A syntax error is a
// *value.SyntaxError, worded and placed as encoding/json would.
func decodeJSON(data []byte) (any, error) {
	v, err := value.Decode(data)
	if errors.Is(err, value.ErrTooDeep) {
		return nil, errTooDeep
	}
	return v, err
}

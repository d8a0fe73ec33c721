package bridge

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"ragjudge/core/value"
)

// TestParseWeighed: parse asked for a confidence adds it (or null with its reason); not asked, the
// verdict has no such keys.
func TestParseWeighed(t *testing.T) {
	lp, err := value.Decode([]byte(`[{"token": "Yes", "logprob": -0.3, "bytes": [89, 101, 115],
		"top_logprobs": [{"token": "Yes", "logprob": -0.3}, {"token": "No", "logprob": -1.4}]}]`))
	require.NoError(t, err)
	w := decodeWire(t, b.Call("parse", []any{"answer-grounding", groundingInputs, "Yes", obj("logprobs", lp)}))
	require.Nil(t, w.Error)
	assert.Contains(t, string(w.OK), `"passed":true,"score":1,`)
	assert.Contains(t, string(w.OK), `"checks":[],"confidence":{"kind":"verdict","p_pass":0.7502601055951176,"p_fail":0.24973989440488242,"mass":0.9874151846233243,"token":{"index":0,"text":"Yes","logprob":-0.3}}}`)

	w = decodeWire(t, b.Call("parse", []any{"answer-grounding", groundingInputs, "Yes", obj("logprobs", nil)}))
	require.Nil(t, w.Error)
	assert.Contains(t, string(w.OK), `"code":"confidence.none"`)
	assert.Contains(t, string(w.OK), `"confidence":null,"confidence_reason":"the endpoint gave no logprobs`)

	for _, opts := range []any{nil, obj()} {
		w = decodeWire(t, b.Call("parse", []any{"answer-grounding", groundingInputs, "Yes", opts}))
		require.Nil(t, w.Error)
		assert.NotContains(t, string(w.OK), "confidence")
	}

	for _, tt := range []struct {
		opts any
		msg  string
	}{
		{"logprobs", "opts must be an object, {logprobs}, got a string"},
		{obj("logprob", []any{}), `opts has an unknown key "logprob": want "logprobs"`},
	} {
		w = decodeWire(t, b.Call("parse", []any{"answer-grounding", groundingInputs, "Yes", tt.opts}))
		require.NotNil(t, w.Error)
		assert.Equal(t, "input", w.Error.Kind)
		assert.Contains(t, w.Error.Msg, tt.msg)
	}
}

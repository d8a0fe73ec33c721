package value

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestObjectSizes: small objects (scanned) and large ones (mapped) keep insertion order, keep a
// key's first position when it is set again, and find keys exactly and under case folding.
func TestObjectSizes(t *testing.T) {
	for _, n := range []int{0, 1, smallObject, smallObject + 1, 100} {
		o := &Object{}
		var keys []string
		for k := range n {
			key := "Key" + strconv.Itoa(k)
			keys = append(keys, key)
			o.Set(key, int64(k))
		}
		if n > 0 {
			o.Set("Key0", "again") // keeps its place
		}
		assert.Equal(t, n, o.Len(), "n=%d", n)
		if n == 0 {
			assert.Nil(t, o.Keys())
		} else {
			assert.Equal(t, keys, o.Keys(), "n=%d", n)
		}
		for k := 1; k < n; k++ {
			v, ok := o.Get(keys[k])
			assert.True(t, ok)
			assert.Equal(t, int64(k), v)
			v, key, ok := o.GetFold("kEY" + strconv.Itoa(k))
			assert.True(t, ok)
			assert.Equal(t, keys[k], key)
			assert.Equal(t, int64(k), v)
		}
		if n > 0 {
			v, _ := o.Get("Key0")
			assert.Equal(t, "again", v)
		}
		_, ok := o.Get("missing")
		assert.False(t, ok)
		_, _, ok = o.GetFold("missing")
		assert.False(t, ok)
	}
	var nilObj *Object
	_, ok := nilObj.Get("x")
	assert.False(t, ok)
}

package bridge

import (
	"unicode/utf8"
	"unsafe"

	"ragjudge/core/stable"
)

// UTF16Offsets converts byte offsets into s to UTF-16 code unit offsets (JS string indices),
// in one pass over s. Offsets out of range are clamped to s; a byte that is not UTF-8 counts as
// one unit, as the U+FFFD that replaces it in JS does.
func UTF16Offsets(s string, offs []int) []int {
	out := make([]int, len(offs))
	b, u := 0, 0
	for _, k := range stable.Order(len(offs), func(x, y int) bool { return offs[x] < offs[y] }) {
		target := min(max(offs[k], 0), len(s))
		for b < target {
			// ASCII eight bytes at a time: a prompt is mostly ASCII, and Go compiled to wasm
			// decodes a rune in several ns (render of 1 MB spent about 5 ms here).
			for b+8 <= target && *(*uint64)(unsafe.Pointer(unsafe.StringData(s[b:])))&0x8080808080808080 == 0 {
				b += 8
				u += 8
			}
			if b >= target {
				break
			}
			if s[b] < utf8.RuneSelf {
				b++
				u++
				continue
			}
			r, size := utf8.DecodeRuneInString(s[b:])
			if r >= 0x10000 {
				u += 2
			} else {
				u++
			}
			b += size
		}
		out[k] = u
	}
	return out
}

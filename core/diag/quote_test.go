package diag

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
)

// quoteCases have every kind of escape strconv.Quote writes: the quote and the backslash, the
// named control characters, other control characters and DEL, bytes that are not UTF-8, runes
// not printable below and above U+FFFF (a format character, a private-use one, a noncharacter),
// and printable ones of every width, U+FFFD as written included.
var quoteCases = []string{
	"", "plain", `a"b\c`, "\a\b\f\n\r\t\v", "\x00\x01\x1f\x7f", "\x80\xff", "é\xc3", "\xed\xa0\x80",
	"\u00ad \u200b \u2028 \ue000 \U000f0000 \U0010fffe \ufeff", "日本 \U0001F600 \ufffd", "\u0085\u00a0 \u3000",
}

func TestQuoteIsStrconvQuote(t *testing.T) {
	for _, s := range quoteCases {
		assert.Equal(t, strconv.Quote(s), Quote(s), "%q", s)
		assert.Equal(t, strconv.AppendQuote([]byte("x="), s), AppendQuote([]byte("x="), s))
	}
}

// FuzzQuote holds Quote to strconv.Quote on any text.
func FuzzQuote(f *testing.F) {
	for _, s := range quoteCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := Quote(s), strconv.Quote(s); got != want {
			t.Fatalf("Quote(%q) = %s, want %s", s, got, want)
		}
	})
}

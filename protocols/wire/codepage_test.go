package wire

import (
	"testing"
	"unicode/utf8"
)

// Strings as Windows clients type them, decoded as Python's cp1252 and cp1251
// codecs and the WHATWG tables decode them.
func TestWindowsCodePages(t *testing.T) {
	for _, c := range []struct {
		name   string
		decode func([]byte) string
		in     []byte
		want   string
	}{
		{"1252 ascii", Windows1252, []byte("Plain [TAG]"), "Plain [TAG]"},
		{"1252 marks", Windows1252, []byte{0x80, 0x93, 'A', 0x94, 0xE9}, "€“A”é"},
		{"1252 Latin-1 half", Windows1252, []byte{0xC4, 0xF6, 0xDF}, "Äöß"},
		{"1252 undefined is C1", Windows1252, []byte{0x81, 0x9D}, "\u0081\u009D"},
		{"1251 Cyrillic", Windows1251, []byte{0xCF, 0xF0, 0xE8, 0xE2, 0xE5, 0xF2, 0xA8, 0xB8}, "ПриветЁё"},
		{"1251 marks", Windows1251, []byte{0x96, 0xB9, 0x88}, "–№€"},
		{"1251 undefined is C1", Windows1251, []byte{0x98}, "\u0098"},
	} {
		got := c.decode(c.in)
		if got != c.want || !utf8.ValidString(got) {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
	for b := 0; b < 256; b++ {
		for _, d := range []func([]byte) string{Windows1252, Windows1251} {
			if s := d([]byte{byte(b)}); utf8.RuneCountInString(s) != 1 {
				t.Errorf("byte %#x: %q", b, s)
			}
		}
	}
}

package wire

import (
	"strings"
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

// TestEncoding: the `encoding:` option names a code page, or keeps the
// protocol's own when empty or "auto"; an unknown name is refused with the list.
func TestEncoding(t *testing.T) {
	mafia := []byte("Empire Bay \x96 \x84Cash & Cars\x93 \x805 VIP")
	def := func([]byte) string { return "default" }
	for name, want := range map[string]string{
		"":             "default",
		"auto":         "default",
		"windows-1252": "Empire Bay – „Cash & Cars“ €5 VIP",
		"Windows-1252": "Empire Bay – „Cash & Cars“ €5 VIP",
		"utf-8":        "Empire Bay – „Cash & Cars“ €5 VIP", // not UTF-8: read as Windows-1252
		"latin-1":      "Empire Bay \u0096 \u0084Cash & Cars\u0093 \u00805 VIP",
		"windows-1251": "Empire Bay – „Cash & Cars“ Ђ5 VIP",
	} {
		var c CodePage // the option, as the modules file gives it
		if err := c.UnmarshalText([]byte(name)); err != nil {
			t.Fatalf("%q: %v", name, err)
		}
		if got := c.Or(def)(mafia); got != want {
			t.Errorf("%q: %q, want %q", name, got, want)
		}
	}
	var utf8 CodePage
	if err := utf8.UnmarshalText([]byte("utf-8")); err != nil || utf8.Or(def)([]byte("Über")) != "Über" {
		t.Errorf("utf-8 must keep valid UTF-8: %v", err)
	}
	if err := new(CodePage).UnmarshalText([]byte("koi8-r")); err == nil || !strings.Contains(err.Error(), "windows-1252") {
		t.Errorf("unknown encoding: %v", err)
	}
}

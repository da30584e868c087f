package collector

import (
	"bytes"
	"testing"
)

func TestPrintable(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain name", "plain name"},
		{"Café Ünïcode 日本", "Café Ünïcode 日本"},
		{"\x1b]0;pwned\x07title", `\x1b]0;pwned\x07title`},
		{"line\r\nforged", `line\x0d\x0aforged`},
		{"abc\u202edcba", `abc\u202edcba`},
		{"\u2066iso\u2069 \u200f", `\u2066iso\u2069 \u200f`},
		{"c1 \u009b31m", `c1 \u009b31m`},
		{"bad \xff utf8", `bad \xff utf8`},
		{"del\x7f", `del\x7f`},
	}
	for _, tc := range tests {
		if got := Printable(tc.in); got != tc.want {
			t.Errorf("Printable(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	var b bytes.Buffer
	w := PrintableWriter(&b)
	w.Write([]byte("name:\t\x1b[2J\u202eX\n"))
	w.Write([]byte("next line\n"))
	if want := "name:\t\\x1b[2J\\u202eX\nnext line\n"; b.String() != want {
		t.Errorf("writer: %q, want %q", b.String(), want)
	}
}

func TestCleanLabelDropsBidi(t *testing.T) {
	if got := cleanLabel("evil\u202emoc.elgoog\u2066x\u2069"); got != "evilmoc.elgoogx" {
		t.Errorf("cleanLabel kept a bidi control: %q", got)
	}
}

package idtech

import (
	"strings"
	"unicode/utf8"
)

// StripColours removes id Tech 3 colour codes from s: `^` followed by any
// character but `^` and NUL (the original id rule, a superset of ioquake3's
// `^[0-9A-Za-z]`), and the `^X` + 6 hex digits RGB codes of OSP/CPMA-style mods.
// A `^^` keeps its first caret, so Call of Duty's `^^00East` becomes `^0East`.
//
// s is the decoded text: the codes are ASCII, the same bytes in every code
// page, so they are stripped after decoding. In a single-byte code page
// (Latin-1, the default, or the Windows-1251/1252 an `encoding:` names) one
// rune is one wire byte, so skipping one rune after the caret is skipping the
// byte the engine skips; in UTF-8 a caret takes the whole character after it.
func StripColours(s string) string {
	i := strings.IndexByte(s, '^')
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	b.WriteString(s[:i])
	for i < len(s) {
		if s[i] == '^' && i+1 < len(s) {
			if s[i+1] == 'X' && i+8 <= len(s) && isHex(s[i+2:i+8]) {
				i += 8
				continue
			}
			if s[i+1] != '^' && s[i+1] != 0 {
				_, n := utf8.DecodeRuneInString(s[i+1:])
				i += 1 + n
				continue
			}
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String()
}

// Decolorize removes DarkPlaces colour codes from raw bytes, the way the
// engine's COM_StringDecolorize does: `^` + a digit and `^x` + three hex digits
// go, `^^` becomes one caret, any other caret stays.
func Decolorize(b []byte) []byte {
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		if b[i] == '^' && i+1 < len(b) {
			switch c := b[i+1]; {
			case '0' <= c && c <= '9':
				i++
				continue
			case c == 'x' && i+4 < len(b) && isHexDigit(b[i+2]) && isHexDigit(b[i+3]) && isHexDigit(b[i+4]):
				i += 4
				continue
			case c == '^':
				i++
			}
		}
		out = append(out, b[i])
	}
	return out
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isHexDigit(s[i]) {
			return false
		}
	}
	return true
}

func isHexDigit(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

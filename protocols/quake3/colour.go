package quake3

import (
	"strings"
	"unicode/utf8"
)

// StripColours removes id Tech 3 colour codes from s: `^` followed by any
// character but `^` and NUL (the original id rule, a superset of ioquake3's
// `^[0-9A-Za-z]`), and the `^X` + 6 hex digits RGB codes of OSP/CPMA-style mods.
// A `^^` keeps its first caret, so Call of Duty's `^^00East` becomes `^0East`.
//
// s is a Latin-1 decoded string: one rune per wire byte, so skipping one rune
// after the caret is skipping one byte on the wire.
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

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

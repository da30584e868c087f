package wire

import (
	"unicode/utf8"
)

// UTF8 returns b as a string when it is valid UTF-8 and decodes it as Latin-1
// otherwise: servers documented as UTF-8 still send legacy code pages.
func UTF8(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	return Latin1(b)
}

// Latin1 decodes ISO-8859-1 bytes to a UTF-8 string.
func Latin1(b []byte) string {
	ascii := true
	for _, c := range b {
		if c >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii {
		return string(b)
	}
	out := make([]rune, len(b))
	for i, c := range b {
		out[i] = rune(c)
	}
	return string(out)
}

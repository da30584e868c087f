package darkplaces

import (
	"strings"
	"unicode/utf8"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/quakeworld"
)

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
			case c == 'x' && i+4 < len(b) && isHex(b[i+2]) && isHex(b[i+3]) && isHex(b[i+4]):
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

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// Text turns raw server text into a readable UTF-8 string: colour codes
// removed, then UTF-8 kept as is (Xonotic, utf8_enable 1) except the font
// glyphs the engine draws for control bytes and for U+E000-U+E0FF, which read
// as their Quake-charset counterparts; anything else is bytes of the Quake
// character set (Nexuiz).
func Text(raw []byte) string {
	b := Decolorize(raw)
	if !utf8.Valid(b) {
		return quakeworld.Readable(b)
	}
	if !strings.ContainsFunc(string(b), isGlyph) {
		return string(b)
	}
	var s strings.Builder
	s.Grow(len(b))
	for _, r := range string(b) {
		switch {
		case r >= 0xE000 && r <= 0xE0FF:
			r = rune(quakeworld.ReadableByte(byte(r - 0xE000)))
		case isGlyph(r):
			r = rune(quakeworld.ReadableByte(byte(r)))
		}
		s.WriteRune(r)
	}
	return s.String()
}

func isGlyph(r rune) bool { return r < 0x20 || r == 0x7F || 0xE000 <= r && r <= 0xE0FF }

// latin1Bytes undoes wire.Latin1: the quake3 decoder keeps one rune per wire
// byte, so this recovers the bytes exactly.
func latin1Bytes(s string) []byte {
	b := make([]byte, 0, len(s))
	for _, r := range s {
		b = append(b, byte(r))
	}
	return b
}

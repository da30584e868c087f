package darkplaces

import (
	"strings"
	"unicode/utf8"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/idtech"
)

// text turns raw server text into a readable UTF-8 string: colour codes
// removed, then UTF-8 kept as is (Xonotic, utf8_enable 1) except the font
// glyphs the engine draws for control bytes and for U+E000-U+E0FF, which read
// as their Quake-charset counterparts; anything else is bytes of the Quake
// character set (Nexuiz).
func text(raw []byte) string {
	b := idtech.Decolorize(raw)
	if !utf8.Valid(b) {
		return idtech.Readable(b)
	}
	if !strings.ContainsFunc(string(b), isGlyph) {
		return string(b)
	}
	var s strings.Builder
	s.Grow(len(b))
	for _, r := range string(b) {
		switch {
		case r >= 0xE000 && r <= 0xE0FF:
			r = rune(idtech.ReadableByte(byte(r - 0xE000)))
		case isGlyph(r):
			r = rune(idtech.ReadableByte(byte(r)))
		}
		s.WriteRune(r)
	}
	return s.String()
}

func isGlyph(r rune) bool { return r < 0x20 || r == 0x7F || 0xE000 <= r && r <= 0xE0FF }

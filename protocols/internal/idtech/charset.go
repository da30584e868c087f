package idtech

import "strings"

// lowGlyphs gives a readable ASCII stand-in for the 32 glyphs below the space in
// the Quake character set (gfx.wad conchars, shared by QuakeWorld, Quake 2 and
// DarkPlaces): box pieces, bullets, the bracket pair and the "gold" digits that
// players put in their names. The rest of the low half is ASCII.
var lowGlyphs = [32]byte{
	'_', '_', '_', '_', '_', '.', '_', '_', '_', ' ', ' ', '_', ' ', ' ', '.', '.',
	'[', ']', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '.', '<', '-', '>',
}

// ReadableByte maps one byte of the Quake character set to ASCII. The high half
// (0x80-0xFF) is the low half drawn in red/gold, so it reads the same.
func ReadableByte(c byte) byte {
	c &= 0x7F
	switch {
	case c < 0x20:
		return lowGlyphs[c]
	case c == 0x7F:
		return '<' // a left arrow glyph
	}
	return c
}

// Readable converts Quake-charset bytes to a readable ASCII string (always valid
// UTF-8): coloured letters become plain letters, gold digits digits.
func Readable(b []byte) string {
	plain := true
	for _, c := range b {
		if c < 0x20 || c >= 0x7F {
			plain = false
			break
		}
	}
	if plain {
		return string(b)
	}
	var s strings.Builder
	s.Grow(len(b))
	for _, c := range b {
		s.WriteByte(ReadableByte(c))
	}
	return s.String()
}

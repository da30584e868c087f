package unreal2

import (
	"bytes"
	"encoding/binary"
	"strings"
	"unicode/utf16"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// ucs2Flag in a length byte marks a UCS-2 string; the low 7 bits count characters.
const ucs2Flag = 0x80

// colourCode starts a colour code: it and the next three characters are dropped.
const colourCode = 0x1B

// readString reads one length-prefixed string (see the package comment), cuts it at
// its first NUL, decodes it and drops colour codes. A length past the end of the
// datagram fails the reader with ErrTruncated naming what. The length byte is at
// most 255 and the datagram bounded, so no cap is needed.
func readString(r *wire.Reader, what string) string {
	n := int(r.Uint8(what + " length"))
	if n < ucs2Flag {
		b := r.Bytes(n, what)
		if i := bytes.IndexByte(b, 0); i >= 0 {
			b = b[:i]
		}
		return stripColours(wire.Windows1252(b))
	}
	if c, ok := r.Peek(); ok && c == 0x01 {
		r.Skip(1, what) // the uncounted 01 of some Killing Floor servers
	}
	return stripColours(ucs2(r.Bytes((n&^ucs2Flag)*2, what)))
}

// ucs2 decodes UTF-16LE up to the first NUL character; unpaired surrogates become
// U+FFFD, so the result is valid UTF-8.
func ucs2(b []byte) string {
	u := make([]uint16, 0, len(b)/2)
	for i := 0; i+1 < len(b); i += 2 {
		c := binary.LittleEndian.Uint16(b[i:])
		if c == 0 {
			break
		}
		u = append(u, c)
	}
	return string(utf16.Decode(u))
}

// stripColours drops each 0x1B and the three characters after it (the red, green
// and blue bytes of a UT2004 colour code). Other control characters are left to the
// exporter's sanitiser (package collector).
func stripColours(s string) string {
	i := strings.IndexByte(s, colourCode)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	b.WriteString(s[:i])
	skip := 0
	for _, r := range s[i:] {
		switch {
		case skip > 0: // a colour byte, even one that is 0x1B
			skip--
		case r == colourCode:
			skip = 3
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

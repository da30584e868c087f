// Package idtech holds what the id Tech query protocols share: QuakeWorld,
// Quake II, Quake III (and its derivatives) and DarkPlaces all answer one
// connectionless `FF FF FF FF` request with one datagram that holds a
// `\key\value` info string and then one line per player. The packages of
// those protocols keep only their own quirks (the reply keyword, the layout of
// a player line, which keys mean what) and build on this package for the
// rest:
//
//   - info.go: the info string, with the key comparison each engine uses,
//     decoded with the caller's code page;
//   - lines.go: the player lines, their caps, the tokenizer and integers;
//   - q3reply.go: the statusResponse / infoResponse frame of id Tech 3 that
//     DarkPlaces answers with too;
//   - charset.go and colour.go: the Quake character set and the colour codes.
//
// The one-datagram exchange itself is protocols.UDPExchange, as for every
// one-request protocol.
//
// Sources: the engines' Info_ValueForKey, COM_Parse, SVC_Status and
// COM_StringDecolorize, and the notes in shared/protocols/quake3.md.
package idtech

import (
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// MaxDatagram is the largest reply accepted (a UDP payload cannot be larger).
const MaxDatagram = 65535

// HasOOB reports whether b starts with the FF FF FF FF marker of a
// connectionless packet.
func HasOOB(b []byte) bool {
	return len(b) >= 4 && b[0] == 0xFF && b[1] == 0xFF && b[2] == 0xFF && b[3] == 0xFF
}

// Head returns at most the first n bytes of b, for error messages.
func Head(b []byte, n int) []byte {
	if len(b) > n {
		return b[:n]
	}
	return b
}

// HeadText is Head decoded as Latin-1, for error messages that quote text.
func HeadText(b []byte, n int) string { return wire.Latin1(Head(b, n)) }

// Package armagetron queries Armagetron Advanced servers with the server-info
// messages of its UDP network layer: a small server-info request (descriptor
// 52), then the big one (descriptor 53) on the same socket, answered by the
// big server info (descriptor 51): server name, players and their names,
// maximum, version, options and URL.
//
// Armagetron 0.2.9 answers the big request only after a small one from the
// same address, so the querier always sends the small one first.
//
// Wire format (shared/realworld captures of armagetronad-dedicated 0.2.9.1,
// and Armagetron's nNetwork/nServerInfo): a datagram is a run of messages, each
// a big-endian u16 descriptor, message id and data length in 16-bit words,
// then the data; a u16 sender id ends the datagram. Integers are two words,
// low word first. A string is a u16 length counting its NUL, then the bytes
// in words whose low byte holds the earlier character. Colours are written
// in strings as 0xRRGGBB.
package armagetron

import (
	"github.com/gameserver-exporter/gameserver_exporter/protocols"
)

// Protocol is the registry entry.
var Protocol = protocols.Protocol{
	Name:        "armagetron",
	Description: "Armagetron Advanced UDP server info (small then big info request)",
	DefaultPort: 4534,
	Transport:   "udp",
	New: func(s protocols.Settings) (protocols.Querier, error) {
		return &querier{retries: s.Retries, players: s.Players, rules: s.Rules}, nil
	},
}

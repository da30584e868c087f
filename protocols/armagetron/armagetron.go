// Package armagetron queries Armagetron Advanced servers with the server-info
// messages of its UDP network layer: a small server-info request (descriptor
// 52), then the big one (descriptor 53) on the same socket, answered by the
// big server info (descriptor 51): server name, players and their names,
// maximum, version, options and URL.
//
// A server that does not announce itself to a master answers big requests
// only while a budget lasts that is global, not per address
// (nServerInfo.cpp, sn_numAcceptQueries): each small request, from anyone,
// raises it by 3 (to between 5 and 10), each big request spends one. So the
// querier always sends the small one first; a server announced to a master
// answers every big request.
//
// Wire format (shared/realworld captures of armagetronad-dedicated 0.2.9.1,
// and Armagetron's nNetwork/nServerInfo): a datagram is a run of messages, each
// a big-endian u16 descriptor, message id and data length in 16-bit words,
// then the data; a u16 sender id ends the datagram. Integers are two words,
// low word first. A string is a u16 length counting its NUL, then words each
// the 16-bit sum of two signed chars, the earlier one in the low byte (so a
// char >= 0x80 lowers its partner by one; ReadRaw in nNetwork.cpp undoes it),
// in Latin-1 (the game converts its UTF-8). Colours are written in strings as
// "0x" and six characters (0xRRGGBB, 0xRESETT), removed as the game's
// tColoredString::RemoveColors removes them.
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
	New:         newQuerier,
}

// Package quake2 speaks the connectionless `status` query of Quake II servers
// (id's q2ded and its descendants: R1Q2, Q2PRO, Yamagi, AprQ2, KMQuake2...):
// one `FF FF FF FF status 0A` datagram answered by one datagram
// `FF FF FF FF print 0A` holding the serverinfo string and one line per client:
//
//	score ping "name"
//
// (some forks append the client's quoted address). The server stops listing
// clients when the next line would not fit in its 1400-byte status buffer, so
// the line count is what the reply holds, not always everyone.
//
// The info string, the tokenizer and the Quake character set are QuakeWorld's,
// shared through protocols/internal/idtech. Sources: q2ded's
// SVC_Status / SV_StatusString, qstat's -q2s output and gamedig's quake2
// protocol; no Debian package runs a Quake II server, so there is no
// real-server test (the qstat cross-check runs against a fake server).
package quake2

import (
	"github.com/gameserver-exporter/gameserver_exporter/protocols"
)

// Protocol is the registry entry for Quake II servers.
var Protocol = protocols.Protocol{
	Name:        "quake2",
	Description: "Quake II status (q2ded, R1Q2, Q2PRO, Yamagi)",
	DefaultPort: 27910,
	Transport:   "udp",
	New:         exchange,
}

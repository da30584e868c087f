// Package hexen2 queries Hexen II (Raven, 1997) servers with the NetQuake
// connection-control packets the engine inherited from Quake's net_dgrm.c: a
// datagram whose first four bytes are the control flag 0x8000 and the packet's
// length (big-endian), then an op code. CCREQ_SERVER_INFO (0x02, with the game
// name "HEXENII" and net protocol 4) is answered by CCREP_SERVER_INFO (0x83:
// address, name, map, players, max, protocol); CCREQ_PLAYER_INFO (0x03, a player
// index) by CCREP_PLAYER_INFO (0x84: index, name, colours, frags, seconds
// connected, address) one player at a time; CCREQ_RULE_INFO (0x04, the previous
// rule's name) by CCREP_RULE_INFO (0x85: name, value; empty after the last).
// Sources: the Quake and Hexen II engine sources (net_dgrm.c, GPL, read for facts)
// and qstat's -h2s. Not HexenWorld (hwsv, a QuakeWorld-style server on 26950).
package hexen2

import (
	"github.com/gameserver-exporter/gameserver_exporter/protocols"
)

// Protocol is the registry entry. The control packets go to the game port.
var Protocol = protocols.Protocol{
	Name:        "hexen2",
	Description: "Hexen II NetQuake control packets: server, player and rule info (UDP game port)",
	DefaultPort: 26900,
	Transport:   "udp",
	New:         newQuerier,
}

// newQuerier returns a Querier for the module's settings. Hexen II has no options.
func newQuerier(s protocols.Settings) (protocols.Querier, error) {
	return protocols.OverUDP(s.Retries, (&querier{s: s}).query), nil
}

// Package cs2d queries CS2D (Unreal Software's 2D Counter-Strike) servers. The query
// rides on the game's own UDP packet layer: one datagram holding a packet number and
// two messages, the serverinfo request (0xFB 0x01) and the player list request (0xFB
// 0x05), answered by one datagram with the serverinfo (flags, name, map, counts, a
// game mode when flagged, bots, more flags) followed by the player list (id, name,
// team, score, deaths). Wire facts: gamedig's cs2d protocol (behaviour, not code).
// qstat does not speak it.
package cs2d

import (
	"github.com/gameserver-exporter/gameserver_exporter/protocols"
)

// Protocol is the registry entry. The query goes to the game port itself.
var Protocol = protocols.Protocol{
	Name:        "cs2d",
	Description: "CS2D serverinfo and player list (UDP game port)",
	DefaultPort: 36963,
	Transport:   "udp",
	New:         newQuerier,
}

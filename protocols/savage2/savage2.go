// Package savage2 queries Savage 2: A Tortured Soul (S2 Games, 2008) servers.
// A one-byte UDP request, 0x01, is answered by one datagram: a 12-byte header
// (the K2 engine's packet header and the reply's id, not decoded), then the
// server name, player and max counts, the match time, map, next map, location,
// minimum players per team, whether the server sends stats, the races, the
// version and the password flag (1.x builds), or the game mode, version and a
// minimum account level (later builds). Sources: gamedig's savage2 protocol (the
// request, the later layout) and the jxqf protocol notes with their server
// captures (the 1.x layout). Not the Savage 1 protocol (module savage), which is
// what qstat's -sas speaks.
package savage2

import (
	"github.com/gameserver-exporter/gameserver_exporter/protocols"
)

// Protocol is the registry entry.
var Protocol = protocols.Protocol{
	Name:        "savage2",
	Description: "Savage 2: A Tortured Soul server info (UDP 11235)",
	DefaultPort: 11235,
	Transport:   "udp",
	New:         newQuerier,
}

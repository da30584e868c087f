// Package quake3 speaks the text status query of Quake III Arena and the id Tech 3
// family (ioquake3, OpenArena, Urban Terror, Wolfenstein: ET, RTCW, Jedi Knight,
// Soldier of Fortune II, Call of Duty 1-4, Warsow, DarkPlaces games): one
// `getstatus <challenge>` datagram answered by one `statusResponse` datagram holding
// the server's info string and one line per connected client.
//
// Spec: shared/protocols/quake3.md. The decoder also reads `infoResponse` (the reply
// to `getinfo`), although the querier only asks getstatus: it carries everything
// getinfo does plus the player list, and both commands share the server's rate limit.
//
// Bots are reported only when the server counts them (DarkPlaces' `bots` key),
// and Players then counts the humans: ioquake3 and OpenArena list bots as
// ordinary player lines with ping 0, which a LAN player can have too, so no
// player line is taken for a bot and their bots count as players.
package quake3

import (
	"github.com/gameserver-exporter/gameserver_exporter/protocols"
)

// Protocol is the registry entry for Quake 3 style servers.
var Protocol = protocols.Protocol{
	Name:        "quake3",
	Description: "Quake III Arena / id Tech 3 getstatus (ioquake3, OpenArena, Urban Terror, Wolf:ET, CoD, JK, SoF2, Warsow, DarkPlaces)",
	DefaultPort: 27960,
	Transport:   "udp",
	New: func(s protocols.Settings) (protocols.Querier, error) {
		return &querier{players: s.Players, rules: s.Rules, retries: s.Retries}, nil
	},
}

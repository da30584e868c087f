// Package rfactor queries rFactor (Image Space Incorporated, 2005) servers and
// the games on its engine (Arca Sim Racing '08). The four bytes "rF_S" sent to
// the query port (game port - 100) are answered by one datagram of fixed-size,
// little-endian fields: the game name, region, address, versions, ports, the game
// (mod), server name, track, MOTD, driving aids, players, maximum, AI count,
// session flags (password, RaceCast, fixed setups), damage, time and laps, and
// the vehicle classes. Layout from gamedig's rfactor protocol (behaviour, not
// code). rFactor 2 answers A2S (module a2s), not this.
package rfactor

import (
	"github.com/gameserver-exporter/gameserver_exporter/protocols"
)

// Protocol is the registry entry. Targets name the game port; the query port is
// 100 below it.
var Protocol = protocols.Protocol{
	Name:        "rfactor",
	Description: "rFactor server info rF_S (UDP game port - 100)",
	DefaultPort: 34397,
	PortOffset:  -100,
	Transport:   "udp",
	New:         newQuerier,
}

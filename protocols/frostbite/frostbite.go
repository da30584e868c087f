// Package frostbite asks Battlefield servers of the Frostbite era (Bad Company 2,
// Battlefield 3, Battlefield 4, Hardline) for their status over the remote
// administration protocol (RCON), with `serverInfo`, `version` and `listPlayers`,
// three of the few commands the protocol answers without a login.
//
// Packets, both ways: a little-endian uint32 sequence word (bits 29..0 the number
// that pairs a request with its response, bit 30 set on responses, bit 31 telling
// which side sent the request), a uint32 total size (header included, at most 16384
// bytes), a uint32 word count, then the words, each a uint32 length, the bytes and
// a NUL. The answer to serverInfo is "OK" (or an error word such as
// "LogInRequired") followed by the server name, player count, max players, game
// mode, map, rounds played and total, the team scores (a count, that many scores,
// the target score), then online state, ranked, PunkBuster, password, uptime and
// round time. After those the layouts part: Bad Company 2 sends its game mod
// ("BC2", "VIETNAM") and map pack, later releases the game address, PunkBuster
// version, join-queue flag and region; Battlefield 3 and later send the game
// address, PunkBuster version, join-queue flag, region, closest ping site, country,
// matchmaking flag, and (BF4, Hardline) the Blaze player count and game state.
// The prefix through the map is required; the rest is decoded as far as it reads.
// Then `version` (also open without a login) on the same connection: "OK", the
// game ("BC2", "BF3", "BF4", "BFHL") and its build number, the exported version;
// with players, `listPlayers all` (open too, the GUIDs left empty): a player
// info block, names, scores, teams and (BF4, BC2) pings.
//
// Facts: the BF3 / BF4 PC Server Remote Administration Protocol documents (packet
// format, serverInfo) and the words the BC2 R-series servers send.
package frostbite

import (
	"github.com/gameserver-exporter/gameserver_exporter/protocols"
)

// Protocol is the registry entry.
var Protocol = protocols.Protocol{
	Name:        "frostbite",
	Description: "Battlefield Bad Company 2 / 3 / 4 / Hardline RCON serverInfo, version and listPlayers (TCP, no login)",
	// BF3 and BF4 servers' RCON port; BC2 servers default to 48888.
	DefaultPort: 47200,
	Transport:   "tcp",
	New:         func(s protocols.Settings) (protocols.Querier, error) { return querier{players: s.Players}, nil },
}

// Package ffow speaks the query of Frontlines: Fuel of War (Kaos Studios, 2008,
// Unreal Engine 3): Valve's A2S exchange with a dialect of its own that the game
// calls LSQ. The info request is 0x46 "LSQ" (not A2S_INFO), answered by a 0x49
// record of another layout (no app id, no bot count; mod, game mode and
// description strings, game port, dedicated and OS letters, frame rate, round,
// round limit and time left); players and rules need the challenge asked for the
// old way (A2S_SERVERQUERY_GETCHALLENGE, 0x57) and carry it in the bytes the
// server sent; every number is big-endian, and a player record carries ping,
// profile id and team behind the A2S fields.
//
// Facts: qstat 2.17 fl.c (requests, record layouts, the protocol version below 2
// that has no players or rules), gamedig 5.3 protocols/ffow.js (the info record
// and the legacy challenge), GameQ's Ffow.php (the info and rules layouts). The
// split-reply reassembler and the exchange are A2S's, shared in
// protocols/internal/steam.
//
// Why its own package rather than an a2s option: every record differs from A2S's
// (the info layout, big-endian counts and numbers, the longer player record) and
// none of a2s's strategy applies (its A2S_INFO challenge flow, the challenge
// cache, the GoldSrc fallbacks, the per-game rules readings), so an option would
// branch every decoder and the query for one game; the shared exchange is all the
// two have in common, and it is already shared.
package ffow

import "github.com/gameserver-exporter/gameserver_exporter/protocols"

// Protocol is the registry entry. A target's port is the game port (5476 by
// default); the query port is 2 above it (gamedig, GameQ: query = game + 2).
var Protocol = protocols.Protocol{
	Name:        "ffow",
	Description: "Frontlines: Fuel of War LSQ query (A2S dialect), UDP game port + 2",
	DefaultPort: 5476,
	PortOffset:  2,
	Transport:   "udp",
	New:         newQuerier,
}

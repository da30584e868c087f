// Package unreal2 queries Unreal Engine 2 servers with their native UDP query
// (UT2003, UT2004, Killing Floor, Red Orchestra, Unreal 2 XMP, Devastation), on the
// game port + 1.
//
// Requests are five bytes: 79 00 00 00 and a type, 00 server info, 01 rules
// ("server details": key/value pairs, Mutator repeated), 02 players; qstat also
// sends 03 for rules and players at once. A reply starts with a little-endian int32
// the server picks for its version (qstat lists 0x77 Pariah demo, 0x78 UT2003 demo,
// 0x79 UT2003, 0x7E Unreal 2 XMP, 0x7F UT2004 demo, 0x80 UT2004), then the type
// byte of the request, then the fields; integers are int32 LE.
//
//   - info: server id, IP (a string, empty on stock servers), game port, query port,
//     server name, map, game type, current players, max players; UT2003 ends with
//     the ping; later engines add flags (int32) and the bot skill (a string);
//     Killing Floor puts the current and total wave (two int32) before the ping.
//   - rules: key and value strings to the end of each datagram.
//   - players: records of player number, name, ping (ms), score, stats id to the
//     end of each datagram; stock UT2004 sets bit 29 of the stats id for team 0
//     (red) and bit 30 for team 1 (blue) in team games, and lists no bots
//     (GameInfo.GetServerPlayers skips PRI.bBot), while the info's current
//     players count them (DeathMatch.GetNumPlayers, once a human is on): a
//     complete list is the humans, the count less the list the bots. XMP (version 0x7E) records are player number, player id, name, ping,
//     score, stats id, a count byte and that many key/value strings ("team",
//     "class").
//
// Strings: a length byte; below 0x80 that many bytes of the Windows code page
// (Windows-1252, the engine's ANSI strings) that include the NUL terminator (0 is an empty string with no NUL); from 0x80 on, (n & 0x7F)
// UCS-2 (UTF-16LE) characters, and some Killing Floor servers insert a 01 byte
// after the length that it does not count (gamedig issue #121). Colour codes are
// 0x1B and three bytes (red, green, blue).
//
// A rules or players reply may take several datagrams and says nothing of how many:
// qstat stops reading players when it has as many as the info reply's player count
// (and waits for its timeout when it also reads rules); node-gamedig collects every
// datagram until its socket timeout; rust-gamedig reads players until that count or
// a receive timeout, rules until a receive timeout. This querier does the same: the
// players phase ends when the count is reached, both phases end when the server has
// been quiet for a tenth of the time left (20 to 300 ms), and the players phase
// gets at most half the time left when rules follow it. A server whose info counts
// no players is not asked for them.
//
// Records with player number, ping and stats id all 0 are taken for the team score
// lines some mods append (node-gamedig reads number 0 as such a line) and kept out
// of the player list; they show in the debug key/values. Red Orchestra and Killing
// Floor send UCS-2 strings where Latin-1 does not suffice; no other difference of
// theirs is documented in the sources above.
//
// Sources (facts only): qstat's qstat.c (deal_with_ut2003_packet,
// ut2003_basic_packet, ut2003_strdup, ut2003_player_packet) and info/UT2003.txt;
// node-gamedig's protocols/unreal2.js (Killing Floor info layout, UCS-2 strings,
// colour codes); rust-gamedig's protocols/unreal2; the UT2004 UnrealScript
// GameInfo.GetServerInfo / GetServerDetails / GetServerPlayers.
package unreal2

import (
	"github.com/gameserver-exporter/gameserver_exporter/protocols"
)

// Protocol is the registry entry. A target's port is the game port; the exporter
// adds PortOffset to find the query port.
var Protocol = protocols.Protocol{
	Name:        "unreal2",
	Description: "Unreal Engine 2 native query (UT2003, UT2004, Killing Floor, Red Orchestra), UDP game port + 1",
	DefaultPort: 7777,
	PortOffset:  1,
	Transport:   "udp",
	New:         newQuerier,
}

// newQuerier builds the Querier for a module. The protocol has no options.
func newQuerier(s protocols.Settings) (protocols.Querier, error) {
	return protocols.OverUDP(s.Retries, (&querier{s: s}).query), nil
}

// Package cube2 queries Cube 2 engine servers (Sauerbraten, and Red Eclipse as far
// as its reply can be read) on their info port, the game port + 1.
//
// Server info: the client sends one packed int (the "ping", any non-zero value; the
// game client sends its clock) and the server echoes the whole request, then packs
// the client count, an attribute count, the attributes, the map name and the server
// description. Sauerbraten sends 5 or 7 attributes (protocol version, mode, seconds
// left, max clients, master mode[, paused, game speed]); Red Eclipse sends 15 (game
// version, mode, mutators, time, max clients, master mode, ..., major, minor, patch,
// ...) followed by its version branch and the player names.
//
// Extended info ("extinfo", Sauerbraten and its server mods): the request 00 01 FF
// (0 = extended, EXT_PLAYERSTATS, client number -1 = all) is answered by one
// datagram listing the client numbers and then one datagram per client with its
// name, team, frags, deaths, ping and more. 00 00 (EXT_UPTIME) returns the uptime.
//
// Packed ints ("getint"): one signed byte, or 0x80 and an int16 LE, or 0x81 and an
// int32 LE. Strings are sequences of packed ints, one per character, ending in 0,
// in Cube 2's own 8-bit character set; see text.go.
//
// There is no written spec: the layouts come from the Sauerbraten and Red Eclipse
// sources (fpsgame/server.cpp serverinforeply, fpsgame/extinfo.h) and the captures
// of shared/realworld.
package cube2

import (
	"github.com/gameserver-exporter/gameserver_exporter/protocols"
)

// Protocol is the registry entry. The query address is the game port + 1.
var Protocol = protocols.Protocol{
	Name:        "cube2",
	Description: "Cube 2 (Sauerbraten, Red Eclipse) UDP server info and extinfo player stats on the game port + 1",
	DefaultPort: 28785,
	PortOffset:  1,
	Transport:   "udp",
	New:         newQuerier,
}

// newQuerier builds the Querier for a module. The protocol has no options.
func newQuerier(s protocols.Settings) (protocols.Querier, error) {
	return &querier{retries: s.Retries, players: s.Players, rules: s.Rules}, nil
}

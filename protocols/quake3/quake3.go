// Package quake3 speaks the text status query of Quake III Arena and the id Tech 3
// family (ioquake3, OpenArena, Urban Terror, Wolfenstein: ET, RTCW, Jedi Knight,
// Soldier of Fortune II, Call of Duty 1-4, Warsow, DarkPlaces games): one
// `getstatus <challenge>` datagram answered by one `statusResponse` datagram holding
// the server's info string and one line per connected client.
//
// Spec: shared/protocols/quake3.md. getstatus carries everything getinfo does
// plus the player list, except, on ioquake3 and OpenArena, a bot count.
//
// Players counts humans wherever the server tells bots apart: its `bots` or
// `g_botplayers` key. ioquake3 and OpenArena have neither and list bots as
// ordinary player lines with ping 0, which a LAN player can have too; when a
// status has such lines, the querier follows it with one `getinfo`, whose
// `clients` less `g_humanplayers` (ioq3 1.36+) are the bots. Where nothing
// tells, every line counts as a player and bots are unknown.
//
// Strings (info keys and values, player names) are read as Latin-1, the
// engine's 8-bit bytes, unless the module names another code page
// (`encoding:`): Russian and Ukrainian Call of Duty, Quake III and Urban
// Terror servers write Windows-1251.
package quake3

import (
	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// Protocol is the registry entry for Quake 3 style servers.
var Protocol = protocols.Protocol{
	Name:        "quake3",
	Description: "Quake III Arena / id Tech 3 getstatus (ioquake3, OpenArena, Urban Terror, Wolf:ET, CoD, JK, SoF2, Warsow, DarkPlaces)",
	DefaultPort: 27960,
	Transport:   "udp",
	New:         newQuerier,
}

// Options is the module's `quake3:` block.
type Options struct {
	// Encoding is the code page of the server's strings: "auto" (the default:
	// Latin-1) or one wire.Encoding names (windows-1251 for a Cyrillic server).
	Encoding wire.CodePage `yaml:"encoding"`
}

var newQuerier = protocols.WithOptions("quake3", func(s protocols.Settings, o Options) (protocols.Querier, error) {
	text := o.Encoding.Or(wire.Latin1)
	return &querier{
		players: s.Players, rules: s.Rules, retries: s.Retries, text: text,
		status: func(b []byte) (*reply, error) { return decodeStatus(b, text) },
	}, nil
})

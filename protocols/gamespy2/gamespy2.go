// Package gamespy2 queries servers speaking GameSpy v2 (Halo, Battlefield Vietnam,
// SWAT 4, ARMA: Armed Assault, America's Army, Star Wars: Battlefront, Neverwinter
// Nights, F.E.A.R., Hidden & Dangerous 2, ...): a 10-byte `FE FD 00` request whose
// three flag bytes select the info/rules section, the player table and the team
// table, answered by one datagram of NUL-terminated strings that echoes the
// request's 4-byte id. No challenge, no multi-packet replies.
//
// Spec: ../shared/protocols/gamespy2.md. The querier asks for the info section
// first and, when the module wants players, for the player and team tables in a
// second request (as GameQ does), which keeps each reply small. Targets name the
// query port; the default, 2302, is Halo's and ARMA's (there the same as the game port).
package gamespy2

import (
	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// Protocol is the registry entry.
var Protocol = protocols.Protocol{
	Name:        "gamespy2",
	Description: "GameSpy v2 query (Halo, BF Vietnam, SWAT 4, ARMA, America's Army, SW Battlefront, NWN, F.E.A.R., ...)",
	DefaultPort: 2302,
	Transport:   "udp",
	New:         newQuerier,
}

// Options is the module's `gamespy2:` block.
type Options struct {
	// Encoding is the code page of the strings: "auto" (the default: UTF-8 when
	// valid, else Windows-1252) or one wire.Encoding names (windows-1251 for a
	// Cyrillic server).
	Encoding wire.CodePage `yaml:"encoding"`
}

var newQuerier = protocols.WithOptions("gamespy2", func(s protocols.Settings, opts Options) (protocols.Querier, error) {
	text := opts.Encoding.Or(nil)
	q := &querier{players: s.Players, rules: s.Rules, text: text}
	return protocols.OverUDP(s.Retries, q.query), nil
})

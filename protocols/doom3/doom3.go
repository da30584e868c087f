// Package doom3 queries id Tech 4 servers (Doom 3, Quake 4, Prey, Enemy Territory:
// Quake Wars, Wolfenstein (2009)) with the binary `getInfo` request.
//
// One datagram goes out (FF FF "getInfo" 00 + a 32-bit challenge) and one comes back:
// `infoResponse` with the challenge echoed, the protocol version, the server-info
// dictionary, binary player records and a short tail. The game is recognised from the
// reply (header shape, protocol major, then keys), never configured: the player record
// layout and the tail differ per game. For ET:QW servers asked for players, a second
// request (`getInfoEx`) adds each player's XP, team, kills and deaths.
//
// Strings are read as UTF-8 when valid, else as Windows-1252 (what a Windows server's
// users typed), unless the module names another code page (`encoding:`).
//
// Spec: shared/protocols/doom3.md (layouts from the dhewm3 engine source, checked against
// real captures).
package doom3

import (
	"fmt"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// Protocol is the registry entry for id Tech 4 getInfo.
var Protocol = protocols.Protocol{
	Name:        "doom3",
	Description: "id Tech 4 getInfo (Doom 3, Quake 4, Prey, Enemy Territory: Quake Wars, Wolfenstein 2009)",
	DefaultPort: 27666,
	Transport:   "udp",
	New:         newQuerier,
}

// Options is the module's optional `doom3:` block.
type Options struct {
	// ETQWInfoEx sends the follow-up getInfoEx to ET:QW servers when players are
	// wanted, for XP, team, kills and deaths. Default true; turn it off for servers
	// that do not answer getInfoEx (the probe would otherwise wait for it).
	ETQWInfoEx *bool `yaml:"etqw_infoex"`
	// Encoding is the code page of the server's strings: "auto" (the default:
	// UTF-8 when valid, else Windows-1252) or one wire.Encoding names
	// (windows-1251 for a Cyrillic server).
	Encoding wire.CodePage `yaml:"encoding"`
}

// newQuerier builds a Querier from the module settings.
var newQuerier = protocols.WithOptions("doom3", func(s protocols.Settings, opts Options) (protocols.Querier, error) {
	if s.Retries < 0 {
		return nil, fmt.Errorf("doom3: retries must not be negative, got %d", s.Retries)
	}
	text := opts.Encoding.Or(wire.UTF8)
	infoEx := opts.ETQWInfoEx == nil || *opts.ETQWInfoEx
	return &querier{players: s.Players, rules: s.Rules, retries: s.Retries, infoEx: infoEx, text: text}, nil
})

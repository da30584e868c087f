// Package gamespy4 queries servers speaking the GameSpy 4 dialect of the QR2 query,
// best known as the Minecraft Java "Query" protocol (enable-query=true in
// server.properties; also PocketMine-MP, Nukkit and GeyserMC on the Bedrock port
// 19132): on one UDP socket a handshake (`FE FD 09` + session id, answered by an
// ASCII decimal challenge), then a stat request carrying the challenge as a
// big-endian int32, answered by one datagram.
//
// Spec: ../shared/protocols/gamespy3.md §2-§4 and §6 (and minecraft.md, which points
// there). The querier always asks for the full stat (15-byte request): it is one
// datagram like the basic stat but also carries the version, game_id, plugins and
// the player names. Options.Stat "basic" asks for the basic stat instead, for
// servers that implement only that. Targets name the query port; the default is
// 25565, vanilla's query.port default (the game port).
package gamespy4

import (
	"fmt"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
)

// Options is the module's gamespy4 block.
type Options struct {
	// Stat is "full" (the default) or "basic" (spec §6.2: no version, plugins or
	// player names).
	Stat string `yaml:"stat"`
}

// Protocol is the registry entry.
var Protocol = protocols.Protocol{
	Name:        "gamespy4",
	Description: "GameSpy 4 query: Minecraft Java Query (enable-query), PocketMine-MP, Nukkit, GeyserMC",
	DefaultPort: 25565,
	Transport:   "udp",
	New:         newQuerier,
}

var newQuerier = protocols.WithOptions("gamespy4", func(s protocols.Settings, opts Options) (protocols.Querier, error) {
	switch opts.Stat {
	case "", "full", "basic":
	default:
		return nil, fmt.Errorf("gamespy4: stat %q: want \"full\" or \"basic\"", opts.Stat)
	}
	return &querier{players: s.Players, rules: s.Rules, retries: max(s.Retries, 0), basic: opts.Stat == "basic"}, nil
})

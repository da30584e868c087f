// Package skycoop queries Sky Co-op servers (the multiplayer mod of The Long Dark)
// with the mod's UDP status ping: the int32 -2 sent to the game port, answered by
// packet 147 (PINGSERVER) carrying the server name, mod version, player counts and a
// single-quoted "JSON" config string with the player names, difficulty and PvP.
//
// Spec: ../shared/protocols/skycoop.md. The 0.11.0-0.11.5 reply layout (version,
// counts, binary config) is recognised too.
package skycoop

import (
	"github.com/gameserver-exporter/gameserver_exporter/protocols"
)

// Protocol is the registry entry.
var Protocol = protocols.Protocol{
	Name:        "skycoop",
	Description: "Sky Co-op (The Long Dark multiplayer mod) UDP status ping",
	DefaultPort: 26950,
	Transport:   "udp",
	New:         newQuerier,
}

// Options is the module's `skycoop:` block.
type Options struct {
	// PacketID is the reply's packet id, ServerPackets.PINGSERVER: an enum ordinal
	// of the mod (147 from 0.11.0 through 0.13.x) that a release inserting packet
	// types would shift. 0 means 147.
	PacketID int `yaml:"packet_id"`
}

// newQuerier builds the Querier for a module.
var newQuerier = protocols.WithOptions("skycoop", func(s protocols.Settings, opts Options) (protocols.Querier, error) {
	// Negative ids are client ids on the request side (-1 RCON, -2 ping); the enum
	// has a few hundred entries.
	id, err := protocols.Uint16Option("skycoop", "packet_id", opts.PacketID, defaultPacketID)
	if err != nil {
		return nil, err
	}
	return statusPing(s, int32(id)), nil
})

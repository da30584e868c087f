// Package savage queries Savage: The Battle for Newerth (S2 Games, 2003) and Savage XR
// servers. The query rides on the game's own UDP packet layer: a 10-byte unreliable
// packet asking for the extended server info, answered by one datagram holding two
// NUL-terminated "state strings" of 0xFF key 0xFE value pairs (engine info, game
// info, the latter with the player list). Not the Savage 2 protocol.
// Spec: shared/protocols/savage.md.
package savage

import (
	"github.com/gameserver-exporter/gameserver_exporter/protocols"
)

// Protocol is the registry entry. The query goes to the game port itself.
var Protocol = protocols.Protocol{
	Name:        "savage",
	Description: "Savage: The Battle for Newerth / Savage XR server info (UDP game port)",
	DefaultPort: 11235,
	Transport:   "udp",
	New:         newQuerier,
}

// newQuerier returns a Querier for the module's settings. Savage has no options.
func newQuerier(s protocols.Settings) (protocols.Querier, error) {
	return protocols.OverUDP(s.Retries, (&querier{s: s}).query), nil
}

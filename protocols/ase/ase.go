// Package ase queries servers speaking The All-Seeing Eye protocol (Multi Theft Auto,
// Far Cry, Painkiller, Chrome, ...): one "s" datagram to game port + 123, answered by
// an "EYE1" datagram of length-prefixed strings holding the server info, the rules
// and the player list. MTA ignores an IP that sends more than 5 queries in 6 s and
// caches its reply for up to 10 s: scrape it no more often than every ~10 s.
// Spec: shared/protocols/ase.md.
package ase

import (
	"github.com/gameserver-exporter/gameserver_exporter/protocols"
)

// Protocol is the registry entry. A target's port is the game port (MTA's 22003 by
// default); the exporter adds PortOffset to find the query port, so the Querier is
// handed the final query address.
var Protocol = protocols.Protocol{
	Name:        "ase",
	Description: "All-Seeing Eye (Multi Theft Auto, Far Cry, Painkiller, ...), UDP game port + 123",
	DefaultPort: 22003,
	PortOffset:  123,
	Transport:   "udp",
	New:         newQuerier,
}

// newQuerier returns a Querier for the module's settings. ASE has no options.
func newQuerier(s protocols.Settings) (protocols.Querier, error) {
	return protocols.OverUDP(s.Retries, (&querier{s: s}).query), nil
}

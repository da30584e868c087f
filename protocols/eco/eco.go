// Package eco queries Eco (Strange Loop Games) servers through the web server
// every Eco server runs (game port + 1, 3001 by default): GET /info answers the
// server's info object as JSON (description, online players and their names,
// password, version, world figures); servers whose /info is missing answer the
// same object under "Info" at /frontpage, which gamedig reads. Field names from
// gamedig's eco protocol and rust-gamedig's eco types (behaviour, not code).
package eco

import (
	"github.com/gameserver-exporter/gameserver_exporter/protocols"
)

// Protocol is the registry entry. Targets name the game port; the web port is
// the next one.
var Protocol = protocols.Protocol{
	Name:        "eco",
	Description: "Eco server web API /info (HTTP, game port + 1)",
	DefaultPort: 3000,
	PortOffset:  1,
	Transport:   "tcp",
	New:         newQuerier,
}

// newQuerier returns a Querier for the module's settings. Eco has no options.
func newQuerier(s protocols.Settings) (protocols.Querier, error) {
	return &querier{s: s}, nil
}

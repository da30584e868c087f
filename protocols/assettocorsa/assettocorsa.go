// Package assettocorsa queries Assetto Corsa dedicated servers through their
// HTTP port (server_cfg.ini HTTP_PORT, 8081 by default): GET /INFO answers the
// server's name, track, clients, maximum, password flag and version ("poweredBy"),
// and GET /JSON|<number> the entry list, one car per slot with its driver and
// whether it is connected. Paths and field names from gamedig's assettocorsa
// protocol (behaviour, not code).
package assettocorsa

import (
	"github.com/gameserver-exporter/gameserver_exporter/protocols"
)

// Protocol is the registry entry. The target names the HTTP port.
var Protocol = protocols.Protocol{
	Name:        "assettocorsa",
	Description: "Assetto Corsa server HTTP /INFO and the entry list /JSON| (HTTP_PORT, 8081)",
	DefaultPort: 8081,
	Transport:   "tcp",
	New:         newQuerier,
}

// newQuerier returns a Querier for the module's settings. There are no options.
func newQuerier(s protocols.Settings) (protocols.Querier, error) {
	return &querier{s: s}, nil
}

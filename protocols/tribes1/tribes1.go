// Package tribes1 queries Starsiege: Tribes (Dynamix, 1998) servers, and
// Starsiege (1999) servers with `variant: starsiege`. One UDP request, the
// request byte ('b' for Tribes, 'r' for Starsiege) and two echo bytes, is
// answered by one datagram: the reply byte (request + 1), the echo, the request
// byte, then length-prefixed strings and bytes: game, version, name, flags, counts,
// mod, mission type, map, MOTD, the team and player column titles, one row per
// team and one per player (ping/4, packet loss, team, name, tab-separated values).
// The Starsiege 2009 server answers its own layout (32-bit counts, limits, then
// name and team per player), recognised by its game string "Starsiege".
// Sources: qstat's -tbs (Tribes) and gamedig's tribes1 and starsiege protocols
// (behaviour, not code).
package tribes1

import (
	"fmt"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
)

// Options is the module's tribes1 block.
type Options struct {
	// Variant is "" (Tribes) or "starsiege" (request byte 'r').
	Variant string `yaml:"variant"`
}

// Protocol is the registry entry. The query goes to the game port.
var Protocol = protocols.Protocol{
	Name:        "tribes1",
	Description: "Starsiege: Tribes and Starsiege server info (UDP game port)",
	DefaultPort: 28001,
	Transport:   "udp",
	New:         newQuerier,
}

// Request bytes ('b', 'r'); the reply byte is one more.
const (
	reqTribes    = 0x62
	reqStarsiege = 0x72
)

var newQuerier = protocols.WithOptions("tribes1", func(s protocols.Settings, opts Options) (protocols.Querier, error) {
	switch opts.Variant {
	case "":
		return exchange(s, reqTribes), nil
	case "starsiege":
		return exchange(s, reqStarsiege), nil
	}
	return nil, fmt.Errorf("tribes1 options: variant %q: want \"\" or \"starsiege\"", opts.Variant)
})

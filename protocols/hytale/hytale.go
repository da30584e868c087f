// Package hytale asks a Hytale server for its status through one of the query
// plugins servers run (Hytale itself has no built-in query), trying them in turn
// within the probe's deadline and saying which answered (Info "flavour"):
//
//   - "query": the TCP line protocol of the serverlistping plugin
//     (petomka/serverlistping): the client sends `QUERY\n`, the server answers one
//     line, `OK <current> <max>` or `ERROR <message>`, and closes (spec:
//     shared/protocols/hytale.md);
//   - "hyquery": the HyQuery plugin's UDP query on the game port (hytalefinder
//     HyQuery, v1 framing): `HYQUERY\0` and a type byte, 0 (basic) or 1 (full,
//     asked when the module wants players), answered by `HYREPLY\0`, the type,
//     then little-endian fields: server name and MOTD (uint16 length and UTF-8),
//     players, max players and port (int32), version, and in a full reply the
//     player list (int32 count, each name and a 16-byte UUID);
//   - "nitrado": Nitrado's hytale-plugin-query, HTTP GET /Nitrado/Query answering
//     JSON whose sections are those the reader's permissions grant (its
//     README): Basic (Name, Version, MaxPlayers, CurrentPlayers, Address; since
//     1.1.0, and all its public setup grants), Server (Name, Version,
//     MaxPlayers), Universe (CurrentPlayers, DefaultWorld) and Players (Name of
//     each; an array since 1.0.1, an object keyed by UUID in 1.0.0). Without a
//     count the list is counted.
//
// Each flavour goes to the target's port unless the module names its own; a
// flavour that fails hands the time it did not use to the next.
package hytale

import (
	"fmt"
	"slices"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
)

// Protocol is the registry entry.
var Protocol = protocols.Protocol{
	Name:        "hytale",
	Description: "Hytale query plugins: serverlistping (TCP QUERY), HyQuery (UDP), Nitrado (HTTP), tried in turn",
	// The serverlistping plugin's code defaults to 8193 (its README's 25566 does
	// not match the code); HyQuery shares the game port 5520, Nitrado's listens
	// on 5523: modules name them with hyquery_port and nitrado_port.
	DefaultPort: 8193,
	Transport:   "tcp",
	New:         newQuerier,
}

// The flavours, in the order they are tried.
const (
	flavourQuery   = "query"
	flavourHyQuery = "hyquery"
	flavourNitrado = "nitrado"
)

var allFlavours = []string{flavourQuery, flavourHyQuery, flavourNitrado}

// Options is the module's `hytale:` block.
type Options struct {
	// Flavours lists the plugins to try, in order (default: query, hyquery,
	// nitrado).
	Flavours []string `yaml:"flavours"`
	// QueryPort, HyQueryPort and NitradoPort send a flavour to another port of
	// the target's address (default: the target's port).
	QueryPort   uint16 `yaml:"query_port"`
	HyQueryPort uint16 `yaml:"hyquery_port"`
	NitradoPort uint16 `yaml:"nitrado_port"`
}

var newQuerier = protocols.WithOptions("hytale", func(s protocols.Settings, o Options) (protocols.Querier, error) {
	if len(o.Flavours) == 0 {
		o.Flavours = allFlavours
	}
	seen := map[string]bool{}
	for _, f := range o.Flavours {
		if !slices.Contains(allFlavours, f) {
			return nil, fmt.Errorf("hytale flavours: unknown %q (query, hyquery, nitrado)", f)
		}
		if seen[f] {
			return nil, fmt.Errorf("hytale flavours: %q twice", f)
		}
		seen[f] = true
	}
	ports := map[string]uint16{flavourQuery: o.QueryPort, flavourHyQuery: o.HyQueryPort, flavourNitrado: o.NitradoPort}
	return &querier{flavours: o.Flavours, ports: ports, players: s.Players, retries: max(s.Retries, 0)}, nil
})

// Package hytale speaks the TCP line protocol of the "serverlistping" Hytale
// server plugin (petomka/serverlistping): the client sends `QUERY\n`, the server
// answers one line, `OK <current> <max>` or `ERROR <message>`, and closes.
// Hytale itself has no built-in query; other plugins answer over HTTP or A2S.
//
// Spec: shared/protocols/hytale.md.
package hytale

import (
	"github.com/gameserver-exporter/gameserver_exporter/protocols"
)

// Protocol is the registry entry for the serverlistping plugin.
var Protocol = protocols.Protocol{
	Name:        "hytale",
	Description: "Hytale serverlistping plugin (TCP, QUERY -> OK current max)",
	// The plugin's code defaults to 8193; its README's 25566 does not match the code.
	DefaultPort: 8193,
	Transport:   "tcp",
	New: func(protocols.Settings) (protocols.Querier, error) {
		return querier{}, nil
	},
}

// Package kspdmp queries Kerbal Space Program servers running DarkMultiPlayer
// through the status page DMP serves when its httpPort is set: GET / answers
// one JSON object with server_name, version, protocol_version, player_count,
// max_players, players (the names, comma-separated), game_mode, mod control,
// cheats, the universe size and the last player activity. Field names from
// qstat's ksp.c (its example reply) and gamedig's kspdmp protocol.
package kspdmp

import (
	"github.com/gameserver-exporter/gameserver_exporter/protocols"
)

// Protocol is the registry entry. Targets name the game port; the status page
// is on the next one (gamedig's layout; DMP's httpPort is configurable).
var Protocol = protocols.Protocol{
	Name:        "kspdmp",
	Description: "Kerbal Space Program DarkMultiPlayer status page (HTTP, game port + 1)",
	DefaultPort: 6702,
	PortOffset:  1,
	Transport:   "tcp",
	New:         newQuerier,
}

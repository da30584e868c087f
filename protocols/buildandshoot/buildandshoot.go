// Package buildandshoot queries Ace of Spades / Build and Shoot servers
// (piqueserver, and pyspades before it) through their status server: an HTTP
// server one port below the game's (32886 for 32887) whose GET /json answers the
// server name and version, game mode, map, scores, the maximum and the players
// with their team, kills and latency. The players are a list on piqueserver and
// {"blue": [...], "green": [...], "maxPlayers": n} on older servers (gamedig's
// buildandshoot protocol reads both). Field names from piqueserver's
// statusserver.py (GPL, read for facts).
package buildandshoot

import (
	"github.com/gameserver-exporter/gameserver_exporter/protocols"
)

// Protocol is the registry entry. Targets name the game port; the status server
// listens one below it.
var Protocol = protocols.Protocol{
	Name:        "buildandshoot",
	Description: "Ace of Spades / Build and Shoot status server /json (HTTP, game port - 1)",
	DefaultPort: 32887,
	PortOffset:  -1,
	Transport:   "tcp",
	New:         newQuerier,
}

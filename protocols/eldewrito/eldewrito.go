// Package eldewrito queries ElDewrito (Halo Online) servers through their info
// server: an HTTP server on port 11775 (Server.Port) that answers any request with
// one JSON object: name, port, map, variant, status, numPlayers, maxPlayers, game
// and ElDewrito versions, and, for a request that carries the server's password
// (basic auth, user "dorito") or to anyone when it has none, the replicated
// variables and the players with their scores and teams; a passworded server
// answers others "passworded": true instead. Field names and the password rule
// from ElDewrito's server plugin (ServerModule, read for facts) and gamedig's
// eldewrito protocol.
package eldewrito

import (
	"github.com/gameserver-exporter/gameserver_exporter/protocols"
)

// Options is the module's eldewrito block.
type Options struct {
	// Password is the server's Server.Password, which unlocks the player list of a
	// passworded server; PasswordFile names a file holding it instead.
	Password     protocols.Secret `yaml:"password"`
	PasswordFile string           `yaml:"password_file"`
}

// Protocol is the registry entry. The target names the info server's port.
var Protocol = protocols.Protocol{
	Name:        "eldewrito",
	Description: "ElDewrito (Halo Online) info server JSON (HTTP 11775)",
	DefaultPort: 11775,
	Transport:   "tcp",
	New:         newQuerier,
}

// Package terraria queries Terraria servers running TShock through TShock's REST API:
// one HTTP GET of /v2/server/status on the REST port (RestApiPort, default 7878),
// which TShock answers without a token unless EnableTokenEndpointAuthentication is
// set; then the module's token goes with it as the query parameter token (a token of
// TShock's ApplicationRestTokens, which does not expire). The reply carries the server name, world, Terraria and TShock versions,
// player count and slots, whether a join password is set, and, on request, the
// player list and a few of TShock's rules.
//
// TShock answers every request with HTTP 200 and puts its own status in the body
// ({"status":"401","error":"..."}), so the body's status is checked, not only the
// HTTP one.
//
// Facts from TShock's source (Pryaxis/TShock, TShockAPI/Rest/RestManager.cs
// ServerStatusV2, PlayerFilter; Rest.cs; SecureRest.cs: a missing token is status
// 401, an unknown one 403).
package terraria

import (
	"github.com/gameserver-exporter/gameserver_exporter/protocols"
)

// Options is the module's terraria block.
type Options struct {
	// Token is a REST token for servers that require one; TokenFile names a file
	// holding it instead. It is a secret: whoever has it may use what the token's
	// group is allowed.
	Token     protocols.Secret `yaml:"token"`
	TokenFile string           `yaml:"token_file"`
}

// Protocol is the registry entry. The target names the REST port, not the game
// port (7777): the REST API listens on its own port.
var Protocol = protocols.Protocol{
	Name:        "terraria",
	Description: "Terraria with TShock: REST API GET /v2/server/status (name, world, versions, players, slots, password)",
	DefaultPort: 7878,
	Transport:   "tcp",
	New:         newQuerier,
}

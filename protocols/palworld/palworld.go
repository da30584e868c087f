// Package palworld queries Palworld dedicated servers through their REST API
// (RESTAPIEnabled=True, RESTAPIPort, default TCP 8212): GET /v1/api/info (version,
// server name, description, world GUID), /v1/api/metrics (FPS, frame time, players
// and their maximum, uptime, in-game days, base camps) and, when the module asks for
// players, /v1/api/players. Every request carries HTTP basic auth, user "admin" and
// the server's AdminPassword, so a module needs a palworld block with the password
// (or password_file).
//
// The player list also holds each player's IP address: it is never put in the
// Result, in Info, or in the trace (the players reply is redacted before the trace
// keeps it).
//
// Endpoints and field names from Pocketpair's REST API reference
// (docs.palworldgame.com, "REST API"), cross-checked with public clients of it
// (gamedig's palworld.js, the pal_api package's models).
package palworld

import (
	"errors"
	"fmt"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
)

// Protocol is the registry entry. The target names the REST port, not the game
// port (8211/UDP).
var Protocol = protocols.Protocol{
	Name:        "palworld",
	Description: "Palworld dedicated server REST API (basic auth; name, version, players, max, FPS, player list)",
	DefaultPort: 8212,
	Transport:   "tcp",
	New:         newQuerier,
}

// Options is the module's `palworld:` block.
type Options struct {
	// Username of the basic auth; the server only knows "admin" (the default).
	Username string `yaml:"username"`
	// Password is the server's AdminPassword; PasswordFile names a file holding it
	// instead (read when the config is loaded, so a reload re-reads it).
	Password     protocols.Secret `yaml:"password"`
	PasswordFile string           `yaml:"password_file"`
}

// newQuerier builds the Querier for a module. A module with a palworld block must give
// the password (a config error otherwise). A module without one, such as the
// built-in palworld module, sends no credentials: the server refuses it and the
// probe fails saying so.
func newQuerier(s protocols.Settings) (protocols.Querier, error) {
	var block map[string]any // non-nil when the module has a palworld block
	var opts Options
	if err := s.DecodeOptions("palworld", &block); err != nil {
		return nil, err
	}
	if err := s.DecodeOptions("palworld", &opts); err != nil {
		return nil, err
	}
	if block == nil {
		return &querier{players: s.Players}, nil
	}
	pw, err := protocols.LoadSecret(opts.Password, opts.PasswordFile)
	if err != nil {
		return nil, fmt.Errorf("palworld password: %w", err)
	}
	if pw == "" {
		return nil, errors.New("palworld: password (or password_file) is required: the REST API asks for the server's AdminPassword")
	}
	if opts.Username == "" {
		opts.Username = "admin"
	}
	return &querier{auth: protocols.BasicAuth(opts.Username, pw), players: s.Players}, nil
}

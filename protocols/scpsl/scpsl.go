// Package scpsl reads an SCP: Secret Laboratory server's status from
// Northwood's server-info API: HTTPS GET
// https://api.scpslgame.com/serverinfo.php?id={account}&key={api key}&...,
// which answers a verified server owner (the account id and the API key the
// server console's `!api` command shows) with the account's servers: for each
// its ID, Port, Online state, Players ("n/m"), Info (the server name,
// base64), Version and, asked for, the player list. gamedig's scpsl protocol
// (game id ssl) reads the same endpoint with the same parameters.
//
// The request goes to Northwood, never to the target: the module names the
// account, and the server is the one whose Port is the target's port, or the
// module's server_id. The API key is a credential read from api_key_file; it
// goes to api.scpslgame.com only, so the module needs no targets: list.
package scpsl

import (
	"fmt"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
)

// Protocol is the registry entry.
var Protocol = protocols.Protocol{
	Name:        "scpsl",
	Description: "SCP: Secret Laboratory via Northwood's serverinfo API (the owner's account_id and api_key_file; the server is the target's port or server_id): name, players, max, version",
	DefaultPort: 7777,
	Transport:   "tcp",
	OffTarget:   true, // api.scpslgame.com is asked, not the target
	New:         newQuerier,
}

// Options is the module's `scpsl:` block.
type Options struct {
	// AccountID is the server owner's Northwood account id (digits).
	AccountID string `yaml:"account_id"`
	// APIKey or APIKeyFile is the account's serverinfo API key.
	APIKey     protocols.Secret `yaml:"api_key"`
	APIKeyFile string           `yaml:"api_key_file"`
	// ServerID picks the account's server by its id; 0 picks the one whose
	// port is the target's.
	ServerID int64 `yaml:"server_id"`
	// CAFile adds PEM certificates to the system roots (an image without a CA
	// bundle, a TLS-inspecting proxy).
	CAFile string `yaml:"ca_file"`
}

// defaultBase is Northwood's API host. It is no option: the key has one
// home, and tests set querier.api themselves.
const defaultBase = "https://api.scpslgame.com"

// maxAccountIDLen: account ids are small integers; 20 digits hold any uint64.
const maxAccountIDLen = 20

var newQuerier = protocols.WithOptions("scpsl", func(s protocols.Settings, o Options) (protocols.Querier, error) {
	if o.AccountID != "" && !protocols.Digits(o.AccountID, maxAccountIDLen) {
		return nil, fmt.Errorf("scpsl options: account_id %q: want the account's numeric id", o.AccountID)
	}
	if o.ServerID < 0 {
		return nil, fmt.Errorf("scpsl options: server_id %d: want the server's id (or none: the target's port picks it)", o.ServerID)
	}
	key, err := protocols.LoadSecret(o.APIKey, o.APIKeyFile)
	if err != nil {
		return nil, fmt.Errorf("scpsl options: api_key: %w", err)
	}
	pool, err := protocols.RootCAs(o.CAFile)
	if err != nil {
		return nil, fmt.Errorf("scpsl options: ca_file: %w", err)
	}
	return &querier{account: o.AccountID, key: key, serverID: o.ServerID, players: s.Players, api: protocols.API{Base: defaultBase, RootCAs: pool}}, nil
})

// Package hawakening reads a Hawakening server's status from the game's
// backend (a Meteor service, the fan revival of HAWKEN's): the querier signs
// in with a player account (POST {base}/users/{username}/accessGrant with the
// password; the answer's Result is an access grant), reads the server listing
// (GET {base}/gameServerListings, the grant as "Authorization: Basic") and
// picks the module's server by its Guid. Every answer is an envelope
// {"Status", "Message", "Result"}. gamedig's hawakening protocol (its
// hawakeningmaster.js MeteorBackendApi) is the source of the endpoints,
// messages and listing fields.
//
// The listing carries no address (its Endpoint and Port are null): gamedig
// learns a server's address by posting a matchmaking advertisement for the
// signed-in player, which this querier does not do (a probe must not queue a
// player for a match). So the server is the module's server_guid, and the
// target only has to pass the exporter's target checks. The grant is kept per
// module and reused until the backend refuses it; the password (a credential,
// from password_file) goes to the fixed backend only, so the module needs no
// targets: list.
package hawakening

import (
	"fmt"
	"strings"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
)

// Protocol is the registry entry.
var Protocol = protocols.Protocol{
	Name:        "hawakening",
	Description: "Hawakening server listing from the game's Meteor backend (a player account's username and password_file; the server is server_guid): name, map, players, max, version, region",
	DefaultPort: 7777,
	Transport:   "tcp",
	OffTarget:   true, // hawakening.com's backend is asked, not the target
	New:         newQuerier,
}

// Options is the module's `hawakening:` block.
type Options struct {
	// Username is the player account's user name (its e-mail address).
	Username string `yaml:"username"`
	// Password or PasswordFile is the account's password.
	Password     protocols.Secret `yaml:"password"`
	PasswordFile string           `yaml:"password_file"`
	// ServerGUID is the server's Guid in the listing (gamedig's serverId).
	ServerGUID string `yaml:"server_guid"`
	// CAFile adds PEM certificates to the system roots (an image without a CA
	// bundle, a TLS-inspecting proxy).
	CAFile string `yaml:"ca_file"`
}

// defaultBase is the backend of Hawakening's 2024 public release (gamedig's
// meteorUri). It is no option: the password has one home, and tests set
// querier.api themselves.
const defaultBase = "https://hawakening.com/api"

// Caps on option lengths: an e-mail address, a GUID.
const (
	maxUsernameLen = 254
	maxGUIDLen     = 64
)

var newQuerier = protocols.WithOptions("hawakening", func(s protocols.Settings, o Options) (protocols.Querier, error) {
	if len(o.Username) > maxUsernameLen || strings.ContainsAny(o.Username, "/?#\x00\r\n") {
		return nil, fmt.Errorf("hawakening options: username: want the account's user name (e-mail address), up to %d characters", maxUsernameLen)
	}
	if !validGUID(o.ServerGUID) {
		return nil, fmt.Errorf("hawakening options: server_guid %q: want the listing's Guid (hex digits and dashes)", o.ServerGUID)
	}
	password, err := protocols.LoadSecret(o.Password, o.PasswordFile)
	if err != nil {
		return nil, fmt.Errorf("hawakening options: password: %w", err)
	}
	pool, err := protocols.RootCAs(o.CAFile)
	if err != nil {
		return nil, fmt.Errorf("hawakening options: ca_file: %w", err)
	}
	return &querier{
		username: o.Username,
		password: password,
		guid:     strings.ToLower(o.ServerGUID),
		api:      protocols.API{Base: defaultBase, RootCAs: pool},
		// A reload that keeps the credentials keeps the grant (and a refusal's backoff).
		grant: protocols.SharedSignIn("Hawakening", o.Username, password.Reveal(), defaultBase, o.CAFile),
	}, nil
})

// validGUID accepts "" (no server named yet) or hex digits and dashes.
func validGUID(s string) bool {
	if len(s) > maxGUIDLen {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' || c == '-') {
			return false
		}
	}
	return true
}

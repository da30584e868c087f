// Package eos reads a game server's status from Epic Online Services (EOS)
// matchmaking, where games such as ARK: Survival Ascended, The Isle Evrima,
// Squad and Renown advertise their dedicated servers as sessions. The game
// server itself is never contacted: the querier signs in to the EOS web API
// with the game's client credentials (OAuth client_credentials grant, or for
// games whose clients may not search sessions, a device-id account's token
// exchanged for a user token: auth deviceid), searches the game's deployment
// for sessions whose address attribute is the target's IP, and picks the one
// bound to the target's port. A server that is down (or not listed) has no
// session: that is a failed probe.
//
// Facts: Epic's web API (POST /auth/v1/oauth/token, POST
// /auth/v1/accounts/deviceid, POST /matchmaking/v1/{deployment}/filter), and
// gamedig's epic protocol and game list for the per-game public client ids,
// deployments, the /wildcard path ARK: Survival Ascended uses, which games sign
// in by device id (Squad, Renown) and the session attributes each game sets.
// Credentials and attribute names are options; the presets carry the known
// games' values, and module `eos` alone is ARK: Survival Ascended.
package eos

import (
	"fmt"
	"net"
	"net/url"
	"strings"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
)

// Protocol is the registry entry.
var Protocol = protocols.Protocol{
	Name:        "eos",
	Description: "Epic Online Services matchmaking sessions (ARK: Survival Ascended, The Isle Evrima, Squad, Renown): status from the EOS web API, not the server",
	DefaultPort: 7777,
	Transport:   "tcp",
	OffTarget:   true, // the EOS web API is asked, not the game server
	New:         newQuerier,
}

// Options is the module's `eos:` block. Unset fields take the preset's values.
type Options struct {
	// Preset names a known game: "arksa" (the default when neither client_id
	// nor deployment_id is set), "theisle", "squad" or "renown". With
	// client_id or deployment_id set and no preset, all three credentials must
	// be given.
	Preset string `yaml:"preset"`
	// Auth is how the querier signs in: "client_credentials" (the client's own
	// token) or "deviceid" (a device-id account's token exchanged for a user
	// token, for deployments whose clients may not search sessions). Default
	// the preset's.
	Auth string `yaml:"auth"`
	// APIBase is the EOS web API (default https://api.epicgames.dev). Plain
	// http is refused except on loopback, where tests run their fakes.
	APIBase string `yaml:"api_base"`
	// PathPrefix goes between APIBase and /matchmaking ("/wildcard" for ARK:
	// Survival Ascended's deployment).
	PathPrefix       string           `yaml:"path_prefix"`
	ClientID         string           `yaml:"client_id"`
	ClientSecret     protocols.Secret `yaml:"client_secret"`
	ClientSecretFile string           `yaml:"client_secret_file"`
	DeploymentID     string           `yaml:"deployment_id"`
	// AddressAttribute is the session attribute searched for the target's IP
	// (default ADDRESS_s).
	AddressAttribute string `yaml:"address_attribute"`
	// The attributes that hold the server name, map, password flag and
	// version (the version joins the listed attributes with dots).
	NameAttribute     string   `yaml:"name_attribute"`
	MapAttribute      string   `yaml:"map_attribute"`
	PasswordAttribute string   `yaml:"password_attribute"`
	VersionAttributes []string `yaml:"version_attributes"`
	// PlayersAttribute holds the player count when the game sets one; a
	// session without it (or with no count in it) falls back to the
	// session's totalPlayers. Default the preset's (Squad: PLAYERCOUNT_l).
	PlayersAttribute string `yaml:"players_attribute"`
	// CAFile adds PEM certificates to the system roots (an image without a CA
	// bundle, a TLS-inspecting proxy).
	CAFile string `yaml:"ca_file"`
}

// preset is what a known game sets. The client credentials are the public ones
// shipped in each game's client (as listed by gamedig).
type preset struct {
	clientID, clientSecret, deploymentID, pathPrefix string
	auth                                             string
	name, mapName, password                          string
	// players is the attribute holding the game's own player count, when it
	// sets one the session's totalPlayers does not match.
	players string
	version []string
}

var presets = map[string]preset{
	"arksa": {
		clientID:     "xyza7891muomRmynIIHaJB9COBKkwj6n",
		clientSecret: "PP5UGxysEieNfSrEicaD1N2Bb3TdXuD7xHYcsdUHZ7s",
		deploymentID: "ad9a8feffb3b4b2ca315546f038c3ae2",
		pathPrefix:   "/wildcard",
		name:         "CUSTOMSERVERNAME_s", mapName: "MAPNAME_s", password: "SERVERPASSWORD_b",
		version: []string{"BUILDID_s", "MINORBUILDID_s"},
	},
	"theisle": {
		clientID:     "xyza7891gk5PRo3J7G9puCJGFJjmEguW",
		clientSecret: "pKWl6t5i9NJK8gTpVlAxzENZ65P8hYzodV8Dqe5Rlc8",
		deploymentID: "6db6bea492f94b1bbdfcdfe3e4f898dc",
		name:         "SERVERNAME_s", mapName: "MAP_NAME_s", password: "PASSWORD_ENABLED_b",
		version: []string{"SERVER_VERSION_s"},
	},
	// Squad (since v7) and Renown: their clients sign in by device id.
	"squad": {
		clientID:     "xyza7891J7d3GU8ZIwCoC5xdBsdoqVWA",
		clientSecret: "4SLVBqAm09q776SIlQRTD6moM/bnGAWhDSqOxJAIS0s",
		deploymentID: "5dee4062a90b42cd98fcad618b6636c2",
		auth:         authDeviceID,
		name:         "SERVERNAME_s", mapName: "MAPNAME_s", password: "PASSWORD_b",
		version: []string{"GAMEVERSION_s"},
		// totalPlayers counts the session's registrations, and Squad leaves
		// some behind ("ghost players": 41 registered where the game's own
		// PLAYERCOUNT_l says 37, as the server's browser shows; gamedig reads
		// totalPlayers and has the same fault).
		players: "PLAYERCOUNT_l",
	},
	"renown": {
		clientID:     "xyza7891XjE03sj3B404z0iQfQ4efjUj",
		clientSecret: "2YY7STKJ5wJuFIyR8TaXaBPfhHZiAY13YuNPSIn+0WY",
		deploymentID: "472a8286c61c408ca5ca1ec0401f07b7",
		auth:         authDeviceID,
		name:         "SERVERNAME_s", mapName: "MAPNAME_s", password: "PASSWORD_b",
		version: []string{"SERVERVERSION_s"},
	},
	// A game of your own: credentials required, ARK's attribute names by default.
	"": {
		name: "CUSTOMSERVERNAME_s", mapName: "MAPNAME_s", password: "SERVERPASSWORD_b",
		version: []string{"BUILDID_s", "MINORBUILDID_s"},
	},
}

const defaultAPIBase = "https://api.epicgames.dev"

// The sign-in flows (Options.Auth).
const (
	authClient   = "client_credentials"
	authDeviceID = "deviceid"
)

// newQuerier builds the Querier for a module. It reads client_secret_file and ca_file
// here, so a configuration reload re-reads them.
func newQuerier(s protocols.Settings) (protocols.Querier, error) {
	var o Options
	if s.Options != nil {
		if err := s.Options(&o); err != nil {
			return nil, fmt.Errorf("eos options: %w", err)
		}
	}
	name := o.Preset
	if name == "" && o.ClientID == "" && o.DeploymentID == "" {
		name = "arksa"
	}
	p, ok := presets[name]
	if !ok {
		return nil, fmt.Errorf("eos options: unknown preset %q (arksa, theisle, squad, renown)", o.Preset)
	}
	secret, err := protocols.LoadSecret(o.ClientSecret, o.ClientSecretFile)
	if err != nil {
		return nil, fmt.Errorf("eos options: client_secret: %w", err)
	}
	if secret == "" {
		secret = protocols.Secret(p.clientSecret)
	}
	q := &querier{
		clientID:   or(o.ClientID, p.clientID),
		secret:     secret,
		deployment: or(o.DeploymentID, p.deploymentID),
		auth:       or(o.Auth, or(p.auth, authClient)),
		prefix:     strings.TrimRight(or(o.PathPrefix, p.pathPrefix), "/"),
		addrAttr:   or(o.AddressAttribute, "ADDRESS_s"),
		attrs: attrNames{
			name:     or(o.NameAttribute, p.name),
			mapName:  or(o.MapAttribute, p.mapName),
			password: or(o.PasswordAttribute, p.password),
			players:  or(o.PlayersAttribute, p.players),
			version:  p.version,
		},
		rules: s.Rules,
	}
	if o.VersionAttributes != nil {
		q.attrs.version = o.VersionAttributes
	}
	if err := q.check(); err != nil {
		return nil, fmt.Errorf("eos options: %w", err)
	}
	base, err := checkBase(or(o.APIBase, defaultAPIBase))
	if err != nil {
		return nil, fmt.Errorf("eos options: api_base: %w", err)
	}
	q.api.Base = base
	if q.api.RootCAs, err = protocols.RootCAs(o.CAFile); err != nil {
		return nil, fmt.Errorf("eos options: ca_file: %w", err)
	}
	// A reload that keeps the credentials keeps the token (and a refusal's backoff).
	q.token = protocols.SharedSignIn("EOS", q.clientID, q.secret.Reveal(), q.deployment, q.auth, q.api.Base, q.prefix, o.CAFile)
	return q, nil
}

// check refuses settings no deployment has.
func (q *querier) check() error {
	switch {
	case q.clientID == "" || q.secret == "" || q.deployment == "":
		return fmt.Errorf("client_id, client_secret and deployment_id are all needed without a preset")
	case strings.ContainsAny(q.deployment, "/?#% ") || strings.Contains(q.clientID, ":"):
		return fmt.Errorf("deployment_id or client_id holds a character they never have")
	case q.auth != authClient && q.auth != authDeviceID:
		return fmt.Errorf("auth %q: client_credentials or deviceid", q.auth)
	case q.prefix != "" && !strings.HasPrefix(q.prefix, "/"):
		return fmt.Errorf("path_prefix must start with /")
	}
	return nil
}

func or(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// checkBase accepts an https URL, or http on loopback only: the credentials and
// token must not cross a network in clear text.
func checkBase(s string) (string, error) {
	u, err := url.Parse(s)
	if err != nil {
		return "", err
	}
	if u.Host == "" || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return "", fmt.Errorf("%q: want scheme://host[:port][/path]", s)
	}
	switch u.Scheme {
	case "https":
	case "http":
		host := u.Hostname()
		if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
			return "", fmt.Errorf("%q: plain http only to loopback (the client secret would travel in clear)", s)
		}
	default:
		return "", fmt.Errorf("%q: scheme must be https", s)
	}
	return strings.TrimRight(s, "/"), nil
}

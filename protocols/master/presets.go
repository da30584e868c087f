package master

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
)

// Preset is a built-in list: a game's public server list, its type, URL and
// field map, read from the peers that read it (gamedig's protocols/*.js) and
// the game's own documentation. A discovery source may name one (preset:) and
// still set its own url; the list-lookup modules of the catalog use one each,
// started on demand by package discovery when nobody defined the source.
type Preset struct {
	Name   string // also the name of the built-in source
	Type   string
	URL    string
	Fields Fields
	// Codes is the byte starting the list's two-byte colour codes in names.
	Codes byte
	// Refresh is how often the list is fetched while modules ask about it:
	// public lists are large (thousands of servers, megabytes), and a status
	// minutes old is what the game's own browser shows too.
	Refresh time.Duration
	// Timeout bounds one fetch (0: the discovery default).
	Timeout time.Duration
	// Credential says the list answers only a signed-in player: the source
	// needs username and token_file (Source.Username, TokenFile).
	Credential bool
	// Cite says where the URL and fields come from.
	Cite string
}

// presets, by name. The shapes are what the cited readers read; the vectors
// in testdata/preset_*.json are built from them.
var presets = map[string]Preset{
	"arksa": {
		Name: "arksa", Type: TypeHTTPJSON, URL: "https://cdn2.arkdedicated.com/servers/asa/unofficialserverlist.json",
		Fields:  Fields{Address: "IP", Port: "Port", Name: "Name", Map: "MapName", Players: "NumPlayers", Max: "MaxPlayers", Version: "BuildId"},
		Refresh: 5 * time.Minute, Timeout: 2 * time.Minute,
		Cite: "Wildcard's public ASA list of unofficial (community) servers, an array of {IP, Port, Name, MapName, NumPlayers, MaxPlayers, BuildId, ...} " +
			"(gamedig PR #788 and issue #762: EOS matchmaking's /filter is closed to clients; the list holds tens of thousands of servers, some tens of MB)",
	},
	"beammp": {
		Name: "beammp", Type: TypeHTTPJSON, URL: "https://backend.beammp.com/servers-info",
		Fields: Fields{Address: "ip", Port: "port", Name: "sname", Map: "map", Players: "players", Max: "maxplayers", Version: "version", Password: "password",
			PlayerNames: "playerslist"},
		Codes:   '^',
		Refresh: 2 * time.Minute,
		Cite:    "gamedig protocols/beammpmaster.js and beammp.js: an array of {ip, port, sname (^ colour codes), map, players, maxplayers, password, version, playerslist}",
	},
	"brokeprotocol": {
		Name: "brokeprotocol", Type: TypeHTTPJSON, URL: "https://brokeprotocol.com/servers.json",
		Fields:  Fields{Address: "ip", Port: "port", Name: "name", Map: "map.name", Players: "playercount", Max: "playerlimit", Version: "version"},
		Codes:   '&',
		Refresh: 2 * time.Minute,
		Cite: "gamedig protocols/brokeprotocolmaster.js: the game's servers.json, an array of servers whose keys it reads case-insensitively " +
			"(ip, port, name with & colour codes, map.name, playercount, playerlimit, version)",
	},
	"factorio": {
		Name: "factorio", Type: TypeHTTPJSON, URL: "https://multiplayer.factorio.com/get-games",
		Fields: Fields{Address: "host_address", Name: "name", Players: "players", Max: "max_players", Password: "has_password",
			Version: "application_version.game_version", PlayerNames: "players"},
		Refresh: 2 * time.Minute, Credential: true,
		Cite: "Factorio wiki, Matchmaking API: get-games lists public games to a signed-in player (username and token, the hex token of the " +
			"Web Authentication API, as GET parameters): an array of {host_address (ip:port), name, players (names), max_players (0: no limit), " +
			"has_password, application_version: {game_version}}",
	},
	"geneshift": {
		Name: "geneshift", Type: TypeGeneshift, URL: "http://geneshift.net/game/receiveLobby.php",
		Refresh: 2 * time.Minute,
		Cite:    "gamedig protocols/geneshift.js: text, servers split by <br/>, fields by :: (country code, country, ip, port, name, map, players, max, ..., version at 19)",
	},
	"gta5am": {
		Name: "gta5am", Type: TypeHTTPJSON, URL: "https://api.alt-mp.com/servers",
		Fields:  Fields{Address: "address", Name: "name", Players: "playersCount", Max: "maxPlayersCount", Version: "version", Password: "passworded", DefaultPort: 7788},
		Refresh: 2 * time.Minute,
		Cite:    "gamedig protocols/altvmp.js: an array of {address (ip:port, perhaps as a URL), name, playersCount, maxPlayersCount, passworded, version}; servers behind alt:V's CDN list a CDN URL and cannot be matched by address",
	},
	"gta5r": {
		Name: "gta5r", Type: TypeRageMP, URL: defaultRageMPURL,
		Refresh: 2 * time.Minute,
		Cite: "gamedig protocols/ragemp.js: an array of {id: ip:port, servers: [{id, name, players: {amount, max}}]}; the first server of an entry is the entry's, " +
			"and a server grouped under another entry is found by its own id (ragemp.go)",
	},
	"minetest": {
		Name: "minetest", Type: TypeHTTPJSON, URL: "https://servers.minetest.net/list",
		Fields: Fields{List: "list", Address: "address", Port: "port", Name: "name", Game: "gameid", Players: "clients", Max: "clients_max",
			Version: "version", Password: "password", PlayerNames: "clients_list"},
		Refresh: 2 * time.Minute,
		Cite:    "gamedig protocols/minetest.js and Luanti's serverlist (minetest/serverlist): {list: [{address, port, name, gameid, clients, clients_max, password, version, clients_list}]}",
	},
	"renegadex": {
		Name: "renegadex", Type: TypeHTTPJSON, URL: "https://serverlist-rx.totemarts.services/servers.jsp",
		Fields: Fields{Address: "IP", Port: "Port", Name: "Name", Map: "Current Map", Players: "Players", Max: "Variables.Player Limit",
			Version: "Game Version", Password: "Variables.bPassworded"},
		Refresh: 2 * time.Minute,
		Cite:    "gamedig protocols/renegadex.js (its JSON schema): an array of {IP, Port, Name, Current Map, Players, Bots, Game Version, Variables: {Player Limit, bPassworded}}",
	},
	"scum": {
		Name: "scum", Type: TypeSCUM,
		Refresh: 2 * time.Minute,
		Cite: "opengsq-python protocols/scum.py and GameQ Protocols/Scum.php: TCP to a master on port 1040 (176.57.138.2, 172.107.16.215, 206.189.248.133), " +
			"04 03 00 00, a uint16 count and 127-byte records (address, query port, name, players, max, password flag, version); scum.go",
	},
	"vintagestory": {
		Name: "vintagestory", Type: TypeHTTPJSON, URL: "https://masterserver.vintagestory.at/api/v1/servers/list",
		Fields:  Fields{List: "data", Address: "serverIP", Name: "serverName", Players: "players", Max: "maxPlayers", Version: "gameVersion", Password: "hasPassword", DefaultPort: 42420},
		Refresh: 2 * time.Minute,
		Cite:    "gamedig protocols/vintagestorymaster.js and vintagestory.js: {data: [{serverIP (ip:port), serverName, players, maxPlayers, gameVersion, hasPassword}]}; 42420 is the game's default port",
	},
}

// LookupPreset returns the preset of a name.
func LookupPreset(name string) (Preset, bool) {
	p, ok := presets[name]
	return p, ok
}

// PresetNames returns the presets' names, sorted.
func PresetNames() []string {
	out := make([]string, 0, len(presets))
	for n := range presets {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// loadToken reads the token of a list that signs in, and checks that a
// source has one exactly when its preset wants one.
func (s *Source) loadToken() error {
	p, _ := presets[s.Preset]
	if !p.Credential {
		if s.Username != "" || s.TokenFile != "" {
			return fmt.Errorf("username and token_file are for presets whose list needs a sign-in (%s)", strings.Join(credentialPresets(), ", "))
		}
		return nil
	}
	if s.Username == "" || s.TokenFile == "" {
		return fmt.Errorf("preset %s lists servers to a signed-in player only: set username and token_file (the account's token)", p.Name)
	}
	if err := checkQuery(s.Username); err != nil || len(s.Username) > 64 {
		return fmt.Errorf("username: printable ASCII, at most 64 bytes")
	}
	tok, err := protocols.LoadSecret("", s.TokenFile)
	if err != nil {
		return fmt.Errorf("token_file: %v", err)
	}
	if tok == "" {
		return fmt.Errorf("token_file %s is empty", s.TokenFile)
	}
	s.Token = tok
	return nil
}

func credentialPresets() []string {
	var out []string
	for _, n := range PresetNames() {
		if presets[n].Credential {
			out = append(out, n)
		}
	}
	return out
}

// applyPreset fills what s leaves unset from its preset; a field map or
// another type next to a preset is an error (the preset's decoder expects its
// own list).
func (s *Source) applyPreset() error {
	p, ok := presets[s.Preset]
	if !ok {
		return fmt.Errorf("unknown preset %q (known: %s)", s.Preset, strings.Join(PresetNames(), ", "))
	}
	if s.Type != "" && s.Type != p.Type {
		return fmt.Errorf("preset %s is a %s list: leave type unset", p.Name, p.Type)
	}
	if s.Fields != (Fields{}) {
		return fmt.Errorf("preset %s maps its own fields: leave fields unset", p.Name)
	}
	s.Type, s.Fields, s.Codes = p.Type, p.Fields, p.Codes
	if s.URL == "" {
		s.URL = p.URL
	}
	return nil
}

// Package fivem queries FiveM and RedM servers (Cfx.re FXServer). The game port
// (30120 by default) takes UDP and TCP alike: the info comes from the UDP
// out-of-band `getinfo <challenge>` query, answered by one `infoResponse`
// datagram holding a Quake-3 style info string (sv_maxclients, clients,
// challenge, gamename, protocol, hostname, gametype, mapname, iv); the player
// list from `GET /players.json` and the server version and convars from
// `GET /info.json` on the same port over HTTP.
//
// Facts from FXServer's sources (citizen-server-impl: GetInfoOutOfBand.h and
// InfoHttpHandler.cpp). The server rate-limits getinfo (2 a second per address)
// and both HTTP endpoints (4 a second, 429 past that). players.json carries
// each player's identifiers (licence, Steam, Discord ids) and, when the server
// turns endpoint privacy off, their IP address: the decoder reads only the name
// and the ping, so neither ever reaches a Result or a log line.
package fivem

import "github.com/gameserver-exporter/gameserver_exporter/protocols"

// Protocol is the registry entry for FiveM / RedM servers.
var Protocol = protocols.Protocol{
	Name:        "fivem",
	Description: "FiveM / RedM (Cfx.re FXServer): UDP getinfo, players and version over HTTP on the same port",
	DefaultPort: 30120,
	Transport:   "udp",
	New:         newQuerier,
}

// Options is the module's `fivem:` block.
type Options struct {
	// Version (default true) fetches info.json on every probe for the server's
	// build; false saves that HTTP request (the server allows 4 a second per
	// address). With rules it is fetched anyway.
	Version *bool `yaml:"version"`
}

var newQuerier = protocols.WithOptions("fivem", func(s protocols.Settings, o Options) (protocols.Querier, error) {
	version := o.Version == nil || *o.Version
	return &querier{players: s.Players, rules: s.Rules, version: version || s.Rules, retries: s.Retries}, nil
})

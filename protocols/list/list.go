// Package list reads a server's status from a server list instead of from the
// server: the exporter's cached copy of a discovery source (a master server or a
// public list, package protocols/master), looked up by the target's address. It
// is for games whose servers answer no query of their own, or only with
// credentials, while a public list knows their name, map and player counts. No
// request goes to the server or to the list: the list is refreshed in the
// background at the source's interval, so what a probe reports is as old as it.
//
// A source may also be a built-in list (a preset of package master: beammp,
// minetest, ...), which the catalog's list-lookup modules name: the exporter
// starts it on the first probe that reads it, and that probe waits for its
// first fetch within its own deadline.
//
// A target missing from the list fails with reason not_listed; a source without
// a list yet (the exporter just started, every fetch failed) with server_error;
// a probe whose deadline passes while a built-in list's first fetch runs with
// timeout.
package list

import (
	"github.com/gameserver-exporter/gameserver_exporter/protocols"
)

// Protocol is the registry entry for reading a status from a list.
var Protocol = protocols.Protocol{
	Name:        "list",
	Description: "A server's status from a discovery source's cached list (master server or public list), by its address",
	DefaultPort: 27015,
	Transport:   "udp",
	OffTarget:   true, // the list is read, never the target
	New:         newQuerier,
}

// Options is the module's `list:` block.
type Options struct {
	// Source names the discovery source (the modules file's discovery
	// section), or a built-in list (a preset's name) started on demand.
	Source string `yaml:"source"`
}

var newQuerier = protocols.WithOptions("list", func(s protocols.Settings, o Options) (protocols.Querier, error) {
	return &querier{source: o.Source, players: s.Players}, nil
})

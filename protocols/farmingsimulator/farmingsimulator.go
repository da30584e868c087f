// Package farmingsimulator queries Farming Simulator (GIANTS Software, 2013 to
// 25) dedicated servers through the stats feed of their web interface:
// GET /feed/dedicated-server-stats.xml?code=<code> answers an XML document, a
// Server element (game, version, name, mapName, ...) holding Slots (capacity,
// numUsed, one Player per slot with isUsed, isAdmin, uptime in minutes and the
// name as text) and Mods (one Mod per mod: name, author, version, hash, the
// title as text). The code is the one the web interface shows under its stats
// feed link: without it the feed answers nothing useful. Layout from qstat's
// farmsim.c (its example Server and Slots elements) and gamedig's
// farmingsimulator protocol.
package farmingsimulator

import (
	"github.com/gameserver-exporter/gameserver_exporter/protocols"
)

// Options is the module's farmingsimulator block.
type Options struct {
	// Code is the stats feed's code; CodeFile names a file holding it instead.
	// It is a secret: whoever has it reads the feed.
	Code     protocols.Secret `yaml:"code"`
	CodeFile string           `yaml:"code_file"`
}

// Protocol is the registry entry. The target names the web interface's port.
var Protocol = protocols.Protocol{
	Name:        "farmingsimulator",
	Description: "Farming Simulator dedicated server stats feed (HTTP web interface, 8080; needs the feed code)",
	DefaultPort: 8080,
	Transport:   "tcp",
	New:         newQuerier,
}

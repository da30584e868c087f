// Package discord reads a Discord server's (guild's) public widget: HTTPS GET
// https://discord.com/api/guilds/{guild_id}/widget.json, which Discord answers
// for a guild whose admins turned on "Enable Server Widget" (Server Settings,
// Widget), without any token. The answer is the Guild Widget object of
// Discord's developer documentation (Resources, Guild, "Get Guild Widget"):
// id, name, instant_invite, channels, members (at most 100, those online,
// names only) and presence_count (every member online). gamedig's discord
// protocol reads the same endpoint.
//
// The request goes to Discord, never to the target: the guild is the module's
// guild_id option, and the probe's target only has to pass the exporter's
// target checks (target=discord.com, say). One module per guild.
package discord

import (
	"fmt"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
)

// Protocol is the registry entry.
var Protocol = protocols.Protocol{
	Name:        "discord",
	Description: "Discord guild widget (widget.json over HTTPS from discord.com; the guild is the module's guild_id): name, members online, their names",
	DefaultPort: 443,
	Transport:   "tcp",
	OffTarget:   true, // discord.com is asked, not the target
	New:         newQuerier,
}

// Options is the module's `discord:` block.
type Options struct {
	// GuildID is the guild's id (a snowflake: Server Settings, Widget, Server
	// ID), up to 20 digits.
	GuildID string `yaml:"guild_id"`
	// CAFile adds PEM certificates to the system roots (an image without a CA
	// bundle, a TLS-inspecting proxy).
	CAFile string `yaml:"ca_file"`
}

// defaultBase is Discord's API host. It is no option: the widget has one home,
// and tests set querier.api themselves.
const defaultBase = "https://discord.com"

// maxGuildIDLen: a snowflake is a uint64, at most 20 decimal digits.
const maxGuildIDLen = 20

var newQuerier = protocols.WithOptions("discord", func(s protocols.Settings, o Options) (protocols.Querier, error) {
	if o.GuildID != "" && !protocols.Digits(o.GuildID, maxGuildIDLen) {
		return nil, fmt.Errorf("discord options: guild_id %q: want the guild's numeric id (up to %d digits)", o.GuildID, maxGuildIDLen)
	}
	pool, err := protocols.RootCAs(o.CAFile)
	if err != nil {
		return nil, fmt.Errorf("discord options: ca_file: %w", err)
	}
	return &querier{guild: o.GuildID, players: s.Players, api: protocols.API{Base: defaultBase, RootCAs: pool}}, nil
})

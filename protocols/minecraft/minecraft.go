// Package minecraft queries Minecraft Java Edition servers with the Server List
// Ping (SLP) over TCP on the game port: a Handshake (next state 1) and a Status
// Request, answered by a Status Response carrying a JSON document (MOTD, version,
// player counts and a player sample), then an optional Ping/Pong timed as the
// "ping" phase. Servers older than 1.7, and anything that answers the modern
// handshake with a legacy kick (0xFF + UTF-16BE text), are decoded in their
// legacy form; a server that closes the connection without answering gets one
// more try on a new connection with the legacy ping FE 01 (1.4-1.6 servers answer
// with "§1\0proto\0version\0motd\0online\0max", beta 1.8-1.3 with
// "motd§online§max").
//
// Result.Name is the MOTD flattened to plain text: chat components concatenated
// depth first, § formatting codes stripped, line breaks replaced by a space, runs
// of blanks collapsed. The player list is players.sample: a partial list (vanilla
// sends at most 12 random players, plugins fill it with text lines or hide it),
// never the full roster; the UDP Query protocol (gamespy4) has the full list.
//
// A server with the Better Compatibility Checker mod names its modpack (bcc.go):
// Result.Game is the pack's name, Info has its version, and the server is modded.
//
// The `_minecraft._tcp.<host>` SRV record is looked up by lookupSRV (as
// Protocol.LookupSRV), for the caller that knows the host name.
// Spec: shared/protocols/minecraft.md.
package minecraft

import (
	"fmt"
	"math"
	"time"
	"unicode/utf8"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
)

// Protocol is the registry entry.
var Protocol = protocols.Protocol{
	Name:        "minecraft",
	Description: "Minecraft Java Edition Server List Ping (TCP; legacy 1.4-1.6 and beta ping fallback)",
	DefaultPort: 25565,
	Transport:   "tcp",
	New:         newQuerier,
	LookupSRV:   lookupSRV,
}

// Options is the module's `minecraft:` block.
type Options struct {
	// Host is the server address sent in the handshake. Proxies (BungeeCord,
	// Velocity, TCPShield) route on it to pick the backend server. Empty: the
	// host name the target was given as (protocols.Target.Host), else the target IP.
	Host string `yaml:"host"`
	// ProtocolVersion sent in the handshake. 0 means -1, the convention for a
	// status-only client; set a real number (47 = 1.8, 767 = 1.21) for proxies
	// that close the connection on an unknown version.
	ProtocolVersion int `yaml:"protocol_version"`
	// SkipPing skips the Ping/Pong exchange after the status (some proxies
	// answer the status from a cache and close without answering the ping).
	SkipPing bool `yaml:"skip_ping"`
}

// maxHost is the handshake's limit on the server address (in characters).
const maxHost = 255

// newQuerier builds the Querier for a module.
var newQuerier = protocols.WithOptions("minecraft", func(s protocols.Settings, opts Options) (protocols.Querier, error) {
	if !utf8.ValidString(opts.Host) || utf8.RuneCountInString(opts.Host) > maxHost {
		return nil, fmt.Errorf("minecraft options: host must be valid UTF-8 of at most %d characters", maxHost)
	}
	switch {
	case opts.ProtocolVersion == 0:
		opts.ProtocolVersion = -1
	case opts.ProtocolVersion < -1 || opts.ProtocolVersion > math.MaxInt32:
		return nil, fmt.Errorf("minecraft options: protocol_version must be -1 or between 1 and %d, got %d", math.MaxInt32, opts.ProtocolVersion)
	}
	return &querier{
		host:    opts.Host,
		version: int32(opts.ProtocolVersion),
		ping:    !opts.SkipPing,
		players: s.Players,
		payload: func() int64 { return time.Now().UnixMilli() },
	}, nil
})

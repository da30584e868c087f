// Package mumble queries Mumble voice servers (murmurd, uMurmur, Grumble) with the
// legacy UDP ping on the voice port: a 12-byte request (a 32-bit 0, the request
// type, and an 8-byte identifier) answered with 24 bytes: the server version, the
// echoed identifier, the connected users, the user slots and the allowed bandwidth
// per user in bits per second, all big endian. No name, map or user list: those
// need a TLS control connection.
//
// Mumble 1.5 added a protobuf UDP ping (MumbleUDP.Ping, a type byte and a message
// that may request extended information, with a 64-bit version able to carry
// patch levels over 255). 1.5 servers still answer the legacy ping, which is what
// this package sends, so 1.2-1.4 servers and forks keep working; in its reply a
// patch level over 255 reads as 255.
//
// With `gtmurmur: true` the querier reads the GTmurmur plugin instead (TCP 27800
// by default, `query_port`): it answers the line "json" with the server's
// channel tree in the Channel Viewer Protocol's JSON (name, root channel, nested
// channels and their users), which names the users; see gtmurmur.go.
//
// Sources: the Mumble wiki's "Protocol" page (UDP Ping packet) and murmur's
// Server.cpp; no spec lives in shared/protocols.
package mumble

import (
	"fmt"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
)

// Protocol is the registry entry.
var Protocol = protocols.Protocol{
	Name:        "mumble",
	Description: "Mumble (murmurd) legacy UDP ping: version, users, slots and bandwidth; or the GTmurmur plugin's channel viewer JSON (gtmurmur: true)",
	DefaultPort: 64738,
	Transport:   "udp",
	New:         newQuerier,
}

// Options is the module's `mumble:` block.
type Options struct {
	// GTmurmur queries the GTmurmur plugin's channel viewer JSON over TCP instead
	// of the UDP ping: server name, users by name, channels.
	GTmurmur bool `yaml:"gtmurmur"`
	// QueryPort is the plugin's TCP port on the target's address; 0 means 27800.
	// The target still names the voice port.
	QueryPort int `yaml:"query_port"`
}

// defaultGTmurmurPort is the GTmurmur plugin's default TCP port.
const defaultGTmurmurPort = 27800

// newQuerier builds the Querier for a module.
var newQuerier = protocols.WithOptions("mumble", func(s protocols.Settings, o Options) (protocols.Querier, error) {
	if !o.GTmurmur {
		if o.QueryPort != 0 {
			return nil, fmt.Errorf("mumble options: query_port is the GTmurmur plugin's: set gtmurmur: true")
		}
		return ping(s), nil
	}
	port, err := protocols.Uint16Option("mumble", "query_port", o.QueryPort, defaultGTmurmurPort)
	if err != nil {
		return nil, err
	}
	return &gtQuerier{queryPort: port, players: s.Players}, nil
})

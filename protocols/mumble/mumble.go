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
// Sources: the Mumble wiki's "Protocol" page (UDP Ping packet) and murmur's
// Server.cpp; no spec lives in shared/protocols.
package mumble

import (
	"github.com/gameserver-exporter/gameserver_exporter/protocols"
)

// Protocol is the registry entry.
var Protocol = protocols.Protocol{
	Name:        "mumble",
	Description: "Mumble (murmurd) legacy UDP ping: version, users, slots and bandwidth",
	DefaultPort: 64738,
	Transport:   "udp",
	New:         newQuerier,
}

// newQuerier builds the Querier for a module. The protocol has no options.
func newQuerier(s protocols.Settings) (protocols.Querier, error) {
	return &querier{retries: s.Retries, rules: s.Rules}, nil
}

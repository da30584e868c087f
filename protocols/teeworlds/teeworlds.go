// Package teeworlds queries Teeworlds servers for their server-browser info.
//
// Teeworlds 0.7 drops connectionless packets that do not carry a token the
// server handed out, so a 0.7 query is two round trips: a control packet
// NET_CTRLMSG_TOKEN carrying our token (padded to 512 bytes so it cannot be
// used for amplification) is answered with the server's token; then a
// connectionless packet (NET_PACKETFLAG_CONNLESS) carrying both tokens and
// "\xff\xff\xff\xffgie3" plus a packed-int browser token is answered by
// "inf3" with the info. Teeworlds 0.5/0.6 (and DDNet) answer the older
// connectionless "gie3" with a one-byte token directly, fields as decimal
// strings.
//
// Facts: Teeworlds' src/engine/shared/network*.cpp and server.cpp, and the
// Debian teeworlds-server 0.7.5 on loopback (shared/realworld: qstat -tees
// only speaks 0.5/0.6 and gets no answer from it).
package teeworlds

import (
	"fmt"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
)

// Protocol is the registry entry.
var Protocol = protocols.Protocol{
	Name:        "teeworlds",
	Description: "Teeworlds server info: 0.7 token handshake, and 0.5/0.6 gie3",
	DefaultPort: 8303,
	Transport:   "udp",
	New:         newQuerier,
}

// Protocol versions a module may pin.
const (
	versionAuto = "auto"
	version07   = "0.7"
	version06   = "0.6"
)

// Options is the module's `teeworlds:` block.
type Options struct {
	// Version is "0.7", "0.6" or "auto" (the default): auto sends both
	// requests at once and takes whichever protocol the server answers.
	Version string `yaml:"version"`
}

// newQuerier builds the Querier for a module.
var newQuerier = protocols.WithOptions("teeworlds", func(s protocols.Settings, opts Options) (protocols.Querier, error) {
	switch opts.Version {
	case "":
		opts.Version = versionAuto
	case versionAuto, version07, version06:
	default:
		return nil, fmt.Errorf("teeworlds options: version must be %q, %q or %q, got %q", versionAuto, version07, version06, opts.Version)
	}
	return &querier{version: opts.Version, retries: s.Retries, players: s.Players}, nil
})

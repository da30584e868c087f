// Package mafia2mp queries the Mafia II multiplayer mods: Mafia 2 Multiplayer
// (M2MP) and, with `variant: online`, Mafia II Online (M2O). The request is the
// mod's tag ("M2MP" or "M2Online") on the query port (game port + 1); the reply
// repeats the tag, then strings each led by a length byte that counts itself:
// name, players, max players, game mode, a password byte, and the player names
// (M2O: each with its ping) until an empty name or the datagram's end.
// Source: gamedig's mafia2mp and mafia2online protocols (behaviour, not code).
package mafia2mp

import (
	"fmt"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// Options is the module's mafia2mp block.
type Options struct {
	// Variant is "" (Mafia 2 Multiplayer) or "online" (Mafia II Online).
	Variant string `yaml:"variant"`
	// Encoding is the code page of the strings: "auto" (the default: UTF-8 when
	// valid, else Windows-1252, the system code page of the mods' Windows
	// servers and clients), or one wire.Encoding names.
	Encoding wire.CodePage `yaml:"encoding"`
}

// Protocol is the registry entry. Targets name the game port; the query port is
// the next one.
var Protocol = protocols.Protocol{
	Name:        "mafia2mp",
	Description: "Mafia 2 Multiplayer and Mafia II Online server info (UDP game port + 1)",
	DefaultPort: 27016,
	PortOffset:  1,
	Transport:   "udp",
	New:         newQuerier,
}

// The tags of the two mods.
const (
	tagM2MP   = "M2MP"
	tagOnline = "M2Online"
)

var newQuerier = protocols.WithOptions("mafia2mp", func(s protocols.Settings, opts Options) (protocols.Querier, error) {
	text := opts.Encoding.Or(wire.UTF8)
	tag := tagM2MP
	switch opts.Variant {
	case "":
	case "online":
		tag = tagOnline
	default:
		return nil, fmt.Errorf("mafia2mp options: variant %q: want \"\" or \"online\"", opts.Variant)
	}
	// The mod's tag is the request, and the reply repeats it.
	return &querier{text: text, UDPExchange: protocols.UDPExchange[*reply]{Retries: s.Retries, Request: []byte(tag),
		Answers: func(b []byte) error { return answers(b, tag) },
		Decode:  func(b []byte) (*reply, error) { return decode(b, tag, text) },
		Result:  func(r *reply, _ *wire.Trace) *protocols.Result { return r.Result(s.Players) }}}, nil
})

// Package gamespy3 queries servers speaking GameSpy v3 (the QR2 query of Battlefield 2
// and 2142, Project Reality, Crysis and Crysis Wars, S.T.A.L.K.E.R., Unreal
// Tournament 3, Just Cause 2 Multiplayer, ...): an optional challenge handshake
// (`FE FD 09` + session id, answered by a decimal token that the stat request carries
// as a big-endian int32), then one `FE FD 00 … FF FF FF 01` request for everything,
// answered by one or more datagrams with a "splitnum" header: K/V pairs, then
// column-oriented player and team tables that may continue across packets.
//
// Spec: ../shared/protocols/gamespy3.md. Targets name the query port; the default,
// 29900, is Battlefield 2's (spec §8; Crysis and JC2-MP answer on the game port, UT3
// on 6500). The handshake is always tried first unless Options.NoChallenge is set:
// servers that need no challenge (BF2) answer it with the token "0", and the stat
// request then carries no challenge bytes (gamedig's rule).
package gamespy3

import (
	"fmt"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// Options is the module's gamespy3 block.
type Options struct {
	// NoChallenge skips the handshake, for servers that ignore FE FD 09. A server
	// that then answers the stat request with a challenge reply still gets one.
	NoChallenge bool `yaml:"no_challenge"`
	// Variant selects a dialect: "" (standard) or "jc2mp" (Just Cause 2 MP: payload
	// FF FF FF 02 and its own player list, spec §7).
	Variant string `yaml:"variant"`
	// Encoding is the code page of the strings: "auto" (the default: UTF-8 when
	// valid, else Windows-1252) or one wire.Encoding names (windows-1251 for a
	// Cyrillic server). Not with the jc2mp variant: Just Cause 2 MP writes UTF-8.
	Encoding wire.CodePage `yaml:"encoding"`
}

// Protocol is the registry entry.
var Protocol = protocols.Protocol{
	Name:        "gamespy3",
	Description: "GameSpy v3 / QR2 query (Battlefield 2/2142, Project Reality, Crysis, S.T.A.L.K.E.R., UT3, JC2-MP, ...)",
	DefaultPort: 29900,
	Transport:   "udp",
	New:         newQuerier,
}

var newQuerier = protocols.WithOptions("gamespy3", func(s protocols.Settings, opts Options) (protocols.Querier, error) {
	switch opts.Variant {
	case "", "jc2mp":
	default:
		return nil, fmt.Errorf("gamespy3: variant %q: want \"\" or \"jc2mp\"", opts.Variant)
	}
	text := opts.Encoding.Or(nil)
	if text != nil && opts.Variant == "jc2mp" {
		// Refused rather than ignored: a module that names a code page means it.
		return nil, fmt.Errorf("gamespy3 options: encoding does not apply to variant jc2mp (Just Cause 2 MP writes UTF-8)")
	}
	return &querier{
		players: s.Players, rules: s.Rules, retries: max(s.Retries, 0),
		noChallenge: opts.NoChallenge, jc2mp: opts.Variant == "jc2mp", text: text,
	}, nil
})

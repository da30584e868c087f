// Package a2s speaks Valve's A2S server queries (Source, GoldSrc and Steamworks games):
// A2S_INFO with the optional S2C_CHALLENGE round trip (and, for servers that hand out
// challenges only the old way, A2S_SERVERQUERY_GETCHALLENGE), A2S_PLAYER and
// A2S_RULES, the obsolete GoldSrc S2A_INFO_DETAILED (0x6D) reply, and split replies
// in the Source and GoldSrc layouts, bzip2-compressed ones included. The records,
// the split reassembler and the exchange live in protocols/internal/steam, shared
// with package goldsrc; this package adds the query strategy (with a per-module
// cache of the challenge each target accepted, kept in protocols/internal/steam)
// and the Bohemia (Arma 3, DayZ) rules.
//
// Spec: shared/protocols/a2s.md.
package a2s

import (
	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/steam"
)

// Protocol is the registry entry for A2S.
var Protocol = protocols.Protocol{
	Name:        "a2s",
	Description: "Valve A2S server queries (Source, GoldSrc, Steamworks games: CS, TF2, GMod, Rust, ARK, ...)",
	// The query port is the game port on Source/GoldSrc; Steamworks titles with a
	// separate query port need it in the target.
	DefaultPort: 27015,
	Transport:   "udp",
	New:         newQuerier,
}

// MaxDecompressed caps the uncompressed size of a bzip2 split reply (the hostile
// tests build a bomb of exactly this size).
const MaxDecompressed = steam.MaxDecompressed

// Options is the module's `a2s:` block: the challenge cache's switch and the
// code page of the names (`encoding:`; the rules are read as sent).
type Options = steam.CacheOptions

// newQuerier returns an A2S querier, with its own challenge cache.
func newQuerier(s protocols.Settings) (protocols.Querier, error) {
	m, err := steam.ModuleFor("a2s", s)
	if err != nil {
		return nil, err
	}
	return &querier{m}, nil
}

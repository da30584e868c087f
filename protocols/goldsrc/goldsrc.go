// Package goldsrc queries Half-Life 1 (GoldSrc) servers that predate A2S or do not
// answer it reliably: WON-era and non-Steam HLDS builds and HLTV proxies.
//
// Query strategy, on one socket: A2S_INFO first (a GoldSrc server answers it with
// the obsolete 0x6D record, a 0x49 record, or both); when it gets no answer within
// half the time left, the text query `details` (0x6D) is sent, then likewise `info`
// (0x43 'C') and finally `infostring` (`infostringresponse`), which runs to the
// probe's deadline. Every step accepts a late answer to an earlier query, and the
// sequence never runs past the deadline. Players and rules are asked for in the
// dialect that answered: A2S_PLAYER/A2S_RULES with the challenge flow, or the text
// words `players`/`rules`, or both at once when a 0x6D came after text words were
// sent (either could have produced it). The binary records shared with A2S (0x6D,
// 0x49, 0x44, 0x45, GoldSrc split header) are decoded by protocols/internal/steam,
// which package a2s uses too; this package decodes only what A2S lacks.
//
// A Steam-era server that wants a challenge costs two A2S_INFO round trips; the
// challenge a target accepted is kept per module (protocols/internal/steam's
// ChallengeCache, as in package a2s) and sent with the next probe's A2S_INFO,
// which matters for ReHLDS, which rate-limits queries.
//
// Spec: shared/protocols/goldsrc.md, shared/protocols/a2s.md §5 and §8.2.
package goldsrc

import (
	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/steam"
)

// Protocol is the registry entry for the GoldSrc legacy queries.
var Protocol = protocols.Protocol{
	Name:        "goldsrc",
	Description: "Half-Life 1 / GoldSrc servers and HLTV proxies: A2S_INFO with fallback to the legacy text queries (details, info, infostring, players, rules)",
	// HLTV proxies listen on 27020; they need the port in the target.
	DefaultPort: 27015,
	Transport:   "udp",
	New:         newQuerier,
}

// Options is the module's `goldsrc:` block: the challenge cache's switch and the
// code page of the names (`encoding:`, windows-1251 for a Cyrillic server; the
// rules are read as sent).
type Options = steam.CacheOptions

// newQuerier returns a GoldSrc querier, with its own challenge cache.
func newQuerier(s protocols.Settings) (protocols.Querier, error) {
	m, err := steam.ModuleFor("goldsrc", s)
	if err != nil {
		return nil, err
	}
	return &querier{m}, nil
}

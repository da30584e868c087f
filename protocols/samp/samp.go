// Package samp queries San Andreas Multiplayer (SA-MP 0.3), open.mp and Vice City
// Multiplayer (VC:MP 0.4) servers with their UDP query. Every request is 11
// bytes: the magic ("SAMP"; VC:MP "VCMP"), the server's IPv4 address (4 bytes)
// and port (uint16 little-endian) as the client addressed it, and an opcode. A
// reply starts with the same 11 bytes (VC:MP answers with the magic "MP04") and
// then, little-endian throughout:
//
//   - 'i' info: password (byte), players, max players (uint16 each), then the
//     host name, game mode and language (map before 0.3.7), each a uint32 length
//     and that many bytes. VC:MP puts its 12-byte version name (NUL-padded)
//     before the password.
//   - 'r' rules: a uint16 count, then name and value, each a length byte and
//     that many bytes ("version", "mapname", "weburl", "worldtime", ...).
//     VC:MP has no rules.
//   - 'd' detailed players: a uint16 count, then id (byte), name (length byte),
//     score (int32) and ping (uint32). open.mp never answers it.
//   - 'c' client list: a uint16 count, then name (length byte) and score
//     (int32); VC:MP sends the names only.
//   - 'o' (open.mp): the Discord invite, light and dark banner and logo URLs,
//     each a uint32 length and that many bytes. Only open.mp answers it.
//
// Servers leave the player list unanswered past 100 players, so the querier does
// not ask then. Strings are the bytes the server's operator (and the players'
// Windows clients) typed: Windows-1252 on most servers, Windows-1251 on Cyrillic
// ones; the querier takes valid UTF-8 as UTF-8 and the rest as Windows-1252
// unless the module names the code page (`encoding`).
//
// Facts: the SA-MP wiki's "Query Mechanism" page (opcodes, layouts), open.mp's
// LegacyNetwork Query component (query.cpp: 'o', the 100-player limit, no 'd';
// open.mp issue 1147), the VC:MP wiki's "Query Mechanism" (VCMP/MP04, the version
// name, 'c' without scores).
package samp

import (
	"fmt"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// Protocol is the registry entry.
var Protocol = protocols.Protocol{
	Name:        "samp",
	Description: "SA-MP / open.mp / VC:MP UDP query (info, rules, players; open.mp's extra info)",
	DefaultPort: 7777,
	Transport:   "udp",
	New:         newQuerier,
}

// Options is the module's `samp:` block.
type Options struct {
	// Variant is "samp" (the default: SA-MP, and open.mp recognised by its rules'
	// version), "openmp" (asks open.mp's extra info and its client list from the
	// start) or "vcmp" (Vice City Multiplayer: VCMP magic, no rules).
	Variant string `yaml:"variant"`
	// Encoding is the code page of the server's strings: "auto" (the default:
	// UTF-8 when valid, else Windows-1252), "windows-1252", "windows-1251"
	// (Cyrillic servers), "utf-8" or "latin-1" (wire.Encoding).
	Encoding wire.CodePage `yaml:"encoding"`
}

// Variants.
const (
	variantSAMP   = "samp"
	variantOpenMP = "openmp"
	variantVCMP   = "vcmp"
)

var newQuerier = protocols.WithOptions("samp", func(s protocols.Settings, o Options) (protocols.Querier, error) {
	q := &querier{players: s.Players, rules: s.Rules, retries: s.Retries, variant: o.Variant}
	switch o.Variant {
	case "":
		q.variant = variantSAMP
	case variantSAMP, variantOpenMP, variantVCMP:
	default:
		return nil, fmt.Errorf("samp options: unknown variant %q (samp, openmp, vcmp)", o.Variant)
	}
	q.text = o.Encoding.Or(wire.UTF8)
	return q, nil
})

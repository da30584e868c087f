// Package quakeworld speaks the connectionless `status` query of QuakeWorld
// servers (id's qwsv and its descendants: mvdsv, FTE, ezQuake's server, ...):
// one `FF FF FF FF status 0A` datagram answered by one `FF FF FF FF 'n'`
// (A2C_PRINT) datagram holding the serverinfo string, then one line per player:
//
//	userid frags minutes ping "name" "skin" topcolor bottomcolor ["team" ["flags"]]
//
// and a final NUL. The plain `status` lists players only; mvdsv and FTE take an
// option mask (`status 23`, what qstat sends) that adds spectators, shown with
// frags -9999, a negative ping and `\s\` before the name (or frags "S"), and the
// quoted team. The decoder reads every variant; spectators are not players.
//
// Text is in the Quake character set (conchars), where the high half is the low
// half drawn in another colour: idtech.Readable turns it into ASCII. The info
// string, the tokenizer and the charset are the id Tech family's, in
// protocols/internal/idtech.
//
// Sources: the qwsv/mvdsv SVC_Status code, qstat's -qws output, gamedig's
// quake1 protocol and the real mvdsv 0.35 capture in shared/realworld.
package quakeworld

import (
	"github.com/gameserver-exporter/gameserver_exporter/protocols"
)

// Protocol is the registry entry for QuakeWorld servers.
var Protocol = protocols.Protocol{
	Name:        "quakeworld",
	Description: "QuakeWorld status (qwsv, mvdsv/KTX, FTE)",
	DefaultPort: 27500,
	Transport:   "udp",
	New:         exchange,
}

// Package darkplaces speaks the status query of DarkPlaces engine servers
// (Nexuiz, Xonotic, and Quake mods run on DarkPlaces). The exchange is Quake
// III's getstatus: `FF FF FF FF getstatus <challenge>` answered by one
// `statusResponse` datagram in the id Tech 3 frame (protocols/internal/idtech),
// with DarkPlaces' own rules on top:
//
//   - The server ignores a second getstatus or getinfo from one IP within
//     net_getstatusfloodblockingtimeout (1 s). The querier sends one getstatus
//     (it carries everything getinfo does) and keeps re-sends more than a
//     second apart.
//   - The challenge is everything after `getstatus `, newline included, so the
//     request ends right after it.
//   - The info keys are fixed: gamename, modname, gameversion, sv_maxclients,
//     clients, bots, mapname, hostname, protocol, then qcstatus (the game's
//     `gametype:version:...` string), challenge and d0_blind_id when set.
//   - Player lines are `frags ping "name"`, with the team number between ping
//     and name in Nexuiz/Xonotic team games (the SoF2 layout), and the frags
//     replaced by the game's own per-client status string when it sets one.
//     Bots have ping 0; real clients are clamped to 1-9999.
//   - When the player list does not fit in the 1400-byte reply, the server
//     answers getstatus with an infoResponse instead: counts, no list.
//   - Colour codes are `^0`-`^9` and `^xRGB`, `^^` is a caret; names are UTF-8
//     (Xonotic) or bytes of the Quake character set (Nexuiz).
//
// Sources: DarkPlaces' NetConn_BuildStatusResponse and NetConn_ServerParsePacket,
// qstat's -nexuizs output and the real Nexuiz 2.5.2 captures in shared/realworld.
package darkplaces

import (
	"github.com/gameserver-exporter/gameserver_exporter/protocols"
)

// Protocol is the registry entry for DarkPlaces servers.
var Protocol = protocols.Protocol{
	Name:        "darkplaces",
	Description: "DarkPlaces getstatus (Xonotic, Nexuiz, DarkPlaces Quake mods)",
	DefaultPort: 26000,
	Transport:   "udp",
	New:         newQuerier,
}

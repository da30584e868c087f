// Package openttd queries OpenTTD servers over TCP: the client connects to the
// game port, sends PACKET_CLIENT_GAME_INFO and reads one PACKET_SERVER_GAME_INFO
// carrying the NetworkGameInfo serialisation (server name, revision, clients,
// companies, map size, dates, dedicated flag, password).
//
// OpenTTD 12 and later answer the old UDP PACKET_UDP_CLIENT_FIND_SERVER with an
// empty packet (qstat -ottds times out), so the TCP request is the only one that
// works on current servers. Facts: OpenTTD's src/network/core/game_info.cpp
// (SerializeNetworkGameInfo, one block per game-info version 1..7, newest
// first) and the capture in shared/realworld/captures (OpenTTD 13.0, version 6).
package openttd

import (
	"github.com/gameserver-exporter/gameserver_exporter/protocols"
)

// Protocol is the registry entry.
var Protocol = protocols.Protocol{
	Name:        "openttd",
	Description: "OpenTTD TCP game info (PACKET_CLIENT_GAME_INFO, game-info versions 1-7)",
	DefaultPort: 3979,
	Transport:   "tcp",
	New:         newQuerier,
}

// Package bedrock queries Minecraft Bedrock Edition servers (Bedrock Dedicated
// Server, Geyser, PocketMine-MP, Nukkit, Education Edition) with RakNet's
// Unconnected Ping: one offline datagram to the game port, UDP 19132, answered by
// an Unconnected Pong whose payload is the server id string the game's server list
// shows:
//
//	MCPE;motd;protocol;version;players;max;server id;level name;gamemode;gamemode number;port v4;port v6;
//
// Education Edition says MCEE, and older or smaller servers (Geyser's early
// versions, proxies, PocketMine before 1.0) stop after fewer fields: what is
// missing is not reported.
//
// The ping carries a random time that the pong must echo, and both carry RakNet's
// 16-byte OFFLINE_MESSAGE_DATA_ID magic; a datagram without them does not answer
// the ping and is skipped. Layouts: wiki.vg "Raknet Protocol" (Unconnected
// Ping/Pong) and wiki.bedrock.dev "RakNet and MCPE".
package bedrock

import "github.com/gameserver-exporter/gameserver_exporter/protocols"

// Protocol is the registry entry.
var Protocol = protocols.Protocol{
	Name:        "bedrock",
	Description: "Minecraft Bedrock Edition RakNet Unconnected Ping (BDS, Geyser, PocketMine, Nukkit, Education)",
	DefaultPort: 19132,
	Transport:   "udp",
	New:         exchange,
}

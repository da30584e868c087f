// Package starmade asks a StarMade server for its status over the game's own TCP
// protocol (port 4242): one parameterised "status" command, answered by one
// packet of typed parameters.
//
// Request (13 bytes, big-endian): length 9 (int32, what follows), packet type
// 0x2a, packet id 0xffff (int16), command id 0x01 (status), command type 0x6f
// (parameterised), parameter count 0 (int32).
//
// Answer: the length of what follows the 12-byte header (int32), a timestamp
// (int64), then packet type 0x2a, packet id, command id, command type, the
// parameter count (int32) and the parameters, each a type byte and its value:
// 1 int32, 2 int64, 3 float32, 4 string (int16 length and UTF-8 bytes), 5 bool,
// 6 byte, 7 int16. The status parameters, in order: info version (byte), game
// version (float), server name, description, start time (int64, ms), players
// (int32), max players (int32).
//
// Facts: qstat 2.17 (starmade.c: request bytes, parameter types and their order).
// gamedig's starmade.js reads the same answer but knows neither the parameter
// count nor the int64 type: it takes the start time's bytes for type marks, so
// its start time is wrong and, when the last byte is 1, 3, 4 or 6, its players
// and max too; the README says which is right. The start time is exported as
// sent (Result.Started).
package starmade

import "github.com/gameserver-exporter/gameserver_exporter/protocols"

// Protocol is the registry entry.
var Protocol = protocols.Protocol{
	Name:        "starmade",
	Description: "StarMade server status command (TCP 4242)",
	DefaultPort: 4242,
	Transport:   "tcp",
	New:         protocols.Fixed(querier{}),
}

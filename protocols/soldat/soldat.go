// Package soldat asks a Soldat server for its status over its TCP admin
// connection (the game port, 23073 by default), which needs the server's admin
// password.
//
// The exchange: the server greets with "Soldat Admin Connection Established."
// and reads the password as one line; a wrong one is answered "Invalid
// password." and the connection closed, the right one by three lines, the last
// "Server Version: <version>". The client then sends "REFRESHX" and the server
// answers with the REFRESHX record, 2002 bytes, little-endian and packed: the
// header "REFRESHX\r\n"; for 32 slots the player names (Pascal strings of 24),
// hardware ids (strings of 11), teams (byte, 255 for an empty slot, 5 for a
// spectator), kills (uint16), caps (byte), deaths (uint16), pings (int32),
// player numbers (byte), IPv4 addresses (4 bytes, zeros for a bot), x and y
// (float32); the flag positions (4 float32), four team scores (uint16), the map
// (a string of 16), time limit and time left (int32), kill limit (uint16), game
// style, max players, max spectators, password flag (bytes) and the next map (a
// string of 16). The admin connection also carries the server's console lines,
// which may come before the record.
//
// Soldat bans an address that opens more than five admin connections within
// three seconds: probe a server no more often than that.
//
// Facts: Soldat's source (server/Rcon.pas: TMsg_RefreshX, the login; shared
// constants: 32 players, names of 24 and hardware ids of 11 characters).
package soldat

import (
	"fmt"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// Protocol is the registry entry.
var Protocol = protocols.Protocol{
	Name:        "soldat",
	Description: "Soldat admin connection REFRESHX (TCP game port 23073, admin password)",
	DefaultPort: 23073,
	Transport:   "tcp",
	New:         newQuerier,
}

// Options is the module's `soldat:` block.
type Options struct {
	// Password is the server's admin password (its sv_adminpassword);
	// PasswordFile names a file holding it, read at config load.
	Password     protocols.Secret `yaml:"password"`
	PasswordFile string           `yaml:"password_file"`
	// Encoding is the code page of names and maps: "auto" (the default: UTF-8
	// when valid, else Windows-1252), or one wire.Encoding names.
	Encoding wire.CodePage `yaml:"encoding"`
}

var newQuerier = protocols.WithOptions("soldat", func(s protocols.Settings, o Options) (protocols.Querier, error) {
	pw, err := protocols.LoadSecret(o.Password, o.PasswordFile)
	if err != nil {
		return nil, fmt.Errorf("soldat password: %w", err)
	}
	for i := 0; i < len(pw); i++ {
		if pw[i] == '\n' || pw[i] == '\r' {
			return nil, fmt.Errorf("soldat password: a line break would end it early")
		}
	}
	text := o.Encoding.Or(wire.UTF8)
	return &querier{password: pw, players: s.Players, text: text}, nil
})

// Package ventrilo asks a Ventrilo 3 voice server for its detailed status over
// UDP (the voice port, 3784 by default).
//
// The request and every reply datagram carry a 20-byte header of ten big-endian
// uint16 fields (header key, zero, command, id, total length, this length, total
// packets, packet number, data key, CRC-16 of the plain data) and the data. The
// header key's bytes (start, step) encrypt the other 18 header bytes: each byte
// gains headerKey[start] + i%5, start moving on by step; the data key encrypts
// the data the same way with dataKey and i%72. A step of 0 means plain text.
// The request is command 2 (detailed status) with 16 bytes of data: the status
// password, zero-padded. The answer comes in up to 32 datagrams of up to 492
// data bytes, numbered, echoing the id; together they are lines of "KEY: value"
// (NAME, COMMENT, AUTH, MAXCLIENTS, UPTIME, PLATFORM, VERSION, CLIENTCOUNT,
// CHANNEL: and CLIENT: lines of comma-separated FIELD=value), text values
// %XX-escaped.
//
// Facts: Luigi Auriemma's algorithm and key tables as qstat 2.17's ventrilo.c
// carries them (header layout, the keys, the CRC table, which is CRC-16/XMODEM),
// gamedig 5.3 protocols/ventrilo.js (the fields it reads), the ventrilostatus.php
// parser shipped with the server's status tool (keys, FIELD=value lists, %XX
// escapes, AUTH, UPTIME).
package ventrilo

import (
	"fmt"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// Protocol is the registry entry.
var Protocol = protocols.Protocol{
	Name:        "ventrilo",
	Description: "Ventrilo 3 encrypted UDP status (detailed), UDP 3784",
	DefaultPort: 3784,
	Transport:   "udp",
	New:         newQuerier,
}

// Options is the module's `ventrilo:` block.
type Options struct {
	// Password is the server's status password (its StatusPassword), when it
	// has one; PasswordFile names a file holding it.
	Password     protocols.Secret `yaml:"password"`
	PasswordFile string           `yaml:"password_file"`
	// Encoding is the code page of names and comments (the bytes the clients
	// typed, %XX-escaped): "auto" (the default: UTF-8 when valid, else
	// Windows-1252), or one wire.Encoding names.
	Encoding wire.CodePage `yaml:"encoding"`
}

// maxPassword is what the 16 data bytes hold with a terminating NUL.
const maxPassword = 15

var newQuerier = protocols.WithOptions("ventrilo", func(s protocols.Settings, o Options) (protocols.Querier, error) {
	pw, err := protocols.LoadSecret(o.Password, o.PasswordFile)
	if err != nil {
		return nil, fmt.Errorf("ventrilo password: %w", err)
	}
	if len(pw) > maxPassword {
		return nil, fmt.Errorf("ventrilo password: longer than %d bytes, the request holds no more", maxPassword)
	}
	text := o.Encoding.Or(wire.UTF8)
	return &querier{password: pw, players: s.Players, retries: max(s.Retries, 0), text: text}, nil
})

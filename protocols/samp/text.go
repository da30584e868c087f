package samp

import (
	"unicode/utf8"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// decoders turn the server's string bytes into UTF-8, by the module's encoding.
var decoders = map[string]func([]byte) string{
	"":             auto,
	"auto":         auto,
	"windows-1252": wire.Windows1252,
	"windows-1251": wire.Windows1251,
	"utf-8":        wire.UTF8, // Latin-1 for the odd invalid byte
}

// auto takes valid UTF-8 (open.mp reads its config as UTF-8) as is and anything
// else as Windows-1252, the code page of most SA-MP servers' Windows clients.
func auto(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	return wire.Windows1252(b)
}

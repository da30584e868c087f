package prototest

// Marks1252 is a name as a Windows client in the West types it: the
// Windows-1252 bytes 0x80-0x9F (low and high quotes, en dash, euro,
// ellipsis) that Latin-1 would read as control characters, which the exporter
// then strips. Short enough for the tightest name field (Soldat's 24 bytes).
var Marks1252 = []byte("\x84Cash & Cars\x93 \x96 \x805\x85")

// Marks1252Text is Marks1252 as the Windows-1252 table (and Python's cp1252
// codec) reads it.
const Marks1252Text = "„Cash & Cars“ – €5…"

// MafiaName is the whole server name the fake Mafia 2 MP server sent,
// Windows-1252 bytes, and MafiaNameText its text.
var MafiaName = []byte("Empire Bay \x96 \x84Cash & Cars\x93 \x805 VIP")

// MafiaNameText is MafiaName as Windows-1252 reads it.
const MafiaNameText = "Empire Bay – „Cash & Cars“ €5 VIP"

// MafiaNameAs is MafiaName as each `encoding:` reads it; "" is the default of
// a protocol whose game writes the Windows code page (UTF-8 when valid, else
// Windows-1252).
var MafiaNameAs = map[string]string{
	"":             MafiaNameText,
	"windows-1252": MafiaNameText,
	"utf-8":        MafiaNameText, // not UTF-8: read as Windows-1252
	"windows-1251": "Empire Bay – „Cash & Cars“ Ђ5 VIP",
	"latin-1":      "Empire Bay \u0096 \u0084Cash & Cars\u0093 \u00805 VIP",
}

package wire

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// UTF8 returns b as a string when it is valid UTF-8 and decodes it as
// Windows-1252 otherwise: servers documented as UTF-8 still send the bytes a
// Windows client typed, and those are the Windows code page (Latin-1 would turn
// its € „ “ – into control characters).
func UTF8(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	return Windows1252(b)
}

// Latin1 decodes ISO-8859-1 bytes to a UTF-8 string, for games that write
// Latin-1 itself (Armagetron converts its UTF-8 to Latin-1 on the wire; Quake
// III's info strings): a Windows game's bytes are Windows1252.
func Latin1(b []byte) string {
	ascii := true
	for _, c := range b {
		if c >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii {
		return string(b)
	}
	out := make([]rune, len(b))
	for i, c := range b {
		out[i] = rune(c)
	}
	return string(out)
}

// encodings are the code pages a module's `encoding:` option may name. "utf-8"
// is UTF8: a string that is not valid UTF-8 is still read, as Windows-1252.
var encodings = map[string]func([]byte) string{
	"utf-8":        UTF8,
	"windows-1252": Windows1252,
	"windows-1251": Windows1251,
	"latin-1":      Latin1,
}

// CodePage is a protocol's `encoding:` option, an Options field: the name is
// checked (Encoding) when the modules file is read, so a misspelt code page
// fails the load naming its block.
type CodePage struct{ dec func([]byte) string }

// UnmarshalText reads the option's name (YAML decodes a scalar through it).
func (c *CodePage) UnmarshalText(b []byte) error {
	d, err := encoding(string(b))
	c.dec = d
	return err
}

// Or is the decoder the option names, or def (the game's own code page; nil:
// the protocol's reading as sent) when it names none or "auto".
func (c CodePage) Or(def func([]byte) string) func([]byte) string {
	if c.dec == nil {
		return def
	}
	return c.dec
}

// encoding returns the decoder a module's `encoding:` option names, or nil when
// the option is empty (or "auto"): each protocol defaults to its game's own code
// page, and the option is for the server that writes another.
func encoding(name string) (func([]byte) string, error) {
	if name == "" || name == "auto" {
		return nil, nil
	}
	if d, ok := encodings[strings.ToLower(name)]; ok {
		return d, nil
	}
	names := make([]string, 0, len(encodings)+1)
	for n := range encodings {
		names = append(names, n)
	}
	slices.Sort(names)
	return nil, fmt.Errorf("unknown encoding %q (auto, %s)", name, strings.Join(names, ", "))
}

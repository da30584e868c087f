package hytale

import (
	"bytes"
	"fmt"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// maxLine bounds the reply line. The longest valid reply, `OK` and two 19-digit
// numbers, or the plugin's longest error message is far shorter.
const maxLine = 256

// maxDigits keeps a count within int64 without overflow checks.
const maxDigits = 18

// status is a decoded `OK <current> <max>` reply.
type status struct {
	Players, MaxPlayers int64
}

// decode parses the server's reply: its first line, with or without the line
// terminator (`\n` on Linux hosts, `\r\n` on Windows hosts, none when the
// connection closed right after the text). An `ERROR <message>` reply is an
// error wrapping wire.ErrServer that quotes the message. The querier sees
// a connection closed before any byte as ErrTruncated; here an empty line is
// ErrMalformed.
func decode(b []byte) (status, error) {
	line, _, _ := bytes.Cut(b, []byte{'\n'}) // one line per connection; ignore anything after it
	if len(line) > maxLine {
		return status{}, fmt.Errorf("%w: reply line of %d bytes, max %d", wire.ErrTooLarge, len(line), maxLine)
	}
	line = bytes.Trim(line, " \t\r")
	if len(line) == 0 {
		return status{}, fmt.Errorf("%w: empty reply line", wire.ErrMalformed)
	}
	word, rest, _ := bytes.Cut(line, []byte{' '})
	switch string(word) {
	case "OK":
		f := bytes.Fields(rest)
		if len(f) != 2 {
			return status{}, fmt.Errorf("%w: OK reply with %d fields, want current and max: %q", wire.ErrMalformed, len(f), line)
		}
		cur, err := count(f[0], "current")
		if err != nil {
			return status{}, err
		}
		max, err := count(f[1], "max")
		if err != nil {
			return status{}, err
		}
		return status{Players: cur, MaxPlayers: max}, nil
	case "ERROR":
		return status{}, fmt.Errorf("%w: %q", wire.ErrServer, bytes.TrimSpace(rest))
	}
	return status{}, fmt.Errorf("%w: reply %q is neither OK nor ERROR", wire.ErrMalformed, line)
}

// count parses a non-negative decimal count: digits only, no sign.
func count(b []byte, field string) (int64, error) {
	if len(b) == 0 || len(b) > maxDigits {
		return 0, fmt.Errorf("%w: %s count %q is not a number of at most %d digits", wire.ErrMalformed, field, b, maxDigits)
	}
	var v int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, fmt.Errorf("%w: %s count %q is not a decimal number", wire.ErrMalformed, field, b)
		}
		v = v*10 + int64(c-'0')
	}
	return v, nil
}

package quake2

import (
	"bytes"
	"fmt"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/idtech"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// keyword is the OOB command of the reply: the server prints the status string.
const keyword = "print"

// errNotReply marks datagrams that are not a status reply at all (no OOB
// marker, another command, a print that holds no serverinfo): the querier skips
// them instead of failing.
var errNotReply = fmt.Errorf("%w: not a Quake II status reply", wire.ErrMalformed)

// reply is a decoded status reply. Info keys compare case-sensitively, as in
// the engine.
type reply struct {
	idtech.Info
	idtech.Lines[player]
}

// player is one client line.
type player struct {
	Score   int64
	Ping    int64 // milliseconds (q2ded's average over the last frames)
	Name    []byte
	Address []byte // forks that add it; empty otherwise
}

// decode decodes the reply to `status`.
func decode(b []byte) (*reply, error) {
	if len(b) > idtech.MaxDatagram {
		return nil, fmt.Errorf("%w: datagram of %d bytes", wire.ErrTooLarge, len(b))
	}
	if !idtech.HasOOB(b) {
		return nil, fmt.Errorf("%w: no FF FF FF FF marker at offset 0", errNotReply)
	}
	cmd, body, _ := bytes.Cut(b[4:], []byte{'\n'})
	if string(bytes.TrimRight(cmd, " \r")) != keyword {
		return nil, fmt.Errorf("%w: command %q at offset 4, want print", errNotReply, idtech.HeadText(cmd, 16))
	}
	if i := bytes.IndexByte(body, 0); i >= 0 {
		body = body[:i] // some forks send the C string's NUL: the rest is padding
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return nil, fmt.Errorf("%w: no text after print at offset %d", wire.ErrTruncated, len(b)-len(body))
	}
	line, rest, _ := bytes.Cut(body, []byte{'\n'})
	info, ok := idtech.ParseInfo(line, idtech.CaseSensitive, wire.Latin1)
	if !ok {
		// Every console print (rcon output, "Server is full.", a
		// challenge refusal) arrives as the same OOB print.
		return nil, fmt.Errorf("%w: print %q holds no serverinfo", errNotReply, idtech.HeadText(body, 24))
	}
	return &reply{Info: info, Lines: idtech.ParseLines(rest, parsePlayer)}, nil
}

// parsePlayer reads `score ping "name" ["address"]`. A line cut inside the
// name still counts (the unterminated quote runs to the end).
func parsePlayer(line []byte) (player, bool) {
	t := idtech.Tokenize(line, 4)
	if len(t) < 3 {
		return player{}, false
	}
	var p player
	var ok1, ok2 bool
	p.Score, ok1 = idtech.ParseIntQW(t[0])
	p.Ping, ok2 = idtech.ParseIntQW(t[1])
	if !ok1 || !ok2 {
		return player{}, false
	}
	p.Name = t[2]
	if len(t) > 3 {
		p.Address = t[3]
	}
	return p, true
}

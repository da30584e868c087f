package quake2

import (
	"bytes"
	"fmt"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/quakeworld"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// Caps on what a peer can make the decoder hold.
const (
	// MaxDatagram is the largest reply accepted (a UDP payload cannot be larger).
	MaxDatagram = 65535
	// MaxPlayerLines bounds the player lines parsed: Quake II has at most 256
	// client slots (MAX_CLIENTS), so later lines are only counted in Dropped.
	MaxPlayerLines = 256
)

// keyword is the OOB command of the reply: the server prints the status string.
const keyword = "print"

// errNotReply marks datagrams that are not a status reply at all (no OOB
// marker, another command, a print that holds no serverinfo): the querier skips
// them instead of failing.
var errNotReply = fmt.Errorf("%w: not a Quake II status reply", protocols.ErrMalformed)

// Reply is a decoded status reply.
type Reply struct {
	quakeworld.Info
	Players  []Player
	Unparsed int // non-empty lines that are not player lines
	Dropped  int // non-empty lines past MaxPlayerLines, not parsed
}

// Player is one client line.
type Player struct {
	Score   int64
	Ping    int64 // milliseconds (q2ded's average over the last frames)
	Name    []byte
	Address []byte // forks that add it; empty otherwise
}

// Decode decodes the reply to `status`.
func Decode(b []byte) (*Reply, error) {
	if len(b) > MaxDatagram {
		return nil, fmt.Errorf("%w: datagram of %d bytes", protocols.ErrTooLarge, len(b))
	}
	if len(b) < 4 || b[0] != 0xFF || b[1] != 0xFF || b[2] != 0xFF || b[3] != 0xFF {
		return nil, fmt.Errorf("%w: no FF FF FF FF marker at offset 0", errNotReply)
	}
	cmd, body, _ := bytes.Cut(b[4:], []byte{'\n'})
	if string(bytes.TrimRight(cmd, " \r")) != keyword {
		return nil, fmt.Errorf("%w: command %q at offset 4, want print", errNotReply, head(cmd, 16))
	}
	if i := bytes.IndexByte(body, 0); i >= 0 {
		body = body[:i] // some forks send the C string's NUL: the rest is padding
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return nil, fmt.Errorf("%w: no text after print at offset %d", protocols.ErrTruncated, len(b)-len(body))
	}
	line, rest, _ := bytes.Cut(body, []byte{'\n'})
	info, ok := quakeworld.ParseInfo(line)
	if !ok {
		// Every console print (rcon output, "Server is full.", a
		// challenge refusal) arrives as the same OOB print.
		return nil, fmt.Errorf("%w: print %q holds no serverinfo", errNotReply, head(body, 24))
	}
	r := &Reply{Info: info}
	r.parsePlayers(rest)
	return r, nil
}

func (r *Reply) parsePlayers(b []byte) {
	if len(b) > 0 {
		r.Players = make([]Player, 0, min(bytes.Count(b, []byte{'\n'})+1, MaxPlayerLines))
	}
	for len(b) > 0 {
		var line []byte
		line, b, _ = bytes.Cut(b, []byte{'\n'})
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		if len(r.Players)+r.Unparsed >= MaxPlayerLines {
			r.Dropped++
			continue
		}
		p, ok := parsePlayer(line)
		if !ok {
			r.Unparsed++
			continue
		}
		r.Players = append(r.Players, p)
	}
}

// parsePlayer reads `score ping "name" ["address"]`. A line cut inside the
// name still counts (the unterminated quote runs to the end).
func parsePlayer(line []byte) (Player, bool) {
	t := quakeworld.Tokenize(line, 4)
	if len(t) < 3 {
		return Player{}, false
	}
	var p Player
	var ok1, ok2 bool
	p.Score, ok1 = quakeworld.ParseInt(t[0])
	p.Ping, ok2 = quakeworld.ParseInt(t[1])
	if !ok1 || !ok2 {
		return Player{}, false
	}
	p.Name = t[2]
	if len(t) > 3 {
		p.Address = t[3]
	}
	return p, true
}

func head(b []byte, n int) string {
	if len(b) > n {
		b = b[:n]
	}
	return wire.Latin1(b)
}

package quakeworld

import (
	"bytes"
	"fmt"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// Caps on what a peer can make the decoder hold.
const (
	// MaxDatagram is the largest reply accepted (a UDP payload cannot be larger).
	MaxDatagram = 65535
	// MaxPlayerLines bounds the player lines parsed: QuakeWorld has 32 client
	// slots, so later lines are only counted in Reply.Dropped.
	MaxPlayerLines = 256
	// maxTokens is how many tokens of a player line are read: the 10 of the
	// richest mvdsv line (team and flags included) and one more.
	maxTokens = 11
)

// A2CPrint is the byte after the OOB marker of a connectionless print, the
// packet a QuakeWorld server answers `status` with.
const A2CPrint = 'n'

// errNotReply marks datagrams that are not a status reply at all (no OOB
// marker, another command, a print that holds no serverinfo): the querier skips
// them instead of failing.
var errNotReply = fmt.Errorf("%w: not a QuakeWorld status reply", protocols.ErrMalformed)

// Reply is a decoded status reply.
type Reply struct {
	Info
	Players  []Player // in wire order, spectators included (see Player.Spectator)
	Unparsed int      // non-empty lines that are not player lines
	Dropped  int      // non-empty lines past MaxPlayerLines, not parsed
	// Terminated is true when the text ended with the NUL qwsv puts after it
	// (false for a cut datagram).
	Terminated bool
}

// Player is one player line.
type Player struct {
	UserID int64
	Frags  int64
	// FragsKnown is false for spectators shown with frags "S" (status option 8).
	FragsKnown bool
	Minutes    int64 // minutes connected
	Ping       int64 // milliseconds; 999 while connecting, 9999 with no frames yet
	Name       []byte
	Skin       []byte
	Top        int64 // shirt colour 0-13
	Bottom     int64 // pants colour 0-13
	Team       []byte
	// Spectator is set for the lines of spectators (frags -9999 or "S", or a
	// `\s\` name prefix), which mvdsv and FTE list when asked to.
	Spectator bool
}

// Decode decodes the reply to `status`.
func Decode(b []byte) (*Reply, error) {
	if len(b) > MaxDatagram {
		return nil, fmt.Errorf("%w: datagram of %d bytes", protocols.ErrTooLarge, len(b))
	}
	if len(b) < 4 || b[0] != 0xFF || b[1] != 0xFF || b[2] != 0xFF || b[3] != 0xFF {
		return nil, fmt.Errorf("%w: no FF FF FF FF marker at offset 0", errNotReply)
	}
	if len(b) < 5 || b[4] != A2CPrint {
		return nil, fmt.Errorf("%w: command byte at offset 4 is %q, want 'n'", errNotReply, head(b[4:], 8))
	}
	body := b[5:]
	r := &Reply{}
	if i := bytes.IndexByte(body, 0); i >= 0 {
		body, r.Terminated = body[:i], true // the text is a C string: the rest is padding
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return nil, fmt.Errorf("%w: no text after the print byte at offset 5", protocols.ErrTruncated)
	}
	line, rest, _ := bytes.Cut(body, []byte{'\n'})
	info, ok := ParseInfo(line)
	if !ok {
		// Any other console print ("\nBad challenge.\n", rcon output) comes
		// in the same packet type: it is not the answer to status.
		return nil, fmt.Errorf("%w: print %q holds no serverinfo", errNotReply, head(body, 24))
	}
	r.Info = info
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

// parsePlayer reads `userid frags minutes ping "name" "skin" top bottom
// ["team" ["flags"]]`. The four numbers and the name are required; a line cut
// after the name still counts, with what it has.
func parsePlayer(line []byte) (Player, bool) {
	t := Tokenize(line, maxTokens)
	if len(t) < 5 {
		return Player{}, false
	}
	var p Player
	var ok [3]bool
	p.UserID, ok[0] = ParseInt(t[0])
	p.Minutes, ok[1] = ParseInt(t[2])
	p.Ping, ok[2] = ParseInt(t[3])
	if !ok[0] || !ok[1] || !ok[2] {
		return Player{}, false
	}
	switch {
	case string(t[1]) == "S": // spectators as players, for ASE-style browsers
		p.Spectator = true
	default:
		p.Frags, p.FragsKnown = ParseInt(t[1])
		if !p.FragsKnown {
			return Player{}, false
		}
	}
	p.Name = t[4]
	if n, ok := bytes.CutPrefix(p.Name, []byte(`\s\`)); ok {
		p.Name, p.Spectator = n, true
	}
	if p.FragsKnown && p.Frags == -9999 {
		p.Spectator = true
	}
	if p.Spectator && p.Ping < 0 {
		p.Ping = -p.Ping // mvdsv negates a spectator's ping
	}
	if len(t) > 5 {
		p.Skin = t[5]
	}
	if len(t) > 7 {
		top, ok1 := ParseInt(t[6])
		bottom, ok2 := ParseInt(t[7])
		if !ok1 || !ok2 {
			return p, true // a quote inside the name shifted the tokens: stop here
		}
		p.Top, p.Bottom = top, bottom
	}
	if len(t) > 8 {
		p.Team = t[8]
	}
	return p, true
}

func head(b []byte, n int) string {
	if len(b) > n {
		b = b[:n]
	}
	return wire.Latin1(b)
}

package quakeworld

import (
	"bytes"
	"fmt"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/idtech"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// maxTokens is how many tokens of a player line are read: the 10 of the
// richest mvdsv line (team and flags included) and one more.
const maxTokens = 11

// a2cPrint is the byte after the OOB marker of a connectionless print, the
// packet a QuakeWorld server answers `status` with.
const a2cPrint = 'n'

// errNotReply marks datagrams that are not a status reply at all (no OOB
// marker, another command, a print that holds no serverinfo): the querier skips
// them instead of failing.
var errNotReply = fmt.Errorf("%w: not a QuakeWorld status reply", wire.ErrMalformed)

// reply is a decoded status reply. Info keys compare case-sensitively, as in
// the engine; Players are in wire order, spectators included (see
// player.Spectator).
type reply struct {
	idtech.Info
	idtech.Lines[player]
	// Terminated is true when the text ended with the NUL qwsv puts after it
	// (false for a cut datagram).
	Terminated bool
}

// player is one player line.
type player struct {
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

// decode decodes the reply to `status`.
func decode(b []byte) (*reply, error) {
	if len(b) > idtech.MaxDatagram {
		return nil, fmt.Errorf("%w: datagram of %d bytes", wire.ErrTooLarge, len(b))
	}
	if !idtech.HasOOB(b) {
		return nil, fmt.Errorf("%w: no FF FF FF FF marker at offset 0", errNotReply)
	}
	if len(b) < 5 || b[4] != a2cPrint {
		return nil, fmt.Errorf("%w: command byte at offset 4 is %q, want 'n'", errNotReply, idtech.HeadText(b[4:], 8))
	}
	body := b[5:]
	r := &reply{}
	if i := bytes.IndexByte(body, 0); i >= 0 {
		body, r.Terminated = body[:i], true // the text is a C string: the rest is padding
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return nil, fmt.Errorf("%w: no text after the print byte at offset 5", wire.ErrTruncated)
	}
	line, rest, _ := bytes.Cut(body, []byte{'\n'})
	info, ok := idtech.ParseInfo(line, idtech.CaseSensitive, wire.Latin1)
	if !ok {
		// Any other console print ("\nBad challenge.\n", rcon output) comes
		// in the same packet type: it is not the answer to status.
		return nil, fmt.Errorf("%w: print %q holds no serverinfo", errNotReply, idtech.HeadText(body, 24))
	}
	r.Info = info
	r.Lines = idtech.ParseLines(rest, parsePlayer)
	return r, nil
}

// parsePlayer reads `userid frags minutes ping "name" "skin" top bottom
// ["team" ["flags"]]`. The four numbers and the name are required; a line cut
// after the name still counts, with what it has.
func parsePlayer(line []byte) (player, bool) {
	t := idtech.Tokenize(line, maxTokens)
	if len(t) < 5 {
		return player{}, false
	}
	var p player
	var ok [3]bool
	p.UserID, ok[0] = idtech.ParseIntQW(t[0])
	p.Minutes, ok[1] = idtech.ParseIntQW(t[2])
	p.Ping, ok[2] = idtech.ParseIntQW(t[3])
	if !ok[0] || !ok[1] || !ok[2] {
		return player{}, false
	}
	switch {
	case string(t[1]) == "S": // spectators as players, for ASE-style browsers
		p.Spectator = true
	default:
		p.Frags, p.FragsKnown = idtech.ParseIntQW(t[1])
		if !p.FragsKnown {
			return player{}, false
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
		top, ok1 := idtech.ParseIntQW(t[6])
		bottom, ok2 := idtech.ParseIntQW(t[7])
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

package darkplaces

import (
	"bytes"
	"fmt"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/quake3"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/quakeworld"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// MaxPlayerLines bounds the player lines parsed: DarkPlaces has at most 255
// client slots, so later lines are only counted in Reply.Dropped.
const MaxPlayerLines = 256

// errNotReply marks datagrams that are not a statusResponse or infoResponse
// at all: the querier skips them instead of failing.
var errNotReply = fmt.Errorf("%w: not a DarkPlaces statusResponse or infoResponse", protocols.ErrMalformed)

// Reply is a decoded statusResponse (or the infoResponse DarkPlaces sends in
// its place when the player list does not fit).
type Reply struct {
	// Q3 is the quake3 decoding: the response kind and the info pairs.
	// Its player lines are not used: DarkPlaces lays them out its own way.
	Q3       *quake3.Reply
	Players  []Player // statusResponse only
	Unparsed int      // non-empty lines without a quoted name or a numeric ping
	Dropped  int      // non-empty lines past MaxPlayerLines, not parsed
}

// Player is one player line: `frags ping [team] "name"`.
type Player struct {
	// Status is the first field: the frags, or the string the game sets per
	// client (DarkPlaces' clientstatus field) in their place.
	Status     []byte
	Score      int64
	ScoreKnown bool // Status is a number
	Ping       int64
	Team       []byte // the team number in Nexuiz/Xonotic team games, else empty
	Name       []byte // raw, colour codes kept
}

// Bot reports whether the line is a bot's: DarkPlaces prints ping 0 only for
// clients without a network connection and clamps everyone else to 1-9999.
func (p *Player) Bot() bool { return p.Ping == 0 }

// Decode decodes the reply to getstatus.
func Decode(b []byte) (*Reply, error) {
	off, ok := replyStart(b)
	if !ok {
		return nil, fmt.Errorf("%w: starts with %q", errNotReply, head(b, 20))
	}
	q, err := quake3.Decode(b)
	if err != nil {
		return nil, err
	}
	r := &Reply{Q3: q}
	if q.Response == quake3.StatusResponse {
		// The quake3 decoder found the info line after the keyword line;
		// the player lines follow the next newline after the info.
		if _, rest, ok := bytes.Cut(b[off:], []byte{'\n'}); ok {
			r.parsePlayers(rest)
		}
	}
	return r, nil
}

// replyStart checks the OOB marker (an optional 01 after it, as quake3 allows)
// and the keyword, and returns the offset of the info line.
func replyStart(b []byte) (int, bool) {
	if len(b) < 4 || b[0] != 0xFF || b[1] != 0xFF || b[2] != 0xFF || b[3] != 0xFF {
		return 0, false
	}
	off := 4
	if off < len(b) && b[off] == 0x01 {
		off++
	}
	for _, k := range [...]string{quake3.StatusResponse, quake3.InfoResponse} {
		if len(b)-off >= len(k) && bytes.EqualFold(b[off:off+len(k)], []byte(k)) {
			off += len(k)
			if off < len(b) && bytes.IndexByte([]byte("\n\r \t\\"), b[off]) < 0 {
				return 0, false // another keyword that starts the same way
			}
			for off < len(b) && (b[off] == ' ' || b[off] == '\t' || b[off] == '\r') {
				off++
			}
			if off < len(b) && b[off] == '\n' {
				off++
			}
			return off, true
		}
	}
	return 0, false
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

// parsePlayer takes the name between the first and the last quote (the server
// removes quotes from names, but a cut line may hold only one) and two or
// three fields before it. The first field may be a game status string, so
// only the ping has to be a number.
func parsePlayer(line []byte) (Player, bool) {
	q1 := bytes.IndexByte(line, '"')
	q2 := bytes.LastIndexByte(line, '"')
	if q1 < 0 || q1 == q2 {
		return Player{}, false
	}
	f := bytes.Fields(line[:q1])
	if len(f) < 2 || len(f) > 3 {
		return Player{}, false
	}
	p := Player{Status: f[0], Name: line[q1+1 : q2]}
	var ok bool
	if p.Ping, ok = quakeworld.ParseInt(f[1]); !ok {
		return Player{}, false
	}
	p.Score, p.ScoreKnown = quakeworld.ParseInt(f[0])
	if len(f) == 3 {
		p.Team = f[2]
	}
	return p, true
}

func head(b []byte, n int) string {
	if len(b) > n {
		b = b[:n]
	}
	return wire.Latin1(b)
}

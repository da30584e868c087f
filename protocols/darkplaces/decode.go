package darkplaces

import (
	"bytes"
	"fmt"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/idtech"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// errNotReply marks datagrams that are not a statusResponse or infoResponse
// at all: the querier skips them instead of failing.
var errNotReply = fmt.Errorf("%w: not a DarkPlaces statusResponse or infoResponse", wire.ErrMalformed)

// reply is a decoded statusResponse (or the infoResponse DarkPlaces sends in
// its place when the player list does not fit): the id Tech 3 frame (response
// kind, info pairs with keys compared case-insensitively) and DarkPlaces' own
// player lines.
type reply struct {
	idtech.Q3Reply
	idtech.Lines[player] // Unparsed: lines without a quoted name or a numeric ping
}

// player is one player line: `frags ping [team] "name"`.
type player struct {
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
func (p *player) Bot() bool { return p.Ping == 0 }

// decode decodes the reply to getstatus. The marker and keyword are checked
// first, so that a datagram that is no reply at all is skipped whatever its
// size.
func decode(b []byte) (*reply, error) {
	if !isReply(b) {
		return nil, fmt.Errorf("%w: starts with %q", errNotReply, idtech.HeadText(b, 20))
	}
	q, rest, err := idtech.DecodeQ3(b, errNotReply, wire.Latin1)
	if err != nil {
		return nil, err
	}
	r := &reply{Q3Reply: q}
	if q.Response == idtech.StatusResponse {
		r.Lines = idtech.ParseLines(rest, parsePlayer)
	}
	return r, nil
}

// isReply checks the OOB marker (an optional 01 after it) and the keyword.
func isReply(b []byte) bool {
	if !idtech.HasOOB(b) {
		return false
	}
	off := 4
	if off < len(b) && b[off] == 0x01 {
		off++
	}
	k, _ := idtech.Q3Keyword(b[off:])
	return k != ""
}

// parsePlayer takes the name between the first and the last quote (the server
// removes quotes from names, but a cut line may hold only one) and two or
// three fields before it. The first field may be a game status string, so
// only the ping has to be a number.
func parsePlayer(line []byte) (player, bool) {
	before, name, _, ok := idtech.SplitQuoted(line)
	if !ok {
		return player{}, false
	}
	f := bytes.Fields(before)
	if len(f) < 2 || len(f) > 3 {
		return player{}, false
	}
	p := player{Status: f[0], Name: name}
	if p.Ping, ok = idtech.ParseIntQW(f[1]); !ok {
		return player{}, false
	}
	p.Score, p.ScoreKnown = idtech.ParseIntQW(f[0])
	if len(f) == 3 {
		p.Team = f[2]
	}
	return p, true
}

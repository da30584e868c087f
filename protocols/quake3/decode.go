package quake3

import (
	"bytes"
	"fmt"
	"strconv"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/idtech"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// errNotReply marks datagrams that are not a reply at all (no OOB marker, another
// keyword such as "print"): the querier skips them instead of failing.
var errNotReply = fmt.Errorf("%w: not a statusResponse or infoResponse", wire.ErrMalformed)

// reply is a decoded statusResponse or infoResponse: the frame (response
// kind, info pairs of which only the first of keys equal but for case is kept)
// and, of a statusResponse, the player lines.
type reply struct {
	idtech.Q3Reply
	idtech.Lines[player] // Unparsed: non-empty lines without a quoted name
}

// player is one player line: 0-3 leading integers, a quoted name, trailing tokens.
type player struct {
	Numbers  [3]int64 // score ping [team] / score ping / ping: see Score and Ping
	NumCount int
	Name     string // between the first and the last quote, decoded, colour codes kept
	Clean    string // Name without colour codes
	After    string // tokens after the closing quote (Warsow: team number)
}

// Score returns the player's score: the first of two or three leading numbers.
func (p *player) Score() (int64, bool) {
	if p.NumCount >= 2 {
		return p.Numbers[0], true
	}
	return 0, false
}

// Ping returns the ping: second of two or three numbers, or the only one (MOHAA).
func (p *player) Ping() (int64, bool) {
	switch p.NumCount {
	case 1:
		return p.Numbers[0], true
	case 2, 3:
		return p.Numbers[1], true
	}
	return 0, false
}

// Team is the third leading number (SoF2 1.01) or else the trailing token (Warsow).
func (p *player) Team() string {
	if p.NumCount == 3 {
		return strconv.FormatInt(p.Numbers[2], 10)
	}
	return p.After
}

// decodeStatus decodes a reply to getstatus, its strings read with text.
func decodeStatus(b []byte, text func([]byte) string) (*reply, error) {
	return decodeAs(b, idtech.StatusResponse, text)
}

// decodeInfo decodes a reply to getinfo, its strings read with text.
func decodeInfo(b []byte, text func([]byte) string) (*reply, error) {
	return decodeAs(b, idtech.InfoResponse, text)
}

func decodeAs(b []byte, want string, text func([]byte) string) (*reply, error) {
	r, err := decode(b, text)
	if err != nil {
		return nil, err
	}
	if r.Response != want {
		return nil, fmt.Errorf("%w: got %s, want %s", errNotReply, r.Response, want)
	}
	return r, nil
}

// decode decodes a statusResponse or an infoResponse datagram, its strings
// read with text: wire.Latin1, or the code page the module's `encoding:` names.
func decode(b []byte, text func([]byte) string) (*reply, error) {
	q, rest, err := idtech.DecodeQ3(b, errNotReply, text)
	if err != nil {
		return nil, err
	}
	r := &reply{Q3Reply: q}
	if q.Response == idtech.StatusResponse { // an infoResponse has nothing after its info string
		r.Lines = idtech.ParseLines(rest, func(line []byte) (player, bool) { return parsePlayer(line, text) })
	}
	return r, nil
}

// parsePlayer takes the name from the first to the last quote, up to three
// leading integers before it, and whatever follows it. Colour codes are
// stripped after decoding with text: they are ASCII in every code page.
func parsePlayer(line []byte, text func([]byte) string) (player, bool) {
	before, name, after, ok := idtech.SplitQuoted(line)
	if !ok {
		return player{}, false
	}
	var p player
	for f := range bytes.FieldsSeq(before) {
		v, ok := idtech.ParseInt(f)
		if !ok || p.NumCount == len(p.Numbers) {
			break
		}
		p.Numbers[p.NumCount] = v
		p.NumCount++
	}
	p.Name = text(name)
	p.Clean = idtech.StripColours(p.Name)
	p.After = text(bytes.TrimSpace(after))
	return p, true
}

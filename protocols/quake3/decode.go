package quake3

import (
	"bytes"
	"fmt"
	"math"
	"strconv"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// Caps on what a peer can make the decoder hold.
const (
	// MaxDatagram is the largest reply accepted (a UDP payload cannot be larger).
	MaxDatagram = 65535
	// MaxPlayerLines bounds the player lines parsed; stock servers have at most 64
	// client slots, so later lines are only counted in Reply.Dropped.
	MaxPlayerLines = 256
	// MaxInfoPairs bounds the info pairs kept. A stock info string holds at most
	// 1024 bytes (MAX_INFO_STRING), i.e. at most 256 non-empty pairs.
	MaxInfoPairs = 512
)

// Reply keywords.
const (
	StatusResponse = "statusResponse"
	InfoResponse   = "infoResponse"
)

// errNotReply marks datagrams that are not a reply at all (no OOB marker, another
// keyword such as "print"): the querier skips them instead of failing.
var errNotReply = fmt.Errorf("%w: not a statusResponse or infoResponse", protocols.ErrMalformed)

// Reply is a decoded statusResponse or infoResponse.
type Reply struct {
	Response string // StatusResponse or InfoResponse
	// Info holds the info string's pairs in wire order, Latin-1 decoded with colour
	// codes kept; of duplicate keys (compared case-insensitively, as the engine
	// does) only the first is kept.
	Info        []protocols.KV
	InfoDropped int // pairs past MaxInfoPairs, duplicates not counted

	Players  []Player // statusResponse only
	Unparsed int      // non-empty player lines without a quoted name
	Dropped  int      // non-empty lines past MaxPlayerLines, not parsed
	// EndsWithNewline is false when the datagram does not end in 0A (a cut
	// statusResponse, or any infoResponse).
	EndsWithNewline bool
}

// Player is one player line: 0-3 leading integers, a quoted name, trailing tokens.
type Player struct {
	Numbers  [3]int64 // score ping [team] / score ping / ping: see Score and Ping
	NumCount int
	Name     string // between the first and the last quote, Latin-1, colour codes kept
	Clean    string // Name without colour codes
	After    string // tokens after the closing quote (Warsow: team number)
}

// Score returns the player's score: the first of two or three leading numbers.
func (p *Player) Score() (int64, bool) {
	if p.NumCount >= 2 {
		return p.Numbers[0], true
	}
	return 0, false
}

// Ping returns the ping: second of two or three numbers, or the only one (MOHAA).
func (p *Player) Ping() (int64, bool) {
	switch p.NumCount {
	case 1:
		return p.Numbers[0], true
	case 2, 3:
		return p.Numbers[1], true
	}
	return 0, false
}

// Team is the third leading number (SoF2 1.01) or else the trailing token (Warsow).
func (p *Player) Team() string {
	if p.NumCount == 3 {
		return strconv.FormatInt(p.Numbers[2], 10)
	}
	return p.After
}

// DecodeStatus decodes a reply to getstatus.
func DecodeStatus(b []byte) (*Reply, error) { return decodeAs(b, StatusResponse) }

// DecodeInfo decodes a reply to getinfo.
func DecodeInfo(b []byte) (*Reply, error) { return decodeAs(b, InfoResponse) }

func decodeAs(b []byte, want string) (*Reply, error) {
	r, err := Decode(b)
	if err != nil {
		return nil, err
	}
	if r.Response != want {
		return nil, fmt.Errorf("%w: got %s, want %s", errNotReply, r.Response, want)
	}
	return r, nil
}

// Decode decodes a statusResponse or an infoResponse datagram.
func Decode(b []byte) (*Reply, error) {
	if len(b) > MaxDatagram {
		return nil, fmt.Errorf("%w: datagram of %d bytes", protocols.ErrTooLarge, len(b))
	}
	if len(b) < 4 || b[0] != 0xFF || b[1] != 0xFF || b[2] != 0xFF || b[3] != 0xFF {
		return nil, fmt.Errorf("%w: no FF FF FF FF marker at offset 0", errNotReply)
	}
	off := 4
	if off < len(b) && b[off] == 0x01 { // an unnamed derivative inserts one 01 byte (qstat)
		off++
	}
	kind, n := keyword(b[off:])
	if kind == "" {
		return nil, fmt.Errorf("%w: unknown keyword %q at offset %d", errNotReply, head(b[off:], 16), off)
	}
	off += n
	for off < len(b) && (b[off] == ' ' || b[off] == '\t' || b[off] == '\r') {
		off++
	}
	if off == len(b) {
		return nil, fmt.Errorf("%w: no info string after %s at offset %d", protocols.ErrTruncated, kind, off)
	}
	if b[off] == '\n' {
		off++
	}
	r := &Reply{Response: kind, EndsWithNewline: b[len(b)-1] == '\n'}
	line, rest, _ := bytes.Cut(b[off:], []byte{'\n'})
	if err := r.parseInfo(line, off); err != nil {
		return nil, err
	}
	if kind == StatusResponse { // an infoResponse has nothing after its info string
		r.parsePlayers(rest)
	}
	return r, nil
}

// keyword matches the reply keyword case-insensitively (the engine compares
// commands that way) and requires a separator after it.
func keyword(b []byte) (string, int) {
	for _, k := range [...]string{StatusResponse, InfoResponse} {
		if len(b) < len(k) || !asciiEqualFold(string(b[:len(k)]), k) {
			continue
		}
		if len(b) == len(k) {
			return k, len(k)
		}
		switch b[len(k)] {
		case '\n', '\r', ' ', '\t', '\\':
			return k, len(k)
		}
	}
	return "", 0
}

// parseInfo splits `\key\value\key\value` into pairs. Bytes before the first
// backslash are junk qstat tolerates; an odd token count (a cut string) leaves
// the last key with an empty value.
func (r *Reply) parseInfo(line []byte, off int) error {
	i := bytes.IndexByte(line, '\\')
	if i < 0 {
		if len(bytes.TrimSpace(line)) == 0 {
			return nil
		}
		return fmt.Errorf("%w: info string at offset %d has no backslash", protocols.ErrMalformed, off)
	}
	s := line[i+1:]
	if r.Response == InfoResponse {
		s = bytes.TrimSuffix(s, []byte{'"'}) // stray trailing quote of some forks (qstat strips it)
	}
	r.Info = make([]protocols.KV, 0, min(bytes.Count(s, []byte{'\\'})/2+1, MaxInfoPairs))
	for {
		k, rest, more := bytes.Cut(s, []byte{'\\'})
		var v []byte
		if more {
			v, s, more = bytes.Cut(rest, []byte{'\\'})
		}
		r.addInfo(k, v)
		if !more {
			return nil
		}
	}
}

func (r *Reply) addInfo(k, v []byte) {
	if len(k) == 0 && len(v) == 0 {
		return // a trailing or doubled backslash
	}
	key := wire.Latin1(k)
	for _, kv := range r.Info {
		if asciiEqualFold(kv.Key, key) {
			return
		}
	}
	if len(r.Info) >= MaxInfoPairs {
		r.InfoDropped++
		return
	}
	r.Info = append(r.Info, protocols.KV{Key: key, Value: wire.Latin1(v)})
}

// parsePlayers reads one player per line; empty lines are skipped, the last line
// counts even without its 0A when it holds both quotes.
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

// parsePlayer takes the name from the first to the last quote (some derivatives
// allow quotes inside names), up to three leading integers before it, and
// whatever follows it.
func parsePlayer(line []byte) (Player, bool) {
	q1 := bytes.IndexByte(line, '"')
	q2 := bytes.LastIndexByte(line, '"')
	if q1 < 0 || q1 == q2 {
		return Player{}, false
	}
	var p Player
	for f := range bytes.FieldsSeq(line[:q1]) {
		v, ok := parseInt(f)
		if !ok || p.NumCount == len(p.Numbers) {
			break
		}
		p.Numbers[p.NumCount] = v
		p.NumCount++
	}
	p.Name = wire.Latin1(line[q1+1 : q2])
	p.Clean = StripColours(p.Name)
	p.After = wire.Latin1(bytes.TrimSpace(line[q2+1:]))
	return p, true
}

// parseInt parses a signed decimal integer, clamping overflow to the int64 range
// (broken servers send numbers past int32).
func parseInt(b []byte) (int64, bool) {
	neg := false
	if len(b) > 0 && (b[0] == '-' || b[0] == '+') {
		neg = b[0] == '-'
		b = b[1:]
	}
	if len(b) == 0 {
		return 0, false
	}
	var v int64
	over := false
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		d := int64(c - '0')
		if v > (math.MaxInt64-d)/10 {
			over = true
		} else if !over {
			v = v*10 + d
		}
	}
	switch {
	case over && neg:
		return math.MinInt64, true
	case over:
		return math.MaxInt64, true
	case neg:
		return -v, true
	}
	return v, true
}

func asciiEqualFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

func head(b []byte, n int) []byte {
	if len(b) > n {
		return b[:n]
	}
	return b
}

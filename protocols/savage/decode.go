package savage

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/s2games"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// header starts every Savage packet: the engine's fixed "non-reliable sequence"
// 2313374 as a little-endian u32, then a flags byte that must be 0.
var header = []byte{0x9E, 0x4C, 0x23, 0x00, 0x00}

// Commands (engine CPROTO_*): a request and the reply it gets.
const (
	cmdInfo         = 0xC8 // basic info
	cmdInfoReply    = 0xC9
	cmdExtInfo      = 0xCE // extended info, with the player list
	cmdExtInfoReply = 0xCF
)

const (
	headerLen  = 5
	echoOffset = headerLen + 2 // after the reply command and the protocol version
	minReply   = echoOffset + 4
	// maxPairs caps the pairs of one state string; the engine builds each in a
	// 1024-byte buffer, so a real one holds well under this.
	maxPairs = 512
	// maxPlayers caps the lines read from the players value (also 1024 bytes on a
	// real server).
	maxPlayers = 1024
	stateChar  = 0xFF // starts a key
	valueChar  = 0xFE // separates key and value
)

// newRequest builds the legacy 10-byte query: header, command, 4 echo bytes.
func newRequest(cmd byte, echo [4]byte) []byte {
	b := append(append(make([]byte, 0, minReply-1), header...), cmd)
	return append(b, echo[:]...)
}

// reply is a decoded info reply.
type reply struct {
	Cmd      byte  // cmdInfoReply or cmdExtInfoReply
	Protocol uint8 // NET_PROTOCOL_VERSION, informational
	Echo     [4]byte
	Engine   []protocols.KV // name, world, cnum, cmax, time, fw
	Game     []protocols.KV // gametype, pass, race1, ..., players
	// Truncated is set when a state string lacks its NUL terminator: what was
	// there is decoded, but keys (the player list) may be missing or cut.
	Truncated bool
}

// decode parses an info reply. Echo checking is the caller's (it knows what it sent).
func decode(b []byte) (*reply, error) {
	if len(b) < len(header) || !bytes.Equal(b[:len(header)], header) {
		return nil, fmt.Errorf("%w: reply does not start with the Savage header % X", wire.ErrMalformed, header)
	}
	if len(b) < minReply {
		return nil, fmt.Errorf("%w: reply of %d bytes, need at least %d", wire.ErrTruncated, len(b), minReply)
	}
	r := &reply{Cmd: b[len(header)], Protocol: b[len(header)+1]}
	if r.Cmd != cmdInfoReply && r.Cmd != cmdExtInfoReply {
		return nil, fmt.Errorf("%w: reply command 0x%02X at offset %d is not an info reply", wire.ErrMalformed, r.Cmd, len(header))
	}
	copy(r.Echo[:], b[echoOffset:minReply])

	// Split on NUL first so the last engine value cannot run into the game string.
	rd := wire.NewReader(b[minReply:])
	engine, ok := rd.Until(0)
	game, ok2 := rd.Until(0)
	r.Truncated = !ok || !ok2
	var err error
	if r.Engine, err = parseState(engine, "engine"); err != nil {
		return nil, err
	}
	if r.Game, err = parseState(game, "game"); err != nil {
		return nil, err
	}
	return r, nil
}

// parseState splits a state string { 0xFF key 0xFE value } into pairs. Bytes before
// the first 0xFF are ignored; an item without 0xFE is a key with an empty value.
func parseState(s []byte, what string) ([]protocols.KV, error) {
	if i := bytes.IndexByte(s, stateChar); i >= 0 {
		s = s[i+1:]
	} else {
		return nil, nil
	}
	var out []protocols.KV
	for {
		item, rest, more := bytes.Cut(s, []byte{stateChar})
		if len(item) > 0 {
			if len(out) >= maxPairs {
				return nil, fmt.Errorf("%w: %s string has more than %d pairs", wire.ErrTooLarge, what, maxPairs)
			}
			k, v, _ := bytes.Cut(item, []byte{valueChar})
			out = append(out, protocols.KV{Key: wire.UTF8(k), Value: wire.UTF8(v)})
		}
		if !more {
			return out, nil
		}
		s = rest
	}
}

// strip removes Savage colour codes: ^ followed by three digits (^900) or a letter
// (^y); Savage 2 shares the rule.
func strip(s string) string { return s2games.Strip(s) }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// parsePlayers reads the players value: lines separated by 0x0A, team headers
// ("Team 1 (human):", XR's "^900Spectators") switching the team of the names that
// follow, "--empty team--" placeholders, and " (Commander)" suffixes.
func parsePlayers(v string) []protocols.Player {
	var out []protocols.Player
	team := ""
	for line := range strings.SplitSeq(v, "\n") {
		clean := strings.TrimSpace(strip(line))
		switch {
		case clean == "", clean == "--empty team--":
		case isTeamHeader(clean):
			team = strings.TrimSuffix(clean, ":")
		default:
			if len(out) >= maxPlayers {
				return out
			}
			out = append(out, protocols.Player{Name: strings.TrimSuffix(clean, " (Commander)"), Team: team})
		}
	}
	return out
}

// isTeamHeader follows qstat ("Team " prefix), narrowed to "Team <digit>" so that a
// player called "Team Rocket" stays a player, plus Savage XR's spectator block.
func isTeamHeader(s string) bool {
	if s == "Spectators" || s == "Spectators:" {
		return true
	}
	return len(s) > 5 && strings.HasPrefix(s, "Team ") && isDigit(s[5])
}

// count parses a number leniently (leading sign and digits, spaces around); anything
// else, an absent key or a negative number (no count or flag is) is "not reported".
func count(kvs []protocols.KV, key string) protocols.Count {
	v, ok := protocols.Lookup(kvs, key)
	if !ok {
		return protocols.Count{}
	}
	v = strings.TrimSpace(v)
	i := 0
	if i < len(v) && (v[i] == '-' || v[i] == '+') {
		i++
	}
	for i < len(v) && i < 18 && isDigit(v[i]) {
		i++
	}
	n, err := strconv.ParseInt(v[:i], 10, 64)
	if err != nil || n < 0 {
		return protocols.Count{}
	}
	return protocols.Known(n)
}

// engineFields are the engine keys that have a Result field of their own.
var engineFields = map[string]bool{"name": true, "world": true, "cnum": true, "cmax": true}

// Result turns the reply into a protocols.Result. The player list comes only with an
// extended (CF) reply and when asked for; cnum stays the player count either way,
// since the engine truncates the list or drops it when it would overflow.
func (r *reply) Result(players, rules bool) *protocols.Result {
	name, _ := protocols.Lookup(r.Engine, "name")
	world, _ := protocols.Lookup(r.Engine, "world")
	gametype, _ := protocols.Lookup(r.Game, "gametype")
	res := &protocols.Result{
		Name:       strip(name),
		Map:        strip(world),
		Game:       strip(gametype),
		Version:    strconv.Itoa(int(r.Protocol)),
		Players:    count(r.Engine, "cnum"),
		MaxPlayers: count(r.Engine, "cmax"),
	}
	if v, ok := protocols.Lookup(r.Game, "ver"); ok { // Savage XR's own version key
		res.Version = strings.TrimSpace(strip(v))
	}
	if p := count(r.Game, "pass"); p.Known {
		res.Password = protocols.FlagOf(p.Value != 0)
	}
	res.Info = make([]protocols.KV, 0, 1+len(r.Engine)+len(r.Game))
	res.Info = append(res.Info, protocols.KV{Key: "net_protocol", Value: strconv.Itoa(int(r.Protocol))})
	res.Info = append(append(res.Info, r.Engine...), r.Game...)

	if rules {
		for _, kv := range r.Engine {
			if !engineFields[kv.Key] {
				res.Rules = append(res.Rules, kv)
			}
		}
		for _, kv := range r.Game {
			if kv.Key != "players" {
				res.Rules = append(res.Rules, kv)
			}
		}
		if r.Truncated {
			res.PhaseErrors = append(res.PhaseErrors, protocols.PhaseError{Phase: "rules",
				Err: fmt.Errorf("%w: state string without its NUL terminator", wire.ErrTruncated)})
		}
	}
	if players {
		if err := r.playersErr(res.Players); err != nil {
			res.PhaseErrors = append(res.PhaseErrors, protocols.PhaseError{Phase: "players", Err: err})
		}
		if v, ok := protocols.Lookup(r.Game, "players"); ok {
			res.PlayerList = parsePlayers(v)
		}
	}
	return res
}

// playersErr says why the player list is missing or incomplete, if it is.
func (r *reply) playersErr(cnum protocols.Count) error {
	_, ok := protocols.Lookup(r.Game, "players")
	switch {
	case r.Cmd != cmdExtInfoReply:
		return fmt.Errorf("%w: basic info reply (0x%02X) carries no player list", wire.ErrServer, r.Cmd)
	case r.Truncated:
		return fmt.Errorf("%w: game info string without its NUL terminator", wire.ErrTruncated)
	case !ok && cnum.Value > 0:
		// The engine drops the whole key when it would overflow its 1024-byte buffer.
		return fmt.Errorf("%w: no players key for %d players (list over the server's buffer)", wire.ErrTooLarge, cnum.Value)
	}
	return nil
}

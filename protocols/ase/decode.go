package ase

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// magic starts every full-status reply; its 4th byte doubles as a fragment number
// in the split variant (see fragments.go).
var magic = []byte("EYE1")

// maxPlayers caps the player records decoded from one reply: a record can be a
// single flags byte, so a 64 KiB datagram could otherwise claim 65k players.
const maxPlayers = 4096

// playerFields names the fields a player record's flags byte announces, in bit order
// (0x01 name, 0x02 team, 0x04 skin, 0x08 score, 0x10 ping, 0x20 time); for errors.
var playerFields = [...]string{"player %d name", "player %d team", "player %d skin", "player %d score", "player %d ping", "player %d time"}

// status is a decoded EYE1 reply. The header fields are all or nothing; the rules and
// the player list may be cut short, in which case RulesErr / PlayersErr say why and
// the slices hold what was decoded before the fault.
type status struct {
	Game       string // "mta", "farcry", ...
	Port       string // game port as the server reports it
	Name       string
	GameType   string
	Map        string
	Version    string
	Password   protocols.Flag
	Players    protocols.Count
	MaxPlayers protocols.Count

	Info       []protocols.KV // the nine header fields, raw
	Rules      []protocols.KV
	PlayerList []protocols.Player

	RulesErr   error
	PlayersErr error
}

// headerKeys names the nine fixed fields after the magic, in wire order (GameQ's
// names, so debug output matches what users see elsewhere).
var headerKeys = [...]string{"gamename", "port", "servername", "gametype", "map", "version", "password", "numplayers", "maxplayers"}

// decode parses one complete (reassembled) EYE1 reply, its strings read with
// text: wire.UTF8, or the code page the module's `encoding:` names. An error
// means the header could not be read; faults in the rules or player sections
// are reported in the Status instead, with everything decoded before them.
func decode(b []byte, text func([]byte) string) (*status, error) {
	if len(b) < len(magic) || !bytes.Equal(b[:len(magic)], magic) {
		return nil, fmt.Errorf("%w: reply does not start with %q", wire.ErrMalformed, magic)
	}
	r := wire.NewReader(b)
	r.Skip(len(magic), "magic")

	var h [len(headerKeys)]string
	for i, k := range headerKeys {
		v, err := lpString(&r, k, -1)
		if err != nil {
			return nil, err
		}
		h[i] = text(v)
	}
	s := &status{
		Game: h[0], Port: h[1], Name: h[2], GameType: h[3], Map: h[4], Version: h[5],
		Password:   flag(h[6]),
		Players:    protocols.ParseCount(h[7]),
		MaxPlayers: protocols.ParseCount(h[8]),
		Info:       make([]protocols.KV, len(headerKeys)),
	}
	for i, k := range headerKeys {
		s.Info[i] = protocols.KV{Key: k, Value: h[i]}
	}

	if s.RulesErr = decodeRules(&r, s, text); s.RulesErr != nil {
		// Without the end of the rules we cannot know where the players start.
		s.PlayersErr = fmt.Errorf("%w: player list unreadable after the rules failed", wire.ErrTruncated)
		return s, nil
	}
	s.PlayersErr = decodePlayers(&r, s, text)
	return s, nil
}

// decodeRules reads key/value pairs up to the empty key that ends them.
func decodeRules(r *wire.Reader, s *status, text func([]byte) string) error {
	for i := 0; ; i++ {
		k, err := lpString(r, "rule %d key", i)
		if err != nil {
			return err
		}
		if len(k) == 0 {
			return nil
		}
		v, err := lpString(r, "rule %d value", i)
		if err != nil {
			return err
		}
		// Each pair takes at least 2 bytes of a bounded datagram: no cap needed.
		s.Rules = append(s.Rules, protocols.KV{Key: text(k), Value: text(v)})
	}
}

// decodePlayers reads player records to the end of the datagram. A record cut
// mid-way is dropped, as the spec says; a flags byte of 0 ends the list (qstat).
func decodePlayers(r *wire.Reader, s *status, text func([]byte) string) error {
	for i := 0; r.Len() > 0; i++ {
		if i >= maxPlayers {
			return fmt.Errorf("%w: more than %d player records", wire.ErrTooLarge, maxPlayers)
		}
		flags := r.Uint8("player flags")
		if flags == 0 {
			return nil
		}
		var f [len(playerFields)][]byte
		for bit := range f {
			if flags&(1<<bit) == 0 {
				continue
			}
			v, err := lpString(r, playerFields[bit], i)
			if err != nil {
				return err
			}
			f[bit] = v
		}
		p := protocols.Player{
			Name:  text(f[0]),
			Team:  text(f[1]),
			Score: score(string(f[3])),
			Ping:  protocols.ParseCount(string(f[4])),
		}
		p.Duration, p.DurationKnown = duration(string(f[5]))
		s.PlayerList = append(s.PlayerList, p)
	}
	return nil
}

// lpString reads a string whose length byte counts itself: 0x01 is empty, 0x00 is
// invalid (it would make a naive reader loop or underflow). what names the field,
// with idx filled into its %d (when idx >= 0) only if an error needs it.
func lpString(r *wire.Reader, what string, idx int) ([]byte, error) {
	off := r.Offset()
	n, ok := r.Peek()
	switch {
	case !ok:
		return nil, fmt.Errorf("%w: %s length at offset %d: end of reply", wire.ErrTruncated, field(what, idx), off)
	case n == 0:
		return nil, fmt.Errorf("%w: %s has length byte 0 at offset %d", wire.ErrMalformed, field(what, idx), off)
	case int(n) > r.Len():
		return nil, fmt.Errorf("%w: %s at offset %d needs %d bytes, %d left", wire.ErrTruncated, field(what, idx), off, n, r.Len())
	}
	r.Skip(1, what)
	return r.Bytes(int(n)-1, what), nil
}

func field(what string, idx int) string {
	if idx < 0 {
		return what
	}
	return fmt.Sprintf(what, idx)
}

// score parses a player's score, which may be negative; anything but decimal
// text is "not reported". Counts and pings are protocols.ParseCount's: never
// negative.
func score(s string) protocols.Count {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return protocols.Count{}
	}
	return protocols.Known(n)
}

func flag(s string) protocols.Flag {
	switch s {
	case "0":
		return protocols.FlagFalse
	case "1":
		return protocols.FlagTrue
	}
	return protocols.FlagUnknown
}

// duration parses a player's time: leading digits, in seconds unless a unit follows
// ("8m" in a Far Cry dump); the spec reads any unit as minutes, but an explicit "s"
// or "h" is taken at its word.
func duration(s string) (float64, bool) {
	i := 0
	for i < len(s) && i < 12 && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == 0 {
		return 0, false
	}
	n, _ := strconv.ParseInt(s[:i], 10, 64)
	v := float64(n)
	switch {
	case i == len(s):
	case s[i] == 's':
	case s[i] == 'h':
		v *= 3600
	default:
		v *= 60
	}
	return v, true
}

// Result turns the decoded reply into a protocols.Result; players and rules are
// included when asked for, and their decoding faults become PhaseErrors.
func (s *status) Result(players, rules bool) *protocols.Result {
	res := &protocols.Result{
		Game:       s.Game,
		Name:       s.Name,
		Map:        s.Map,
		Version:    s.Version,
		Players:    s.Players,
		MaxPlayers: s.MaxPlayers,
		Password:   s.Password,
		Info:       s.Info,
	}
	if rules {
		res.Rules = s.Rules
		if s.RulesErr != nil {
			res.PhaseErrors = append(res.PhaseErrors, protocols.PhaseError{Phase: "rules", Err: s.RulesErr})
		}
	}
	if errors.Is(s.PlayersErr, wire.ErrTooLarge) {
		// A server that sends more records than any server has players lies about
		// its count too: report none rather than the number it declared.
		res.Players = protocols.Count{}
	}
	if players {
		res.PlayerList = s.PlayerList
		if s.PlayersErr != nil {
			res.PhaseErrors = append(res.PhaseErrors, protocols.PhaseError{Phase: "players", Err: s.PlayersErr})
		}
	}
	return res
}

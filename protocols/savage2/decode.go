package savage2

import (
	"encoding/hex"
	"fmt"
	"strconv"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/s2games"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// request asks for the server info.
var request = []byte{0x01}

// headerLen is the reply's header, before the server name.
const headerLen = 12

// reply is a decoded server info reply.
type reply struct {
	Header                       []byte
	Name                         string
	Players, Max                 uint8
	Time, Map, NextMap, Location string
	MinPlayers                   uint8
	Stats                        bool
	Races, Version               string // races: the game mode of later builds
	Password, HasPassword        bool   // HasPassword: the 1.x layout sends one
	MinLevel                     int    // later builds; -1 when not sent
	// Tail is false when the reply ends after the location, or TailErr when it
	// ends inside the fields after it: they are then unknown, not zero.
	Tail    bool
	TailErr error
}

// answers skips a datagram too short for a reply: the answer echoes nothing of
// the request, so only its size and content tell a reply from a stray.
func answers(b []byte) error {
	if len(b) <= headerLen {
		return fmt.Errorf("%w: %d-byte datagram, a reply has a %d-byte header and more", wire.ErrTruncated, len(b), headerLen)
	}
	return nil
}

// aReply skips a decoded datagram with neither a name nor slots (zeros).
func aReply(r *reply) error {
	if r.Name == "" && r.Max == 0 {
		return fmt.Errorf("%w: no server name and no slots: not a server's reply", wire.ErrMalformed)
	}
	return nil
}

func str(rd *wire.Reader, what string) string { return wire.UTF8(rd.CString(what)) }

// decode parses a reply. The header is kept (debug output) but not checked: the
// engine's bytes there vary and carry nothing tied to the one-byte request.
func decode(b []byte) (*reply, error) {
	rd := wire.NewReader(b)
	r := &reply{Header: rd.Bytes(headerLen, "header"), MinLevel: -1}
	r.Name = s2games.Strip(str(&rd, "server name"))
	r.Players = rd.Uint8("players")
	r.Max = rd.Uint8("max players")
	r.Time = str(&rd, "match time")
	r.Map = str(&rd, "map")
	r.NextMap = str(&rd, "next map")
	r.Location = str(&rd, "location")
	if err := rd.Err(); err != nil {
		return nil, err
	}
	if rd.Len() == 0 {
		return r, nil
	}
	r.MinPlayers = rd.Uint8("minimum players")
	// 1.x builds (the jxqf captures) send a stats flag, the races, the version and
	// a password byte; later builds (what both gamedigs read) the game mode, the
	// version and a minimum account level. A stats flag is 0 or 1, a game mode
	// string starts with a printable byte.
	if c, ok := rd.Peek(); ok && c <= 1 {
		r.Stats = rd.Uint8("stats") != 0
		r.Races = str(&rd, "races")
		r.Version = str(&rd, "version")
		r.Password = rd.Uint8("password") != 0
		r.HasPassword = rd.Err() == nil
	} else {
		r.Races = str(&rd, "game mode")
		r.Version = str(&rd, "version")
		r.MinLevel = int(rd.Uint8("minimum level"))
	}
	if err := rd.Err(); err != nil {
		// The status is known; what follows the location is not.
		r.TailErr = fmt.Errorf("after the location: %w", err)
		return r, nil
	}
	r.Tail = true
	return r, nil
}

func flag(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

// Result turns the reply into a protocols.Result. The reply has no player list.
func (r *reply) Result(rules bool) *protocols.Result {
	res := &protocols.Result{
		Name:       r.Name,
		Map:        r.Map,
		Players:    protocols.Known(int64(r.Players)),
		MaxPlayers: protocols.Known(int64(r.Max)),
	}
	kv := func(k, v string) protocols.KV { return protocols.KV{Key: k, Value: v} }
	set := []protocols.KV{kv("time", r.Time), kv("next_map", r.NextMap), kv("location", r.Location)}
	if r.Tail {
		res.Version = r.Version
		res.Game = r.Races
		set = append(set, kv("min_players", strconv.Itoa(int(r.MinPlayers))), kv("game_mode", r.Races))
		if r.HasPassword {
			res.Password = protocols.FlagOf(r.Password)
			set = append(set, kv("stats", flag(r.Stats)))
		}
		if r.MinLevel >= 0 {
			set = append(set, kv("min_level", strconv.Itoa(r.MinLevel)))
		}
	}
	res.Info = append([]protocols.KV{kv("header", hex.EncodeToString(r.Header))}, set...)
	if r.TailErr != nil {
		res.Info = append(res.Info, kv("tail_error", r.TailErr.Error()))
	}
	if rules {
		res.Rules = set
	}
	return res
}

package rfactor

import (
	"bytes"
	"fmt"
	"net/netip"
	"strconv"
	"strings"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// request asks for the server info.
var request = []byte("rF_S")

// fixedLen is the reply's fixed part, before the vehicle string.
const fixedLen = 8 + 1 + 2 + 4 + 2 + 2 + 2 + 2 + 2 + 20 + 28 + 32 + 96 + 2 + 2 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 2 + 1 + 2 + 2 + 2 + 3

// Bits of the special flags byte.
const (
	specialPassword    = 1 << 1
	specialRaceCast    = 1 << 2
	specialFixedSetups = 1 << 4
)

// aids names the bits of the driving aids field, lowest first.
var aids = []string{"traction_control", "anti_lock_braking", "stability_control", "auto_shifting", "auto_clutch",
	"invulnerability", "opposite_lock", "steering_help", "braking_help", "spin_recovery", "auto_pitstop"}

type reply struct {
	GameName                            string
	Region                              uint16
	Addr                                netip.Addr
	Version, VersionRaceCast            uint16
	GamePort, QueryPort                 uint16
	Game, Name, Map, MOTD               string
	Aids                                uint16
	Players, Max, Bots, Special, Damage uint8
	Rules                               uint16
	Time, Laps                          uint16
	Vehicles                            string
}

// fixed reads a fixed-size field holding a NUL-terminated string.
func fixed(rd *wire.Reader, n int, what string) string {
	b := rd.Bytes(n, what)
	if i := bytes.IndexByte(b, 0); i >= 0 {
		b = b[:i]
	}
	return wire.UTF8(b)
}

// Offsets of the server name's 28-byte field and of the max players byte.
const (
	nameOffset = 8 + 1 + 2 + 4 + 2 + 2 + 2 + 2 + 2 + 20
	maxOffset  = nameOffset + 28 + 32 + 96 + 2 + 2 + 1 + 1 + 1
)

// answers says whether b is an rF_S reply: the fixed part is there, the game name
// is printable ASCII ended by a NUL within its 8 bytes, the server name field
// holds its NUL, and there is a name or a slot (zeros are no reply). The reply echoes nothing of the request, so this is what tells a
// reply from a stray.
func answers(b []byte) error {
	if len(b) < fixedLen {
		return fmt.Errorf("%w: %d-byte datagram, an rF_S reply's fixed part is %d", wire.ErrTruncated, len(b), fixedLen)
	}
	end := bytes.IndexByte(b[:8], 0)
	if end < 1 || bytes.IndexByte(b[nameOffset:nameOffset+28], 0) < 0 {
		return fmt.Errorf("%w: the game name or server name field is not a NUL-ended string", wire.ErrMalformed)
	}
	for _, c := range b[:end] {
		if c < 0x20 || c > 0x7E {
			return fmt.Errorf("%w: game name byte 0x%02X is not printable", wire.ErrMalformed, c)
		}
	}
	if b[nameOffset] == 0 && b[maxOffset] == 0 {
		return fmt.Errorf("%w: no server name and no slots: not a server's reply", wire.ErrMalformed)
	}
	return nil
}

func decode(b []byte) (*reply, error) {
	if err := answers(b); err != nil {
		return nil, err
	}
	rd := wire.NewReader(b)
	r := &reply{}
	r.GameName = fixed(&rd, 8, "game name")
	rd.Skip(1, "full update")
	r.Region = rd.Uint16LE("region")
	r.Addr = netip.AddrFrom4([4]byte(rd.Bytes(4, "address")))
	rd.Skip(2, "size")
	r.Version = rd.Uint16LE("version")
	r.VersionRaceCast = rd.Uint16LE("RaceCast version")
	r.GamePort = rd.Uint16LE("game port")
	r.QueryPort = rd.Uint16LE("query port")
	r.Game = fixed(&rd, 20, "game")
	r.Name = fixed(&rd, 28, "server name")
	r.Map = fixed(&rd, 32, "track")
	r.MOTD = fixed(&rd, 96, "motd")
	r.Aids = rd.Uint16LE("aids")
	rd.Skip(2, "ping")
	rd.Skip(1, "flags")
	rd.Skip(1, "rate")
	r.Players = rd.Uint8("players")
	r.Max = rd.Uint8("max players")
	r.Bots = rd.Uint8("AI")
	r.Special = rd.Uint8("special flags")
	r.Damage = rd.Uint8("damage")
	r.Rules = rd.Uint16LE("rules")
	rd.Skip(3, "credits")
	r.Time = rd.Uint16LE("time")
	r.Laps = rd.Uint16LE("laps")
	rd.Skip(3, "padding")
	if err := rd.Err(); err != nil {
		return nil, err
	}
	v, _ := rd.Until(0) // the vehicle classes, to the NUL or the end
	r.Vehicles = wire.UTF8(v)
	return r, nil
}

// Result turns the reply into a Result. The server counts its human players and
// its AI drivers apart: Players is the former, Bots the latter.
func (r *reply) Result() *protocols.Result {
	res := &protocols.Result{
		Name:       r.Name,
		Map:        r.Map,
		Game:       r.Game,
		Version:    strconv.Itoa(int(r.Version)),
		Players:    protocols.Known(int64(r.Players)),
		MaxPlayers: protocols.Known(int64(r.Max)),
		Bots:       protocols.Known(int64(r.Bots)),
		Password:   protocols.FlagOf(r.Special&specialPassword != 0),
	}
	var on []string
	for i, a := range aids {
		if r.Aids&(1<<i) != 0 {
			on = append(on, a)
		}
	}
	kv := func(k, v string) protocols.KV { return protocols.KV{Key: k, Value: v} }
	i := func(n int) string { return strconv.Itoa(n) }
	res.Info = []protocols.KV{
		kv("game_name", r.GameName), kv("region", i(int(r.Region))), kv("address", r.Addr.String()),
		kv("racecast_version", i(int(r.VersionRaceCast))), kv("game_port", i(int(r.GamePort))), kv("query_port", i(int(r.QueryPort))),
		kv("motd", r.MOTD), kv("aids", strings.Join(on, ",")), kv("damage", i(int(r.Damage))), kv("rules", i(int(r.Rules))),
		kv("racecast", strconv.FormatBool(r.Special&specialRaceCast != 0)), kv("fixed_setups", strconv.FormatBool(r.Special&specialFixedSetups != 0)),
		kv("time", i(int(r.Time))), kv("laps", strconv.FormatFloat(float64(r.Laps)/16, 'f', -1, 64)), kv("vehicles", r.Vehicles),
	}
	return res
}

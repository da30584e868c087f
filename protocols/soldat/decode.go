package soldat

import (
	"fmt"
	"strconv"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// REFRESHX layout (see the package comment).
const (
	slots     = 32
	nameLen   = 24
	hwidLen   = 11
	mapLen    = 16
	header    = "REFRESHX\r\n"
	recordLen = len(header) + slots*(1+nameLen) + slots*(1+hwidLen) + slots + slots*2 + slots + slots*2 +
		slots*4 + slots + slots*4 + slots*4 + slots*4 + 4*4 + 4*2 + (1 + mapLen) + 4 + 4 + 2 + 4 + (1 + mapLen)
)

// Team numbers.
const (
	teamSpectator = 5
	teamEmpty     = 255
)

var teamNames = map[uint8]string{0: "none", 1: "alpha", 2: "bravo", 3: "charlie", 4: "delta", teamSpectator: "spectator"}

// gameStyles are sv_gamemode's values.
var gameStyles = []string{"Deathmatch", "Pointmatch", "Teammatch", "Capture the Flag", "Rambomatch", "Infiltration", "Hold the Flag"}

type player struct {
	name               string
	team, caps, number uint8
	kills, deaths      uint16
	ping               int32
	bot                bool // no IP address: not a human's connection
}

// refresh is a decoded REFRESHX record.
type refresh struct {
	players                     []player
	teamScore                   [4]uint16
	mapName, nextMap            string
	timeLimit, timeLeft         int32
	killLimit                   uint16
	style, maxPlayers, maxSpecs uint8
	passworded                  uint8
}

// shortString reads a Pascal string[n]: a length byte and n bytes, made UTF-8
// by text.
func shortString(r *wire.Reader, n int, what string, text func([]byte) string) string {
	l := int(r.Uint8(what + " length"))
	b := r.Bytes(n, what)
	if r.Err() != nil {
		return ""
	}
	return text(b[:min(l, n)])
}

// decodeRefresh reads a REFRESHX record (b holds exactly recordLen bytes).
func decodeRefresh(b []byte, text func([]byte) string) (*refresh, error) {
	if len(b) != recordLen {
		return nil, fmt.Errorf("%w: a REFRESHX record of %d bytes, want %d", wire.ErrTruncated, len(b), recordLen)
	}
	if string(b[:len(header)]) != header {
		return nil, fmt.Errorf("%w: the record does not start with REFRESHX", wire.ErrMalformed)
	}
	r := wire.NewReader(b)
	r.Skip(len(header), "header")
	var (
		names           [slots]string
		team, caps, num [slots]uint8
		kills, deaths   [slots]uint16
		ping            [slots]int32
		ip              [slots][4]byte
	)
	for i := range slots {
		names[i] = shortString(&r, nameLen, fmt.Sprintf("player %d name", i), text)
	}
	for range slots {
		shortString(&r, hwidLen, "hardware id", text) // never exported
	}
	for i := range slots {
		team[i] = r.Uint8("team")
	}
	for i := range slots {
		kills[i] = r.Uint16LE("kills")
	}
	for i := range slots {
		caps[i] = r.Uint8("caps")
	}
	for i := range slots {
		deaths[i] = r.Uint16LE("deaths")
	}
	for i := range slots {
		ping[i] = r.Int32LE("ping")
	}
	for i := range slots {
		num[i] = r.Uint8("player number")
	}
	for i := range slots {
		copy(ip[i][:], r.Bytes(4, "IP")) // only whether it is zero is kept
	}
	r.Skip(slots*4*2+4*4, "positions")
	rf := &refresh{}
	for i := range rf.teamScore {
		rf.teamScore[i] = r.Uint16LE("team score")
	}
	rf.mapName = shortString(&r, mapLen, "map", text)
	rf.timeLimit = r.Int32LE("time limit")
	rf.timeLeft = r.Int32LE("time left")
	rf.killLimit = r.Uint16LE("kill limit")
	rf.style = r.Uint8("game style")
	rf.maxPlayers = r.Uint8("max players")
	rf.maxSpecs = r.Uint8("max spectators")
	rf.passworded = r.Uint8("password")
	rf.nextMap = shortString(&r, mapLen, "next map", text)
	if err := r.Err(); err != nil {
		return nil, err
	}
	for i := range slots {
		if team[i] == teamEmpty {
			continue
		}
		rf.players = append(rf.players, player{
			name: names[i], team: team[i], caps: caps[i], number: num[i],
			kills: kills[i], deaths: deaths[i], ping: ping[i], bot: ip[i] == [4]byte{},
		})
	}
	return rf, nil
}

// result maps a record: players are the humans (spectators included), bots
// the slots without an address.
func (rf *refresh) result(withList bool) *protocols.Result {
	res := &protocols.Result{Map: rf.mapName, MaxPlayers: protocols.Known(int64(rf.maxPlayers))}
	if int(rf.style) < len(gameStyles) {
		res.Game = gameStyles[rf.style]
	}
	if rf.passworded <= 1 {
		res.Password = protocols.FlagOf(rf.passworded == 1)
	}
	var humans, bots, specs int64
	if withList {
		res.PlayerList = make([]protocols.Player, 0, len(rf.players))
	}
	for _, p := range rf.players {
		switch {
		case p.bot:
			bots++
		default:
			humans++
		}
		if p.team == teamSpectator {
			specs++
		}
		if withList {
			team, ok := teamNames[p.team]
			if !ok {
				team = strconv.Itoa(int(p.team))
			}
			pl := protocols.Player{Name: p.name, Score: protocols.Known(int64(p.kills)), Team: team, Bot: p.bot}
			if p.ping >= 0 && !p.bot {
				pl.Ping = protocols.Known(int64(p.ping))
			}
			res.PlayerList = append(res.PlayerList, pl)
		}
	}
	res.Players, res.Bots = protocols.Known(humans), protocols.Known(bots)
	kv := func(k, v string) { res.Info = append(res.Info, protocols.KV{Key: k, Value: v}) }
	num := func(k string, v int64) { kv(k, strconv.FormatInt(v, 10)) }
	kv("map", rf.mapName)
	kv("next_map", rf.nextMap)
	num("game_style", int64(rf.style))
	num("time_limit", int64(rf.timeLimit))
	num("time_left", int64(rf.timeLeft))
	num("kill_limit", int64(rf.killLimit))
	num("max_spectators", int64(rf.maxSpecs))
	num("spectators", specs)
	for i, s := range rf.teamScore {
		num("team_score_"+teamNames[uint8(i+1)], int64(s))
	}
	return res
}

package eldewrito

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// maxPlayers caps the player list (the game has 16 slots).
const maxPlayers = 256

type player struct {
	Name    string `json:"name"`
	Score   int64  `json:"score"`
	Kills   int64  `json:"kills"`
	Deaths  int64  `json:"deaths"`
	Team    *int64 `json:"team"`
	IsAlive bool   `json:"isAlive"`
}

type variable struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// info is the info server's object; pointers tell a missing field from a zero.
type info struct {
	Name             *string    `json:"name"`
	Port             int64      `json:"port"`
	HostPlayer       string     `json:"hostPlayer"`
	Map              string     `json:"map"`
	MapFile          string     `json:"mapFile"`
	Variant          string     `json:"variant"`
	VariantType      string     `json:"variantType"`
	Status           string     `json:"status"`
	NumPlayers       *int64     `json:"numPlayers"`
	MaxPlayers       *int64     `json:"maxPlayers"`
	Passworded       bool       `json:"passworded"`
	Players          []player   `json:"players"`
	Variables        []variable `json:"variables"`
	GameVersion      string     `json:"gameVersion"`
	ElDewritoVersion string     `json:"eldewritoVersion"`
	Dedicated        *bool      `json:"isDedicated"`
}

func decode(b []byte) (*info, error) {
	var in info
	if err := json.Unmarshal(b, &in); err != nil {
		return nil, fmt.Errorf("%w: JSON: %v", wire.ErrMalformed, err)
	}
	if in.Name == nil || in.ElDewritoVersion == "" {
		return nil, fmt.Errorf("%w: no name or eldewritoVersion: not an ElDewrito info server", wire.ErrMalformed)
	}
	return &in, nil
}

// result turns the info into a Result. authed says the request carried a
// password: a passworded server then answers as to anyone allowed in, without
// the "passworded" key, so the flag is unknown rather than false.
func (in *info) result(players, rules, authed bool) *protocols.Result {
	res := &protocols.Result{
		Name:       *in.Name,
		Map:        in.Map,
		Game:       in.VariantType,
		Version:    in.ElDewritoVersion,
		Players:    protocols.CountOf(in.NumPlayers),
		MaxPlayers: protocols.CountOf(in.MaxPlayers),
	}
	switch {
	case in.Passworded:
		res.Password = protocols.FlagTrue
	case !authed:
		res.Password = protocols.FlagFalse
	}
	kv := func(k, v string) protocols.KV { return protocols.KV{Key: k, Value: v} }
	res.Info = []protocols.KV{
		kv("variant", in.Variant), kv("map_file", in.MapFile), kv("status", in.Status), kv("host_player", in.HostPlayer),
		kv("port", strconv.FormatInt(in.Port, 10)), kv("game_version", in.GameVersion),
	}
	if rules {
		for _, v := range in.Variables {
			res.Rules = append(res.Rules, kv(v.Name, v.Value))
		}
	}
	if !players {
		return res
	}
	switch {
	case in.Passworded && authed:
		res.PhaseErrors = append(res.PhaseErrors, protocols.PhaseError{Phase: "players", Err: fmt.Errorf(
			"%w: wrong password: the server did not take the module's password and lists no players", wire.ErrServer)})
		return res
	case in.Passworded:
		res.PhaseErrors = append(res.PhaseErrors, protocols.PhaseError{Phase: "players", Err: fmt.Errorf(
			"%w: the server is passworded and lists its players only to a request with its password (eldewrito: {password_file: ...})", wire.ErrServer)})
		return res
	}
	for _, p := range in.Players[:min(len(in.Players), maxPlayers)] {
		pl := protocols.Player{Name: p.Name, Score: protocols.Known(p.Score)}
		if p.Team != nil {
			pl.Team = strconv.FormatInt(*p.Team, 10)
		}
		res.PlayerList = append(res.PlayerList, pl)
	}
	return res
}

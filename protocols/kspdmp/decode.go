package kspdmp

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// maxPlayers caps the names kept from the players string.
const maxPlayers = 1024

type status struct {
	ServerName      *string `json:"server_name"`
	Version         string  `json:"version"`
	ProtocolVersion int64   `json:"protocol_version"`
	PlayerCount     *int64  `json:"player_count"`
	MaxPlayers      *int64  `json:"max_players"`
	Players         string  `json:"players"`
	GameMode        string  `json:"game_mode"`
	ModControl      int64   `json:"mod_control"`
	Cheats          bool    `json:"cheats"`
	Port            int64   `json:"port"`
	UniverseSize    int64   `json:"universeSize"`
	LastActivity    int64   `json:"lastPlayerActivity"`
}

func decode(b []byte) (*status, error) {
	var s status
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("%w: JSON: %v", wire.ErrMalformed, err)
	}
	if s.ServerName == nil {
		return nil, fmt.Errorf("%w: no server_name: not a DarkMultiPlayer status page", wire.ErrMalformed)
	}
	return &s, nil
}

// names splits the players string ("a, b"); "" is nobody.
func names(s string) []string {
	var out []string
	for n := range strings.SplitSeq(s, ",") {
		if n = strings.TrimSpace(n); n != "" && len(out) < maxPlayers {
			out = append(out, n)
		}
	}
	return out
}

// result turns the status into a Result. The count is player_count, and the
// names string when a server leaves the count out.
func (s *status) result(players bool) *protocols.Result {
	list := names(s.Players)
	res := &protocols.Result{
		Name:       *s.ServerName,
		Game:       s.GameMode,
		Version:    s.Version,
		Players:    protocols.CountOf(s.PlayerCount),
		MaxPlayers: protocols.CountOf(s.MaxPlayers),
	}
	if s.PlayerCount == nil {
		res.Players = protocols.Known(int64(len(list)))
	}
	kv := func(k, v string) protocols.KV { return protocols.KV{Key: k, Value: v} }
	i := func(n int64) string { return strconv.FormatInt(n, 10) }
	res.Info = []protocols.KV{
		kv("protocol_version", i(s.ProtocolVersion)), kv("mod_control", i(s.ModControl)), kv("cheats", strconv.FormatBool(s.Cheats)),
		kv("port", i(s.Port)), kv("universe_size", i(s.UniverseSize)), kv("last_player_activity", i(s.LastActivity)),
	}
	if players {
		for _, n := range list {
			res.PlayerList = append(res.PlayerList, protocols.Player{Name: n})
		}
	}
	return res
}

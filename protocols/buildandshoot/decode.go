package buildandshoot

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// maxPlayers caps the player list (the game has 32 slots).
const maxPlayers = 256

type player struct {
	Name    string   `json:"name"`
	Latency *float64 `json:"latency"`
	Kills   *int64   `json:"kills"`
	Team    string   `json:"team"`
}

// UnmarshalJSON takes a player object or, as older servers list them, a bare name.
func (p *player) UnmarshalJSON(b []byte) error {
	if b = bytes.TrimSpace(b); len(b) > 0 && b[0] == '"' {
		return json.Unmarshal(b, &p.Name)
	}
	type plain player
	return json.Unmarshal(b, (*plain)(p))
}

// teams is the older layout of "players": a list per team and the maximum.
type teams struct {
	Blue       []player `json:"blue"`
	Green      []player `json:"green"`
	MaxPlayers *int64   `json:"maxPlayers"`
}

type status struct {
	ServerName    *string  `json:"serverName"`
	ServerVersion string   `json:"serverVersion"`
	GameMode      string   `json:"gameMode"`
	Uptime        *float64 `json:"serverUptime"` // seconds since the server started
	Map           struct {
		Name    string `json:"name"`
		Version string `json:"version"`
		Author  string `json:"author"`
	} `json:"map"`
	MaxPlayers *int64          `json:"maxPlayers"`
	RawPlayers json.RawMessage `json:"players"`
	Scores     struct {
		Blue  *int64 `json:"currentBlueScore"`
		Green *int64 `json:"currentGreenScore"`
		Max   *int64 `json:"maxScore"`
	} `json:"scores"`

	players []player
}

func decode(b []byte) (*status, error) {
	var s status
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("%w: JSON: %v", wire.ErrMalformed, err)
	}
	if s.ServerName == nil {
		return nil, fmt.Errorf("%w: no serverName: not a Build and Shoot status server", wire.ErrMalformed)
	}
	raw := bytes.TrimSpace(s.RawPlayers)
	switch {
	case len(raw) == 0 || bytes.Equal(raw, []byte("null")):
	case raw[0] == '[':
		if err := json.Unmarshal(raw, &s.players); err != nil {
			return nil, fmt.Errorf("%w: players: %v", wire.ErrMalformed, err)
		}
	default:
		var t teams
		if err := json.Unmarshal(raw, &t); err != nil {
			return nil, fmt.Errorf("%w: players: %v", wire.ErrMalformed, err)
		}
		for _, p := range t.Blue {
			p.Team = "Blue"
			s.players = append(s.players, p)
		}
		for _, p := range t.Green {
			p.Team = "Green"
			s.players = append(s.players, p)
		}
		if s.MaxPlayers == nil {
			s.MaxPlayers = t.MaxPlayers
		}
	}
	return &s, nil
}

// result turns the status into a Result: the server lists every connected player,
// so the count is the list's length.
func (s *status) result(players bool) *protocols.Result {
	res := &protocols.Result{
		Name:       *s.ServerName,
		Map:        s.Map.Name,
		Game:       s.GameMode,
		Version:    s.ServerVersion,
		Players:    protocols.Known(int64(len(s.players))),
		MaxPlayers: protocols.CountOf(s.MaxPlayers),
	}
	kv := func(k, v string) protocols.KV { return protocols.KV{Key: k, Value: v} }
	res.Info = []protocols.KV{kv("map_version", s.Map.Version), kv("map_author", s.Map.Author)}
	if s.Uptime != nil {
		res.Uptime = protocols.SpanSeconds(*s.Uptime)
		res.Info = append(res.Info, kv("uptime", strconv.FormatFloat(*s.Uptime, 'f', 0, 64)))
	}
	for _, sc := range []struct {
		k string
		v *int64
	}{{"blue_score", s.Scores.Blue}, {"green_score", s.Scores.Green}, {"max_score", s.Scores.Max}} {
		if sc.v != nil {
			res.Info = append(res.Info, kv(sc.k, strconv.FormatInt(*sc.v, 10)))
		}
	}
	if players {
		for _, p := range s.players[:min(len(s.players), maxPlayers)] {
			pl := protocols.Player{Name: p.Name, Team: p.Team}
			if p.Kills != nil {
				pl.Score = protocols.Known(*p.Kills)
			}
			if p.Latency != nil && *p.Latency >= 0 && *p.Latency < 1e6 {
				pl.Ping = protocols.Known(int64(*p.Latency))
			}
			res.PlayerList = append(res.PlayerList, pl)
		}
	}
	return res
}

package palworld

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

const (
	// maxPlayers caps the player list kept (Palworld servers hold at most 32).
	maxPlayers = 1024
	// maxCount bounds a count the server reports; past it the reply is nonsense.
	maxCount = 1 << 20
)

// info is GET /v1/api/info.
type info struct {
	Version     *string `json:"version"`
	ServerName  *string `json:"servername"`
	Description string  `json:"description"`
	WorldGUID   string  `json:"worldguid"`
}

func (in *info) check() error {
	if in.Version == nil && in.ServerName == nil {
		return fmt.Errorf("%w: neither version nor servername: not a Palworld /v1/api/info reply", wire.ErrMalformed)
	}
	return nil
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func (in *info) result() *protocols.Result {
	res := &protocols.Result{Name: deref(in.ServerName), Version: deref(in.Version)}
	res.Info = []protocols.KV{
		{Key: "version", Value: res.Version},
		{Key: "servername", Value: res.Name},
		{Key: "description", Value: in.Description},
		{Key: "worldguid", Value: in.WorldGUID},
	}
	return res
}

// metrics is GET /v1/api/metrics. Numbers are read as float64 so that a count
// sent as 3.0 still reads; counts are checked to be whole and in range.
type metrics struct {
	ServerFPS        *float64 `json:"serverfps"`
	CurrentPlayerNum *float64 `json:"currentplayernum"`
	ServerFrameTime  *float64 `json:"serverframetime"` // milliseconds
	MaxPlayerNum     *float64 `json:"maxplayernum"`
	Uptime           *float64 `json:"uptime"` // seconds
	Days             *float64 `json:"days"`   // in-game days
	BaseCampNum      *float64 `json:"basecampnum"`
}

func count(name string, v *float64) error {
	if v == nil {
		return fmt.Errorf("%w: metrics without %s", wire.ErrMalformed, name)
	}
	if *v < 0 || *v > maxCount || *v != math.Trunc(*v) {
		return fmt.Errorf("%w: metrics %s %g is not a count", wire.ErrMalformed, name, *v)
	}
	return nil
}

func (m *metrics) check() error {
	if err := count("currentplayernum", m.CurrentPlayerNum); err != nil {
		return err
	}
	return count("maxplayernum", m.MaxPlayerNum)
}

func (m *metrics) fill(res *protocols.Result) {
	res.Players = protocols.Known(int64(*m.CurrentPlayerNum))
	res.MaxPlayers = protocols.Known(int64(*m.MaxPlayerNum))
	if m.Uptime != nil {
		res.Uptime = protocols.SpanSeconds(*m.Uptime)
	}
	for _, f := range []struct {
		key string
		v   *float64
	}{
		{"serverfps", m.ServerFPS}, {"serverframetime", m.ServerFrameTime},
		{"currentplayernum", m.CurrentPlayerNum}, {"maxplayernum", m.MaxPlayerNum},
		{"uptime", m.Uptime}, {"days", m.Days}, {"basecampnum", m.BaseCampNum},
	} {
		if f.v != nil {
			res.Info = append(res.Info, protocols.KV{Key: f.key, Value: strconv.FormatFloat(*f.v, 'f', -1, 64)})
		}
	}
}

// playerList is GET /v1/api/players. Each entry also has accountName, playerId,
// userId, ip, location_x, location_y, level and building_count; only what the
// Result uses is decoded, so a type change in the others breaks nothing, and the
// ip is never read at all.
type playerList struct {
	Players []player `json:"players"`
}

type player struct {
	Name string  `json:"name"`
	Ping float64 `json:"ping"` // milliseconds
}

func (pl *playerList) fill(res *protocols.Result) {
	n := min(len(pl.Players), maxPlayers)
	res.PlayerList = make([]protocols.Player, 0, n)
	for _, p := range pl.Players[:n] {
		out := protocols.Player{Name: p.Name}
		if p.Ping >= 0 && p.Ping < 1e6 {
			out.Ping = protocols.Known(int64(math.Round(p.Ping)))
		}
		res.PlayerList = append(res.PlayerList, out)
	}
	if len(pl.Players) > n {
		res.Info = append(res.Info, protocols.KV{Key: "players_dropped", Value: strconv.Itoa(len(pl.Players) - n)})
	}
	// The list is complete, so it counts the players when the metrics failed.
	if !res.Players.Known {
		res.Players = protocols.Known(int64(len(pl.Players)))
	}
}

// redactPlayers is what the trace keeps of a players reply: the same JSON without
// any "ip" member, wherever it sits; a reply that does not parse is withheld.
var redactPlayers = wire.RedactJSON("players reply (it may hold player IP addresses)", dropIP)

func dropIP(v any) {
	switch v := v.(type) {
	case map[string]any:
		for k, c := range v {
			if strings.EqualFold(k, "ip") {
				delete(v, k)
				continue
			}
			dropIP(c)
		}
	case []any:
		for _, c := range v {
			dropIP(c)
		}
	}
}

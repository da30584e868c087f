package eco

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// maxPlayers caps the names kept from OnlinePlayersNames.
const maxPlayers = 1024

// info is the server info object; pointers tell a missing field from a zero.
type info struct {
	Description       *string  `json:"Description"`
	OnlinePlayers     *int64   `json:"OnlinePlayers"`
	TotalPlayers      *int64   `json:"TotalPlayers"`
	MaxActivePlayers  *int64   `json:"MaxActivePlayers"`
	OnlinePlayerNames []string `json:"OnlinePlayersNames"`
	HasPassword       *bool    `json:"HasPassword"`
	Version           string   `json:"Version"`
	Category          string   `json:"Category"`
	WorldSize         string   `json:"WorldSize"`
	Language          string   `json:"Language"`
	GamePort          int64    `json:"GamePort"`
	WebPort           int64    `json:"WebPort"`
	Laws              int64    `json:"Laws"`
	Plants            int64    `json:"Plants"`
	Animals           int64    `json:"Animals"`
	TimeSinceStart    float64  `json:"TimeSinceStart"`
	TimeLeft          float64  `json:"TimeLeft"`
	IsPaused          bool     `json:"IsPaused"`
	HasMeteor         bool     `json:"HasMeteor"`
}

// decode reads /info's object, or /frontpage's {"Info": {...}}.
func decode(b []byte) (*info, error) {
	var v struct {
		info
		Info *info `json:"Info"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return nil, fmt.Errorf("%w: JSON: %v", wire.ErrMalformed, err)
	}
	in := &v.info
	if v.Info != nil {
		in = v.Info
	}
	if in.Description == nil || in.OnlinePlayers == nil {
		return nil, fmt.Errorf("%w: no Description and OnlinePlayers: not an Eco server info", wire.ErrMalformed)
	}
	return in, nil
}

// stripTags removes the rich-text tags (<color=red>, </b>) Eco names carry.
func stripTags(s string) string {
	if !strings.Contains(s, "<") {
		return s
	}
	var b strings.Builder
	for {
		i := strings.IndexByte(s, '<')
		if i < 0 {
			break
		}
		j := strings.IndexByte(s[i:], '>')
		if j < 0 {
			break
		}
		b.WriteString(s[:i])
		s = s[i+j+1:]
	}
	b.WriteString(s)
	return b.String()
}

// result turns the info into a Result. MaxActivePlayers is the cap (0: none set,
// so the maximum is unknown); TotalPlayers counts everyone who ever joined the
// world, which gamedig reports as the maximum.
func (in *info) result(players bool) *protocols.Result {
	res := &protocols.Result{
		Name:    stripTags(*in.Description),
		Version: in.Version,
		Players: protocols.CountOf(in.OnlinePlayers),
	}
	if in.MaxActivePlayers != nil && *in.MaxActivePlayers > 0 {
		res.MaxPlayers = protocols.CountOf(in.MaxActivePlayers)
	}
	if in.HasPassword != nil {
		res.Password = protocols.FlagOf(*in.HasPassword)
	}
	kv := func(k, v string) protocols.KV { return protocols.KV{Key: k, Value: v} }
	i := func(n int64) string { return strconv.FormatInt(n, 10) }
	f := func(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }
	res.Info = []protocols.KV{
		kv("category", in.Category), kv("world_size", in.WorldSize), kv("language", in.Language),
		kv("game_port", i(in.GamePort)), kv("web_port", i(in.WebPort)), kv("laws", i(in.Laws)),
		kv("plants", i(in.Plants)), kv("animals", i(in.Animals)), kv("time_since_start", f(in.TimeSinceStart)),
		kv("time_left", f(in.TimeLeft)), kv("paused", strconv.FormatBool(in.IsPaused)), kv("meteor", strconv.FormatBool(in.HasMeteor)),
	}
	if in.TotalPlayers != nil {
		res.Info = append(res.Info, kv("total_players", i(*in.TotalPlayers)))
	}
	if players {
		for _, n := range in.OnlinePlayerNames[:min(len(in.OnlinePlayerNames), maxPlayers)] {
			res.PlayerList = append(res.PlayerList, protocols.Player{Name: stripTags(n)})
		}
	}
	return res
}

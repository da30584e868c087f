package a2s

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/steam"
)

func TestGameRules(t *testing.T) {
	base := func() *protocols.Result {
		return &protocols.Result{Name: "lobby", Version: "1.0.0.0", Players: protocols.Known(0), MaxPlayers: protocols.Known(0), Password: protocols.FlagFalse}
	}
	kv := func(pairs ...string) []protocols.KV {
		var out []protocols.KV
		for i := 0; i+1 < len(pairs); i += 2 {
			out = append(out, protocols.KV{Key: pairs[i], Value: pairs[i+1]})
		}
		return out
	}
	tests := []struct {
		name  string
		appID uint32
		rules []protocols.KV
		want  protocols.Result
	}{
		{"battalion 1944", appIDBattalion1944,
			kv("bat_name_s", "Comp Server #1", "bat_player_count_s", "7", "bat_max_players_i", "10", "bat_has_password_s", "Y", "bat_map_s", "ignored"),
			protocols.Result{Name: "Comp Server #1", Version: "1.0.0.0", Players: protocols.Known(7), MaxPlayers: protocols.Known(10), Password: protocols.FlagTrue}},
		{"battalion 1944, counts not numbers", appIDBattalion1944,
			kv("bat_player_count_s", "x", "bat_max_players_i", "-1", "bat_has_password_s", "N"),
			protocols.Result{Name: "lobby", Version: "1.0.0.0", Players: protocols.Known(0), MaxPlayers: protocols.Known(0), Password: protocols.FlagFalse}},
		{"soulmask", appIDSoulmask, kv("NO_s", "1.2.3.45"),
			protocols.Result{Name: "lobby", Version: "1.2.3.45", Players: protocols.Known(0), MaxPlayers: protocols.Known(0), Password: protocols.FlagFalse}},
		{"another game keeps its info", 730, kv("bat_name_s", "x", "NO_s", "9", "uptime", "100"),
			protocols.Result{Name: "lobby", Version: "1.0.0.0", Players: protocols.Known(0), MaxPlayers: protocols.Known(0), Password: protocols.FlagFalse}},
		{"rust uptime", steam.AppIDRust, kv("pve", "False", "uptime", "14359"),
			protocols.Result{Name: "lobby", Version: "1.0.0.0", Players: protocols.Known(0), MaxPlayers: protocols.Known(0), Password: protocols.FlagFalse,
				Uptime: protocols.SpanSeconds(14359)}},
		{"rust uptime not a count", steam.AppIDRust, kv("uptime", "4 hours"),
			protocols.Result{Name: "lobby", Version: "1.0.0.0", Players: protocols.Known(0), MaxPlayers: protocols.Known(0), Password: protocols.FlagFalse}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := base()
			applyGameRules(res, tc.appID, tc.rules)
			if res.Name != tc.want.Name || res.Version != tc.want.Version || res.Players != tc.want.Players ||
				res.MaxPlayers != tc.want.MaxPlayers || res.Password != tc.want.Password || res.Uptime != tc.want.Uptime {
				t.Errorf("got %+v", *res)
			}
		})
	}
}

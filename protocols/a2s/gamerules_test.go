package a2s

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/steam"
)

func TestGameRules(t *testing.T) {
	kv := func(pairs ...string) []protocols.KV {
		var out []protocols.KV
		for i := 0; i+1 < len(pairs); i += 2 {
			out = append(out, protocols.KV{Key: pairs[i], Value: pairs[i+1]})
		}
		return out
	}
	base := protocols.Result{Name: "lobby", Version: "1.0.0.0", Players: protocols.Known(0), MaxPlayers: protocols.Known(0), Password: protocols.FlagFalse}
	with := func(f func(*protocols.Result)) protocols.Result { r := base; f(&r); return r }
	tests := []struct {
		name  string
		appID uint32
		rules []protocols.KV
		want  protocols.Result
	}{
		{"battalion 1944", appIDBattalion1944,
			kv("bat_name_s", "Comp Server #1", "bat_player_count_s", "7", "bat_max_players_i", "10", "bat_has_password_s", "Y", "bat_map_s", "ignored"),
			with(func(r *protocols.Result) {
				r.Name, r.Players, r.MaxPlayers, r.Password = "Comp Server #1", protocols.Known(7), protocols.Known(10), protocols.FlagTrue
			})},
		{"battalion 1944, counts not numbers", appIDBattalion1944, kv("bat_player_count_s", "x", "bat_max_players_i", "-1", "bat_has_password_s", "N"), base},
		{"soulmask", appIDSoulmask, kv("NO_s", "1.2.3.45"), with(func(r *protocols.Result) { r.Version = "1.2.3.45" })},
		{"another game keeps its info", 730, kv("bat_name_s", "x", "NO_s", "9", "uptime", "100"), base},
		{"rust uptime", steam.AppIDRust, kv("pve", "False", "uptime", "14359"), with(func(r *protocols.Result) { r.Uptime = protocols.SpanSeconds(14359) })},
		{"rust uptime not a count", steam.AppIDRust, kv("uptime", "4 hours"), base},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := base
			applyGameRules(&res, tc.appID, tc.rules)
			eq(t, "result", res, tc.want)
		})
	}
}

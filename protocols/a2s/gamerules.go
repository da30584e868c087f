package a2s

import (
	"strconv"
	"strings"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/steam"
)

// Games whose A2S_INFO says less than their rules do. Their catalog modules ask for
// rules by default; with them, the values below replace the info reply's.
const (
	appIDBattalion1944 = 489940  // info's name and counts are the lobby's; bat_* are the match's
	appIDSoulmask      = 2646460 // info's version is always 1.0.0.0; NO_s holds the real one
)

// applyGameRules corrects res from the rules of the games above (facts: gamedig's
// battalion1944 and soulmask readers, gamedig issues 771/772), and reads Rust's
// uptime rule: whole seconds since the server process started (a Rust server's
// rules carry it; other games' "uptime", where one exists, is not known to mean
// the same).
func applyGameRules(res *protocols.Result, appID uint32, rules []protocols.KV) {
	get := func(k string) (string, bool) {
		for _, kv := range rules {
			if strings.EqualFold(kv.Key, k) {
				return kv.Value, true
			}
		}
		return "", false
	}
	count := func(k string) (protocols.Count, bool) {
		v, ok := get(k)
		if !ok {
			return protocols.Count{}, false
		}
		n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 32)
		if err != nil || n < 0 {
			return protocols.Count{}, false
		}
		return protocols.Known(n), true
	}
	switch appID {
	case appIDBattalion1944:
		if v, ok := get("bat_name_s"); ok && v != "" {
			res.Name = v
		}
		if c, ok := count("bat_player_count_s"); ok {
			res.Players = c
		}
		if c, ok := count("bat_max_players_i"); ok {
			res.MaxPlayers = c
		}
		if v, ok := get("bat_has_password_s"); ok {
			res.Password = protocols.FlagOf(strings.EqualFold(v, "Y"))
		}
	case appIDSoulmask:
		if v, ok := get("NO_s"); ok && v != "" {
			res.Version = v
		}
	case steam.AppIDRust:
		if c, ok := count("uptime"); ok {
			res.Uptime = protocols.SpanSeconds(float64(c.Value))
		}
	}
}

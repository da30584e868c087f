package cube2

import (
	"fmt"
	"strconv"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
)

// Game names by layout.
const (
	gameSauerbraten = "Sauerbraten"
	gameRedEclipse  = "Red Eclipse"
	gameCube2       = "Cube 2"
)

// sauerModes names Sauerbraten's modes from -3 (protocol 259, 2013, and 260, 2020).
var sauerModes = []string{
	"SP", "DMSP", "demo", "ffa", "coop edit", "teamplay", "instagib", "insta team",
	"efficiency", "effic team", "tactics", "tac team", "capture", "regen capture",
	"ctf", "insta ctf", "protect", "insta protect", "hold", "insta hold", "effic ctf",
	"effic protect", "effic hold", "collect", "insta collect", "effic collect",
}

// masterModes names master modes from -1 (Sauerbraten's "auth"; Red Eclipse
// starts at open).
var masterModes = []string{"auth", "open", "veto", "locked", "private", "password"}

func nameOf(names []string, v int32, first int) string {
	if i := int(v) - first; i >= 0 && i < len(names) {
		return names[i]
	}
	return ""
}

// Fields names the attributes the layout explains, in wire order; the rest are
// attrN. These are the Rules when the module asks for them.
func (in *info) Fields() []protocols.KV {
	a := in.Attrs
	var kv []protocols.KV
	add := func(k string, v int32) { kv = append(kv, protocols.KV{Key: k, Value: strconv.Itoa(int(v))}) }
	addName := func(k, v string) {
		if v != "" {
			kv = append(kv, protocols.KV{Key: k, Value: v})
		}
	}
	named := 0
	switch in.Layout {
	case layoutSauerbraten:
		add("protocol", a[0])
		add("mode", a[1])
		if a[0] == 259 || a[0] == 260 {
			addName("mode_name", nameOf(sauerModes, a[1], -3))
		}
		add("seconds_left", a[2])
		add("max_clients", a[3])
		add("mastermode", a[4])
		addName("mastermode_name", nameOf(masterModes, a[4], -1))
		named = 5
		if len(a) == 7 {
			add("paused", a[5])
			add("gamespeed", a[6])
			named = 7
		}
	case layoutRedEclipse:
		for i, k := range []string{"protocol", "mode", "mutators", "time_remaining", "max_clients", "mastermode"} {
			add(k, a[i])
		}
		addName("mastermode_name", nameOf(masterModes[1:], a[5], 0))
		add("game_vars", a[6])
		add("game_mods", a[7])
		named = 8
		if len(a) >= 11 {
			kv = append(kv, protocols.KV{Key: "version", Value: fmt.Sprintf("%d.%d.%d", a[8], a[9], a[10])})
			named = 11
			for i, k := range []string{"platform", "arch", "game_state", "time_left"} {
				if 11+i < len(a) {
					add(k, a[11+i])
					named = 12 + i
				}
			}
		}
		if in.Attrs[0] >= reMinBranch {
			kv = append(kv, protocols.KV{Key: "branch", Value: in.Branch})
		}
	}
	for i := named; i < len(a); i++ {
		add("attr"+strconv.Itoa(i), a[i])
	}
	return kv
}

// Result turns the info reply into the exporter's Result; players asks for the
// player list (only Red Eclipse sends it here), rules for the attributes.
func (in *info) Result(players, rules bool) *protocols.Result {
	res := &protocols.Result{
		Name:    in.Desc,
		Map:     in.Map,
		Players: protocols.Known(int64(in.Players)),
		Game:    gameCube2,
	}
	a := in.Attrs
	switch in.Layout {
	case layoutSauerbraten:
		res.Game = gameSauerbraten
		res.Version = strconv.Itoa(int(a[0]))
		res.MaxPlayers = protocols.Known(int64(a[3]))
		res.Password = protocols.FlagOf(a[4] == mmPassword)
	case layoutRedEclipse:
		res.Game = gameRedEclipse
		res.Version = strconv.Itoa(int(a[0]))
		if len(a) >= 11 {
			res.Version = fmt.Sprintf("%d.%d.%d", a[8], a[9], a[10])
		}
		// Attribute 5 is the server's maxslots(): sv_serverclients plus the
		// spectator slots (sv_serverspectators, by default as many again), so
		// sv_serverclients 12 reads 24 (src/game/server.cpp queryreply, maxslots
		// and spectatorslots). The reply carries no player limit apart from it.
		res.MaxPlayers = protocols.Known(int64(a[4]))
		res.Password = protocols.FlagOf(a[5] == mmPassword)
	}
	fields := in.Fields()
	res.Info = append(res.Info, protocols.KV{Key: "layout", Value: in.Layout},
		protocols.KV{Key: "attributes", Value: strconv.Itoa(len(a))})
	res.Info = append(res.Info, fields...)
	if in.Trailing > 0 {
		res.Info = append(res.Info, protocols.KV{Key: "trailing_bytes", Value: strconv.Itoa(in.Trailing)})
	}
	if rules {
		res.Rules = fields
	}
	if players && in.Layout == layoutRedEclipse {
		if in.NamesErr != nil {
			res.PhaseErrors = append(res.PhaseErrors, protocols.PhaseError{Phase: "players", Err: in.NamesErr})
			if len(in.Names) == 0 {
				return res
			}
		}
		res.PlayerList = make([]protocols.Player, len(in.Names))
		for i, n := range in.Names {
			res.PlayerList[i] = protocols.Player{Name: n}
		}
	}
	return res
}

// Player converts an extinfo record.
func (p *playerStats) Player() protocols.Player {
	return protocols.Player{
		Name:  p.Name,
		Team:  p.Team,
		Score: protocols.Known(int64(p.Frags)),
		Ping:  protocols.Known(int64(p.Ping)),
		Bot:   p.Bot(),
	}
}

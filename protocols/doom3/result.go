package doom3

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
)

// Result maps a decoded reply to the exporter's Result. PlayerList is filled when
// players is set, Rules (the server-info dictionary) when rules is set.
func (rep *reply) Result(players, rules bool) *protocols.Result {
	q4 := rep.Variant == variantQuake4
	get := func(keys ...string) string {
		for _, k := range keys {
			if v, ok := rep.Lookup(k); ok && v != "" {
				return clean(v, q4)
			}
		}
		return ""
	}
	res := &protocols.Result{
		Name:    get("si_name"),
		Map:     get("si_map"),
		Game:    get("gamename", "fs_game"),
		Version: get("si_version"),
	}
	if rep.Variant == variantETQW {
		// ET:QW names the map's entity file: maps/valley.entities -> valley.
		res.Map = strings.TrimSuffix(strings.TrimPrefix(res.Map, "maps/"), ".entities")
	}
	if n, ok := atoi(rep.Lookup("si_maxPlayers")); ok && n >= 0 {
		res.MaxPlayers = protocols.Known(n)
	}
	// Doom 3 and Quake 4 say si_usepass, ET:QW si_needPass.
	for _, k := range []string{"si_usePass", "si_needPass"} {
		if n, ok := atoi(rep.Lookup(k)); ok {
			res.Password = protocols.FlagOf(n != 0)
			break
		}
	}
	if rep.PlayersErr == nil {
		// Players counts humans: ET:QW and Wolfenstein flag each bot (ET:QW lists
		// it with ping 0), so they are counted apart; Doom 3, Quake 4 and Prey
		// have no bot flag, and every listed client counts.
		var bots int64
		for _, p := range rep.Players {
			if p.Bot {
				bots++
			}
		}
		res.Players = protocols.Known(int64(len(rep.Players)) - bots)
		if rep.Layout == layoutETQW || rep.Layout == layoutWolf {
			res.Bots = protocols.Known(bots)
		}
	} else {
		res.PhaseErrors = append(res.PhaseErrors, protocols.PhaseError{Phase: "players", Err: rep.PlayersErr})
	}
	if players {
		res.PlayerList = rep.playerList(q4)
	}
	res.Info = make([]protocols.KV, 0, len(rep.Info)+10)
	for _, p := range rep.Info {
		res.Info = append(res.Info, protocols.KV(p))
	}
	if rules {
		res.Rules = append([]protocols.KV(nil), res.Info...)
	}
	res.Info = append(res.Info, rep.debugInfo()...)
	return res
}

// debugInfo is what the reply says outside the dictionary, appended to Info.
func (rep *reply) debugInfo() []protocols.KV {
	kv := []protocols.KV{
		{Key: "variant", Value: string(rep.Variant)},
		{Key: "protocol", Value: fmt.Sprintf("%d.%d", rep.Major(), rep.Minor())},
		{Key: "player_layout", Value: rep.Layout.String()},
	}
	if rep.HasOSMask {
		kv = append(kv, protocols.KV{Key: "os_mask", Value: fmt.Sprintf("0x%08x", rep.OSMask)})
	}
	if t := rep.Tail; t != nil {
		kv = append(kv,
			protocols.KV{Key: "ranked", Value: strconv.FormatBool(t.Ranked)},
			protocols.KV{Key: "time_left_ms", Value: strconv.Itoa(int(t.TimeLeft))},
			protocols.KV{Key: "game_state", Value: strconv.Itoa(int(t.GameState))},
			protocols.KV{Key: "server_type", Value: strconv.Itoa(int(t.ServerType))},
		)
		if t.ServerType == 0 {
			kv = append(kv, protocols.KV{Key: "interested_clients", Value: strconv.Itoa(int(t.Interested))})
		} else {
			kv = append(kv,
				protocols.KV{Key: "tv_connected_clients", Value: strconv.Itoa(int(t.Connected))},
				protocols.KV{Key: "tv_max_clients", Value: strconv.Itoa(int(t.MaxClients))},
			)
		}
	}
	return kv
}

func atoi(s string, ok bool) (int64, bool) {
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	return n, err == nil
}

// clean strips colour codes for display. id Tech 4 treats '^' followed by any
// character but NUL and space as a two-character colour code; Quake 4 adds ^cRGB
// (three digits) and icons ^i / ^I followed by a three-character name. s is decoded
// text: the codes are ASCII in every code page, and a character is skipped whole.
func clean(s string, quake4 bool) string {
	if !strings.Contains(s, "^") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		if s[i] != '^' || i+1 >= len(s) || s[i+1] == ' ' || s[i+1] == 0 {
			b.WriteByte(s[i])
			i++
			continue
		}
		if quake4 && strings.IndexByte("cCiI", s[i+1]) >= 0 {
			if j, ok := skipRunes(s, i+2, 3); ok {
				i = j
				continue
			}
		}
		i, _ = skipRunes(s, i+1, 1)
	}
	return b.String()
}

// skipRunes returns the index n characters after i, and whether there were n.
func skipRunes(s string, i, n int) (int, bool) {
	for ; n > 0; n-- {
		if i >= len(s) {
			return i, false
		}
		_, w := utf8.DecodeRuneInString(s[i:])
		i += w
	}
	return i, true
}

// playerList maps the decoded player records.
func (rep *reply) playerList(q4 bool) []protocols.Player {
	out := make([]protocols.Player, 0, len(rep.Players))
	for _, p := range rep.Players {
		pl := protocols.Player{
			Name: clean(p.Name, q4),
			Ping: protocols.Known(int64(p.Ping)),
			Bot:  p.Bot,
		}
		if p.Ext {
			// ET:QW ranks its scoreboard by XP.
			if xp := float64(p.XP); !math.IsNaN(xp) && math.Abs(xp) < 1e15 {
				pl.Score = protocols.Known(int64(math.Round(xp)))
			}
			pl.Team = p.Team
		}
		out = append(out, pl)
	}
	return out
}

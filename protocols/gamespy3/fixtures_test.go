package gamespy3

import (
	"strconv"
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/gamespy"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/gamespy/gamespytest"
)

// TestDecodeFixtures decodes every GameSpy v3 capture (BF2, PR:BF2, Crysis, Crysis
// Wars, UT3, JC2-MP) and asserts GameQ's decoded values field by field.
func TestDecodeFixtures(t *testing.T) {
	// The Minecraft and mcstatus captures belong to package gamespy4.
	for _, g := range gamespytest.GameQs(t, "gamespy3", "minecraft_", "pocketmine_", "mcstatus_") {
		name, parts, want := g.Name, g.Parts, g.Want
		t.Run(name, func(t *testing.T) {
			jc2 := strings.HasPrefix(name, "jc2mp")
			var res *protocols.Result
			var err error
			if jc2 {
				res, err = decodeJC2MP(parts[0])
			} else {
				// Reversed, with a duplicate: order must not matter.
				rev := append([][]byte{parts[0]}, parts...)
				for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
					rev[i], rev[j] = rev[j], rev[i]
				}
				res, err = decode(rev...)
			}
			if err != nil {
				t.Fatal(err)
			}
			checkInfo(t, name, res, want)
			if jc2 {
				checkJC2Players(t, res, want)
			} else {
				checkPlayers(t, res, want)
			}
		})
	}
}

func checkInfo(t *testing.T, name string, res *protocols.Result, want map[string]any) {
	t.Helper()
	game := gamespytest.Str(want, "gamename")
	if game == "" {
		game = gamespytest.Str(want, "gametype")
	}
	version := gamespytest.Str(want, "gamever")
	if version == "" {
		version = gamespytest.Str(want, "version") // JC2-MP
	}
	// GameQ adds constants of its own for JC2-MP (mapname "Panau", dedicated) and
	// renames UT3's settings (p1073741825 → mapname, s32779 → gamemode, ...,
	// password from a flag): there only the keys sent as such are compared.
	jc2, ut3 := strings.HasPrefix(name, "jc2mp"), strings.HasPrefix(name, "ut3")
	mapName := gamespytest.Str(want, "mapname")
	if jc2 {
		mapName = ""
	}
	if res.Name != gamespytest.Str(want, "hostname") || res.Map != mapName || res.Version != version || res.Game != game {
		t.Errorf("name/map/version/game %q %q %q %q, want %q %q %q %q", res.Name, res.Map, res.Version, res.Game,
			gamespytest.Str(want, "hostname"), mapName, version, game)
	}
	if res.Players != gamespytest.Count(gamespytest.Str(want, "numplayers")) || res.MaxPlayers != gamespytest.Count(gamespytest.Str(want, "maxplayers")) {
		t.Errorf("players %v/%v, want %s/%s", res.Players, res.MaxPlayers, gamespytest.Str(want, "numplayers"), gamespytest.Str(want, "maxplayers"))
	}
	if _, sent := gamespytest.Info(res, "password"); sent || !ut3 {
		if w := gamespy.ParseFlag([]byte(gamespytest.Str(want, "password"))); res.Password != w {
			t.Errorf("password %v, want %v", res.Password, w)
		}
	}
	// Every K/V pair GameQ reports is in Info with the same value.
	for k, v := range want {
		s, ok := v.(string)
		if !ok || strings.HasPrefix(k, "gq_") {
			continue
		}
		got, ok := gamespytest.Info(res, k)
		if (ut3 || jc2) && (!ok || k == "gamemode" || k == "mapname") {
			continue
		}
		if !ok || got != s {
			t.Errorf("info %s = %q (%v), want %q", k, got, ok, s)
		}
	}
}

func checkPlayers(t *testing.T, res *protocols.Result, want map[string]any) {
	t.Helper()
	players, _ := want["players"].([]any)
	if len(res.PlayerList) != len(players) {
		t.Fatalf("%d players, want %d", len(res.PlayerList), len(players))
	}
	var teams []string
	if ts, ok := want["teams"].([]any); ok {
		for _, tm := range ts {
			teams = append(teams, gamespytest.Str(tm.(map[string]any), "team"))
		}
	}
	for i, p := range players {
		w := p.(map[string]any)
		g := res.PlayerList[i]
		score := gamespytest.Str(w, "score")
		if _, ok := w["score"]; !ok {
			score = gamespytest.Str(w, "kills") // Crysis Wars
		}
		if g.Name != gamespytest.Str(w, "player") || g.Score != gamespytest.Count(score) || g.Ping != gamespytest.Count(gamespytest.Str(w, "ping")) {
			t.Errorf("player %d = %q %v %v, want %q %q %q", i, g.Name, g.Score, g.Ping, gamespytest.Str(w, "player"), score, gamespytest.Str(w, "ping"))
		}
		team := gamespytest.Str(w, "team")
		if n, err := strconv.Atoi(team); err == nil && n >= 1 && n <= len(teams) {
			team = teams[n-1] // 1-based into the team table
		}
		if g.Team != team {
			t.Errorf("player %d team %q, want %q", i, g.Team, team)
		}
		if g.Bot != (gamespytest.Str(w, "AIBot") == "1") {
			t.Errorf("player %d bot %v, want AIBot %q", i, g.Bot, gamespytest.Str(w, "AIBot"))
		}
	}
}

// checkJC2Players compares the JC2-MP list. GameQ reads the player count as one byte
// after two NULs, so its first name starts with the count's low byte: the decoder
// reads the u16 count of spec §7 instead.
func checkJC2Players(t *testing.T, res *protocols.Result, want map[string]any) {
	t.Helper()
	players, _ := want["players"].([]any)
	if len(res.PlayerList) != len(players) {
		t.Fatalf("%d players, want %d", len(res.PlayerList), len(players))
	}
	for i, p := range players {
		w := p.(map[string]any)
		g := res.PlayerList[i]
		name := gamespytest.Str(w, "name")
		if i == 0 && len(name) > 0 && int(name[0]) == len(players) {
			name = name[1:]
		}
		ping, _ := w["ping"].(float64)
		if g.Name != name || g.Ping != protocols.Known(int64(ping)) {
			t.Errorf("player %d = %q %v, want %q %v", i, g.Name, g.Ping, name, ping)
		}
	}
}

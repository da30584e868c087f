package goldsrc

import (
	"errors"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/steam/steamtest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// The real captures of shared/fixtures/goldsrc, read in place and decoded through
// this package; every .expected.json value is compared field by field.

func TestFixtures(t *testing.T) {
	fs := steamtest.Fixtures(t, prototest.FixtureDir(t, "goldsrc"))
	files := 0
	for _, f := range fs {
		files += len(f.Datagrams) + 1
		t.Run(f.Name, func(t *testing.T) {
			msg := f.Datagrams[0]
			if _, split := f.JSON["fragments"]; split {
				eq(t, "split_layout", f.JSON["split_layout"], any("goldsrc"))
				msg = steamtest.Reassemble(t, f)
			}
			dec := f.JSON["decoded"].(map[string]any)
			c := checker{t, dec}
			switch dec["type"] {
			case "S2A_INFO_SRC", "S2A_INFO_DETAILED (obsolete GoldSrc)":
				checkInfoFixture(t, c, msg)
			case "S2A_PLAYER":
				checkPlayersFixture(t, c, msg)
			case "S2A_RULES":
				checkRulesFixture(t, c, msg)
			default:
				t.Fatalf("fixture type %v not handled", dec["type"])
			}
		})
	}
	// Every file of the folder is covered (35 at the time of writing).
	all, _ := filepath.Glob(filepath.Join(prototest.FixtureDir(t, "goldsrc"), "*"))
	if files != len(all) {
		t.Errorf("tests cover %d files, the folder holds %d", files, len(all))
	}
}

func checkInfoFixture(t *testing.T, c checker, msg []byte) {
	t.Helper()
	res, err := decodeInfoReply(msg)
	if err != nil {
		t.Fatal(err)
	}
	eq(t, "name", res.Name, wire.UTF8([]byte(c.bytes("name"))))
	eq(t, "map", res.Map, wire.UTF8([]byte(c.bytes("map"))))
	eq(t, "game", res.Game, wire.UTF8([]byte(c.bytes("game"))))
	// Every raw field is in the debug key/values, under the fixture's key name.
	for _, k := range []string{"address", "folder", "protocol", "players", "max_players", "bots", "server_type",
		"environment", "visibility", "vac", "mod", "version", "app_id", "edf", "game_port", "steam_id", "game_id"} {
		want, ok := c.want[k]
		if !ok {
			continue
		}
		got, have := infoValue(res.Info, k)
		if want == nil {
			if have {
				t.Errorf("Info %s = %q, fixture says absent", k, got)
			}
			continue
		}
		if w := c.text(k); !have || got != w {
			t.Errorf("Info %s = %q (present %v), want %q", k, got, have, w)
		}
	}
	if m, ok := c.want["mod_info"].(map[string]any); ok {
		mc := checker{t, m}
		for k, key := range map[string]string{"link": "mod_link", "download_link": "mod_download_link",
			"version": "mod_version", "size": "mod_size", "type": "mod_type", "dll": "mod_dll"} {
			if got, _ := infoValue(res.Info, key); got != mc.text(k) {
				t.Errorf("Info %s = %q, want %q", key, got, mc.text(k))
			}
		}
	}
	if v, ok := infoValue(res.Info, "trailing_bytes"); ok || c.int("trailing_bytes") != 0 {
		t.Errorf("trailing bytes %q, fixture %d", v, c.int("trailing_bytes"))
	}
	// The Result mapping: humans = players - bots, as package a2s.
	players := c.int("players")
	if c.want["bots"] != nil {
		players -= c.int("bots")
		eq(t, "bots", res.Bots, protocols.Known(c.int("bots")))
	} else {
		eq(t, "bots", res.Bots, protocols.Count{})
	}
	eq(t, "players", res.Players, protocols.Known(players))
	eq(t, "max", res.MaxPlayers, protocols.Known(c.int("max_players")))
	eq(t, "password", res.Password, protocols.FlagOf(c.int("visibility") != 0))
	if _, ok := c.want["version"]; ok {
		eq(t, "version", res.Version, c.text("version"))
	}
	checkKV(t, res.Info)
}

func checkPlayersFixture(t *testing.T, c checker, msg []byte) {
	t.Helper()
	pl, err := decodePlayers(msg, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := c.want["players"].([]any)
	eq(t, "count", c.int("count"), int64(len(want)))
	if len(pl) != len(want) {
		t.Fatalf("%d players, want %d", len(pl), len(want))
	}
	for i, w := range want {
		pc := checker{t, w.(map[string]any)}
		eq(t, fmt.Sprintf("player %d name", i), pl[i].Name, wire.UTF8([]byte(pc.bytes("name"))))
		eq(t, fmt.Sprintf("player %d score", i), pl[i].Score, protocols.Known(pc.int("score")))
		eq(t, fmt.Sprintf("player %d duration", i), pl[i].Duration, pc.want["duration"].(float64))
		eq(t, fmt.Sprintf("player %d duration known", i), pl[i].DurationKnown, true)
	}
}

func checkRulesFixture(t *testing.T, c checker, msg []byte) {
	t.Helper()
	rl, err := decodeRules(msg)
	if err != nil {
		t.Fatal(err)
	}
	want := c.want["rules"].([]any)
	eq(t, "parsed rule count", int64(len(rl)), c.int("parsed_rule_count"))
	if len(rl) != len(want) {
		t.Fatalf("%d rules, want %d", len(rl), len(want))
	}
	if tr, _ := c.want["truncated"].(bool); tr {
		t.Errorf("fixture says truncated")
	}
	for i, w := range want {
		pair := w.([]any)
		k, v := wire.UTF8([]byte(prototest.FixtureBytes(t, pair[0]))), wire.UTF8([]byte(prototest.FixtureBytes(t, pair[1])))
		if rl[i].Key != k || rl[i].Value != v {
			t.Errorf("rule %d = %q=%q, want %q=%q", i, rl[i].Key, rl[i].Value, k, v)
		}
	}
}

// checker reads a fixture's JSON values.
type checker struct {
	t    *testing.T
	want map[string]any
}

func (c checker) int(key string) int64 {
	c.t.Helper()
	return steamtest.Int(c.t, c.want[key])
}

// bytes returns the exact bytes of a fixture string.
func (c checker) bytes(key string) string {
	c.t.Helper()
	return prototest.FixtureBytes(c.t, c.want[key])
}

// text returns a fixture value as the debug output writes it: numbers in decimal,
// strings as valid UTF-8.
func (c checker) text(key string) string {
	c.t.Helper()
	switch x := c.want[key].(type) {
	case float64:
		return fmt.Sprint(int64(x))
	case string:
		return x
	}
	return wire.UTF8([]byte(c.bytes(key)))
}

// TestQueryFixtures serves the real captures from a fake server: the Querier gets
// the same values as the decoders (0x6D + 0x49 pairs, 1-based player indexes,
// GoldSrc-split rules sent out of order).
func TestQueryFixtures(t *testing.T) {
	t.Parallel()
	read := func(name string) []byte { return prototest.Fixture(t, "goldsrc", name) }
	for _, tt := range []struct {
		server string
		info   []string // A2S_INFO answer, in order
		rules  []string
		nrules int
	}{
		{"cs16_renegade", []string{"goldsrc_info_m_cs16_renegade.bin", "goldsrc_info_I_cs16_renegade.bin"},
			[]string{"goldsrc_rules_cs16_renegade_split.frag1.bin", "goldsrc_rules_cs16_renegade_split.frag0.bin"}, 95},
		{"hl1_bloodygame", []string{"goldsrc_info_I_hl1_bloodygame.bin", "goldsrc_info_m_hl1_bloodygame.bin"},
			[]string{"goldsrc_rules_hl1_bloodygame.bin"}, 61},
		{"cscz", []string{"goldsrc_info_I_cscz.bin"},
			[]string{"goldsrc_rules_cscz_split.frag1.bin", "goldsrc_rules_cscz_split.frag0.bin", "goldsrc_rules_cscz_split.frag1.bin"}, 125},
	} {
		t.Run(tt.server, func(t *testing.T) {
			f := &fake{players: one(read("goldsrc_player_" + tt.server + ".bin"))}
			for _, n := range tt.info {
				f.a2sInfo = append(f.a2sInfo, read(n))
			}
			for _, n := range tt.rules {
				f.rules = append(f.rules, read(n))
			}
			// The expected values come from the decoders, checked against the JSON above.
			want, err := decodeInfoReply(read(tt.info[len(tt.info)-1]))
			if in, _ := decodeInfoReply(read(tt.info[0])); in.Version != "" {
				want = in // the 0x49 wins whichever order it comes in
			}
			wantPl, err2 := decodePlayers(f.players[0], nil)
			res, _, err3 := query(t, f.start(t), protocols.Settings{Players: true, Rules: true}, answerDeadline)
			if err := errors.Join(err, err2, err3); err != nil {
				t.Fatal(err)
			}
			eq(t, "result", [7]any{res.Name, res.Map, res.Version, res.Players, res.MaxPlayers, len(res.Rules), len(res.PhaseErrors)},
				[7]any{want.Name, want.Map, want.Version, want.Players, want.MaxPlayers, tt.nrules, 0})
			eq(t, "player list", res.PlayerList, wantPl)
			checkKV(t, res.Info)
			// A 0x6D followed by a 0x49 leaves its own keys (address, mod) in Info.
			if _, ok := infoValue(res.Info, "address"); ok != isDetailed(read(tt.info[0])) {
				t.Errorf("0x6D address in Info: %v", ok)
			}
		})
	}

	// The HLTV proxy's 0x6D, as an answer to the text query "details".
	f := &fake{details: one(read("goldsrc_info_m_hltv_proxy.bin"))}
	res, _, err := query(t, f.start(t), protocols.Settings{Players: true}, textDeadline)
	if err != nil {
		t.Fatal(err)
	}
	eq(t, "HLTV name", res.Name, "Castle Mortimus:0")
	eq(t, "HLTV players", res.Players, protocols.Known(0))
	if res.PlayerList == nil || len(res.PhaseErrors) != 0 {
		t.Errorf("HLTV players %v, phase errors %v", res.PlayerList, res.PhaseErrors)
	}
}

func isDetailed(b []byte) bool { return len(b) > 4 && b[4] == 0x6D }

package a2s

import (
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/steam"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/steam/steamtest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// Own vectors, built from the spec (testdata/mkvectors.py writes them as annotated hex).

func TestDecodeInfoVectors(t *testing.T) {
	tests := []struct {
		file  string
		err   error
		check func(t *testing.T, in *steam.Info, r *protocols.Result)
	}{
		{file: "info_edf_all.hex", check: func(t *testing.T, in *steam.Info, r *protocols.Result) {
			eq(t, "info", [9]any{in.Name, in.EDF, in.Extra, in.GamePort, in.SteamID, in.SpectatorPort, in.SpectatorName, in.Keywords, in.GameID},
				[9]any{" Spaced Name", byte(0xF1), byte(0xF1), uint16(27016), uint64(90071992547409921), uint16(27020), "SourceTV", " alltalk,increased_maxplayers,payload", uint64(440)})
			eq(t, "result", [6]any{r.Players, r.Bots, r.MaxPlayers, r.Password, r.Version, r.Game},
				[6]any{protocols.Known(17), protocols.Known(3), protocols.Known(32), protocols.FlagFalse, "8835751", "Team Fortress"})
			eq(t, "info keys", keys(r.InfoKV()), []string{"protocol", "name", "map", "folder", "game", "app_id", "players", "max_players", "bots",
				"server_type", "environment", "visibility", "vac", "version", "edf", "game_port", "steam_id",
				"spectator_port", "spectator_name", "keywords", "game_id"})
			eq(t, "info", []protocols.KV{r.InfoKV()[5], r.InfoKV()[9], r.InfoKV()[16]}, []protocols.KV{{Key: "app_id", Value: "440"},
				{Key: "server_type", Value: "d"}, {Key: "steam_id", Value: "90071992547409921"}})
		}},
		{file: "info_no_edf.hex", check: func(t *testing.T, in *steam.Info, r *protocols.Result) {
			eq(t, "edf, trailing, password, server_type, info edf", [5]any{in.EDF, in.Trailing, r.Password, in.ServerType, slices.Contains(keys(r.InfoKV()), "edf")},
				[5]any{byte(0), 0, protocols.FlagTrue, byte('l'), false})
		}},
		{file: "info_theship.hex", check: func(t *testing.T, in *steam.Info, r *protocols.Result) {
			eq(t, "ship, version, players", [6]any{in.HasShip, in.ShipMode, in.ShipWitnesses, in.ShipTime, in.Version, r.Players},
				[6]any{true, byte(3), byte(2), byte(5), "1.0.0.4", protocols.Known(1)})
		}},
		{file: "info_edf_cut.hex", check: func(t *testing.T, in *steam.Info, r *protocols.Result) {
			eq(t, "truncated, extra, game_port", [3]any{in.Truncated, in.Extra, in.GamePort}, [3]any{true, byte(steam.EDFPort), uint16(27015)})
			eq(t, "info truncated", r.InfoKV()[len(r.InfoKV())-1], protocols.KV{Key: "truncated", Value: "true"})
		}},
		{file: "info_edf_undefined.hex", check: func(t *testing.T, in *steam.Info, r *protocols.Result) {
			// The known bit is read all the same; what follows is trailing.
			eq(t, "unknown, extra, game port, trailing", [4]any{in.UnknownEDF, in.Extra, in.GamePort, in.Trailing}, [4]any{true, byte(steam.EDFPort), uint16(27015), 2})
		}},
		{file: "info_rust.hex", check: func(t *testing.T, in *steam.Info, r *protocols.Result) {
			eq(t, "app_id field, full app id", [2]any{in.AppID, in.FullAppID()}, [2]any{uint16(0), uint32(steam.AppIDRust)})
			eq(t, "players from cp, max from mp, modded", [3]any{r.Players, r.MaxPlayers, r.Modded}, [3]any{protocols.Known(280), protocols.Known(300), protocols.FlagTrue})
			eq(t, "info app_id, queued", []protocols.KV{r.InfoKV()[5], r.InfoKV()[len(r.InfoKV())-1]},
				[]protocols.KV{{Key: "app_id", Value: "252490"}, {Key: "queued_players", Value: "7"}})
		}},
		{file: "info_edf_unknown_rust.hex", check: func(t *testing.T, in *steam.Info, r *protocols.Result) {
			// Undefined bits beside the known ones: the keywords still give the counts.
			eq(t, "unknown, extra, full app id, trailing", [4]any{in.UnknownEDF, in.Extra, in.FullAppID(), in.Trailing},
				[4]any{true, byte(steam.EDFPort | steam.EDFKeywords | steam.EDFGameID), uint32(steam.AppIDRust), 0})
			eq(t, "players from cp, max from mp, queue from qp", [3]any{r.Players, r.MaxPlayers, r.Queue}, [3]any{protocols.Known(280), protocols.Known(300), protocols.Known(7)})
		}},
		{file: "info_edf_unknown_dayz.hex", check: func(t *testing.T, in *steam.Info, r *protocols.Result) {
			eq(t, "unknown, full app id, queue from lqs, players", [4]any{in.UnknownEDF, in.FullAppID(), r.Queue, r.Players},
				[4]any{true, uint32(steam.AppIDDayZ), protocols.Known(12), protocols.Known(60)})
		}},
		{file: "info_trailing.hex", check: func(t *testing.T, in *steam.Info, r *protocols.Result) {
			eq(t, "trailing", in.Trailing, 3)
			eq(t, "info trailing", r.InfoKV()[len(r.InfoKV())-1], protocols.KV{Key: "trailing_bytes", Value: "3"})
		}},
		{file: "info_odd_bytes.hex", check: func(t *testing.T, in *steam.Info, r *protocols.Result) {
			eq(t, "raw name, name as UTF-8, protocol", [3]any{in.Name, r.Name, in.Protocol}, [3]any{"Caf\xe9 \xdcber", "Café Über", byte(252)})
			eq(t, "info server_type", r.InfoKV()[9], protocols.KV{Key: "server_type", Value: "0"})
		}},
		{file: "info_m_mod.hex", check: func(t *testing.T, in *steam.Info, r *protocols.Result) {
			eq(t, "type, address, vac", [4]any{in.Type, in.Address, in.HasVAC, in.VAC}, [4]any{byte(steam.TypeInfoDetailed), "192.168.0.10:27015", true, byte(1)})
			eq(t, "mod", *in.Mod, steam.ModInfo{Link: "http://example.org/", DownloadLink: "http://example.org/dl", Version: 5, Size: 123456, Type: 1, DLL: 1})
			eq(t, "bots, players, password, version unknown", [4]any{r.Bots, r.Players, r.Password, r.Version},
				[4]any{protocols.Known(2), protocols.Known(4), protocols.FlagTrue, ""})
		}},
		{file: "info_m_upper.hex", check: func(t *testing.T, in *steam.Info, r *protocols.Result) {
			eq(t, "server_type, environment, mod", [3]any{in.ServerType | 0x20, in.Environment | 0x20, in.Mod == nil}, [3]any{byte('d'), byte('w'), true})
		}},
		{file: "info_m_no_bots.hex", check: func(t *testing.T, in *steam.Info, r *protocols.Result) {
			eq(t, "has bots, bots unknown, players", [3]any{in.HasBots, r.Bots, r.Players}, [3]any{false, protocols.Count{}, protocols.Known(3)})
		}},
		{file: "info_m_hltv_longs.hex", check: func(t *testing.T, in *steam.Info, r *protocols.Result) {
			eq(t, "hltv", [6]any{in.HasHLTVCounts, in.Spectators, in.SpectatorSlots, r.Players, r.MaxPlayers, in.Trailing},
				[6]any{true, int32(300), int32(512), protocols.Known(300), protocols.Known(512), 0})
		}},
		{file: "info_cut_in_name.hex", err: wire.ErrTruncated},
		{file: "info_cut_before_version.hex", err: wire.ErrTruncated},
		{file: "info_m_cut_in_mod.hex", err: wire.ErrTruncated},
		{file: "info_bad_header.hex", err: wire.ErrMalformed},
		{file: "info_wrong_type.hex", err: wire.ErrMalformed},
		{file: "info_short.hex", err: wire.ErrTruncated},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			in, err := steam.DecodeInfo(readHex(t, tt.file))
			if prototest.WantedError(t, err, tt.err) {
				return
			}
			r := in.Result()
			checkKV(t, r.InfoKV())
			tt.check(t, in, r)
		})
	}
}

func TestDecodePlayersVectors(t *testing.T) {
	tests := []struct {
		file  string
		ship  bool
		app   uint32 // the info reply's AppID
		err   error
		check func(t *testing.T, p *steam.Players, r []protocols.Player)
	}{
		{file: "player_basic.hex", check: func(t *testing.T, p *steam.Players, r []protocols.Player) {
			eq(t, "names", names(r), []string{"Alice", "Bób ✓", ""})
			eq(t, "score, duration, truncated", [3]any{r[1].Score, r[0].Duration, p.Truncated}, [3]any{protocols.Known(-3), 1234.5, false})
		}},
		{file: "player_empty.hex", check: func(t *testing.T, p *steam.Players, r []protocols.Player) {
			eq(t, "players, truncated", [2]any{len(r), p.Truncated}, [2]any{0, false})
		}},
		{file: "player_count_lies.hex", check: func(t *testing.T, p *steam.Players, r []protocols.Player) {
			eq(t, "count, parsed, index, truncated", [4]any{p.Count, len(r), p.List[1].Index, p.Truncated}, [4]any{byte(5), 2, byte(2), true})
		}},
		{file: "player_cut_record.hex", check: func(t *testing.T, p *steam.Players, r []protocols.Player) {
			eq(t, "names, truncated", [2]any{names(r), p.Truncated}, [2]any{[]string{"whole"}, true})
		}},
		{file: "player_theship.hex", ship: true, check: func(t *testing.T, p *steam.Players, r []protocols.Player) {
			eq(t, "deaths/money", [4]int32{p.List[0].Deaths, p.List[0].Money, p.List[1].Deaths, p.List[1].Money}, [4]int32{2, 1500, 0, 9000})
			eq(t, "ship, bot duration unknown, duration", [3]any{p.TheShip, r[0].DurationKnown, r[1].Duration}, [3]any{true, false, 300.5})
		}},
		{file: "player_theship.hex", ship: false, check: func(t *testing.T, p *steam.Players, r []protocols.Player) {
			eq(t, "ship, trailing", [2]any{p.TheShip, p.Trailing}, [2]any{false, 16})
		}},
		{file: "player_bad_durations.hex", check: func(t *testing.T, p *steam.Players, r []protocols.Player) {
			eq(t, "known, durations", [4]any{r[0].DurationKnown, r[1].DurationKnown, r[0].Duration, r[1].Duration}, [4]any{false, false, 0.0, 0.0})
		}},
		{file: "player_maxplayers_placeholder.hex", check: func(t *testing.T, p *steam.Players, r []protocols.Player) {
			eq(t, "decoded, exported", [2]int{len(p.List), len(r)}, [2]int{1, 0})
		}},
		{file: "player_maxplayers_placeholder.hex", app: steam.AppIDCSGO, check: func(t *testing.T, p *steam.Players, r []protocols.Player) {
			eq(t, "exported", len(r), 0)
		}},
		{file: "player_csgo_placeholder_among.hex", app: steam.AppIDCSGO, check: func(t *testing.T, p *steam.Players, r []protocols.Player) {
			// CS:GO: the placeholder is dropped wherever it stands (and kept in the decoded list).
			eq(t, "decoded, names, score, placeholder", [4]any{len(p.List), names(r), r[1].Score, p.List[1].Name},
				[4]any{3, []string{"alice", "bob"}, protocols.Known(3), "Max Players"})
		}},
		{file: "player_csgo_placeholder_among.hex", app: 440, check: func(t *testing.T, p *steam.Players, r []protocols.Player) {
			// Another game: a player may be called that; only a lone entry is taken for CS:GO's.
			eq(t, "names", names(r), []string{"alice", "Max Players", "bob"})
		}},
		{file: "player_no_count.hex", err: wire.ErrTruncated},
		{file: "info_no_edf.hex", err: wire.ErrMalformed},
		{file: "info_short.hex", err: wire.ErrTruncated},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			p, err := steam.DecodePlayers(readHex(t, tt.file), tt.ship)
			if prototest.WantedError(t, err, tt.err) {
				return
			}
			tt.check(t, p, p.Result(tt.app))
		})
	}
}

func TestDecodeRulesVectors(t *testing.T) {
	tests := []struct {
		file  string
		err   error
		check func(t *testing.T, r *steam.Rules, kv []protocols.KV)
	}{
		{file: "rules_basic.hex", check: func(t *testing.T, r *steam.Rules, kv []protocols.KV) {
			eq(t, "rules", kv, []protocols.KV{{Key: "mp_friendlyfire", Value: "0"}, {Key: "sv_tags", Value: ""}, {Key: "hostname_latin1", Value: "Grüße"}})
			eq(t, "raw, truncated", [2]any{r.List[2].Value, r.Truncated}, [2]any{"Gr\xfc\xdfe", false})
		}},
		{file: "rules_dangling.hex", check: func(t *testing.T, r *steam.Rules, kv []protocols.KV) {
			eq(t, "rules, truncated", [2]any{kv, r.Truncated}, [2]any{[]protocols.KV{{Key: "a", Value: "1"}, {Key: "b", Value: "2"}}, true})
		}},
		{file: "rules_count_lies.hex", check: func(t *testing.T, r *steam.Rules, kv []protocols.KV) {
			eq(t, "count, parsed, truncated", [3]any{r.Count, len(kv), r.Truncated}, [3]any{uint16(60000), 2, true})
		}},
		{file: "rules_trailing.hex", check: func(t *testing.T, r *steam.Rules, kv []protocols.KV) {
			eq(t, "parsed, trailing", [2]int{len(kv), r.Trailing}, [2]int{1, 2})
		}},
		{file: "player_basic.hex", err: wire.ErrMalformed},
		{file: "info_bad_header.hex", err: wire.ErrMalformed},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			r, err := steam.DecodeRules(readHex(t, tt.file))
			if prototest.WantedError(t, err, tt.err) {
				return
			}
			tt.check(t, r, r.Result())
		})
	}
}

func TestDecodeRulesCap(t *testing.T) {
	r, err := steam.DecodeRules(append([]byte{0xFF, 0xFF, 0xFF, 0xFF, 0x45, 0xFF, 0xFF}, slices.Repeat([]byte("k\x00v\x00"), steam.MaxRules+10)...))
	prototest.NoError(t, err)
	if len(r.List) != steam.MaxRules || !r.Truncated {
		t.Fatalf("%d rules, truncated %v; want the cap %d", len(r.List), r.Truncated, steam.MaxRules)
	}
}

// A short challenge: TestQueryBadReplies.
func TestDecodeChallengeVector(t *testing.T) {
	ch, err := steam.DecodeChallenge(readHex(t, "challenge.hex"))
	eq(t, "challenge, err", [2]any{ch, err}, [2]any{[]byte{0x0a, 0x0b, 0x0c, 0x0d}, nil})
}

func names(pl []protocols.Player) []string {
	out := make([]string, len(pl))
	for i, p := range pl {
		out[i] = p.Name
	}
	return out
}

func keys(kv []protocols.KV) []string {
	out := make([]string, len(kv))
	for i, x := range kv {
		out[i] = x.Key
	}
	return out
}

func eq[T any](t *testing.T, what string, got, want T) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s = %#v, want %#v", what, got, want)
	}
}

// TestDecodeWindows1252: a server name that is not UTF-8 is the Windows code
// page (older Source and GoldSrc servers): its 0x80-0x9F are marks.
func TestDecodeWindows1252(t *testing.T) {
	in, err := steam.DecodeInfo(srcInfo(string(prototest.MafiaName), "de_dust2", "cstrike", string(prototest.Marks1252), 0x0A, 0x00, 1, 10, 0, 'd', 'w', 0, 1, '1', '.', '0', 0))
	prototest.NoError(t, err)
	if res := in.Result(); res.Name != prototest.MafiaNameText || res.Game != prototest.Marks1252Text {
		t.Errorf("name %q game %q, want %q %q", res.Name, res.Game, prototest.MafiaNameText, prototest.Marks1252Text)
	}
}

// TestQueryEncoding: with `encoding: windows-1251` the name and the players
// read in the server's code page; by default as Windows-1252.
func TestQueryEncoding(t *testing.T) {
	cp1251 := []byte{0xCF, 0xF0, 0xE8, 0xE2, 0xE5, 0xF2} // "Привет"
	info := srcInfo(string(cp1251), "de_dust2", "cstrike", "Counter-Strike", 0x0A, 0x00, 1, 10, 0, 'd', 'w', 0, 1, '1', 0)
	players := append(append([]byte{0xFF, 0xFF, 0xFF, 0xFF, steam.TypePlayers, 1, 0}, cp1251...), 0, 5, 0, 0, 0, 0, 0, 0x20, 0x41)
	for enc, want := range map[string]string{"": "Ïðèâåò", "windows-1251": "Привет"} {
		f := &fake{Info: one(info), Players: one(players), NoChallenge: true}
		s := protocols.Settings{Players: true, Options: prototest.OptionsOf(Options{Encoding: prototest.CodePage(t, enc)})}
		res, _, err := query(t, f.Start(t), s, 2*time.Second)
		prototest.NoError(t, err)
		if res.Name != want || len(res.PlayerList) != 1 || res.PlayerList[0].Name != want {
			t.Errorf("encoding %q: name %q players %+v, want %q", enc, res.Name, res.PlayerList, want)
		}
	}
}

// readHex reads an annotated hex vector from testdata/ (see prototest.ParseHex).
func readHex(t testing.TB, name string) []byte { return prototest.HexFile(t, name) }

// srcInfo builds an S2A_INFO_SRC reply (no EDF): its four strings, then rest
// (app id, counts, flags, version).
func srcInfo(name, mapName, folder, game string, rest ...byte) []byte {
	b := []byte{0xFF, 0xFF, 0xFF, 0xFF, steam.TypeInfo, 17}
	for _, s := range []string{name, mapName, folder, game} {
		b = append(append(b, s...), 0)
	}
	return append(b, rest...)
}

// botsInfo is CS:GO's reply with the given player, slot and bot bytes.
func botsInfo(players, maxPlayers, bots byte) []byte {
	return srcInfo("Bots", "de_dust2", "csgo", "Counter-Strike", 0xDA, 0x02, players, maxPlayers, bots, 'd', 'l', 0, 1, '1', '.', '0', 0)
}

// TestBotsMeaning: A2S_INFO's players byte counts the bots too, and its bots
// byte says how many: Players is the humans, Bots the bots. A 0x6D reply that
// ends before its bots byte (or carries HLTV longs) cannot tell: Players is the
// count as sent, Bots unknown. TestDecodeInfoVectors pins info_edf_all (17+3)
// and info_m_no_bots (3, unknown).
func TestBotsMeaning(t *testing.T) {
	for _, c := range []struct {
		name         string
		msg          []byte
		humans, bots int64
	}{
		{"only bots", botsInfo(4, 10, 4), 0, 4},
		{"no bots", botsInfo(5, 10, 0), 5, 0},
		{"more bots than players", botsInfo(2, 10, 5), 0, 5},
		{"0x6D with HLTV longs", readHex(t, "info_m_hltv_longs.hex"), 300, prototest.Unknown},
	} {
		t.Run(c.name, func(t *testing.T) {
			in, err := steam.DecodeInfo(c.msg)
			prototest.NoError(t, err)
			prototest.CheckBots(t, in.Result(), c.humans, c.bots, true)
		})
	}
}

// seeds is every own vector and real capture, grouped by message.
func seeds(f *testing.F) [][][]byte { return steamtest.Seeds(f, "a2s", "a2s/constructed", "goldsrc") }

// datagrams is every seed datagram, one by one.
func datagrams(f *testing.F) [][]byte { return slices.Concat(seeds(f)...) }

func FuzzDecodeInfo(f *testing.F) {
	prototest.FuzzResults(f, datagrams(f), func(t *testing.T, b []byte) *protocols.Result {
		in, err := steam.DecodeInfo(b)
		if err != nil {
			return nil
		}
		r := in.Result()
		checkKV(t, r.InfoKV())
		return r
	})
}

func FuzzDecodePlayers(f *testing.F) {
	for _, d := range datagrams(f) {
		f.Add(d, false)
		f.Add(d, true)
	}
	f.Fuzz(func(t *testing.T, b []byte, ship bool) {
		p, err := steam.DecodePlayers(b, ship)
		if err != nil {
			return
		}
		if len(p.List) > int(p.Count) {
			t.Fatalf("%d players, count %d", len(p.List), p.Count)
		}
		for _, pl := range p.Result(0) {
			if steam.Text(pl.Name) != pl.Name || (pl.DurationKnown && !(pl.Duration >= 0)) {
				t.Fatalf("bad player %+v", pl)
			}
		}
	})
}

func FuzzDecodeRules(f *testing.F) {
	for _, d := range datagrams(f) {
		f.Add(d)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := steam.DecodeRules(b)
		if err != nil {
			return
		}
		if len(r.List) > int(r.Count) || len(r.List) > steam.MaxRules {
			t.Fatalf("%d rules, count %d", len(r.List), r.Count)
		}
		for _, kv := range r.Result() { // rules may repeat keys: only UTF-8 matters
			if steam.Text(kv.Key) != kv.Key || steam.Text(kv.Value) != kv.Value {
				t.Fatalf("invalid UTF-8 in %q=%q", kv.Key, kv.Value)
			}
		}
	})
}

func BenchmarkDecodeInfo(b *testing.B) {
	prototest.DecodeBench(b, readHex(b, "info_edf_all.hex"), func(msg []byte) error {
		var in steam.Info
		err := in.Decode(msg)
		_ = in.Result()
		return err
	})
}

func BenchmarkDecodePlayers(b *testing.B) {
	prototest.DecodeBench(b, readHex(b, "player_basic.hex"), func(msg []byte) error {
		p, err := steam.DecodePlayers(msg, false)
		if err == nil {
			_ = p.Result(0)
		}
		return err
	})
}

func BenchmarkDecodeRules(b *testing.B) {
	prototest.DecodeBench(b, readHex(b, "split_message.hex"), func(msg []byte) error {
		r, err := steam.DecodeRules(msg)
		if err == nil {
			_ = r.Result()
		}
		return err
	})
}

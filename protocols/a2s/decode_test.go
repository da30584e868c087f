package a2s

import (
	"errors"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/steam"
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
			eq(t, "name", in.Name, " Spaced Name")
			eq(t, "edf", in.EDF, 0xF1)
			eq(t, "extra", in.Extra, 0xF1)
			eq(t, "game_port", in.GamePort, 27016)
			eq(t, "steam_id", in.SteamID, 90071992547409921)
			eq(t, "spectator", in.SpectatorPort, 27020)
			eq(t, "spectator name", in.SpectatorName, "SourceTV")
			eq(t, "keywords", in.Keywords, " alltalk,increased_maxplayers,payload")
			eq(t, "game_id", in.GameID, 440)
			eq(t, "players (humans)", r.Players, protocols.Known(17))
			eq(t, "bots", r.Bots, protocols.Known(3))
			eq(t, "max", r.MaxPlayers, protocols.Known(32))
			eq(t, "password", r.Password, protocols.FlagFalse)
			eq(t, "version", r.Version, "8835751")
			eq(t, "game", r.Game, "Team Fortress")
			wantKeys := []string{"protocol", "name", "map", "folder", "game", "app_id", "players", "max_players", "bots",
				"server_type", "environment", "visibility", "vac", "version", "edf", "game_port", "steam_id",
				"spectator_port", "spectator_name", "keywords", "game_id"}
			eq(t, "info keys", keys(r.InfoKV()), wantKeys)
			eq(t, "info", r.InfoKV()[5], protocols.KV{Key: "app_id", Value: "440"})
			eq(t, "info", r.InfoKV()[9], protocols.KV{Key: "server_type", Value: "d"})
			eq(t, "info", r.InfoKV()[16], protocols.KV{Key: "steam_id", Value: "90071992547409921"})
		}},
		{file: "info_no_edf.hex", check: func(t *testing.T, in *steam.Info, r *protocols.Result) {
			eq(t, "edf", in.EDF, 0)
			eq(t, "trailing", in.Trailing, 0)
			eq(t, "password", r.Password, protocols.FlagTrue)
			eq(t, "server_type", in.ServerType, 'l')
			eq(t, "info has no edf", slices.Contains(keys(r.InfoKV()), "edf"), false)
		}},
		{file: "info_theship.hex", check: func(t *testing.T, in *steam.Info, r *protocols.Result) {
			eq(t, "ship", [4]any{in.HasShip, in.ShipMode, in.ShipWitnesses, in.ShipTime}, [4]any{true, byte(3), byte(2), byte(5)})
			eq(t, "version", in.Version, "1.0.0.4")
			eq(t, "players", r.Players, protocols.Known(1))
		}},
		{file: "info_edf_cut.hex", check: func(t *testing.T, in *steam.Info, r *protocols.Result) {
			eq(t, "truncated", in.Truncated, true)
			eq(t, "extra", in.Extra, steam.EDFPort)
			eq(t, "game_port", in.GamePort, 27015)
			eq(t, "info truncated", r.InfoKV()[len(r.InfoKV())-1], protocols.KV{Key: "truncated", Value: "true"})
		}},
		{file: "info_edf_undefined.hex", check: func(t *testing.T, in *steam.Info, r *protocols.Result) {
			// The known bit is read all the same; what follows is trailing.
			eq(t, "unknown", in.UnknownEDF, true)
			eq(t, "extra", in.Extra, byte(steam.EDFPort))
			eq(t, "game port", in.GamePort, uint16(27015))
			eq(t, "trailing", in.Trailing, 2)
		}},
		{file: "info_rust.hex", check: func(t *testing.T, in *steam.Info, r *protocols.Result) {
			eq(t, "app_id field", in.AppID, 0)
			eq(t, "full app id", in.FullAppID(), steam.AppIDRust)
			eq(t, "players from cp", r.Players, protocols.Known(280))
			eq(t, "max from mp", r.MaxPlayers, protocols.Known(300))
			eq(t, "modded", r.Modded, protocols.FlagTrue)
			eq(t, "info app_id", r.InfoKV()[5], protocols.KV{Key: "app_id", Value: "252490"})
			eq(t, "queued", r.InfoKV()[len(r.InfoKV())-1], protocols.KV{Key: "queued_players", Value: "7"})
		}},
		{file: "info_edf_unknown_rust.hex", check: func(t *testing.T, in *steam.Info, r *protocols.Result) {
			// Undefined bits beside the known ones: the keywords still give the counts.
			eq(t, "unknown", in.UnknownEDF, true)
			eq(t, "extra", in.Extra, byte(steam.EDFPort|steam.EDFKeywords|steam.EDFGameID))
			eq(t, "full app id", in.FullAppID(), steam.AppIDRust)
			eq(t, "players from cp", r.Players, protocols.Known(280))
			eq(t, "max from mp", r.MaxPlayers, protocols.Known(300))
			eq(t, "queue from qp", r.Queue, protocols.Known(7))
			eq(t, "trailing", in.Trailing, 0)
		}},
		{file: "info_edf_unknown_dayz.hex", check: func(t *testing.T, in *steam.Info, r *protocols.Result) {
			eq(t, "unknown", in.UnknownEDF, true)
			eq(t, "full app id", in.FullAppID(), uint32(steam.AppIDDayZ))
			eq(t, "queue from lqs", r.Queue, protocols.Known(12))
			eq(t, "players", r.Players, protocols.Known(60))
		}},
		{file: "info_trailing.hex", check: func(t *testing.T, in *steam.Info, r *protocols.Result) {
			eq(t, "trailing", in.Trailing, 3)
			eq(t, "info trailing", r.InfoKV()[len(r.InfoKV())-1], protocols.KV{Key: "trailing_bytes", Value: "3"})
		}},
		{file: "info_odd_bytes.hex", check: func(t *testing.T, in *steam.Info, r *protocols.Result) {
			eq(t, "raw name", in.Name, "Caf\xe9 \xdcber")
			eq(t, "name as UTF-8", r.Name, "Café Über")
			eq(t, "protocol", in.Protocol, 252)
			eq(t, "info server_type", r.InfoKV()[9], protocols.KV{Key: "server_type", Value: "0"})
		}},
		{file: "info_m_mod.hex", check: func(t *testing.T, in *steam.Info, r *protocols.Result) {
			eq(t, "type", in.Type, steam.TypeInfoDetailed)
			eq(t, "address", in.Address, "192.168.0.10:27015")
			eq(t, "mod", *in.Mod, steam.ModInfo{Link: "http://example.org/", DownloadLink: "http://example.org/dl", Version: 5, Size: 123456, Type: 1, DLL: 1})
			eq(t, "vac", [2]any{in.HasVAC, in.VAC}, [2]any{true, byte(1)})
			eq(t, "bots", r.Bots, protocols.Known(2))
			eq(t, "players", r.Players, protocols.Known(4))
			eq(t, "password", r.Password, protocols.FlagTrue)
			eq(t, "version unknown", r.Version, "")
		}},
		{file: "info_m_upper.hex", check: func(t *testing.T, in *steam.Info, r *protocols.Result) {
			eq(t, "server_type", in.ServerType|0x20, byte('d'))
			eq(t, "environment", in.Environment|0x20, byte('w'))
			eq(t, "mod", in.Mod == nil, true)
		}},
		{file: "info_m_no_bots.hex", check: func(t *testing.T, in *steam.Info, r *protocols.Result) {
			eq(t, "has bots", in.HasBots, false)
			eq(t, "bots unknown", r.Bots, protocols.Count{})
			eq(t, "players", r.Players, protocols.Known(3))
		}},
		{file: "info_m_hltv_longs.hex", check: func(t *testing.T, in *steam.Info, r *protocols.Result) {
			eq(t, "hltv", [3]any{in.HasHLTVCounts, in.Spectators, in.SpectatorSlots}, [3]any{true, int32(300), int32(512)})
			eq(t, "players", r.Players, protocols.Known(300))
			eq(t, "max", r.MaxPlayers, protocols.Known(512))
			eq(t, "trailing", in.Trailing, 0)
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
			eq(t, "names", []string{r[0].Name, r[1].Name, r[2].Name}, []string{"Alice", "Bób ✓", ""})
			eq(t, "score", r[1].Score, protocols.Known(-3))
			eq(t, "duration", r[0].Duration, 1234.5)
			eq(t, "truncated", p.Truncated, false)
		}},
		{file: "player_empty.hex", check: func(t *testing.T, p *steam.Players, r []protocols.Player) {
			eq(t, "players", len(r), 0)
			eq(t, "truncated", p.Truncated, false)
		}},
		{file: "player_count_lies.hex", check: func(t *testing.T, p *steam.Players, r []protocols.Player) {
			eq(t, "count", p.Count, 5)
			eq(t, "parsed", len(r), 2)
			eq(t, "index", p.List[1].Index, 2)
			eq(t, "truncated", p.Truncated, true)
		}},
		{file: "player_cut_record.hex", check: func(t *testing.T, p *steam.Players, r []protocols.Player) {
			eq(t, "parsed", len(r), 1)
			eq(t, "name", r[0].Name, "whole")
			eq(t, "truncated", p.Truncated, true)
		}},
		{file: "player_theship.hex", ship: true, check: func(t *testing.T, p *steam.Players, r []protocols.Player) {
			eq(t, "ship", p.TheShip, true)
			eq(t, "deaths/money", [4]int32{p.List[0].Deaths, p.List[0].Money, p.List[1].Deaths, p.List[1].Money}, [4]int32{2, 1500, 0, 9000})
			eq(t, "bot duration unknown", r[0].DurationKnown, false)
			eq(t, "duration", r[1].Duration, 300.5)
		}},
		{file: "player_theship.hex", ship: false, check: func(t *testing.T, p *steam.Players, r []protocols.Player) {
			eq(t, "ship", p.TheShip, false)
			eq(t, "trailing", p.Trailing, 16)
		}},
		{file: "player_bad_durations.hex", check: func(t *testing.T, p *steam.Players, r []protocols.Player) {
			eq(t, "known", [2]bool{r[0].DurationKnown, r[1].DurationKnown}, [2]bool{false, false})
			eq(t, "durations", [2]float64{r[0].Duration, r[1].Duration}, [2]float64{0, 0})
		}},
		{file: "player_maxplayers_placeholder.hex", check: func(t *testing.T, p *steam.Players, r []protocols.Player) {
			eq(t, "decoded", len(p.List), 1)
			eq(t, "exported", len(r), 0)
		}},
		{file: "player_maxplayers_placeholder.hex", app: steam.AppIDCSGO, check: func(t *testing.T, p *steam.Players, r []protocols.Player) {
			eq(t, "exported", len(r), 0)
		}},
		{file: "player_csgo_placeholder_among.hex", app: steam.AppIDCSGO, check: func(t *testing.T, p *steam.Players, r []protocols.Player) {
			// CS:GO: the placeholder is dropped wherever it stands.
			eq(t, "decoded", len(p.List), 3)
			eq(t, "names", names(r), []string{"alice", "bob"})
			eq(t, "score", r[1].Score, protocols.Known(3))
			eq(t, "placeholder kept in the decoded list", p.List[1].Name, "Max Players")
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
			eq(t, "raw", r.List[2].Value, "Gr\xfc\xdfe")
			eq(t, "truncated", r.Truncated, false)
		}},
		{file: "rules_dangling.hex", check: func(t *testing.T, r *steam.Rules, kv []protocols.KV) {
			eq(t, "rules", kv, []protocols.KV{{Key: "a", Value: "1"}, {Key: "b", Value: "2"}})
			eq(t, "truncated", r.Truncated, true)
		}},
		{file: "rules_count_lies.hex", check: func(t *testing.T, r *steam.Rules, kv []protocols.KV) {
			eq(t, "count", r.Count, 60000)
			eq(t, "parsed", len(kv), 2)
			eq(t, "truncated", r.Truncated, true)
		}},
		{file: "rules_trailing.hex", check: func(t *testing.T, r *steam.Rules, kv []protocols.KV) {
			eq(t, "parsed", len(kv), 1)
			eq(t, "trailing", r.Trailing, 2)
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
	b := []byte{0xFF, 0xFF, 0xFF, 0xFF, 0x45, 0xFF, 0xFF}
	for range steam.MaxRules + 10 {
		b = append(b, 'k', 0, 'v', 0)
	}
	r, err := steam.DecodeRules(b)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.List) != steam.MaxRules || !r.Truncated {
		t.Fatalf("%d rules, truncated %v; want the cap %d", len(r.List), r.Truncated, steam.MaxRules)
	}
}

func TestDecodeChallengeVector(t *testing.T) {
	ch, err := steam.DecodeChallenge(readHex(t, "challenge.hex"))
	if err != nil {
		t.Fatal(err)
	}
	eq(t, "challenge", ch, []byte{0x0a, 0x0b, 0x0c, 0x0d})
	if _, err := steam.DecodeChallenge([]byte{0xFF, 0xFF, 0xFF, 0xFF, 0x41, 1}); !errors.Is(err, wire.ErrTruncated) {
		t.Fatalf("short challenge: %v", err)
	}
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
	b := []byte{0xFF, 0xFF, 0xFF, 0xFF, steam.TypeInfo, 17}
	for _, s := range [][]byte{prototest.MafiaName, []byte("de_dust2"), []byte("cstrike"), prototest.Marks1252} {
		b = append(append(b, s...), 0)
	}
	b = append(b, 0x0A, 0x00, 1, 10, 0, 'd', 'w', 0, 1)
	b = append(append(b, "1.0"...), 0)
	in, err := steam.DecodeInfo(b)
	if err != nil {
		t.Fatal(err)
	}
	if res := in.Result(); res.Name != prototest.MafiaNameText || res.Game != prototest.Marks1252Text {
		t.Errorf("name %q game %q, want %q %q", res.Name, res.Game, prototest.MafiaNameText, prototest.Marks1252Text)
	}
}

// TestQueryEncoding: with `encoding: windows-1251` the name and the players
// read in the server's code page; by default as Windows-1252.
func TestQueryEncoding(t *testing.T) {
	cp1251 := []byte{0xCF, 0xF0, 0xE8, 0xE2, 0xE5, 0xF2} // "Привет"
	info := []byte{0xFF, 0xFF, 0xFF, 0xFF, steam.TypeInfo, 17}
	for _, s := range [][]byte{cp1251, []byte("de_dust2"), []byte("cstrike"), []byte("Counter-Strike")} {
		info = append(append(info, s...), 0)
	}
	info = append(info, 0x0A, 0x00, 1, 10, 0, 'd', 'w', 0, 1, '1', 0)
	players := append(append([]byte{0xFF, 0xFF, 0xFF, 0xFF, steam.TypePlayers, 1, 0}, cp1251...), 0, 5, 0, 0, 0, 0, 0, 0x20, 0x41)
	for enc, want := range map[string]string{"": "Ïðèâåò", "windows-1251": "Привет"} {
		f := &fake{info: one(info), players: one(players), noChallenge: true}
		s := protocols.Settings{Players: true, Options: prototest.OptionsOf(Options{Encoding: enc})}
		res, _, err := query(t, f.start(t), s, 2*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		if res.Name != want || len(res.PlayerList) != 1 || res.PlayerList[0].Name != want {
			t.Errorf("encoding %q: name %q players %+v, want %q", enc, res.Name, res.PlayerList, want)
		}
	}
}

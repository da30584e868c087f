package goldsrc

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/steam"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/steam/steamtest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// Own vectors from the spec (testdata/); the real captures are in fixtures_test.go.

// Each reply's Result as prototest.ProbeLine prints it, the debug Info keys
// that must hold these values and those that must be absent.
func TestDecodeReply(t *testing.T) {
	for _, tt := range []struct {
		file   string
		want   string
		info   map[string]string
		noInfo []string
		err    error
	}{
		{file: "info_C.hex", want: `"Old WON Server" "crossfire" "Half-Life" "" 5/16 bots ? pw 0 - rules - info 8 partial []`,
			info:   map[string]string{"address": "127.0.0.1:27015", "folder": "valve", "protocol": "46", "players": "5"},
			noInfo: []string{"spectators", "trailing_bytes"}},
		{file: "info_C_hltv_longs.hex", want: `"Big Relay" "de_dust2" "Counter-Strike" "" 300/500 bots ? pw 0 - rules - info 10 partial []`,
			info: map[string]string{"address": "10.0.0.5:27020", "folder": "cstrike", "protocol": "47", "players": "255", "max_players": "255",
				"spectators": "300", "spectator_slots": "500"}, noInfo: []string{"trailing_bytes"}},
		{file: "info_C_trailing.hex", want: `"Name" "map1" "Team Fortress" "" 2/8 bots ? pw 0 - rules - info 9 partial []`,
			info: map[string]string{"trailing_bytes": "3"}, noInfo: []string{"spectators"}},
		{file: "info_C_latin1.hex", want: `"Café Serveur" "de_aztec" "Counter-Strike" "" 0/32 bots ? pw 0 - rules - info 8 partial []`},
		{file: "info_C_cp1252.hex", want: fmt.Sprintf(`%q "de_aztec" %q "" 0/32 bots ? pw 0 - rules - info 8 partial []`, prototest.MafiaNameText, prototest.Marks1252Text)},
		{file: "info_C_cut.hex", err: wire.ErrTruncated},
		{file: "info_C_no_protocol.hex", err: wire.ErrTruncated},
		{file: "info_C_bad_header.hex", err: wire.ErrMalformed},

		{file: "infostring.hex", want: `"My CS Server" "de_dust2" "Counter-Strike" "" 5/20 bots 2 pw 2 - rules - info 19 partial []`,
			info:   map[string]string{"protocol": "47", "address": "192.168.1.2:27015", "players": "7", "secure": "0", "cldll": "1", "gamedir": "cstrike"},
			noInfo: []string{"truncated"}},
		{file: "infostring_quirks.hex", want: `"Serveur été" "c1a0" "" "" ?/16 bots ? pw 0 - rules - info 5 partial []`,
			info: map[string]string{"truncated": "true", "players": "lots"}, noInfo: []string{"dangling"}},
		{file: "infostring_no_nul.hex", want: `"Cut Server" "bounce" "" "" 3/8 bots ? pw 0 - rules - info 5 partial []`,
			info: map[string]string{"truncated": "true"}},
		{file: "infostring_empty.hex", want: `"" "" "" "" ?/? bots ? pw 0 - rules - info 0 partial []`},
		{file: "infostring_bad_tag.hex", err: wire.ErrMalformed},

		{file: "info_m_mod.hex", want: `"Sven été" "svencoop1" "Sven Co-op" "" 4/16 bots 2 pw 2 - rules - info 20 partial []`,
			info: map[string]string{"address": "192.168.0.10:27015", "protocol": "47", "mod": "1", "mod_link": "http://example.org/",
				"mod_download_link": "http://example.org/dl", "mod_version": "5", "mod_size": "123456", "mod_type": "1", "mod_dll": "1", "players": "6"}},
		{file: "info_m_hltv.hex", want: `"HLTV relay" "de_inferno" "Counter-Strike" "" 0/32 bots ? pw 1 - rules - info 13 partial []`,
			info: map[string]string{"server_type": "p", "mod": "0", "vac": "0"}, noInfo: []string{"bots"}},
		{file: "info_m_hltv_longs.hex", want: `"HLTV relay" "de_nuke" "Counter-Strike" "" 300/500 bots ? pw 1 - rules - info 15 partial []`,
			info: map[string]string{"spectators": "300", "spectator_slots": "500"}},
		{file: "info_m_hltv_negative.hex", want: `"Broken relay" "de_nuke" "Counter-Strike" "" 0/0 bots ? pw 1 - rules - info 15 partial []`,
			info: map[string]string{"spectators": "-1", "spectator_slots": "-100"}},
		{file: "info_I_goldsrc.hex", want: `"CS 1.6 Server" "de_dust2" "Counter-Strike" "1.1.2.7/Stdio" 8/32 bots 4 pw 1 - rules - info 16 partial []`,
			info: map[string]string{"app_id": "10", "protocol": "48", "game_port": "27015"}},
		{file: "players_D.hex", err: wire.ErrMalformed},
	} {
		t.Run(tt.file, func(t *testing.T) {
			res, err := decodeInfoReply(readHex(t, tt.file))
			if prototest.WantedError(t, err, tt.err) {
				return
			}
			prototest.CheckProbe(t, res, nil, nil, tt.want)
			prototest.CheckInfoHas(t, res, tt.info)
			for _, k := range tt.noInfo {
				if v, ok := prototest.InfoOf(res)[k]; ok {
					t.Errorf("Info %s = %q, want absent", k, v)
				}
			}
			checkKV(t, res.Info)
		})
	}
}

var checkKV = steamtest.CheckKV

// The C decoder refuses a 0x6D (decodeReply routes by type, this holds apart from it).
func TestDecodeCInfoWrongType(t *testing.T) {
	if _, err := decodeCInfo(readHex(t, "info_m_mod.hex")); !errors.Is(err, wire.ErrMalformed) {
		t.Errorf("0x6D through DecodeInfo: err = %v, want malformed", err)
	}
}

func TestDecodeInfoStringFields(t *testing.T) {
	s, err := decodeInfoString(readHex(t, "infostring_quirks.hex"))
	prototest.NoError(t, err)
	want := []protocols.KV{{Key: "hostname", Value: "Serveur \xe9t\xe9"}, {Key: "map", Value: "c1a0"}, {Key: "players", Value: "lots"}, {Key: "max", Value: "16"}}
	eq(t, "pairs, truncated", [2]any{s.KV, s.Truncated}, [2]any{want, true})
	// A newline instead of the tag's NUL, and trailing bytes after the string.
	s, err = decodeInfoString([]byte("\xFF\xFF\xFF\xFFinfostringresponse\n\\map\\x\x00zz"))
	prototest.NoError(t, err)
	eq(t, "pairs, trailing", [2]int{len(s.KV), s.Trailing}, [2]int{1, 2})
	for _, b := range [][]byte{nil, []byte("\xFF\xFF\xFF\xFF"), []byte("\xFF\xFF\xFF\xFFinfostring")} {
		if _, err := decodeInfoString(b); !errors.Is(err, wire.ErrTruncated) {
			t.Errorf("%q: err = %v, want truncated", b, err)
		}
	}
	// Over maxInfoKeys pairs: capped and flagged.
	big := []byte("\xFF\xFF\xFF\xFFinfostringresponse\x00")
	for i := range maxInfoKeys + 10 {
		big = append(big, []byte("\\k"+string(rune('a'+i%26))+string(rune('a'+i/26))+"\\v")...)
	}
	if s, err = decodeInfoString(big); err != nil || len(s.KV) != maxInfoKeys || !s.Truncated {
		t.Errorf("big infostring: %d pairs, truncated %v, err %v", len(s.KV), s.Truncated, err)
	}
}

func TestDecodePlayers(t *testing.T) {
	pl, err := decodePlayers(readHex(t, "players_D.hex"), nil)
	prototest.NoError(t, err)
	want := []protocols.Player{
		{Name: "Gordon", Score: protocols.Known(12), Duration: 100, DurationKnown: true},
		{Name: "Jörg", Score: protocols.Known(-2), Duration: 10, DurationKnown: true},
		{Name: "", Score: protocols.Known(0), Duration: 1, DurationKnown: true},
	}
	eq(t, "players", pl, want)
	for file, n := range map[string]int{"players_empty.hex": 0, "players_count_lies.hex": 1} {
		pl, err := decodePlayers(readHex(t, file), nil)
		if err != nil || len(pl) != n {
			t.Errorf("%s: %d players, err %v; want %d", file, len(pl), err, n)
		}
	}
	// HLTV with nobody on it sends an empty datagram.
	if pl, err := decodePlayers(nil, nil); err != nil || pl == nil || len(pl) != 0 {
		t.Errorf("empty datagram: %v, %v", pl, err)
	}
	if _, err := decodePlayers(readHex(t, "rules_E.hex"), nil); !errors.Is(err, wire.ErrMalformed) {
		t.Errorf("rules as players: err = %v", err)
	}
}

func TestDecodeRules(t *testing.T) {
	rl, err := decodeRules(readHex(t, "rules_E.hex"))
	eq(t, "rules", [2]any{rl, err}, [2]any{[]protocols.KV{{Key: "mp_timelimit", Value: "30"}, {Key: "sv_password", Value: "1"},
		{Key: "hostname_note", Value: "café"}, {Key: "mp_friendlyfire", Value: "0"}}, nil})
}

// TestSplitVectors reassembles the own GoldSrc-layout split vectors in order,
// backwards and duplicated, and with a fragment missing (steamtest.Orders).
func TestSplitVectors(t *testing.T) {
	for _, tt := range []struct {
		name  string
		check func(t *testing.T, msg []byte)
	}{
		{"rules_split", func(t *testing.T, msg []byte) {
			rl, err := decodeRules(msg)
			eq(t, "rules", [2]any{rl, err}, [2]any{[]protocols.KV{{Key: "sv_gravity", Value: "800"}, {Key: "mp_fraglimit", Value: "50"}, {Key: "coop", Value: "1"}}, nil})
		}},
		{"players_split", func(t *testing.T, msg []byte) {
			pl, err := decodePlayers(msg, nil)
			if err != nil || len(pl) != 2 || pl[0].Name != "Barney" || pl[1].Name != "Otis" || pl[0].Score != protocols.Known(4) {
				t.Fatalf("players %+v, err %v", pl, err)
			}
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tt.check(t, steamtest.Orders(t, steamtest.Frags(t, tt.name), steam.LayoutGoldSrc))
		})
	}
}

// TestRecode: with the module's encoding: the 'C' reply's strings read in its
// code page (reply.recode, called before result).
func TestRecode(t *testing.T) {
	r, err := decodeReply(readHex(t, "info_C_cp1252.hex"))
	prototest.NoError(t, err)
	r.recode(wire.Windows1251)
	if res := r.result(); res.Name != prototest.MafiaNameAs["windows-1251"] || res.Map != "de_aztec" {
		t.Errorf("name %q map %q", res.Name, res.Map)
	}
}

// readHex reads an annotated hex vector from testdata/ (see prototest.ParseHex).
func readHex(t testing.TB, name string) []byte { return prototest.HexFile(t, name) }

func eq[T any](t testing.TB, what string, got, want T) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}

// infoStringMsg builds an infostringresponse around body ("\k\v...").
func infoStringMsg(body string) []byte {
	return append([]byte("\xFF\xFF\xFF\xFFinfostringresponse\x00"+body), 0)
}

// TestBotsMeaning: the replies that carry a bot count (0x49 and 0x6D's bots
// byte, the infostring's "bots" key) count the bots in their players too:
// Players is the humans, Bots the bots. The 'C' reply, a 0x6D that ends
// before its bots byte and an infostring without "bots" cannot tell: Players
// is the count as sent, Bots unknown.
func TestBotsMeaning(t *testing.T) {
	for _, c := range []struct {
		name         string
		msg          []byte
		humans, bots int64
	}{
		{"0x49: 12 players, 4 bots", readHex(t, "info_I_goldsrc.hex"), 8, 4},
		{"0x6D: 6 players, 2 bots", readHex(t, "info_m_mod.hex"), 4, 2},
		{"infostring: 7 players, 2 bots", readHex(t, "infostring.hex"), 5, 2},
		{"infostring: only bots", infoStringMsg(`\players\3\max\16\bots\3`), 0, 3},
		{"infostring: more bots than players", infoStringMsg(`\players\1\bots\4`), 0, 4},
		{"infostring: no bots key", infoStringMsg(`\players\6\max\16`), 6, prototest.Unknown},
		{"infostring: bots but no players", infoStringMsg(`\max\16\bots\2`), prototest.Unknown, 2},
		{"'C' has no bot count", readHex(t, "info_C.hex"), 5, prototest.Unknown},
		{"0x6D from HLTV ends after vac", readHex(t, "info_m_hltv.hex"), 0, prototest.Unknown},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, err := decodeInfoReply(c.msg)
			prototest.NoError(t, err)
			prototest.CheckBots(t, res, c.humans, c.bots, true)
		})
	}
}

// seeds is every own vector and, when ../shared is there, every real capture.
// The fuzz targets hold every Result to prototest.FuzzResults and checkKV.
func seeds(f *testing.F) [][]byte { return slices.Concat(steamtest.Seeds(f, "goldsrc")...) }

func FuzzDecodeReply(f *testing.F) {
	prototest.FuzzResults(f, seeds(f), func(t *testing.T, b []byte) *protocols.Result {
		res, err := decodeInfoReply(b)
		if err != nil && res != nil {
			t.Fatal("result with error")
		}
		if res != nil {
			checkKV(t, res.Info)
		}
		return res
	})
}

func FuzzDecodeInfo(f *testing.F) {
	prototest.FuzzResults(f, seeds(f), func(t *testing.T, b []byte) *protocols.Result {
		in, err := decodeCInfo(b)
		if err != nil {
			return nil
		}
		if in.Trailing < 0 || in.Trailing > len(b) {
			t.Fatalf("trailing %d of %d bytes", in.Trailing, len(b))
		}
		res := in.Result()
		checkKV(t, res.Info)
		return res
	})
}

func FuzzDecodeInfoString(f *testing.F) {
	seeds := append(seeds(f), []byte("\xFF\xFF\xFF\xFFinfostringresponse\x00\\a\\b\\\\\\c"))
	prototest.FuzzResults(f, seeds, func(t *testing.T, b []byte) *protocols.Result {
		s, err := decodeInfoString(b)
		if err != nil {
			return nil
		}
		if len(s.KV) > maxInfoKeys {
			t.Fatalf("%d pairs", len(s.KV))
		}
		for _, kv := range s.KV {
			if strings.ContainsRune(kv.Key, '\\') || strings.ContainsRune(kv.Value, '\\') {
				t.Fatalf("separator in pair %q", kv)
			}
		}
		res := s.Result()
		checkKV(t, res.Info)
		return res
	})
}

func FuzzDecodePlayersRules(f *testing.F) {
	for _, b := range seeds(f) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if pl, err := decodePlayers(b, nil); err == nil {
			for _, p := range pl {
				if !utf8.ValidString(p.Name) || p.DurationKnown && p.Duration < 0 {
					t.Fatalf("player %+v", p)
				}
			}
		}
		if rl, err := decodeRules(b); err == nil {
			for _, kv := range rl {
				if !utf8.ValidString(kv.Key) || !utf8.ValidString(kv.Value) {
					t.Fatalf("rule %q", kv)
				}
			}
		}
	})
}

func BenchmarkDecodeReply(b *testing.B) {
	for _, name := range []string{"info_m_mod.hex", "info_I_goldsrc.hex", "info_C.hex", "infostring.hex"} {
		b.Run(name, func(b *testing.B) {
			prototest.DecodeBench(b, readHex(b, name), func(msg []byte) error { _, err := decodeInfoReply(msg); return err })
		})
	}
}

func BenchmarkDecodePlayers(b *testing.B) {
	prototest.DecodeBench(b, readHex(b, "players_D.hex"), func(msg []byte) error { _, err := decodePlayers(msg, nil); return err })
}

func BenchmarkDecodeRules(b *testing.B) {
	prototest.DecodeBench(b, readHex(b, "rules_E.hex"), func(msg []byte) error { _, err := decodeRules(msg); return err })
}

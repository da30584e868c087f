package armagetron

import (
	"errors"
	"path/filepath"
	"slices"
	"testing"
	"unicode/utf8"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

type want struct {
	name, rawName, version string
	players, max           int64
	list                   []string
	info                   map[string]string
	extraWords             int
}

var goodVectors = []struct {
	file string
	want want
}{
	{"players_colours.hex", want{name: "Red Green Arena", rawName: "0xff0000Red 0x00ff00Green0xRESETT Arena",
		version: "0.2.9.1_alpha20230222 unix dedicated", players: 3, max: 8, list: []string{"Alice", "Bob", "carol"}, extraWords: 2,
		info: map[string]string{"options": "Sumo rules apply.", "url": "http://example.org/", "global_ids": "alice@forums\n\ncarol@lan\n", "version_max": "17", "port": "4534"}}},
	{"old_0_2_8_no_gids.hex", want{name: "Old Grid", rawName: "Old Grid", version: "0.2.7.1", players: 1, max: 10, list: []string{"Flynn"},
		info: map[string]string{"port": "4535", "version_max": "15"}}},
	{"empty_strings.hex", want{players: 0, max: 4, list: []string{}}},
	{"latin1_name.hex", want{name: "Café Grid", rawName: "Café Grid", version: "0.2.9.1", max: 4, list: []string{}, info: map[string]string{"global_ids": ""}}},
	// Packed as the game packs it: "\xdcber" is 61 dc..., read "Über", not "Üaer".
	{"signed_latin1.hex", want{name: "Über Fortress «été»", rawName: "0xFF8000Über 0xRESETTFortress «0x00ff00été»", version: "0.2.9.1",
		players: 2, max: 16, list: []string{"Jörg", "Ääöüß"}, info: map[string]string{"global_ids": ""}}},
	{"two_messages.hex", want{name: "Second", rawName: "Second", version: "0.2.9.1", max: 6, list: []string{}}},
	{"no_trailer.hex", want{name: "NoTrailer", rawName: "NoTrailer", version: "0.2.9.1", max: 2, list: []string{}}},
}

func checkResult(t *testing.T, res *protocols.Result, w want) {
	t.Helper()
	if res.Name != w.name || res.Version != w.version || res.Map != "" || res.Game != "" {
		t.Errorf("name %q version %q, want %q %q", res.Name, res.Version, w.name, w.version)
	}
	if res.Players != protocols.Known(w.players) || res.MaxPlayers != protocols.Known(w.max) || res.Bots.Known {
		t.Errorf("players %+v max %+v, want %d/%d", res.Players, res.MaxPlayers, w.players, w.max)
	}
	if w.list != nil {
		var names []string
		for _, p := range res.PlayerList {
			names = append(names, p.Name)
			if p.Score.Known || p.Ping.Known {
				t.Errorf("player %+v has values the protocol does not send", p)
			}
		}
		if !slices.Equal(names, w.list) || res.PlayerList == nil {
			t.Errorf("players %q, want %q", names, w.list)
		}
	}
	if info := prototest.InfoOf(res); info["name"] != w.rawName {
		t.Errorf("raw name %q, want %q", info["name"], w.rawName)
	}
	prototest.CheckInfoHas(t, res, w.info)
}

func TestVectors(t *testing.T) {
	for _, tc := range goodVectors {
		t.Run(tc.file, func(t *testing.T) {
			s, err := decodeReply(prototest.HexFile(t, tc.file))
			prototest.NoError(t, err)
			if s.ExtraWords != tc.want.extraWords {
				t.Errorf("extra words %d, want %d", s.ExtraWords, tc.want.extraWords)
			}
			checkResult(t, s.Result(true, true), tc.want)
		})
	}
}

func TestVectorErrors(t *testing.T) {
	for file, want := range map[string]error{
		"bad_length_lies.hex":        wire.ErrTruncated,
		"bad_string_lies.hex":        wire.ErrTruncated,
		"bad_truncated_fields.hex":   wire.ErrTruncated,
		"small_info_real_layout.hex": wire.ErrMalformed, // no big info in it
	} {
		t.Run(file, func(t *testing.T) {
			s, err := decodeReply(prototest.HexFile(t, file))
			if !errors.Is(err, want) {
				t.Fatalf("err = %v, want %v", err, want)
			}
			if s.Name != "" || s.Users != nil {
				t.Errorf("partial info %+v with an error", s)
			}
		})
	}
}

// TestRealCaptures decodes what armagetronad-dedicated 0.2.9.1 (start.sh's
// config: SERVER_NAME "RealWorld Armagetron", MAX_CLIENTS 12) sent.
func TestRealCaptures(t *testing.T) {
	for _, name := range []string{
		"armagetron_armagetron_armagetron-big.resp.bin",
		"exchanges/armagetron_armagetron_gamedig/01_s2c_udp_4534-43623.bin",
	} {
		t.Run(filepath.Base(name), func(t *testing.T) {
			s, err := decodeReply(prototest.Capture(t, name))
			prototest.NoError(t, err)
			if s.Port != 4534 || s.Hostname != "" || s.VersionMin != 0 || s.VersionMax != 17 || !s.HasExtras || s.ExtraWords != 17 {
				t.Errorf("decoded %+v", s)
			}
			checkResult(t, s.Result(true, false), want{name: "RealWorld Armagetron", rawName: "RealWorld Armagetron",
				version: "0.2.9.1_alpha20230222 unix dedicated", players: 0, max: 12, list: []string{},
				info: map[string]string{"options": "All settings at default values.", "url": "http://www.armagetronad.net", "global_ids": ""}})
		})
	}
	small := prototest.Capture(t, "armagetron_armagetron_armagetron-small.resp.bin")
	if data, ok, err := findMessage(small, descSmallInfo); !ok || err != nil || len(data) != 10 {
		t.Errorf("small info: %x %v %v", data, ok, err)
	}
	for file, desc := range map[string]uint16{
		"armagetron_armagetron_armagetron-small.req.bin":                    descSmallRequest,
		"armagetron_armagetron_armagetron-big.req.bin":                      descBigRequest,
		"exchanges/armagetron_armagetron_gamedig/00_c2s_udp_43623-4534.bin": descBigRequest,
	} {
		if req := prototest.Capture(t, file); string(req) != string(request(desc)) {
			t.Errorf("request % x, the reference client sent % x", request(desc), req)
		}
	}
}

func TestStripColors(t *testing.T) {
	for in, want := range map[string]string{
		"plain":                     "plain",
		"0xff0000red":               "red",
		"0xFF00aaMixed0xRESETT end": "Mixed end",
		"0xRESETT":                  "",
		"0XFF0000upper X":           "0XFF0000upper X", // the game wants a lower-case x
		"0xAbCdEfcase":              "case",
		"0xgggggg":                  "",      // any six characters, as the game reads them
		"Team 0x12345":              "Team ", // cut short at the end: dropped with the rest
		"price 0x":                  "price ",
		"0x0x112233a":               "33a",  // the second "0x" is inside the first code
		"0xéèêëàâtail":              "tail", // six characters, not six bytes
	} {
		if got := stripColors(in); got != want {
			t.Errorf("StripColors(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestResultFlags(t *testing.T) {
	s, err := decodeReply(prototest.HexFile(t, "players_colours.hex"))
	prototest.NoError(t, err)
	res := s.Result(false, false)
	if res.PlayerList != nil || res.Rules != nil {
		t.Errorf("players or rules without asking: %+v", res)
	}
	res = s.Result(false, true)
	if len(res.Rules) == 0 || res.Rules[0] != (protocols.KV{Key: "options", Value: "Sumo rules apply."}) {
		t.Errorf("rules %v", res.Rules)
	}
}

// TestBotsMeaning: the big server info counts network users (AI players hold
// no connection) and flags no bots.
func TestBotsMeaning(t *testing.T) {
	s, err := decodeReply(prototest.HexFile(t, "players_colours.hex"))
	prototest.NoError(t, err)
	prototest.CheckBots(t, s.Result(true, false), int64(s.Players), prototest.Unknown, true)
}

// FuzzDecodeReply checks that no datagram panics the decoder, that errors
// carry a reason, that strings are valid UTF-8 and the name list is capped.
func FuzzDecodeReply(f *testing.F) {
	for _, b := range append(prototest.HexFiles(f), prototest.Captures("armagetron_armagetron_armagetron-*.resp.bin")...) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := decodeReply(b)
		if err != nil {
			prototest.CheckReason(t, err)
			return
		}
		if len(s.Users) > maxPlayerNames {
			t.Fatalf("%d names kept", len(s.Users))
		}
		res := s.Result(true, true)
		for _, v := range append([]string{res.Name, res.Version}, s.Users...) {
			if !utf8.ValidString(v) {
				t.Fatalf("invalid UTF-8 %q", v)
			}
		}
	})
}

func FuzzStripColors(f *testing.F) {
	for _, s := range []string{"0xff0000red", "0xRESETT", "0x", "a0x12345g"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if out := stripColors(s); len(out) > len(s) {
			t.Fatalf("%q grew to %q", s, out)
		}
	})
}

func BenchmarkDecodeReply(b *testing.B) {
	prototest.DecodeBench(b, prototest.HexFile(b, "players_colours.hex"), func(v []byte) error {
		s, err := decodeReply(v)
		if err == nil {
			_ = s.Result(true, false)
		}
		return err
	})
}

package armagetron

import (
	"path/filepath"
	"slices"
	"testing"
	"unicode/utf8"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// want is what a vector's .expected.json (or a real capture) decodes to; a vector
// whose Error is set must fail with it and no partial info.
type want struct {
	prototest.HexVector
	Name, RawName, Version string
	Players, Max           int64
	List                   []string
	Info                   map[string]string
	ExtraWords             int
}

// checkResult checks the Result; the big info counts network users (AI players
// hold no connection) and flags no bots.
func checkResult(t *testing.T, res *protocols.Result, w want) {
	t.Helper()
	if res.Name != w.Name || res.Version != w.Version || res.Map != "" || res.Game != "" {
		t.Errorf("name %q version %q, want %q %q", res.Name, res.Version, w.Name, w.Version)
	}
	if res.Players != protocols.Known(w.Players) || res.MaxPlayers != protocols.Known(w.Max) || res.Bots.Known {
		t.Errorf("players %+v max %+v, want %d/%d", res.Players, res.MaxPlayers, w.Players, w.Max)
	}
	if w.List != nil {
		var names []string
		for _, p := range res.PlayerList {
			names = append(names, p.Name)
			if p.Score.Known || p.Ping.Known || p.Bot {
				t.Errorf("player %+v has values the protocol does not send", p)
			}
		}
		if !slices.Equal(names, w.List) || res.PlayerList == nil {
			t.Errorf("players %q, want %q", names, w.List)
		}
	}
	if info := prototest.InfoOf(res); info["name"] != w.RawName {
		t.Errorf("raw name %q, want %q", info["name"], w.RawName)
	}
	prototest.CheckInfoHas(t, res, w.Info)
}

func TestVectors(t *testing.T) {
	prototest.HexVectors(t, func(t *testing.T, b []byte, w want) {
		s, err := decodeReply(b)
		if w.Refused(t, b, err) {
			if s.Name != "" || s.Users != nil {
				t.Errorf("partial info %+v with an error", s)
			}
			return
		}
		if s.ExtraWords != w.ExtraWords {
			t.Errorf("extra words %d, want %d", s.ExtraWords, w.ExtraWords)
		}
		checkResult(t, s.Result(true, true), w)
	})
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
			checkResult(t, s.Result(true, false), want{Name: "RealWorld Armagetron", RawName: "RealWorld Armagetron",
				Version: "0.2.9.1_alpha20230222 unix dedicated", Players: 0, Max: 12, List: []string{},
				Info: map[string]string{"options": "All settings at default values.", "url": "http://www.armagetronad.net", "global_ids": ""}})
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
	prototest.CheckBots(t, s.Result(true, false), int64(s.Players), prototest.Unknown, true)
	res := s.Result(false, false)
	if res.PlayerList != nil || res.Rules != nil {
		t.Errorf("players or rules without asking: %+v", res)
	}
	res = s.Result(false, true)
	if len(res.Rules) == 0 || res.Rules[0] != (protocols.KV{Key: "options", Value: "Sumo rules apply."}) {
		t.Errorf("rules %v", res.Rules)
	}
}

// FuzzDecodeReply checks that no datagram panics the decoder, that errors
// carry a reason, that strings are valid UTF-8 and the name list is capped.
func FuzzDecodeReply(f *testing.F) {
	seeds := append(prototest.HexFiles(f), prototest.Captures("armagetron_armagetron_armagetron-*.resp.bin")...)
	prototest.FuzzResults(f, seeds, func(t *testing.T, b []byte) *protocols.Result {
		s, err := decodeReply(b)
		if err != nil {
			prototest.CheckReason(t, err)
			return nil
		}
		if len(s.Users) > maxPlayerNames {
			t.Fatalf("%d names kept", len(s.Users))
		}
		for _, v := range s.Users {
			if !utf8.ValidString(v) {
				t.Fatalf("invalid UTF-8 %q", v)
			}
		}
		return s.Result(true, true)
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

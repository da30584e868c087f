package darkplaces

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/idtech/idtechtest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// expected is the layout of testdata/*.expected.json (see testdata/README.md).
type expected struct {
	idtechtest.Vector
	Decoded *struct {
		idtechtest.Counts
		Response string
		Statuses []string
	}
	Result *struct {
		idtechtest.Result
		PhaseError string `json:"phase_error"`
	}
}

func TestVectors(t *testing.T) {
	idtechtest.Vectors(t, decode, func(t *testing.T, r *reply, e expected) {
		d := e.Decoded
		d.Check(t, r.Pairs, len(r.Players), r.Unparsed, r.Dropped)
		if r.Response != d.Response {
			t.Errorf("response %s, want %s", r.Response, d.Response)
		}
		for i, s := range d.Statuses {
			if string(r.Players[i].Status) != s || r.Players[i].ScoreKnown {
				t.Errorf("player %d status %q (score known %v), want %q", i, r.Players[i].Status, r.Players[i].ScoreKnown, s)
			}
		}
		res, w := r.result(true, true), e.Result
		w.Check(t, res)
		if res.Password != protocols.FlagUnknown {
			t.Errorf("password = %v: DarkPlaces reports none", res.Password)
		}
		if w.PhaseError != "" {
			if len(res.PhaseErrors) != 1 || res.PhaseErrors[0].Phase != w.PhaseError || !errors.Is(res.PhaseErrors[0].Err, wire.ErrTruncated) || res.PlayerList != nil {
				t.Errorf("phase errors %+v, player list %v; want a %s error", res.PhaseErrors, res.PlayerList, w.PhaseError)
			}
		} else if len(res.PhaseErrors) != 0 {
			t.Errorf("phase errors %+v", res.PhaseErrors)
		}
	})
}

// TestRealworld decodes the replies of the real Nexuiz 2.5.2 server
// (DarkPlaces 20180908) of shared/realworld, to rwprobe's, qstat's and
// gamedig's requests, and checks them against what its README says it was
// started with: 4 bots, 10 slots, map aggressor.
func TestRealworld(t *testing.T) {
	for _, tc := range []struct {
		file string
		full bool
	}{
		{"nexuiz_nexuiz_q3-getstatus.resp.bin", true},
		{"exchanges/nexuiz_nexuiz_qstat/04_s2c_udp_26000-42113.bin", true},
		{"exchanges/nexuiz_nexuiz_gamedig/01_s2c_udp_26000-60553.bin", true},
		{"nexuiz_nexuiz_q3-getinfo.resp.bin", false},
		{"exchanges/nexuiz_nexuiz_qstat/01_s2c_udp_26000-42113.bin", false},
	} {
		t.Run(filepath.Base(tc.file), func(t *testing.T) {
			r, err := decode(prototest.Capture(t, tc.file))
			prototest.NoError(t, err)
			if r.full() != tc.full {
				t.Fatalf("response %s", r.Response)
			}
			res := r.result(tc.full, true)
			if res.Name != "RealWorld Nexuiz" || res.Map != "aggressor" || res.Game != "Nexuiz" || res.Version != "2.5.2" {
				t.Errorf("name/map/game/version = %q %q %q %q", res.Name, res.Map, res.Game, res.Version)
			}
			// Four bots and no human.
			if res.Players != protocols.Known(0) || res.MaxPlayers != protocols.Known(10) || res.Bots != protocols.Known(4) || res.Password != protocols.FlagUnknown {
				t.Errorf("players %+v max %+v bots %+v password %v", res.Players, res.MaxPlayers, res.Bots, res.Password)
			}
			if !tc.full {
				return
			}
			if len(res.PlayerList) != 4 || r.Unparsed != 0 {
				t.Fatalf("player list %+v, %d unparsed", res.PlayerList, r.Unparsed)
			}
			for _, p := range res.PlayerList {
				if !p.Bot || p.Ping != protocols.Known(0) || !p.Score.Known || !strings.HasPrefix(p.Name, "[BOT]") || p.Team != "" {
					t.Errorf("player %+v: want a [BOT] with ping 0 and a score", p)
				}
			}
		})
	}
	// The echo: the getinfo capture was asked with `getinfo xxx\n` and the
	// engine echoed the newline too (an infoResponse has none of its own);
	// the querier sends no newline for that reason.
	b := prototest.Capture(t, "nexuiz_nexuiz_q3-getinfo.resp.bin")
	r, err := decode(b)
	prototest.NoError(t, err)
	if c, _ := r.Lookup("challenge"); c != "xxx" || !strings.HasSuffix(string(b), `\challenge\xxx`+"\n") {
		t.Errorf("challenge = %q in %q", c, b)
	}
}

func TestText(t *testing.T) {
	for in, want := range map[string]string{
		"caf\u00e9":            "caf\u00e9", // UTF-8 stays
		"\ue010x\ue011\ue0d2":  "[x]R",      // font glyphs, high half too
		"\x10gold\x12\x13\x11": "[gold01]",  // control bytes are glyphs too
		"\xd2\xe5\xe1\xec":     "Real",      // not UTF-8: Quake charset
		"^1\xd2^^":             "R^",        // colours first, then the charset
	} {
		if got := text([]byte(in)); got != want {
			t.Errorf("text(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestDecodeLimits: the marker is checked before the size (big zeros are no
// reply at all).
func TestDecodeLimits(t *testing.T) {
	if _, err := decode(make([]byte, 70000)); !errors.Is(err, wire.ErrMalformed) {
		t.Errorf("zeros: %v", err)
	}
	idtechtest.TooLarge(t, decode, "\xff\xff\xff\xffstatusResponse\n\\a\\b\n")
	// Without players asked for, neither reply is a phase error.
	for _, b := range []string{"\xff\xff\xff\xffstatusResponse\n\\hostname\\x\\clients\\1\n1 2 \"a\"\n", "\xff\xff\xff\xffinfoResponse\n\\hostname\\x\\clients\\1"} {
		r, _ := decode([]byte(b))
		if res := r.result(false, false); len(res.PhaseErrors) != 0 || res.Players != protocols.Known(1) {
			t.Errorf("Result(false, false) = %+v", res)
		}
	}
}

// TestBotsMeaning: the engine counts bots (clients without a connection) in
// `clients` and says how many in `bots`; older engines send neither key, and
// a bot's line has ping 0 (a connected client's ping is at least 1). Players
// is the humans, Bots the bots, and the ping-0 lines are the ones marked.
// An infoResponse without `bots` cannot tell: clients as sent, bots unknown.
func TestBotsMeaning(t *testing.T) {
	file := func(name string) []byte { return prototest.File(t, name+".bin") }
	for _, c := range []struct {
		name         string
		msg          []byte
		humans, bots int64
		complete     bool // the list is every client, so its marks are the bots
	}{
		{"nexuiz: 4 bots, 1 human", file("status_nexuiz"), 1, 4, true},
		{"bots only", file("status_bots_only"), 0, 4, true},
		{"xonotic teams: 1 bot", file("status_xonotic_teams"), 3, 1, true},
		{"old engine: ping-0 lines", file("status_old_engine"), 1, 2, true},
		{"no bots at all", statusReply("", `5 40 "a"`, `3 12 "b"`), 2, 0, true},
		{"bots over clients (a lie)", file("status_bots_over_clients"), prototest.Unknown, 3, false},
		{"infoResponse with bots", file("info_overflow"), 50, 10, false},
		{"infoResponse without bots", []byte(oob + "infoResponse\n" + `\sv_maxclients\8\clients\5\hostname\x`), 5, prototest.Unknown, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, err := decode(c.msg)
			prototest.NoError(t, err)
			prototest.CheckBots(t, r.result(true, false), c.humans, c.bots, c.complete)
		})
	}
}

// FuzzDecode checks that no datagram panics the decoder or breaks its caps and
// that everything it returns is valid UTF-8. Seeds: testdata/, and the real
// Nexuiz captures and the quake3 fixtures in ../shared when present.
func FuzzDecode(f *testing.F) {
	idtechtest.Fuzz(f, decode, func(t *testing.T, r *reply) *protocols.Result {
		res := r.result(true, true)
		if r.full() != (res.PlayerList != nil) || r.full() == (len(res.PhaseErrors) == 1) {
			t.Fatalf("full %v, list %v, phase errors %v", r.full(), res.PlayerList, res.PhaseErrors)
		}
		return res
	}, "realworld/captures/nexuiz_*.resp.bin", "fixtures/quake3/*.bin")
}

func BenchmarkDecodeStatus(b *testing.B) {
	idtechtest.BenchDecode(b, decode, func(r *reply) { r.result(true, true) },
		"testdata/status_xonotic_teams.bin", "testdata/status_too_many_lines.bin")
}

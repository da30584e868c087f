package quakeworld

import (
	"path/filepath"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/idtech"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/idtech/idtechtest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// expected is the layout of testdata/*.expected.json (see testdata/README.md).
type expected struct {
	idtechtest.Vector
	Decoded *struct {
		idtechtest.Counts
		Spectators int
		Terminated bool
		Lines      []struct {
			Name      string
			Spectator bool
			Ping      int64
			Team      string
		}
	}
	Result *idtechtest.Result
}

// checkDecoded checks the decoded reply against the vector's "decoded".
func checkDecoded(t *testing.T, r *reply, e expected) {
	t.Helper()
	d := e.Decoded
	spectators := 0
	for _, p := range r.Players {
		if p.Spectator {
			spectators++
		}
	}
	d.Check(t, r.Pairs, len(r.Players), r.Unparsed, r.Dropped)
	if spectators != d.Spectators || r.Terminated != d.Terminated {
		t.Errorf("%d spectators, terminated %v; want %+v", spectators, r.Terminated, *d)
	}
	for i, l := range d.Lines {
		p := r.Players[i]
		if idtech.Readable(p.Name) != l.Name || p.Spectator != l.Spectator || p.Ping != l.Ping || string(p.Team) != l.Team {
			t.Errorf("line %d = %q spectator %v ping %d team %q, want %+v", i, p.Name, p.Spectator, p.Ping, p.Team, l)
		}
	}
}

// TestVectors runs the hand-built vectors in testdata/ (see testdata/README.md)
// and an oversized datagram. The info cap is idtech's (TestInfoCap).
func TestVectors(t *testing.T) {
	idtechtest.Vectors(t, decode, func(t *testing.T, r *reply, e expected) {
		checkDecoded(t, r, e)
		e.Result.Check(t, r.result(true, true))
	})
	idtechtest.TooLarge(t, decode, "")
}

// TestRealworld decodes the replies of the real mvdsv 0.35 + KTX 1.42 server
// of shared/realworld (to rwprobe's, qstat's and gamedig's requests) and
// checks them against what its README says the server was started with.
func TestRealworld(t *testing.T) {
	for _, name := range []string{
		"quakeworld_quakeworld_qw-status.resp.bin",
		"exchanges/quakeworld_quakeworld_qstat/01_s2c_udp_27500-44463.bin",
		"exchanges/quakeworld_quakeworld_gamedig/01_s2c_udp_27500-33119.bin",
	} {
		t.Run(filepath.Base(name), func(t *testing.T) {
			r, err := decode(prototest.Capture(t, name))
			prototest.NoError(t, err)
			res := r.result(true, true)
			if res.Name != "RealWorld QuakeWorld" || res.Map != "rwbox" || res.Game != "qw" || res.Version != "MVDSV 0.35" {
				t.Errorf("name/map/game/version = %q %q %q %q", res.Name, res.Map, res.Game, res.Version)
			}
			if res.Players != protocols.Known(0) || res.MaxPlayers != protocols.Known(26) || res.Bots.Known ||
				res.Password != protocols.FlagFalse || len(res.PlayerList) != 0 {
				t.Errorf("players %+v max %+v bots %+v password %v list %v", res.Players, res.MaxPlayers, res.Bots, res.Password, res.PlayerList)
			}
			if !r.Terminated || r.Unparsed != 0 || len(r.Pairs) != 18 || len(res.Rules) != 18 {
				t.Errorf("terminated %v unparsed %d pairs %d", r.Terminated, r.Unparsed, len(r.Pairs))
			}
			for k, want := range map[string]string{"ktxver": "1.42", "mode": "ffa", "maxspectators": "4", "status": "Standby"} {
				if v, _ := r.Raw(k); string(v) != want {
					t.Errorf("%s = %q, want %q", k, v, want)
				}
			}
		})
	}
	// What the querier sends is what rwprobe sent to the real server.
	if req := prototest.Capture(t, "quakeworld_quakeworld_qw-status.req.bin"); string(req) != string(statusRequest) {
		t.Errorf("request %q, capture %q", statusRequest, req)
	}
}

// TestBotsNotReported: KTX frogbots are ordinary client lines (mvdsv shows a
// made-up ping of 10), so they count as players and Bots stays unknown;
// spectators are neither.
func TestBotsNotReported(t *testing.T) {
	r, err := decode([]byte("\xff\xff\xff\xffn\\hostname\\frogs\n" +
		`1 5 2 10 "[BOT]frog" "base" 4 4` + "\n" +
		`2 9 3 25 "human" "base" 13 13` + "\n" +
		`3 -9999 1 -40 "\s\watcher" "" 0 0` + "\n\x00"))
	prototest.NoError(t, err)
	prototest.CheckBots(t, r.result(true, false), 2, prototest.Unknown, true)
}

// FuzzDecode checks that no datagram panics the decoder or breaks its caps and
// that everything it returns is valid UTF-8. Seeds: testdata/, and the real
// mvdsv captures in ../shared when present.
func FuzzDecode(f *testing.F) {
	idtechtest.Fuzz(f, decode, func(t *testing.T, r *reply) *protocols.Result {
		res := r.result(true, true)
		if !res.Players.Known || res.Players.Value != int64(len(res.PlayerList)) {
			t.Fatalf("players %+v, %d listed", res.Players, len(res.PlayerList))
		}
		return res
	}, "realworld/captures/quakeworld_*.resp.bin")
}

func BenchmarkDecodeStatus(b *testing.B) {
	idtechtest.BenchDecode(b, decode, func(r *reply) { r.result(true, true) },
		"testdata/status_opt23_spectators.bin", "testdata/status_too_many_lines.bin")
}

package quake2

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/idtech/idtechtest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// expected is the layout of testdata/*.expected.json (see testdata/README.md).
type expected struct {
	idtechtest.Vector
	Decoded *struct {
		idtechtest.Counts
		Addresses []string
	}
	Result *idtechtest.Result
}

// TestVectors runs the hand-built vectors in testdata/ (see testdata/README.md)
// and an oversized datagram. The info cap is idtech's (TestInfoCap).
// No real Quake II capture exists in shared/ (no Debian package runs a Quake II
// server): these vectors and the qstat cross-check are the reference.
func TestVectors(t *testing.T) {
	idtechtest.Vectors(t, decode, func(t *testing.T, r *reply, e expected) {
		d := e.Decoded
		d.Check(t, r.Pairs, len(r.Players), r.Unparsed, r.Dropped)
		for i, a := range d.Addresses {
			if string(r.Players[i].Address) != a {
				t.Errorf("player %d address %q, want %q", i, r.Players[i].Address, a)
			}
		}
		e.Result.Check(t, r.result(true, true))
	})
	idtechtest.TooLarge(t, decode, "")
}

// TestBotsNotReported: Quake II bots (the game library's fake clients) are
// ordinary client lines, and a LAN player can have ping 0 too, so they count
// as players and Bots stays unknown.
func TestBotsNotReported(t *testing.T) {
	r, err := decode([]byte("\xff\xff\xff\xffprint\n\\hostname\\bots\n" + `4 0 "[BOT]Grunt"` + "\n" + `9 48 "human"` + "\n"))
	prototest.NoError(t, err)
	prototest.CheckBots(t, r.result(true, false), 2, prototest.Unknown, true)
}

// FuzzDecode checks that no datagram panics the decoder or breaks its caps and
// that everything it returns is valid UTF-8. Seeds: testdata/ (there is no
// real Quake II capture in ../shared), and the QuakeWorld captures, the closest
// relatives, when ../shared is present.
func FuzzDecode(f *testing.F) {
	idtechtest.Fuzz(f, decode, func(t *testing.T, r *reply) *protocols.Result {
		res := r.result(true, true)
		for _, p := range res.PlayerList {
			if p.Team != "" || p.DurationKnown {
				t.Fatalf("team or duration in player %+v", p)
			}
		}
		if !res.Players.Known || res.Players.Value != int64(len(res.PlayerList)) {
			t.Fatalf("players %+v, %d listed", res.Players, len(res.PlayerList))
		}
		return res
	}, "realworld/captures/quakeworld_*.resp.bin")
}

func BenchmarkDecodeStatus(b *testing.B) {
	idtechtest.BenchDecode(b, decode, func(r *reply) { r.result(true, true) },
		"testdata/status_q2ded.bin", "testdata/status_too_many_lines.bin")
}

package quake2

import (
	"errors"
	"fmt"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/idtech"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/idtech/idtechtest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
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

// TestVectors runs the hand-built vectors in testdata/ (see testdata/README.md).
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
}

func TestDecodeLimits(t *testing.T) {
	if _, err := decode(make([]byte, idtech.MaxDatagram+1)); !errors.Is(err, wire.ErrTooLarge) {
		t.Errorf("oversized datagram: %v, want too large", err)
	}
	b := []byte("\xff\xff\xff\xffprint\n")
	for i := range 600 {
		b = fmt.Appendf(b, `\k%d\v`, i)
	}
	r, err := decode(append(b, '\n'))
	prototest.NoError(t, err)
	if len(r.Pairs) != 512 || r.PairsDropped != 88 {
		t.Errorf("%d pairs kept, %d dropped", len(r.Pairs), r.PairsDropped)
	}
	// Result without players or rules leaves both lists empty.
	r, _ = decode([]byte("\xff\xff\xff\xffprint\n\\hostname\\x\n1 2 \"a\"\n"))
	if res := r.result(false, false); res.PlayerList != nil || res.Rules != nil || len(res.Info) != 1 || res.Players != protocols.Known(1) {
		t.Errorf("Result(false, false) = %+v", res)
	}
}

// TestBotsNotReported: Quake II bots (the game library's fake clients) are
// ordinary client lines, and a LAN player can have ping 0 too, so they count
// as players and Bots stays unknown.
func TestBotsNotReported(t *testing.T) {
	r, err := decode([]byte("\xff\xff\xff\xffprint\n\\hostname\\bots\n" + `4 0 "[BOT]Grunt"` + "\n" + `9 48 "human"` + "\n"))
	prototest.NoError(t, err)
	res := r.result(true, false)
	if res.Players != protocols.Known(2) || res.Bots.Known || len(res.PlayerList) != 2 || res.PlayerList[0].Bot {
		t.Errorf("players %+v bots %+v list %+v", res.Players, res.Bots, res.PlayerList)
	}
}

// FuzzDecode checks that no datagram panics the decoder or breaks its caps and
// that everything it returns is valid UTF-8. Seeds: testdata/ (there is no
// real Quake II capture in ../shared), and the QuakeWorld captures, the closest
// relatives, when ../shared is present.
func FuzzDecode(f *testing.F) {
	idtechtest.Fuzz(f, decode, kept, func(t *testing.T, r *reply) *protocols.Result {
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

// kept counts the player lines and info pairs a reply keeps.
func kept(r *reply) (lines, pairs int) { return len(r.Players) + r.Unparsed, len(r.Pairs) }

func BenchmarkDecodeStatus(b *testing.B) {
	idtechtest.BenchDecode(b, decode, func(r *reply) { r.result(true, true) },
		"testdata/status_q2ded.bin", "testdata/status_too_many_lines.bin")
}

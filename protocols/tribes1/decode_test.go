package tribes1

import (
	"errors"
	"fmt"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// TestDecodeVectors decodes each own vector, testdata/NAME.vec (escaped hex
// built from qstat's and gamedig's readers, prototest.ParseVec), as its
// NAME.expected.json says: the error's reason, or the Result's ProbeLine, its
// player list (fmt) and info values it holds. The players byte counts the
// clients; neither layout marks bots.
func TestDecodeVectors(t *testing.T) {
	prototest.VecVectors(t, func(t *testing.T, b []byte, w struct {
		prototest.HexVector
		Line, List string
		Info       map[string]string
	}) {
		r, err := decode(b)
		if w.Refused(t, b, err) {
			return
		}
		res := r.Result(true, true)
		prototest.CheckProbe(t, res, nil, nil, w.Line)
		if l := fmt.Sprint(res.PlayerList); l != w.List && !(w.List == "[]" && res.PlayerList == nil) {
			t.Errorf("players %s, want %s", l, w.List)
		}
		prototest.CheckInfoHas(t, res, w.Info)
		if res := r.Result(false, false); res.PlayerList != nil || res.Rules != nil || res.PhaseErrors != nil {
			t.Errorf("players and rules not asked for: %+v", res)
		}
	})
}

func TestAnswers(t *testing.T) {
	b := prototest.VecFile(t, "tribes")
	if err := answers(b, reqTribes, 0xFFEE); err != nil {
		t.Errorf("the reply does not answer: %v", err)
	}
	if err := answers(b, reqTribes, 0xFFEF); !errors.Is(err, wire.ErrMismatch) {
		t.Errorf("another echo: %v", err)
	}
	if err := answers(b, reqStarsiege, 0xFFEE); !errors.Is(err, wire.ErrMalformed) {
		t.Errorf("a Tribes reply to a Starsiege request: %v", err)
	}
	if err := answers(b[:3], reqTribes, 0xFFEE); !errors.Is(err, wire.ErrMalformed) {
		t.Errorf("3 bytes: %v", err)
	}
	if got := newRequest(reqTribes, 0x2A2A); string(got) != "b**" { // qstat's request
		t.Errorf("request %q", got)
	}
}

func TestFields(t *testing.T) {
	if got := fmt.Sprint(fields("Player Name\t\x05Team\t\x05Score")); got != "[name team score]" {
		t.Errorf("fields %s", got)
	}
	if fields("") != nil || values("") != nil {
		t.Error("empty column strings give columns")
	}
}

// TestPascalWindows1252: the game's strings are the Windows code page, so
// 0x80-0x9F are marks (– „ “ €), not control characters.
func TestPascalWindows1252(t *testing.T) {
	b := append([]byte{byte(len(prototest.MafiaName))}, prototest.MafiaName...)
	rd := wire.NewReader(b)
	if got := pascal(&rd, "name"); got != prototest.MafiaNameText || rd.Err() != nil {
		t.Errorf("%q, %v; want %q", got, rd.Err(), prototest.MafiaNameText)
	}
}

// No real Tribes or Starsiege capture is committed: the seeds are the own vectors.
func FuzzDecode(f *testing.F) { prototest.FuzzVecs(f, maxPlayers, decoded) }

// decoded is decode and the Result it leads to, players and rules on.
var decoded = prototest.Decoded(decode, func(r *reply) *protocols.Result { return r.Result(true, true) })

func BenchmarkDecode(b *testing.B) {
	prototest.DecodeBench(b, prototest.VecFile(b, "tribes"), decoded.Err)
}

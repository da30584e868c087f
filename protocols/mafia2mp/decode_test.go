package mafia2mp

import (
	"errors"
	"slices"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// TestDecodeVectors decodes each own vector, testdata/NAME.vec (escaped hex
// built from gamedig's reader, prototest.ParseVec), with its mod's tag (M2O's
// when Online) as its NAME.expected.json says: the error's reason, or the
// Result's ProbeLine and player list. The players count is the connected
// players; neither mod has bots to tell apart (Bots unknown, none marked).
func TestDecodeVectors(t *testing.T) {
	prototest.VecVectors(t, func(t *testing.T, b []byte, w struct {
		prototest.HexVector
		Online  bool
		Line    string
		Players []protocols.Player
	}) {
		tag := tagM2MP
		if w.Online {
			tag = tagOnline
		}
		r, err := decode(b, tag, wire.UTF8)
		if w.Refused(t, b, err) {
			return
		}
		res := r.Result(true)
		prototest.CheckProbe(t, res, nil, nil, w.Line)
		if !slices.Equal(res.PlayerList, w.Players) || r.Result(false).PlayerList != nil {
			t.Errorf("players %+v, want %+v", res.PlayerList, w.Players)
		}
	})
	if _, err := decode(prototest.VecFile(t, "m2o"), tagM2MP, wire.UTF8); !errors.Is(err, wire.ErrMalformed) {
		t.Errorf("another mod's tag: %v", err)
	}
}

// TestEncodingOption: the module's `encoding:` replaces the default (UTF-8 when
// valid, else Windows-1252).
func TestEncodingOption(t *testing.T) {
	for enc, want := range prototest.MafiaNameAs {
		q, err := Protocol.New(protocols.Settings{Options: prototest.OptionsOf(Options{Encoding: prototest.CodePage(t, enc)})})
		prototest.NoError(t, err)
		r, err := decode(prototest.VecFile(t, "m2mp_cp1252"), tagM2MP, q.(*querier).text)
		if err != nil || r.Name != want {
			t.Errorf("encoding %q: %q, %v; want %q", enc, r.Name, err, want)
		}
	}
}

// No real capture is committed: the seeds are the own vectors, read with both tags.
func FuzzDecode(f *testing.F) {
	for _, b := range prototest.AllVecs(f) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, tag := range []string{tagM2MP, tagOnline} {
			r, err := decode(b, tag, wire.UTF8)
			if err != nil {
				continue
			}
			res := r.Result(true)
			prototest.CheckUTF8(t, res)
			if len(res.PlayerList) > maxPlayers {
				t.Fatalf("%d players past the cap", len(res.PlayerList))
			}
			if res.Players.Value < 0 || res.MaxPlayers.Value < 0 {
				t.Fatalf("negative counts %+v", res)
			}
		}
	})
}

func BenchmarkDecode(b *testing.B) {
	prototest.DecodeBench(b, prototest.VecFile(b, "m2o"), func(b []byte) error {
		r, err := decode(b, tagOnline, wire.UTF8)
		if err == nil {
			r.Result(true)
		}
		return err
	})
}

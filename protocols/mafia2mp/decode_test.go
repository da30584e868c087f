package mafia2mp

import (
	"errors"
	"fmt"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// The own test vectors in testdata/*.vec are escaped hex built from
// gamedig's reader (format: prototest.ParseVec). The players count is the
// connected players; neither mod has bots to tell apart (Bots unknown, none
// marked).

func TestDecodeVectors(t *testing.T) {
	tests := []struct {
		vec, tag   string
		err        error
		want       string // name|game|players max bots password
		list       string
		playersErr error
	}{
		{vec: "m2mp", tag: tagM2MP, want: "Empire Bay Roleplay|M2MP 0.1 RC3|{3 true} {100 true} {0 false} 1",
			list: "[{Vito {0 false} false} {Joe {0 false} false} {Henry {0 false} false}]"},
		{vec: "m2o", tag: tagOnline, want: "M2O Freeroam é|freeroam|{2 true} {32 true} {0 false} 2",
			list: "[{Vito {45 true} false} {Joe {120 true} false}]"},
		{vec: "m2mp_cp1252", tag: tagM2MP, want: "Empire Bay – „Cash & Cars“ €5 VIP|Freeroam …|{1 true} {50 true} {0 false} 1",
			list: "[{José “Ace” {0 false} false}]"},
		{vec: "cut_players", tag: tagM2MP, want: "Cut|mode|{2 true} {10 true} {0 false} 1", list: "[{Vito {0 false} false}]", playersErr: wire.ErrTruncated},
		{vec: "bad_count", tag: tagM2MP, want: "Odd|mode|{0 false} {0 false} {0 false} 1", list: "[]"},
		{vec: "short", tag: tagM2MP, err: wire.ErrTruncated},
		{vec: "m2o", tag: tagM2MP, err: wire.ErrMalformed}, // another mod's tag
	}
	for _, tc := range tests {
		t.Run(tc.vec+"/"+tc.tag, func(t *testing.T) {
			r, err := decode(prototest.VecFile(t, tc.vec), tc.tag, wire.UTF8)
			if prototest.WantedError(t, err, tc.err) {
				return
			}
			res := r.Result(true)
			if got := fmt.Sprintf("%s|%s|%v %v %v %d", res.Name, res.Game, res.Players, res.MaxPlayers, res.Bots, res.Password); got != tc.want {
				t.Errorf("result %s, want %s", got, tc.want)
			}
			var list []any
			for _, p := range res.PlayerList {
				list = append(list, struct {
					n   string
					p   any
					bot bool
				}{p.Name, p.Ping, p.Bot})
			}
			if got := fmt.Sprint(list); got != tc.list {
				t.Errorf("players %s, want %s", got, tc.list)
			}
			if (tc.playersErr == nil) != (res.PhaseErrors == nil) || (tc.playersErr != nil && !errors.Is(res.PhaseErrors[0].Err, tc.playersErr)) {
				t.Errorf("phase errors %v, want %v", res.PhaseErrors, tc.playersErr)
			}
			if r.Result(false).PlayerList != nil {
				t.Error("players not asked for")
			}
		})
	}
}

// TestEncodingOption: the module's `encoding:` replaces the default (UTF-8 when
// valid, else Windows-1252).
func TestEncodingOption(t *testing.T) {
	for enc, want := range prototest.MafiaNameAs {
		q, err := Protocol.New(protocols.Settings{Options: prototest.OptionsOf(Options{Encoding: enc})})
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

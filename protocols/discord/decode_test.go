package discord

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

type expected struct {
	prototest.Expected
	PlayerNames []string `json:"player_names"`
	PlayerCount *int     `json:"player_count"`
}

// TestVectors decodes every widget answer in testdata/, with and without the
// player list.
func TestVectors(t *testing.T) {
	for _, name := range prototest.Names(t, ".expected.json") {
		if !strings.HasPrefix(name, "widget_") {
			continue
		}
		t.Run(name, func(t *testing.T) {
			e := prototest.ReadJSON[expected](t, filepath.Join("testdata", name+".expected.json"))
			w, err := decode(prototest.File(t, name+".json"))
			if prototest.CheckError(t, err, e.Error, e.Message) {
				if w != nil {
					t.Errorf("a widget with the error: %+v", w)
				}
				return
			}
			prototest.NoError(t, err)
			res := w.result(true)
			prototest.CheckExpected(t, e.Expected, res, nil)
			want := len(e.PlayerNames)
			if e.PlayerCount != nil {
				want = *e.PlayerCount
			}
			if got := prototest.ListNames(res); len(got) != want || !slices.Equal(got[:min(len(got), len(e.PlayerNames))], e.PlayerNames) {
				t.Errorf("players %q, want %d starting %q", got, want, e.PlayerNames)
			}
			if res := w.result(false); res.PlayerList != nil {
				t.Errorf("players listed without the module asking: %d", len(res.PlayerList))
			}
		})
	}
}

// TestAPICode reads Discord's error bodies.
func TestAPICode(t *testing.T) {
	for _, name := range prototest.Names(t, ".expected.json") {
		if !strings.HasPrefix(name, "error_") {
			continue
		}
		t.Run(name, func(t *testing.T) {
			e := prototest.ReadJSON[struct{ Code int }](t, filepath.Join("testdata", name+".expected.json"))
			if got := apiCode(prototest.File(t, name+".json")); got != e.Code {
				t.Errorf("code %d, want %d", got, e.Code)
			}
		})
	}
	for _, b := range []string{"<html>", `{"code":-3}`, `{"code":"50004"}`, ""} {
		if c := apiCode([]byte(b)); c != 0 {
			t.Errorf("%q: code %d", b, c)
		}
	}
}

// FuzzDecode checks that no answer panics the decoder and that a decoded
// widget's result is valid UTF-8, keeps its list cap and has no negative count.
func FuzzDecode(f *testing.F) {
	prototest.SeedFiles(f, "*.json")
	f.Fuzz(func(t *testing.T, b []byte) {
		apiCode(b)
		w, err := decode(b)
		if err != nil {
			return
		}
		res := w.result(true)
		prototest.CheckUTF8(t, res)
		if len(res.PlayerList) > maxMembers || res.Players.Value < 0 || res.MaxPlayers.Known || res.Bots.Known {
			t.Fatalf("%d players listed, players %+v, max %+v, bots %+v", len(res.PlayerList), res.Players, res.MaxPlayers, res.Bots)
		}
	})
}

func BenchmarkDecode(b *testing.B) {
	prototest.DecodeBench(b, prototest.File(b, "widget_capped.json"), prototest.Decoded(decode, func(w *widgetJSON) *protocols.Result { return w.result(true) }).Err)
}

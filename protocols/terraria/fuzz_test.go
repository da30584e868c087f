package terraria

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

func FuzzDecode(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.json"))
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		st, err := decode(prototest.JSONResponse(200, b))
		if err != nil {
			if !errors.Is(err, wire.ErrMalformed) && !errors.Is(err, wire.ErrServer) {
				t.Fatalf("error wraps no expected sentinel: %v", err)
			}
			if !utf8.ValidString(err.Error()) {
				t.Fatalf("error is not UTF-8: %q", err)
			}
			return
		}
		res := st.result(true, true)
		if !res.Players.Known || res.Players.Value < 0 || len(res.PlayerList) > maxPlayers || len(res.Rules) > maxRules {
			t.Fatalf("result out of bounds: %+v", res)
		}
		for _, kv := range res.InfoKV() {
			if !utf8.ValidString(kv.Value) {
				t.Fatalf("Info %s not UTF-8: %q", kv.Key, kv.Value)
			}
		}
	})
}

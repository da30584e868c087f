package terraria

import (
	"errors"
	"testing"
	"unicode/utf8"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

func FuzzDecode(f *testing.F) {
	prototest.SeedFiles(f, "*.json")
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

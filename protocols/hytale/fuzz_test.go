package hytale

import (
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// FuzzDecode checks that no reply panics the decoder, that every error names
// one reason, and that counts are never negative.
func FuzzDecode(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/*.bin")
	for _, p := range seeds {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		st, err := decode(b)
		if err != nil {
			if r := wire.Reason(err); r == "other" || r == "" {
				t.Fatalf("error without a reason: %v", err)
			}
			if st != (status{}) {
				t.Fatalf("status %+v with error %v", st, err)
			}
			return
		}
		if st.Players < 0 || st.MaxPlayers < 0 {
			t.Fatalf("negative counts %+v", st)
		}
	})
}

// FuzzDecodeFlavours: no HyQuery datagram or Nitrado body panics its decoder,
// every error names one reason, and counts are never negative.
func FuzzDecodeFlavours(f *testing.F) {
	for _, name := range []string{"hyquery_basic", "hyquery_cut", "hyquery_badmagic", "hyquery_full", "hyquery_full_lies"} {
		f.Add(hexVec(f, name))
	}
	for _, name := range []string{"nitrado.json", "nitrado_basic.json", "nitrado_nouniverse.json", "nitrado_1_0_0.json"} {
		f.Add(prototest.File(f, name))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if in, err := decodeHyQuery(b); err != nil {
			if r := wire.Reason(err); r == "" || r == "other" {
				t.Fatalf("error without a reason: %v", err)
			}
		} else if res := in.result(); res.Players.Value < 0 || res.MaxPlayers.Value < 0 || !utf8.ValidString(res.Name+res.Version) {
			t.Fatalf("%+v", res)
		}
		var r nitradoReply
		resp := &wire.HTTPResponse{Status: 200, Header: http.Header{}, Body: b}
		if err := wire.DecodeJSON(resp, &r); err != nil {
			return
		}
		res, err := r.result(true)
		if err != nil {
			if wire.Reason(err) != "malformed" {
				t.Fatalf("%v", err)
			}
			return
		}
		if res.Players.Value < 0 || res.MaxPlayers.Value < 0 || len(res.PlayerList) > maxNitradoList {
			t.Fatalf("%+v", res)
		}
	})
}

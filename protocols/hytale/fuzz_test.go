package hytale

import (
	"net/http"
	"testing"
	"unicode/utf8"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// FuzzDecode checks that no reply panics the decoder, that every error names
// one reason, and that counts are never negative.
func FuzzDecode(f *testing.F) {
	prototest.SeedFiles(f, "*.bin")
	f.Fuzz(func(t *testing.T, b []byte) {
		st, err := decode(b)
		if err != nil {
			prototest.CheckReason(t, err)
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
	for _, b := range prototest.HexFiles(f, "hyquery_") {
		f.Add(b)
	}
	prototest.SeedFiles(f, "nitrado*.json")
	f.Fuzz(func(t *testing.T, b []byte) {
		if in, err := decodeHyQuery(b); err != nil {
			prototest.CheckReason(t, err)
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

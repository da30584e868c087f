package satisfactory

import (
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

func BenchmarkDecode(b *testing.B) {
	vec := loadHex(b, "playing_djwoodz.hex")
	b.ReportAllocs()
	for b.Loop() {
		resp, err := decode(vec)
		if err != nil {
			b.Fatal(err)
		}
		_ = resp.Result()
	}
}

func BenchmarkQuery(b *testing.B) {
	vec := loadHex(b, "playing_djwoodz.hex")
	addr := prototest.UDP(b, func(req []byte) [][]byte { return [][]byte{withCookie(vec, req)} })
	prototest.QueryBench(b, Protocol, protocols.Settings{}, addr)
}

func BenchmarkDecodeAPIState(b *testing.B) {
	resp := prototest.JSONResponse(200, prototest.File(b, "api_state_playing.json"))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := decodeState(resp); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkQueryAPI(b *testing.B) {
	_, addr := startAPI(b, &fakeAPI{})
	q := prototest.MustNew(b, Protocol, protocols.Settings{Options: apiOpts(nil)})
	tr := wire.NewTrace()
	b.ReportAllocs()
	for b.Loop() { // no Lightweight Query server: its phase fails, the API answers
		tr.Reset()
		if _, err := q.Query(prototest.Context(b, 2*time.Second), protocols.At(addr), tr); err != nil {
			b.Fatal(err)
		}
	}
}

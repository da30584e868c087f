package satisfactory

import (
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

func BenchmarkDecode(b *testing.B) {
	prototest.DecodeBench(b, prototest.HexFile(b, "playing_djwoodz.hex"), func(vec []byte) error {
		resp, err := decode(vec)
		if err == nil {
			resp.Result()
		}
		return err
	})
}

func BenchmarkQuery(b *testing.B) {
	prototest.QueryBench(b, Protocol, protocols.Settings{}, prototest.UDP(b, lq(prototest.HexFile(b, "playing_djwoodz.hex"))))
}

func BenchmarkDecodeAPIState(b *testing.B) {
	resp := prototest.JSONResponse(200, prototest.File(b, "api_state_playing.json"))
	prototest.DecodeBench(b, resp.Body, func([]byte) error { _, err := decodeState(resp); return err })
}

func BenchmarkQueryAPI(b *testing.B) {
	_, addr := prototest.HTTP(b, &fakeAPI{}, true)
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

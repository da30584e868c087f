package hexen2

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

func BenchmarkDecode(b *testing.B) {
	info := prototest.VecFile(b, "info")
	b.SetBytes(int64(len(info)))
	b.ReportAllocs()
	for b.Loop() {
		body, _, err := answer(info, repServerInfo)
		if err != nil {
			b.Fatal(err)
		}
		s, err := decodeServerInfo(body)
		if err != nil {
			b.Fatal(err)
		}
		s.result()
	}
}

func BenchmarkQuery(b *testing.B) {
	prototest.QueryBench(b, Protocol, protocols.Settings{Players: true, Rules: true}, prototest.UDP(b, stock(b).handler(b)))
}

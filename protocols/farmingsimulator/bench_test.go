package farmingsimulator

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

func BenchmarkDecode(b *testing.B) {
	body := prototest.File(b, "fs22.xml")
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		s, err := decode(body)
		if err != nil {
			b.Fatal(err)
		}
		s.result(true)
	}
}

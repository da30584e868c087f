package soldat

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

func BenchmarkDecode(b *testing.B) {
	v := vec(b, "refreshx_ctf")
	b.ReportAllocs()
	for b.Loop() {
		rf, err := decodeRefresh(v, wire.UTF8)
		if err != nil {
			b.Fatal(err)
		}
		rf.result(true)
	}
}

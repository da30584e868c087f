package eco

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

func BenchmarkDecode(b *testing.B) {
	body := prototest.File(b, "info.json")
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		in, err := decode(body)
		if err != nil {
			b.Fatal(err)
		}
		in.result(true)
	}
}

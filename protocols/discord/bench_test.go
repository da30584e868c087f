package discord

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

func BenchmarkDecode(b *testing.B) {
	data := prototest.File(b, "widget_capped.json")
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		w, err := decode(data)
		if err != nil {
			b.Fatal(err)
		}
		w.result(true)
	}
}

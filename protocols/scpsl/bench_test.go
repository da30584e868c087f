package scpsl

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

func BenchmarkDecode(b *testing.B) {
	data := prototest.File(b, "serverinfo_basic.json")
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := decodeVector(data, 0, 7777, true); err != nil {
			b.Fatal(err)
		}
	}
}

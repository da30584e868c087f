package assettocorsa

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

func BenchmarkDecode(b *testing.B) {
	info, list := prototest.File(b, "info.json"), prototest.File(b, "entry_list.json")
	b.SetBytes(int64(len(info) + len(list)))
	b.ReportAllocs()
	for b.Loop() {
		in, err := decodeInfo(info)
		if err != nil {
			b.Fatal(err)
		}
		in.result()
		cars, err := decodeCars(list)
		if err != nil {
			b.Fatal(err)
		}
		players(cars)
	}
}

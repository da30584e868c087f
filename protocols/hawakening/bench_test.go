package hawakening

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

func BenchmarkDecode(b *testing.B) {
	data := prototest.File(b, "listings_basic.json")
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := decodeListing(data, "aaaaaaaa-0000-4000-8000-000000000001"); err != nil {
			b.Fatal(err)
		}
	}
}

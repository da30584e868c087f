package hawakening

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

func BenchmarkDecode(b *testing.B) {
	prototest.DecodeBench(b, prototest.File(b, "listings_basic.json"), func(data []byte) error {
		_, err := decodeListing(data, guid)
		return err
	})
}

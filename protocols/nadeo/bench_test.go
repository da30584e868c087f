package nadeo

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

func BenchmarkDecodePlayers(b *testing.B) {
	prototest.DecodeBench(b, vec(b, "players"), func(v []byte) error {
		n, err := decodeResponse(v)
		if err == nil {
			_, err = playerList(n)
		}
		return err
	})
}

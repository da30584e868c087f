package gamespy2

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

func BenchmarkDecode(b *testing.B) {
	v := vector(b, "halo_like")
	prototest.DecodeBench(b, nil, func([]byte) error {
		_, err := decode(v...)
		return err
	})
}

func BenchmarkQuery(b *testing.B) {
	v := vector(b, "halo_like")
	addr := prototest.UDP(b, func(req []byte) [][]byte {
		if req[8] == 0xFF {
			return [][]byte{withID(v[1], req)}
		}
		return [][]byte{withID(v[0], req)}
	})
	prototest.QueryBench(b, Protocol, protocols.Settings{Players: true, Rules: true}, addr)
}

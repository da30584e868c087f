package hexen2

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

func BenchmarkDecode(b *testing.B) {
	prototest.DecodeBench(b, prototest.VecFile(b, "info"), func(info []byte) error {
		body, _, err := answer(info, repServerInfo)
		if err == nil {
			var s *serverInfo
			if s, err = decodeServerInfo(body); err == nil {
				s.result()
			}
		}
		return err
	})
}

func BenchmarkQuery(b *testing.B) {
	prototest.QueryBench(b, Protocol, protocols.Settings{Players: true, Rules: true}, prototest.UDP(b, stock(b).handler(b)))
}

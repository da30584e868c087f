package teamspeak3

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

func BenchmarkDecodeTranscript(b *testing.B) {
	out := transcript(b, "ok_default")
	prototest.DecodeBench(b, nil, func([]byte) error { _, err := decodeTranscript(out, 9987); return err })
}

// BenchmarkQuery is a full exchange over loopback TCP, one connection per query.
func BenchmarkQuery(b *testing.B) {
	f := serve(b, transcript(b, "ok_default"))
	prototest.QueryBench(b, Protocol, withQueryPort(f.addr.Port()), voice)
}

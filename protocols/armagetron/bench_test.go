package armagetron

import (
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

func BenchmarkDecodeReply(b *testing.B) {
	vec := prototest.HexFile(b, "players_colours.hex")
	b.ReportAllocs()
	for b.Loop() {
		s, err := decodeReply(vec)
		if err != nil {
			b.Fatal(err)
		}
		_ = s.Result(true, false)
	}
}

// BenchmarkQuery is the full two-request exchange over loopback UDP.
func BenchmarkQuery(b *testing.B) {
	srv := newServer(b, prototest.HexFile(b, "players_colours.hex"))
	addr := prototest.UDP(b, srv.handle(b))
	q, _ := Protocol.New(protocols.Settings{Players: true})
	tr := wire.NewTrace()
	b.ReportAllocs()
	for b.Loop() {
		tr.Reset()
		if _, err := q.Query(prototest.Context(b, 2*time.Second), protocols.At(addr), tr); err != nil {
			b.Fatal(err)
		}
	}
}

package idtechtest

import (
	"net/netip"
	"os"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// BenchDecode measures decodeAndResult (decode plus building the Result) on
// the datagram in file.
func BenchDecode(b *testing.B, file string, decodeAndResult func([]byte) error) {
	data, err := os.ReadFile(file)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if err := decodeAndResult(data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchQuery measures a full exchange with the fake server at addr over
// loopback, players and rules on.
func BenchQuery(b *testing.B, p protocols.Protocol, addr netip.AddrPort) {
	q, err := p.New(protocols.Settings{Players: true, Rules: true})
	if err != nil {
		b.Fatal(err)
	}
	ctx := prototest.Context(b, time.Minute)
	tr := wire.NewTrace()
	b.ReportAllocs()
	for b.Loop() {
		tr.Reset()
		if _, err := q.Query(ctx, protocols.At(addr), tr); err != nil {
			b.Fatal(err)
		}
	}
}

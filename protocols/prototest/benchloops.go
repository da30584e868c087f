package prototest

import (
	"net/netip"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// DecodeBench measures decode on reply, bytes and allocations per run; decode
// returns its error (and builds the Result, the part of a probe it stands for).
// A decoder of several datagrams gets a nil reply and reads its own.
func DecodeBench(b *testing.B, reply []byte, decode func([]byte) error) {
	b.SetBytes(int64(len(reply)))
	b.ReportAllocs()
	for b.Loop() {
		if err := decode(reply); err != nil {
			b.Fatal(err)
		}
	}
}

// QueryBench measures whole queries of a querier p makes of s against the fake
// server at addr, reusing one trace as the prober does; each must succeed in
// every phase.
func QueryBench(b *testing.B, p protocols.Protocol, s protocols.Settings, addr netip.AddrPort) {
	q, err := p.New(s)
	if err != nil {
		b.Fatal(err)
	}
	ctx := Context(b, time.Minute)
	tr := wire.NewTrace()
	b.ReportAllocs()
	for b.Loop() {
		tr.Reset()
		res, err := q.Query(ctx, protocols.At(addr), tr)
		if err != nil {
			b.Fatal(err)
		}
		if res.PhaseErrors != nil {
			b.Fatal(res.PhaseErrors)
		}
	}
}

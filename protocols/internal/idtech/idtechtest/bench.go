package idtechtest

import (
	"net/netip"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// BenchDecode measures decode plus result (building the Result) on each
// datagram file, one sub-benchmark per file.
func BenchDecode[T any](b *testing.B, decode func([]byte) (*T, error), result func(*T), files ...string) {
	for _, file := range files {
		b.Run(filepath.Base(file), func(b *testing.B) {
			data, err := os.ReadFile(file)
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				r, err := decode(data)
				if err != nil {
					b.Fatal(err)
				}
				result(r)
			}
		})
	}
}

// QueryBench measures whole queries of a querier p makes of s against the fake
// server at addr, reusing one trace as the prober does; each must succeed in
// every phase. (The same as prototest.QueryBench of branch h/t-decode, which
// replaces it once both are merged.)
func QueryBench(b *testing.B, p protocols.Protocol, s protocols.Settings, addr netip.AddrPort) {
	q, err := p.New(s)
	if err != nil {
		b.Fatal(err)
	}
	ctx := prototest.Context(b, time.Minute)
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

package fivem

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

func BenchmarkDecodeInfo(b *testing.B) {
	data := prototest.HexFile(b, "info_fxserver.hex")
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		kvs, err := decodeInfo(data)
		if err != nil {
			b.Fatal(err)
		}
		infoResult(kvs)
	}
}

func BenchmarkDecodePlayers(b *testing.B) {
	data, err := os.ReadFile("testdata/players.json")
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := decodePlayers(data); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeServerInfo(b *testing.B) {
	data, err := os.ReadFile("testdata/info.json")
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := decodeServerInfo(data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkQuery is a getinfo exchange plus players.json and info.json over loopback.
func BenchmarkQuery(b *testing.B) {
	addr := fxServer(b, answer, fxMux(jsonHandler(playersBody), jsonHandler(infoBody)))
	q := prototest.MustNew(b, Protocol, protocols.Settings{Players: true, Rules: true})
	tr := wire.NewTrace()
	b.ReportAllocs()
	for b.Loop() {
		tr.Reset()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		res, err := q.Query(ctx, protocols.At(addr), tr)
		cancel()
		if err != nil || len(res.PhaseErrors) != 0 {
			b.Fatal(err, res.PhaseErrors)
		}
	}
}

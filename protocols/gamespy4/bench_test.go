package gamespy4

import (
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

func BenchmarkDecodeFull(b *testing.B) {
	v := vector(b, "full_vanilla")
	b.ReportAllocs()
	for b.Loop() {
		st, err := decodeFull(v)
		if err != nil {
			b.Fatal(err)
		}
		st.result(true, true)
	}
}

// BenchmarkDecodeFixture decodes a 1.6 KB Bukkit reply with 15 players and 50 plugins.
func BenchmarkDecodeFixture(b *testing.B) {
	v := prototest.Fixture(b, fixtureProto, "minecraft_fullstat_2.bin")
	b.ReportAllocs()
	for b.Loop() {
		st, err := decodeFull(v)
		if err != nil {
			b.Fatal(err)
		}
		st.result(true, true)
	}
}

func BenchmarkDecodeBasic(b *testing.B) {
	v := vector(b, "basic")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := decodeBasic(v); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkQuery(b *testing.B) {
	v := vector(b, "full_vanilla")
	addr := prototest.UDP(b, func(req []byte) [][]byte {
		if req[2] == 0x09 {
			return [][]byte{append(append([]byte{0x09}, req[3:7]...), "9513307\x00"...)}
		}
		return [][]byte{withSession(v, req[3:7])}
	})
	q, _ := Protocol.New(protocols.Settings{Players: true, Rules: true})
	tr := wire.NewTrace()
	ctx := prototest.Context(b, time.Minute)
	b.ReportAllocs()
	for b.Loop() {
		tr.Reset()
		if _, err := q.Query(ctx, protocols.At(addr), tr); err != nil {
			b.Fatal(err)
		}
	}
}

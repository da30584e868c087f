package goldsrc

import (
	"context"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/steam/steamtest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

func BenchmarkDecodeReply(b *testing.B) {
	for _, name := range []string{"info_m_mod.hex", "info_I_goldsrc.hex", "info_C.hex", "infostring.hex"} {
		msg := readHex(b, name)
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := decodeInfoReply(msg); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkDecodePlayers(b *testing.B) {
	msg := readHex(b, "players_D.hex")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := decodePlayers(msg, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeRules(b *testing.B) {
	msg := readHex(b, "rules_E.hex")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := decodeRules(msg); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkQuery runs a whole A2S-dialect query (info, players with challenge,
// split rules) against a loopback fake server.
func BenchmarkQuery(b *testing.B) {
	f := &fake{
		a2sInfo: one(readHex(b, "info_I_goldsrc.hex")),
		players: one(readHex(b, "players_D.hex")),
		rules:   steamtest.Frags(b, "rules_split"),
	}
	addr := f.start(b)
	q, err := newQuerier(protocols.Settings{Players: true, Rules: true})
	if err != nil {
		b.Fatal(err)
	}
	tr := wire.NewTrace()
	b.ReportAllocs()
	for b.Loop() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		tr.Reset()
		if _, err := q.Query(ctx, protocols.At(addr), tr); err != nil {
			b.Fatal(err)
		}
		cancel()
	}
}

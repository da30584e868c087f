package a2s

import (
	"context"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/steam"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/steam/steamtest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

func BenchmarkDecodeInfo(b *testing.B) {
	msg := readHex(b, "info_edf_all.hex")
	b.ReportAllocs()
	for b.Loop() {
		var in steam.Info
		if err := in.Decode(msg); err != nil {
			b.Fatal(err)
		}
		_ = in.Result()
	}
}

func BenchmarkDecodePlayers(b *testing.B) {
	msg := readHex(b, "player_basic.hex")
	b.ReportAllocs()
	for b.Loop() {
		p, err := steam.DecodePlayers(msg, false)
		if err != nil {
			b.Fatal(err)
		}
		_ = p.Result(0)
	}
}

func BenchmarkDecodeRules(b *testing.B) {
	msg := readHex(b, "split_message.hex")
	b.ReportAllocs()
	for b.Loop() {
		r, err := steam.DecodeRules(msg)
		if err != nil {
			b.Fatal(err)
		}
		_ = r.Result()
	}
}

func benchAssembler(b *testing.B, name string) {
	frags := steamtest.Frags(b, name)
	b.ReportAllocs()
	for b.Loop() {
		var a steam.Assembler
		for i := len(frags) - 1; i >= 0; i-- {
			if _, _, err := a.Add(frags[i]); err != nil {
				b.Fatal(err)
			}
		}
	}
}

func BenchmarkAssembler(b *testing.B)      { benchAssembler(b, "split_source") }
func BenchmarkAssemblerBzip2(b *testing.B) { benchAssembler(b, "split_bzip2") }

// BenchmarkQuery is the load benchmark's exchange: A2S_INFO against a loopback fake
// server that wants a challenge. The challenge cache sends it at once on every
// probe but the first: one round trip.
func BenchmarkQuery(b *testing.B) { benchQuery(b, protocols.Settings{}) }

// BenchmarkQueryNoCache is the same with challenge_cache: false: every probe pays
// the S2C_CHALLENGE round trip.
func BenchmarkQueryNoCache(b *testing.B) {
	benchQuery(b, protocols.Settings{Options: func(v any) error {
		off := false
		v.(*Options).ChallengeCache = &off
		return nil
	}})
}

func benchQuery(b *testing.B, s protocols.Settings) {
	f := &fake{info: one(readHex(b, "info_edf_all.hex")), infoChallenge: true, challenge: [4]byte{1, 2, 3, 4}, quiet: true}
	addr := f.start(b)
	q, err := newQuerier(s)
	if err != nil {
		b.Fatal(err)
	}
	tr := wire.NewTrace()
	b.ReportAllocs()
	for b.Loop() {
		tr.Reset()
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		if _, err := q.Query(ctx, protocols.At(addr), tr); err != nil {
			b.Fatal(err)
		}
		cancel()
	}
}

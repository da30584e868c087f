package fivem

import (
	"testing"
	"unicode/utf8"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// FuzzDecodeInfo checks that no datagram panics the info decoder or breaks its
// cap, and that the result it builds is valid UTF-8 with no negative count.
func FuzzDecodeInfo(f *testing.F) {
	for _, b := range prototest.HexFiles(f) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		kvs, err := decodeInfo(b)
		if err != nil {
			if kvs != nil {
				t.Fatal("pairs and error")
			}
			return
		}
		if len(kvs) > maxInfoPairs {
			t.Fatalf("%d pairs", len(kvs))
		}
		res := infoResult(kvs)
		prototest.CheckUTF8(t, res)
		if res.Players.Value < 0 || res.MaxPlayers.Value < 0 {
			t.Fatalf("negative count %+v %+v", res.Players, res.MaxPlayers)
		}
	})
}

// FuzzDecodePlayers checks players.json: no panic, the cap holds, names are UTF-8.
func FuzzDecodePlayers(f *testing.F) {
	prototest.SeedFiles(f, "players*.json")
	f.Fuzz(func(t *testing.T, b []byte) {
		list, _, err := decodePlayers(b)
		if err != nil {
			return
		}
		if len(list) > maxPlayers {
			t.Fatalf("%d players", len(list))
		}
		for _, p := range list {
			if !utf8.ValidString(p.Name) || p.Ping.Value < 0 {
				t.Fatalf("bad player %+v", p)
			}
		}
	})
}

// FuzzDecodeServerInfo checks info.json: no panic, the cap holds, UTF-8 out.
func FuzzDecodeServerInfo(f *testing.F) {
	prototest.SeedFiles(f, "info*.json")
	f.Fuzz(func(t *testing.T, b []byte) {
		version, rules, err := decodeServerInfo(b)
		if err != nil {
			return
		}
		if len(rules) > maxVars || !utf8.ValidString(version) {
			t.Fatalf("%d rules, version %q", len(rules), version)
		}
		for _, kv := range rules {
			if !utf8.ValidString(kv.Key) || !utf8.ValidString(kv.Value) {
				t.Fatalf("invalid UTF-8 rule %q", kv)
			}
		}
	})
}

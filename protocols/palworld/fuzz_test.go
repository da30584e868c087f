package palworld

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

func checkErr(t *testing.T, err error) {
	if !errors.Is(err, wire.ErrMalformed) {
		t.Fatalf("error is not malformed: %v", err)
	}
}

func FuzzDecodeInfo(f *testing.F) {
	prototest.SeedFiles(f, "info*.json")
	f.Fuzz(func(t *testing.T, b []byte) {
		in, err := decodeInfo(b)
		if err != nil {
			checkErr(t, err)
			return
		}
		prototest.CheckUTF8(t, in.result())
	})
}

func FuzzDecodeMetrics(f *testing.F) {
	prototest.SeedFiles(f, "metrics*.json")
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := decodeMetrics(b)
		if err != nil {
			checkErr(t, err)
			return
		}
		res := &protocols.Result{}
		m.fill(res)
		if res.Players.Value < 0 || res.Players.Value > maxCount || res.MaxPlayers.Value < 0 || res.MaxPlayers.Value > maxCount {
			t.Fatalf("counts out of range: %v/%v", res.Players, res.MaxPlayers)
		}
	})
}

func FuzzDecodePlayers(f *testing.F) {
	prototest.SeedFiles(f, "players*.json")
	f.Fuzz(func(t *testing.T, b []byte) {
		pl, err := decodePlayers(b)
		if err != nil {
			checkErr(t, err)
			return
		}
		res := &protocols.Result{}
		pl.fill(res)
		if len(res.PlayerList) > maxPlayers {
			t.Fatalf("%d players kept", len(res.PlayerList))
		}
		for _, p := range res.PlayerList {
			if p.Ping.Known && (p.Ping.Value < 0 || p.Ping.Value > 1e6) {
				t.Fatalf("ping %d", p.Ping.Value)
			}
		}
	})
}

// FuzzRedactPlayers: whatever the reply, what the trace keeps has no "ip" member.
func FuzzRedactPlayers(f *testing.F) {
	prototest.SeedFiles(f, "players*.json")
	f.Fuzz(func(t *testing.T, b []byte) {
		out := redactPlayers(b)
		var v any
		dec := json.NewDecoder(bytes.NewReader(out))
		dec.UseNumber() // as the redactor reads it: 1e999 is JSON, not a float64
		if dec.Decode(&v) != nil {
			if !strings.Contains(string(out), "withheld") {
				t.Fatalf("unparsable redaction that is not a placeholder: %q", out)
			}
			return
		}
		var walk func(any)
		walk = func(v any) {
			switch v := v.(type) {
			case map[string]any:
				for k, c := range v {
					if strings.EqualFold(k, "ip") {
						t.Fatalf("ip member kept: %s", out)
					}
					walk(c)
				}
			case []any:
				for _, c := range v {
					walk(c)
				}
			}
		}
		walk(v)
	})
}

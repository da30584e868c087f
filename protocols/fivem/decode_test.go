package fivem

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

type expected struct {
	Description string
	Error       string
	InfoPairs   int `json:"info_pairs"`
	Result      *prototest.ExpectedResult
	Players     []struct {
		Name string
		Ping prototest.Opt[int64]
	}
	Version   string
	Rules     int
	FirstRule [2]string `json:"first_rule"`
}

// expectedFor reads testdata/<name>.expected.json.
func expectedFor(t *testing.T, name string) expected {
	t.Helper()
	return prototest.ReadJSON[expected](t, filepath.Join("testdata", name+".expected.json"))
}

func TestDecodeInfo(t *testing.T) {
	for _, name := range prototest.Names(t, ".hex") {
		t.Run(name, func(t *testing.T) {
			e := expectedFor(t, name)
			kvs, err := decodeInfo(prototest.HexFile(t, name+".hex"))
			if e.Error != "" {
				if wire.Reason(err) != e.Error || kvs != nil {
					t.Fatalf("err = %v (%q), kvs = %q; want reason %q", err, wire.Reason(err), kvs, e.Error)
				}
				return
			}
			prototest.NoError(t, err)
			if len(kvs) != e.InfoPairs {
				t.Errorf("%d info pairs, want %d: %q", len(kvs), e.InfoPairs, kvs)
			}
			res := infoResult(kvs)
			prototest.CheckResult(t, res, *e.Result)
			prototest.CheckUTF8(t, res)
		})
	}
}

func TestDecodePlayers(t *testing.T) {
	for _, name := range []string{"players", "players_bad_entry", "players_cut", "players_empty", "players_object"} {
		t.Run(name, func(t *testing.T) {
			e := expectedFor(t, name)
			list, dropped, err := decodePlayers(prototest.File(t, name+".json"))
			if prototest.CheckError(t, err, e.Error, nil) {
				return
			}
			if err != nil || dropped != 0 {
				t.Fatal(err, dropped)
			}
			if len(list) != len(e.Players) {
				t.Fatalf("players = %+v, want %+v", list, e.Players)
			}
			for i, w := range e.Players {
				if list[i].Name != w.Name {
					t.Errorf("player %d name %q, want %q", i, list[i].Name, w.Name)
				}
				prototest.CheckCount(t, "ping", list[i].Ping, w.Ping)
			}
			// Identifiers and endpoints are never decoded, so nothing of them
			// can leak into a result.
			prototest.NoSecrets(t, nil, nil, fmt.Errorf("%+v", list), "license:", "198.51.100.23")
		})
	}
}

func TestDecodePlayersCap(t *testing.T) {
	entry := `{"name":"p","ping":1,"identifiers":["license:x"]}`
	list, dropped, err := decodePlayers([]byte("[" + strings.Repeat(entry+",", maxPlayers+9) + entry + "]"))
	if err != nil || len(list) != maxPlayers || dropped != 10 {
		t.Fatalf("%d players, %d dropped, %v", len(list), dropped, err)
	}
}

func TestDecodeServerInfo(t *testing.T) {
	for _, name := range []string{"info", "info_html"} {
		t.Run(name, func(t *testing.T) {
			e := expectedFor(t, name)
			version, rules, err := decodeServerInfo(prototest.File(t, name+".json"))
			if prototest.CheckError(t, err, e.Error, nil) {
				return
			}
			prototest.NoError(t, err)
			if version != e.Version || len(rules) != e.Rules || rules[0] != (protocols.KV{Key: e.FirstRule[0], Value: e.FirstRule[1]}) {
				t.Errorf("version %q, rules %q", version, rules)
			}
		})
	}
}

func TestDecodeServerInfoVarsCap(t *testing.T) {
	vars := make([]string, maxVars+5)
	for i := range vars {
		vars[i] = `"v` + strings.Repeat("a", i%7) + string(rune('a'+i%26)) + `_` + strconv.Itoa(i) + `":1`
	}
	_, rules, err := decodeServerInfo([]byte(`{"server":"x","vars":{` + strings.Join(vars, ",") + `}}`))
	if err != nil || len(rules) != maxVars || rules[0].Value != "1" {
		t.Fatalf("%d rules, %v", len(rules), err)
	}
}

func TestStripColours(t *testing.T) {
	for in, want := range map[string]string{
		"":              "",
		"plain":         "plain",
		"^1Red^7White":  "RedWhite",
		"^^1x":          "^x",
		"a^":            "a^",
		"^a^0":          "^a",
		"~r~GTA ^5code": "~r~GTA code",
	} {
		if got := stripColours(in); got != want {
			t.Errorf("stripColours(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzDecodeInfo checks that no datagram panics the info decoder or breaks its
// cap, and that the result it builds is valid UTF-8 with no negative count.
func FuzzDecodeInfo(f *testing.F) {
	prototest.FuzzResults(f, prototest.HexFiles(f), func(t *testing.T, b []byte) *protocols.Result {
		kvs, err := decodeInfo(b)
		if err != nil {
			if kvs != nil {
				t.Fatal("pairs and error")
			}
			return nil
		}
		if len(kvs) > maxInfoPairs {
			t.Fatalf("%d pairs", len(kvs))
		}
		return infoResult(kvs)
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

func BenchmarkDecodeInfo(b *testing.B) {
	prototest.DecodeBench(b, prototest.HexFile(b, "info_fxserver.hex"), func(data []byte) error {
		kvs, err := decodeInfo(data)
		infoResult(kvs)
		return err
	})
}

func BenchmarkDecodePlayers(b *testing.B) {
	prototest.DecodeBench(b, prototest.File(b, "players.json"), func(data []byte) error {
		_, _, err := decodePlayers(data)
		return err
	})
}

func BenchmarkDecodeServerInfo(b *testing.B) {
	prototest.DecodeBench(b, prototest.File(b, "info.json"), func(data []byte) error {
		_, _, err := decodeServerInfo(data)
		return err
	})
}

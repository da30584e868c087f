package palworld

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// The IP addresses the players vector holds; no output may show them.
var vectorIPs = []string{"203.0.113.7", "2001:db8::42"}

func decodeInfo(b []byte) (*info, error) {
	var in info
	if err := wire.DecodeJSON(prototest.JSONResponse(200, b), &in); err != nil {
		return nil, err
	}
	return &in, in.check()
}

func decodeMetrics(b []byte) (*metrics, error) {
	var m metrics
	if err := wire.DecodeJSON(prototest.JSONResponse(200, b), &m); err != nil {
		return nil, err
	}
	return &m, m.check()
}

func decodePlayers(b []byte) (*playerList, error) {
	var pl playerList
	return &pl, wire.DecodeJSON(prototest.JSONResponse(200, b), &pl)
}

func TestDecodeVectors(t *testing.T) {
	in, err := decodeInfo(prototest.File(t, "info.json"))
	prototest.NoError(t, err)
	res := in.result()
	if res.Name != "Palworld Server 日本" || res.Version != "v0.6.1.67543" {
		t.Errorf("name/version = %q/%q", res.Name, res.Version)
	}
	m, err := decodeMetrics(prototest.File(t, "metrics.json"))
	prototest.NoError(t, err)
	m.fill(res)
	if res.Players != protocols.Known(2) || res.MaxPlayers != protocols.Known(32) {
		t.Errorf("players/max = %v/%v", res.Players, res.MaxPlayers)
	}
	if res.Uptime != protocols.SpanSeconds(86523) || !res.Uptime.Known || res.MapTime.Known {
		t.Errorf("uptime %+v, map time %+v; want 86523 s and no map time", res.Uptime, res.MapTime)
	}
	pl, err := decodePlayers(prototest.File(t, "players.json"))
	prototest.NoError(t, err)
	pl.fill(res)
	want := []protocols.Player{{Name: "Lamball", Ping: protocols.Known(23)}, {Name: "Cattiva", Ping: protocols.Known(111)}}
	if !slices.Equal(res.PlayerList, want) {
		t.Errorf("players = %+v, want %+v", res.PlayerList, want)
	}
	// Palworld has no bots, and nothing in the replies marks one.
	prototest.CheckBots(t, res, 2, prototest.Unknown, true)
	prototest.CheckInfoHas(t, res, map[string]string{
		"worldguid": "A9E4B8F20D3C4B1E9F6A7C5D2E1B0F3A", "description": "Pals & friends",
		"serverfps": "59", "serverframetime": "16.9491", "uptime": "86523", "days": "41", "basecampnum": "7",
	})
	// Everything the result holds, as debug output would show it (json cannot
	// encode a Result: it has a func field).
	prototest.NoSecrets(t, nil, nil, fmt.Errorf("%+v %+v", *res, res.InfoKV()), vectorIPs...)
}

// An empty list is zero players, not unknown (the count when metrics failed:
// TestQuery, "metrics fail").
func TestDecodeEmptyPlayers(t *testing.T) {
	pl, _ := decodePlayers(prototest.File(t, "players_empty.json"))
	res := &protocols.Result{}
	pl.fill(res)
	if res.PlayerList == nil || len(res.PlayerList) != 0 || res.Players != protocols.Known(0) {
		t.Errorf("empty list: %+v", res)
	}
}

func TestDecodeErrors(t *testing.T) {
	for _, tc := range []struct {
		file   string
		decode func([]byte) error
		msg    string
	}{
		{"info_not_palworld.json", func(b []byte) error { _, err := decodeInfo(b); return err }, "not a Palworld"},
		{"info_truncated.json", func(b []byte) error { _, err := decodeInfo(b); return err }, "JSON"},
		{"metrics_fractional.json", func(b []byte) error { _, err := decodeMetrics(b); return err }, "currentplayernum 2.5 is not a count"},
		{"metrics_negative.json", func(b []byte) error { _, err := decodeMetrics(b); return err }, "not a count"},
		{"metrics_missing_players.json", func(b []byte) error { _, err := decodeMetrics(b); return err }, "without currentplayernum"},
		{"players_bad_ping.json", func(b []byte) error { _, err := decodePlayers(b); return err }, "JSON"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			err := tc.decode(prototest.File(t, tc.file))
			if !errors.Is(err, wire.ErrMalformed) || !strings.Contains(err.Error(), tc.msg) {
				t.Fatalf("err = %v, want malformed containing %q", err, tc.msg)
			}
		})
	}
}

func TestRedactPlayers(t *testing.T) {
	out := string(redactPlayers(prototest.File(t, "players.json")))
	prototest.NoSecrets(t, nil, nil, errors.New(out), vectorIPs...)
	if !strings.Contains(out, `"name":"Lamball"`) || !strings.Contains(out, `"location_x":-251322.5`) {
		t.Errorf("redaction lost the rest: %s", out)
	}
	// Any casing, any depth; unparsable input is withheld whole.
	out = string(redactPlayers([]byte(`{"x":[{"IP":"198.51.100.1","a":{"Ip":"198.51.100.2"}}]}`)))
	if strings.Contains(out, "198.51.100") {
		t.Errorf("nested: %s", out)
	}
	out = string(redactPlayers([]byte(`{"players":[{"ip":"198.51.100.3"`)))
	if strings.Contains(out, "198.51.100") || !strings.Contains(out, "withheld") {
		t.Errorf("truncated: %s", out)
	}
}

// TestUptime: uptime is the server process's, in seconds; a build without it, or
// with a value no server can mean, gives no start time rather than a guessed one.
func TestUptime(t *testing.T) {
	for _, tc := range []struct {
		body string
		want protocols.Span
	}{
		{`{"currentplayernum":1,"maxplayernum":32,"uptime":120}`, protocols.SpanSeconds(120)},
		{`{"currentplayernum":1,"maxplayernum":32}`, protocols.Span{}},
		{`{"currentplayernum":1,"maxplayernum":32,"uptime":-3}`, protocols.Span{}},
	} {
		m, err := decodeMetrics([]byte(tc.body))
		if err != nil {
			t.Fatalf("%s: %v", tc.body, err)
		}
		res := &protocols.Result{}
		m.fill(res)
		if res.Uptime != tc.want {
			t.Errorf("%s: uptime %+v, want %+v", tc.body, res.Uptime, tc.want)
		}
	}
}

func FuzzDecodeInfo(f *testing.F) {
	prototest.FuzzReplies(f, "info*.json", 0, prototest.Decoded(decodeInfo, (*info).result))
}

// The shared checks, and counts within maxCount and pings within reason (past
// them is an error that is not ErrMalformed, which fails the fuzz).
func FuzzDecodeMetrics(f *testing.F) {
	prototest.FuzzReplies(f, "metrics*.json", 0, func(b []byte) (*protocols.Result, error) {
		m, err := decodeMetrics(b)
		if err != nil {
			return nil, err
		}
		res := &protocols.Result{}
		m.fill(res)
		if res.Players.Value > maxCount || res.MaxPlayers.Value > maxCount {
			return nil, fmt.Errorf("counts out of range: %v/%v", res.Players, res.MaxPlayers)
		}
		return res, nil
	})
}

func FuzzDecodePlayers(f *testing.F) {
	prototest.FuzzReplies(f, "players*.json", maxPlayers, func(b []byte) (*protocols.Result, error) {
		pl, err := decodePlayers(b)
		if err != nil {
			return nil, err
		}
		res := &protocols.Result{}
		pl.fill(res)
		for _, p := range res.PlayerList {
			if p.Ping.Known && (p.Ping.Value < 0 || p.Ping.Value > 1e6) {
				return nil, fmt.Errorf("ping %d", p.Ping.Value)
			}
		}
		return res, nil
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

func BenchmarkDecode(b *testing.B) {
	in, m, pl := prototest.File(b, "info.json"), prototest.File(b, "metrics.json"), prototest.File(b, "players.json")
	prototest.DecodeBench(b, nil, func([]byte) error {
		i, err1 := decodeInfo(in)
		mm, err2 := decodeMetrics(m)
		p, err3 := decodePlayers(pl)
		if err := errors.Join(err1, err2, err3); err != nil {
			return err
		}
		res := i.result()
		mm.fill(res)
		p.fill(res)
		return nil
	})
}

func BenchmarkRedactPlayers(b *testing.B) {
	prototest.DecodeBench(b, prototest.File(b, "players.json"), func(pl []byte) error { redactPlayers(pl); return nil })
}

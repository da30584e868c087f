package eos

import (
	"errors"
	"net/netip"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// vectors lists the testdata replies whose names start with prefix (each read
// with its .expected.json).
func vectors(t *testing.T, prefix string) (out []string) {
	for _, n := range prototest.Names(t, ".json") {
		if strings.HasPrefix(n, prefix) && !strings.HasSuffix(n, ".expected") {
			out = append(out, n+".json")
		}
	}
	return out
}

func expectedOf[T any](t testing.TB, name string) T {
	return prototest.ReadJSON[T](t, filepath.Join("testdata", strings.TrimSuffix(name, ".json")+".expected.json"))
}

func TestDecodeToken(t *testing.T) {
	for _, name := range vectors(t, "token") {
		t.Run(name, func(t *testing.T) {
			e := expectedOf[struct {
				Token       string
				LifeSeconds float64 `json:"life_seconds"`
				Error       string
			}](t, name)
			token, life, err := decodeToken(prototest.File(t, name))
			if e.Error != "" {
				if wire.Reason(err) != e.Error || token != "" {
					t.Fatalf("token %q, err %v; want reason %q", token, err, e.Error)
				}
				return
			}
			if err != nil || token != e.Token || life.Seconds() != e.LifeSeconds {
				t.Fatalf("token %q life %v err %v; want %q %vs", token, life, err, e.Token, e.LifeSeconds)
			}
		})
	}
}

// sessionsWant is a testdata/sessions*.expected.json: the preset whose
// attributes name the fields, and per target what the search answer gives.
type sessionsWant struct {
	Preset string
	Error  string
	Cases  []sessionWant
}

type sessionWant struct {
	Target            string
	Sessions, Matches int
	Result            *prototest.ExpectedResult
	InfoFirst         [2]string `json:"info_first"`
	Rules             int
}

// sessionCase is the case of testdata/sessions_<preset>.expected.json for target.
func sessionCase(t testing.TB, preset, target string) sessionWant {
	t.Helper()
	for _, c := range expectedOf[sessionsWant](t, "sessions_"+preset+".json").Cases {
		if c.Target == target && c.Result != nil {
			return c
		}
	}
	t.Fatalf("no result for %s in sessions_%s.expected.json", target, preset)
	return sessionWant{}
}

func TestDecodeSessions(t *testing.T) {
	for _, name := range vectors(t, "sessions") {
		t.Run(name, func(t *testing.T) {
			e := expectedOf[sessionsWant](t, name)
			names := presetAttrs(e.Preset)
			body := prototest.File(t, name)
			if e.Error != "" {
				if _, err := decodeSessions(body, netip.MustParseAddrPort("203.0.113.1:7777")); wire.Reason(err) != e.Error {
					t.Fatalf("err %v, want reason %q", err, e.Error)
				}
				return
			}
			for _, c := range e.Cases {
				pk, err := decodeSessions(body, netip.MustParseAddrPort(c.Target))
				prototest.NoError(t, err)
				if pk.sessions != c.Sessions || pk.matches != c.Matches || (pk.session != nil) != (c.Matches > 0) {
					t.Fatalf("%s: %d sessions, %d matches, picked %v", c.Target, pk.sessions, pk.matches, pk.session != nil)
				}
				if c.Result == nil {
					continue
				}
				res := pk.session.result(names, c.Rules > 0)
				prototest.CheckResult(t, res, *c.Result)
				if humans := c.Result.Players; !humans.Null { // an EOS session counts its players and knows no bots
					prototest.CheckBots(t, res, humans.V, prototest.Unknown, true)
				}
				prototest.CheckUTF8(t, res)
				if c.InfoFirst[0] != "" && (res.Info[0] != protocols.KV{Key: c.InfoFirst[0], Value: c.InfoFirst[1]}) {
					t.Errorf("info[0] = %q", res.Info[0])
				}
				if len(res.Rules) != c.Rules {
					t.Errorf("%d rules, want %d", len(res.Rules), c.Rules)
				}
			}
		})
	}
}

func presetAttrs(name string) attrNames {
	p := presets[name]
	return attrNames{name: p.name, mapName: p.mapName, password: p.password, players: p.players, version: p.version}
}

func TestErrorCode(t *testing.T) {
	for _, name := range vectors(t, "error") {
		t.Run(name, func(t *testing.T) {
			e := expectedOf[struct{ Code string }](t, name)
			if got := errorCode(prototest.File(t, name)); got != e.Code {
				t.Errorf("code %q, want %q", got, e.Code)
			}
		})
	}
	if errorCode([]byte("<html>")) != "" {
		t.Error("code from HTML")
	}
}

func TestNotFoundMessage(t *testing.T) {
	target := netip.MustParseAddrPort("203.0.113.10:7777")
	for n, want := range map[int]string{0: "no EOS session advertises 203.0.113.10:7777", 3: "3 at that IP", maxResults: "maximum"} {
		err := notFound(target, n)
		if !errors.Is(err, wire.ErrServer) || !strings.Contains(err.Error(), want) {
			t.Errorf("%d: %v", n, err)
		}
	}
}

func TestManyAttributesCapped(t *testing.T) {
	attrs := `"ADDRESSBOUND_s":"203.0.113.1:7777"`
	for i := range maxAttributes + 20 {
		attrs += `,"A` + strings.Repeat("x", i) + `_l":1`
	}
	pk, err := decodeSessions([]byte(`{"sessions":[{"attributes":{`+attrs+`}}]}`), netip.MustParseAddrPort("203.0.113.1:7777"))
	if err != nil || pk.session == nil {
		t.Fatal(err)
	}
	if res := pk.session.result(presetAttrs("arksa"), true); len(res.Info) != maxAttributes || len(res.Rules) != maxAttributes {
		t.Errorf("%d info, %d rules", len(res.Info), len(res.Rules))
	}
}

func BenchmarkDecodeSessions(b *testing.B) {
	target, names := netip.MustParseAddrPort("203.0.113.10:7779"), presetAttrs("arksa")
	prototest.DecodeBench(b, prototest.File(b, "sessions_arksa.json"), func(data []byte) error {
		pk, err := decodeSessions(data, target)
		if err == nil {
			pk.session.result(names, false)
		}
		return err
	})
}

// FuzzDecodeSessions checks that no filter answer panics the decoder, that a
// picked session's result keeps its caps, is valid UTF-8 and has no negative count.
func FuzzDecodeSessions(f *testing.F) {
	prototest.SeedFiles(f, "sessions*.json")
	targets := []netip.AddrPort{netip.MustParseAddrPort("203.0.113.10:7777"), netip.MustParseAddrPort("203.0.113.20:7777"), netip.MustParseAddrPort("203.0.113.30:7787")}
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, target := range targets {
			pk, err := decodeSessions(b, target)
			if err != nil || pk.session == nil {
				continue
			}
			for _, preset := range []string{"arksa", "squad"} { // squad: players from an attribute
				res := pk.session.result(presetAttrs(preset), true)
				prototest.CheckUTF8(t, res)
				if len(res.Rules) > maxAttributes || len(res.Info) > maxAttributes+1 {
					t.Fatalf("%d rules, %d info", len(res.Rules), len(res.Info))
				}
				if res.Players.Value < 0 || res.MaxPlayers.Value < 0 {
					t.Fatalf("negative count %+v %+v", res.Players, res.MaxPlayers)
				}
			}
		}
	})
}

// FuzzDecodeToken checks the token answer: no panic, and a token that is safe
// in a header.
func FuzzDecodeToken(f *testing.F) {
	prototest.SeedFiles(f, "token*.json")
	f.Fuzz(func(t *testing.T, b []byte) {
		token, life, err := decodeToken(b)
		if err != nil {
			return
		}
		if token == "" || len(token) > maxTokenLen || life < 0 || life > maxTokenLife {
			t.Fatalf("token %q life %v", token, life)
		}
		for i := 0; i < len(token); i++ {
			if token[i] <= ' ' || token[i] >= 0x7f {
				t.Fatalf("token byte %d = %#x", i, token[i])
			}
		}
	})
}

// FuzzErrorCode checks that an error code is only ever code characters.
func FuzzErrorCode(f *testing.F) {
	prototest.SeedFiles(f, "error*.json")
	f.Fuzz(func(t *testing.T, b []byte) {
		code := errorCode(b)
		if len(code) > 120 || !utf8.ValidString(code) {
			t.Fatalf("code %q", code)
		}
		for _, r := range code {
			if !(r == '.' || r == '_' || r == '-' || r == ':' || '0' <= r && r <= '9' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z') {
				t.Fatalf("code %q", code)
			}
		}
	})
}

package satisfactory

import (
	"encoding/binary"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

func seedJSON(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "api_*.json"))
	for _, p := range files {
		f.Add(200, prototest.File(f, filepath.Base(p)))
		f.Add(401, prototest.File(f, filepath.Base(p)))
	}
}

func FuzzDecodeAPIState(f *testing.F) {
	seedJSON(f)
	f.Fuzz(func(t *testing.T, status int, b []byte) {
		res, err := decodeState(prototest.JSONResponse(status, b))
		if err != nil {
			if !errors.Is(err, wire.ErrMalformed) && !errors.Is(err, wire.ErrServer) {
				t.Fatalf("error wraps no expected sentinel: %v", err)
			}
			if !utf8.ValidString(err.Error()) {
				t.Fatalf("error not UTF-8: %q", err)
			}
			return
		}
		if status < 200 || status > 299 {
			t.Fatalf("HTTP %d decoded as a success", status)
		}
		if res.Players.Value < 0 || res.Players.Value > maxAPICount || res.MaxPlayers.Value < 0 || res.MaxPlayers.Value > maxAPICount {
			t.Fatalf("counts out of range: %v/%v", res.Players, res.MaxPlayers)
		}
		for _, kv := range res.Info {
			if !utf8.ValidString(kv.Value) {
				t.Fatalf("Info %s not UTF-8", kv.Key)
			}
		}
	})
}

func FuzzDecodeAPILogin(f *testing.F) {
	seedJSON(f)
	f.Fuzz(func(t *testing.T, status int, b []byte) {
		var l loginData
		if err := decodeAPI(prototest.JSONResponse(status, b), &l); err != nil {
			return
		}
		tok, err := l.token()
		if err != nil {
			return
		}
		if checkToken(tok.Reveal()) != nil || tok.Reveal() == "" {
			t.Fatalf("unusable token accepted: %q", tok.Reveal())
		}
		// What the trace keeps of this reply never shows the token.
		if len(tok.Reveal()) >= 8 && strings.Contains(string(redactLogin(b)), tok.Reveal()) {
			t.Fatalf("redaction kept the token: %s", redactLogin(b))
		}
	})
}

func FuzzDecode(f *testing.F) {
	prototest.SeedHex(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		resp, err := decode(b)
		_ = answers(b, 0)
		if err != nil {
			return
		}
		if n := len(resp.SubStates); !resp.Legacy {
			nameLen := int(binary.LittleEndian.Uint16(b[26+3*n:]))
			if len(b) != 29+3*n+nameLen+resp.Trailing {
				t.Fatalf("length %d does not add up: %+v", len(b), resp)
			}
		}
		res := resp.Result()
		seen := map[string]bool{}
		for _, s := range res.SubStates {
			if seen[s.Name] {
				t.Fatalf("duplicate sub-state %s", s.Name)
			}
			seen[s.Name] = true
		}
		for _, s := range []string{res.Name, res.Version, res.State} {
			if !utf8.ValidString(s) {
				t.Fatalf("invalid UTF-8 %q", s)
			}
		}
	})
}

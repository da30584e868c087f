package satisfactory

import (
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

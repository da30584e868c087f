package satisfactory

import (
	"errors"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

func decodeState(resp *wire.HTTPResponse) (*protocols.Result, error) {
	var st stateData
	if err := decodeAPI(resp, &st); err != nil {
		return nil, err
	}
	if err := st.check(); err != nil {
		return nil, err
	}
	res := &protocols.Result{States: states}
	st.addState(res)
	st.addTo(res)
	return res, nil
}

// The session is a save's name, not the server's: it stays in the info.
func TestDecodeAPIState(t *testing.T) {
	for file, c := range map[string]struct {
		summary string // state/players/max
		info    map[string]string
	}{
		"api_state_playing.json": {"playing/3/4", map[string]string{"active_session_name": "Northern Forest Factory", "tech_tier": "5",
			"is_game_paused": "false", "total_game_duration": "512345", "average_tick_rate": "29.87", "auto_load_session_name": "Northern Forest Factory",
			"game_phase": "/Script/FactoryGame.FGGamePhase'/Game/FactoryGame/GamePhases/GP_Project_Assembly_Phase_2.GP_Project_Assembly_Phase_2'"}},
		"api_state_idle_pascal.json": {"idle/0/4", map[string]string{"active_session_name": "", "is_game_running": "false", "is_game_paused": "true", "active_schematic": "None"}},
	} {
		res, err := decodeState(prototest.JSONResponse(200, prototest.File(t, file)))
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprintf("%s/%+v/%+v", res.State, res.Players.Value, res.MaxPlayers.Value); got != c.summary || res.Name != "" || !res.Players.Known || !res.MaxPlayers.Known || len(res.States) != 4 {
			t.Errorf("%s: %s, name %q, %+v; want %s", file, got, res.Name, res, c.summary)
		}
		prototest.CheckInfoHas(t, res, c.info)
	}
}

func TestDecodeAPILogin(t *testing.T) {
	for file, want := range map[string]string{
		"api_login.json":           "eyJwbCI6IkNsaWVudCJ9.4F2A9C0B7E1D3F5A6B8C9D0E1F2A3B4C",
		"api_login_pascal.json":    "eyJwbCI6IkNsaWVudCJ9.00FF",
		"api_login_empty.json":     "malformed",
		"api_login_bad_token.json": "malformed",
	} {
		var l loginData
		if err := decodeAPI(prototest.JSONResponse(200, prototest.File(t, file)), &l); err != nil {
			t.Fatal(err)
		}
		tok, err := l.token()
		got := tok.Reveal()
		if err != nil {
			got = wire.Reason(err)
		}
		if got != want {
			t.Errorf("%s: %q (%v), want %s", file, got, err, want)
		}
	}
}

func TestDecodeAPIErrors(t *testing.T) {
	for _, tc := range []struct {
		name   string
		status int
		file   string
		want   error
		msg    []string
	}{
		{"passwordless not possible, HTTP 200", 200, "api_login_not_possible.json", wire.ErrServer,
			[]string{`"passwordless_login_not_possible"`, "token_file", "client password"}},
		{"passwordless not possible, HTTP 400", 400, "api_login_not_possible.json", wire.ErrServer,
			[]string{`"passwordless_login_not_possible"`, "token_file"}},
		{"invalid token, 401", 401, "api_invalid_token.json", wire.ErrServer, []string{"HTTP 401", `"invalid_token"`, "authentication failed"}},
		{"invalid token, 200", 200, "api_invalid_token.json", wire.ErrServer, []string{"authentication failed"}},
		{"server error code", 500, "api_server_error.json", wire.ErrServer, []string{`"server_error"`, "internal error"}},
		{"no data", 200, "api_state_no_game_state.json", wire.ErrMalformed, []string{"without serverGameState"}},
		{"neither data nor error", 200, "api_neither.json", wire.ErrMalformed, []string{"without data or errorCode"}},
		{"negative players", 200, "api_state_negative.json", wire.ErrMalformed, []string{"not a count"}},
		{"no players", 200, "api_state_no_players.json", wire.ErrMalformed, []string{"without numConnectedPlayers"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := decodeState(prototest.JSONResponse(tc.status, prototest.File(t, tc.file)))
			if !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
			for _, m := range tc.msg {
				if !strings.Contains(err.Error(), m) {
					t.Errorf("err = %v, want it to say %q", err, m)
				}
			}
		})
	}
	// HTTP-level failures that carry no API error.
	for _, resp := range []*wire.HTTPResponse{
		{Status: 401},
		{Status: 204},
		{Status: 200, Header: http.Header{"Content-Type": {"text/html"}}, Body: []byte("<html>x</html>")},
		{Status: 502, Header: http.Header{"Content-Type": {"text/html"}}, Body: []byte(`{"errorCode":"spoofed"}`)},
	} {
		var st stateData
		err := decodeAPI(resp, &st)
		if err == nil || strings.Contains(err.Error(), "spoofed") {
			t.Errorf("HTTP %d: %v", resp.Status, err)
		}
		if resp.Status == 401 && !strings.Contains(err.Error(), "authentication failed") {
			t.Errorf("401: %v", err)
		}
	}
}

func TestRedactLogin(t *testing.T) {
	out := string(redactLogin(prototest.File(t, "api_login.json")))
	if strings.Contains(out, "4F2A9C0B") || !strings.Contains(out, "<secret>") {
		t.Errorf("login redaction: %s", out)
	}
	out = string(redactLogin([]byte(`{"DATA":{"AUTHENTICATIONTOKEN":"tok-123"}}`)))
	if strings.Contains(out, "tok-123") {
		t.Errorf("case-folded keys: %s", out)
	}
	out = string(redactLogin([]byte(`{"data":{"authenticationToken":"tok-123"`)))
	if strings.Contains(out, "tok-123") || !strings.Contains(out, "withheld") {
		t.Errorf("truncated: %s", out)
	}
	if out := string(redactLogin(prototest.File(t, "api_login_not_possible.json"))); !strings.Contains(out, "passwordless_login_not_possible") {
		t.Errorf("error reply lost: %s", out)
	}
}

func BenchmarkDecodeAPIState(b *testing.B) {
	resp := prototest.JSONResponse(200, prototest.File(b, "api_state_playing.json"))
	prototest.DecodeBench(b, resp.Body, func([]byte) error { _, err := decodeState(resp); return err })
}

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

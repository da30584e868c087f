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

// apiCase is a row of testdata/api.expected.json: a reply file answered with
// an HTTP status, and what it decodes to (a login: the token; a state:
// state/players/max) or its error's reason and what the error says.
type apiCase struct {
	File   string
	Status int
	Login  bool
	Want   string
	Says   []string
	Info   map[string]string
}

func TestDecodeAPIVectors(t *testing.T) {
	for _, c := range prototest.ReadJSON[[]apiCase](t, filepath.Join("testdata", "api.expected.json")) {
		t.Run(fmt.Sprint(c.File, c.Status), func(t *testing.T) {
			resp, got := prototest.JSONResponse(c.Status, prototest.File(t, c.File)), ""
			var err error
			if c.Login {
				var l loginData
				prototest.NoError(t, decodeAPI(resp, &l))
				var tok protocols.Secret
				tok, err = l.token()
				got = tok.Reveal()
			} else if res, e := decodeState(resp); e == nil {
				got = fmt.Sprintf("%s/%+v/%+v", res.State, res.Players.Value, res.MaxPlayers.Value)
				if res.Name != "" || !res.Players.Known || !res.MaxPlayers.Known || len(res.States) != 4 {
					t.Errorf("%+v", res)
				}
				prototest.CheckInfoHas(t, res, c.Info)
			} else {
				err = e
			}
			if err != nil {
				got = wire.Reason(err)
			}
			if got != c.Want {
				t.Errorf("%q (%v), want %s", got, err, c.Want)
			}
			for _, m := range c.Says {
				if !strings.Contains(fmt.Sprint(err), m) {
					t.Errorf("err = %v, want it to say %q", err, m)
				}
			}
		})
	}
}

func TestDecodeAPIErrors(t *testing.T) {
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

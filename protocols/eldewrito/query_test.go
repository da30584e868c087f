package eldewrito

import (
	"encoding/base64"
	"errors"
	"net/http"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

const testPassword = "cortana-117"

// fake answers any path as the info server does: the full object to a request
// with the password (or to anyone when password is ""), the passworded one to
// others.
func fake(t testing.TB, password string) netip.AddrPort {
	t.Helper()
	_, addr := prototest.HTTP(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		want := "Basic " + base64.StdEncoding.EncodeToString([]byte("dorito:"+password))
		body := prototest.File(t, "open.json")
		if password != "" && r.Header.Get("Authorization") != want {
			body = prototest.File(t, "passworded.json")
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(body)
	}), false)
	return addr
}

func withPassword(pw string) func(any) error {
	return func(v any) error {
		if o, ok := v.(*Options); ok {
			o.Password = protocols.Secret(pw)
		}
		return nil
	}
}

func query(t testing.TB, addr netip.AddrPort, s protocols.Settings) (*protocols.Result, *wire.Trace, error) {
	t.Helper()
	q, err := newQuerier(s)
	if err != nil {
		t.Fatal(err)
	}
	tr := wire.NewTrace()
	res, err := q.Query(prototest.Context(t, 2*time.Second), protocols.At(addr), tr)
	return res, tr, err
}

func TestQueryPassword(t *testing.T) {
	t.Parallel()
	addr := fake(t, testPassword)
	for _, tc := range []struct {
		name     string
		opts     func(any) error
		players  int
		phaseMsg string
	}{
		{"no password", nil, 0, "password_file"},
		{"right password", withPassword(testPassword), 2, ""},
		{"wrong password", withPassword("nope"), 0, "wrong password"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, tr, err := query(t, addr, protocols.Settings{Players: true, Options: tc.opts})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.PlayerList) != tc.players {
				t.Errorf("players %+v", res.PlayerList)
			}
			if tc.phaseMsg == "" && res.PhaseErrors != nil || tc.phaseMsg != "" && (len(res.PhaseErrors) != 1 || !strings.Contains(res.PhaseErrors[0].Err.Error(), tc.phaseMsg)) {
				t.Errorf("phase errors %v, want one saying %q", res.PhaseErrors, tc.phaseMsg)
			}
			for _, p := range tr.Packets {
				if strings.Contains(string(p.Data), testPassword) || strings.Contains(string(p.Data), base64.StdEncoding.EncodeToString([]byte("dorito:"+testPassword))) {
					t.Errorf("the password in the trace: %q", p.Data)
				}
			}
		})
	}
	q, _ := newQuerier(protocols.Settings{Options: withPassword(testPassword)})
	if s := q.(interface{ String() string }).String(); strings.Contains(s, testPassword) {
		t.Errorf("querier prints %q", s)
	}
}

func TestQueryOpen(t *testing.T) {
	t.Parallel()
	res, _, err := query(t, fake(t, ""), protocols.Settings{Players: true, Rules: true})
	if err != nil || res.Name != "Blood Gulch 24/7" || len(res.PlayerList) != 2 || len(res.Rules) != 2 || res.Password != protocols.FlagFalse {
		t.Fatalf("%v, %+v", err, res)
	}
}

func TestQueryFailures(t *testing.T) {
	t.Parallel()
	serve := func(status int, ctype, body string) netip.AddrPort {
		_, addr := prototest.HTTP(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", ctype)
			w.WriteHeader(status)
			w.Write([]byte(body))
		}), false)
		return addr
	}
	for _, tc := range []struct {
		name string
		addr netip.AddrPort
		want error
	}{
		{"server error", serve(http.StatusServiceUnavailable, "text/plain", "busy"), wire.ErrServer},
		{"html", serve(http.StatusOK, "text/html", "<html></html>"), wire.ErrMalformed},
		{"other json", serve(http.StatusOK, "application/json", string(prototest.File(t, "not_eldewrito.json"))), wire.ErrMalformed},
		{"cut json", serve(http.StatusOK, "application/json", string(prototest.File(t, "truncated.json"))), wire.ErrMalformed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, tr, err := query(t, tc.addr, protocols.Settings{Players: true})
			if !errors.Is(err, tc.want) {
				t.Errorf("err = %v, want %v", err, tc.want)
			}
			if len(tr.Phases) != 1 || tr.Phases[0].Err == nil {
				t.Errorf("phases %+v", tr.Phases)
			}
		})
	}
}

func TestOptions(t *testing.T) {
	both := func(v any) error {
		if o, ok := v.(*Options); ok {
			o.Password, o.PasswordFile = "x", "/nonexistent"
		}
		return nil
	}
	if _, err := newQuerier(protocols.Settings{Options: both}); err == nil {
		t.Error("password and password_file both accepted")
	}
}

func TestQuerierContract(t *testing.T) {
	prototest.QuerierContract(t, prototest.Contract{
		Protocol: Protocol, Name: "eldewrito", DefaultPort: 11775, Transport: "tcp",
		Settings: protocols.Settings{Players: true},
	})
}

package farmingsimulator

import (
	"errors"
	"net/http"
	"net/netip"
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

const testCode = "a1b2c3d4e5"

// fake serves the feed file to the right code and 403 to any other, as the
// web interface guards it; other paths are 404.
func fake(t testing.TB, file string) netip.AddrPort {
	t.Helper()
	_, addr := prototest.HTTP(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/feed/dedicated-server-stats.xml" {
			http.NotFound(w, r)
			return
		}
		if r.URL.Query().Get("code") != testCode {
			w.WriteHeader(http.StatusForbidden)
			return
		}
		w.Header().Set("Content-Type", "text/xml")
		w.Write(prototest.File(t, file))
	}), false)
	return addr
}

func withCode(code string) func(any) error {
	return prototest.OptionsOf(Options{Code: protocols.Secret(code)})
}

func TestQuery(t *testing.T) {
	t.Parallel()
	res, tr, err := prototest.QueryOnce(t, newQuerier, fake(t, "fs22.xml"), protocols.Settings{Players: true, Options: withCode(testCode)})
	if err != nil || res.Name != "Harvest Co-op" || len(res.PlayerList) != 2 || len(res.Mods) != 2 {
		t.Fatalf("%v, %+v", err, res)
	}
	prototest.CheckBots(t, res, 2, prototest.Unknown, true) // numUsed: the used slots; helpers take none, and no bots
	prototest.NoSecrets(t, prototest.MustNew(t, Protocol, protocols.Settings{Options: withCode(testCode)}), tr, nil, testCode)
}

func TestQueryFailures(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, file, code string
		want             error
		says             string
		sent             int
	}{
		{"no code", "fs22.xml", "", wire.ErrServer, "has no code", 1},
		{"wrong code", "fs22.xml", "nope", wire.ErrServer, "code is wrong", 1},
		{"not the feed", "html.xml", testCode, wire.ErrMalformed, "", 1},
		{"no slots", "no_slots.xml", testCode, wire.ErrMalformed, "wrong code", 1},
		{"truncated", "truncated.xml", testCode, wire.ErrMalformed, "", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, tr, err := prototest.QueryOnce(t, newQuerier, fake(t, tc.file), protocols.Settings{Players: true, Options: withCode(tc.code)})
			if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.says) {
				t.Errorf("err = %v, want %v saying %q", err, tc.want, tc.says)
			}
			if err != nil && tc.code != "" && strings.Contains(err.Error(), tc.code) {
				t.Errorf("the code in the error: %v", err)
			}
			if len(tr.Phases) != 1 || tr.Phases[0].Err == nil || tr.Attempts != tc.sent {
				t.Errorf("phases %+v, %d requests", tr.Phases, tr.Attempts)
			}
		})
	}
}

func TestOptions(t *testing.T) {
	prototest.OptionsErrors(t, Protocol, prototest.BadOptions{"{code: x, code_file: /nonexistent}": "farmingsimulator code: "})
}

func TestQuerierContract(t *testing.T) {
	prototest.QuerierContract(t, prototest.Contract{
		Protocol: Protocol, Name: "farmingsimulator", DefaultPort: 8080, Transport: "tcp",
		Settings: protocols.Settings{Players: true, Options: withCode(testCode)},
	})
}

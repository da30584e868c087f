package palworld

import (
	"errors"
	"fmt"
	"net/http"
	"net/netip"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

const testPassword = "hunter2-Pal"

// block is the Options func of a module with a palworld block that set fills,
// decoding into Options or into a map as the config's decoder does.
func block(set func(*Options)) func(any) error {
	return func(v any) error {
		switch v := v.(type) {
		case *map[string]any:
			*v = map[string]any{}
		case *Options:
			set(v)
		}
		return nil
	}
}

// withPassword is the Options func of a module with `palworld: {password: ...}`.
func withPassword(pw string) func(any) error {
	return block(func(o *Options) { o.Password = protocols.Secret(pw) })
}

// fakePalworld serves the three endpoints behind basic auth admin:testPassword,
// as the server does; override replaces one path's handler.
func fakePalworld(t testing.TB, override map[string]http.HandlerFunc) netip.AddrPort {
	t.Helper()
	bodies := map[string][]byte{
		"/v1/api/info":    prototest.File(t, "info.json"),
		"/v1/api/metrics": prototest.File(t, "metrics.json"),
		"/v1/api/players": prototest.File(t, "players.json"),
	}
	_, addr := prototest.HTTP(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if u, p, ok := r.BasicAuth(); !ok || u != "admin" || p != testPassword {
			w.WriteHeader(http.StatusUnauthorized)
			w.Write([]byte("Unauthorized"))
			return
		}
		if h := override[r.URL.Path]; h != nil {
			h(w, r)
			return
		}
		b, ok := bodies[r.URL.Path]
		if !ok || r.Method != http.MethodGet {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(b)
	}), false)
	return addr
}

// The three replies in one result (each decoded as TestDecodeVectors checks);
// without players in the module the players endpoint is not asked; a wrong
// password fails the info; a failed metrics or players phase leaves the rest,
// the count then from the list.
func TestQuery(t *testing.T) {
	const name = `"Palworld Server 日本" "" "" "v0.6.1.67543" `
	fail := func(w http.ResponseWriter, r *http.Request) { http.Error(w, "boom", http.StatusInternalServerError) }
	for _, c := range []struct {
		name, failing string // the endpoint that fails
		players       bool
		password      string
		want          string // prototest.ProbeLine
	}{
		{"full", "", true, testPassword, name + `2/32 bots ? pw 0 [Lamball Cattiva] rules - info 11 partial [] | info:ok,metrics:ok,players:ok`},
		{"no players", "", false, testPassword, name + `2/32 bots ? pw 0 - rules - info 11 partial [] | info:ok,metrics:ok`},
		{"wrong password", "", false, "wrong", `error server_error | info:server_error`},
		{"metrics fail", "/v1/api/metrics", true, testPassword, name + `2/? bots ? pw 0 [Lamball Cattiva] rules - info 4 partial [metrics:server_error] | info:ok,metrics:server_error,players:ok`},
		{"players fail", "/v1/api/players", true, testPassword, name + `2/32 bots ? pw 0 - rules - info 11 partial [players:server_error] | info:ok,metrics:ok,players:server_error`},
	} {
		t.Run(c.name, func(t *testing.T) {
			addr := fakePalworld(t, map[string]http.HandlerFunc{c.failing: fail})
			res, tr, err := prototest.QueryNew(t, Protocol, addr, protocols.Settings{Players: c.players, Options: withPassword(c.password)}, 2*time.Second)
			prototest.CheckProbe(t, res, tr, err, c.want)
			// Player IPs appear nowhere: not in the result, not in the trace (its
			// transcript, and the packets' bytes it renders as hex); nor does the password.
			prototest.NoSecrets(t, nil, tr, fmt.Errorf("%+v", res), append(vectorIPs, testPassword)...)
			if c.players && c.failing == "" && !strings.Contains(prototest.Transcript(tr), "Lamball") {
				t.Errorf("transcript lost the redacted players reply")
			}
		})
	}
}

func TestQueryErrors(t *testing.T) {
	for _, h := range prototest.HTTPHazards(t, maxBody) {
		t.Run(h.Name, func(t *testing.T) {
			addr := fakePalworld(t, map[string]http.HandlerFunc{"/v1/api/info": h.Handler})
			res, tr, err := prototest.QueryNew(t, Protocol, addr, protocols.Settings{Options: withPassword(testPassword)}, h.Deadline)
			prototest.CheckFailed(t, res, err, h.Want, h.Msg, prototest.Unquoted)
			if prototest.PhaseResults(tr) != "info:false" {
				t.Errorf("phases %s", prototest.PhaseResults(tr))
			}
		})
	}
}

func TestNewOptions(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "pw")
	prototest.WriteFile(t, file, testPassword+"\n")
	fromFile := block(func(o *Options) { o.PasswordFile = file })
	addr := fakePalworld(t, nil)
	prototest.QueryOK(t, Protocol, addr, protocols.Settings{Options: fromFile}, 2*time.Second)
	// A reload builds the querier again and so reads the rotated file.
	prototest.WriteFile(t, file, "rotated\n")
	if _, _, err := prototest.QueryNew(t, Protocol, addr, protocols.Settings{Options: fromFile}, 2*time.Second); err == nil || !strings.Contains(err.Error(), "authentication failed") {
		t.Errorf("after rotation: %v, want authentication failed", err)
	}
	prototest.OptionsErrors(t, Protocol, prototest.BadOptions{
		"{}":           "password (or password_file) is required",
		"password: ''": "password (or password_file) is required",
		"{password: x, password_file: " + file + "}":     "palworld password: ",
		"password_file: " + filepath.Join(dir, "absent"): "palworld password: ",
		"[not, a, block]": "palworld options: ",
	})
	// Without a block (the built-in module) the querier sends no credentials and
	// says what is missing when the server refuses it.
	_, tr, err := prototest.QueryNew(t, Protocol, addr, protocols.Settings{}, 2*time.Second)
	if !errors.Is(err, wire.ErrServer) || !strings.Contains(err.Error(), "authentication failed") || !strings.Contains(err.Error(), "no palworld block") || prototest.PhaseResults(tr) != "info:false" {
		t.Errorf("no block: %v, phases %s", err, prototest.PhaseResults(tr))
	}
	// The querier never prints its credentials.
	prototest.NoSecrets(t, prototest.MustNew(t, Protocol, protocols.Settings{Options: withPassword(testPassword)}), nil, nil, testPassword, "Basic")
}

func TestQuerierContract(t *testing.T) {
	prototest.QuerierContract(t, prototest.Contract{
		Protocol: Protocol, Name: "palworld", DefaultPort: 8212, Transport: "tcp",
		Settings: protocols.Settings{Players: true, Options: withPassword(testPassword)},
	})
}

func BenchmarkQuery(b *testing.B) {
	addr := fakePalworld(b, nil)
	prototest.QueryBench(b, Protocol, protocols.Settings{Players: true, Options: withPassword(testPassword)}, addr)
}

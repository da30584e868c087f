package farmingsimulator

import (
	"bufio"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"testing"
	"time"

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

// TestGamedig queries the same fake web interface with gamedig (npm, game
// farmingsimulator22, the code as its token) and the Querier: name, map,
// counts, version and the used slots' names agree.
func TestGamedig(t *testing.T) {
	addr := fake(t, "fs22.xml")
	gd, res := prototest.GamedigQuery(t, "farmingsimulator22", map[string]any{"token": testCode}, Protocol, protocols.Settings{Players: true, Options: withCode(testCode)}, addr)
	prototest.GamedigAgrees(t, gd, res)
}

// TestQstat queries one fake web interface with quakestat -farmsim (code as its
// option parameter, -farmsim,code=...) and with the Querier: name, map and counts agree. quakestat
// sends HTTP/1.1 without a Host header, which net/http's server refuses, so this
// fake reads the request line itself.
func TestQstat(t *testing.T) {
	prototest.NeedQstat(t)
	feed := prototest.File(t, "fs22.xml")
	addr := prototest.TCP(t, func(c net.Conn) {
		line, err := bufio.NewReader(c).ReadString('\n')
		if err != nil {
			return
		}
		status, body := "403 Forbidden", []byte{}
		if f := strings.Fields(line); len(f) >= 2 && f[1] == "/feed/dedicated-server-stats.xml?code="+testCode {
			status, body = "200 OK", feed
		}
		fmt.Fprintf(c, "HTTP/1.1 %s\r\nContent-Type: text/xml\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s", status, len(body), body)
	})
	qs := prototest.QstatJSON(t, "-farmsim,code="+testCode, addr)
	res, _ := prototest.QueryOK(t, Protocol, addr, protocols.Settings{Options: withCode(testCode)}, 2*time.Second)
	if qs.Name != res.Name || qs.Map != res.Map || int64(qs.NumPlayers) != res.Players.Value || int64(qs.MaxPlayers) != res.MaxPlayers.Value {
		t.Errorf("querier %q %q %d/%d, qstat %+v", res.Name, res.Map, res.Players.Value, res.MaxPlayers.Value, qs)
	}
}

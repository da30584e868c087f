package eldewrito

import (
	"encoding/base64"
	"net/http"
	"net/netip"
	"strings"
	"testing"

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
	return prototest.OptionsOf(Options{Password: protocols.Secret(pw)})
}

// An open server; a passworded one without the password, with it, with a
// wrong one: the players phase says what to fix.
func TestQueryPassword(t *testing.T) {
	t.Parallel()
	const open = `"Blood Gulch 24/7" "Valhalla" "slayer" "0.6.1.0" 2/16 bots ? pw `
	const private = `"Private" "Guardian" "slayer" "0.6.1.0" 5/16 bots ? pw 2 - rules - info 6 partial [players:server_error] | info:ok`
	for _, tc := range []struct {
		name, server string // the server's password
		opts         func(any) error
		rules        bool
		want, says   string // prototest.ProbeLine; what the players phase error says
	}{
		{"open", "", nil, true, open + `1 [Chief Arbiter] rules 2 info 6 partial [] | info:ok`, ""},
		{"no password", testPassword, nil, false, private, "password_file"},
		{"right password", testPassword, withPassword(testPassword), false, open + `0 [Chief Arbiter] rules - info 6 partial [] | info:ok`, ""},
		{"wrong password", testPassword, withPassword("nope"), false, private, "wrong password"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, tr, err := prototest.QueryOnce(t, newQuerier, fake(t, tc.server), protocols.Settings{Players: true, Rules: tc.rules, Options: tc.opts})
			prototest.CheckProbe(t, res, tr, err, tc.want)
			if tc.says != "" && (res == nil || len(res.PhaseErrors) != 1 || !strings.Contains(res.PhaseErrors[0].Err.Error(), tc.says)) {
				t.Errorf("phase errors %v, want one saying %q", res, tc.says)
			}
			prototest.NoSecrets(t, nil, tr, nil, testPassword, base64.StdEncoding.EncodeToString([]byte("dorito:"+testPassword)))
		})
	}
	prototest.NoSecrets(t, prototest.MustNew(t, Protocol, protocols.Settings{Options: withPassword(testPassword)}), nil, nil, testPassword)
}

// The info server answers any path.
func TestQueryFailures(t *testing.T) {
	t.Parallel()
	json := func(file string) netip.AddrPort {
		return prototest.StatusReply(t, http.StatusOK, "application/json", string(prototest.File(t, file)))
	}
	prototest.PageFailures(t, newQuerier, protocols.Settings{Players: true},
		prototest.PageFailure{Name: "unavailable", Addr: prototest.StatusReply(t, http.StatusServiceUnavailable, "text/plain", "busy"), Want: wire.ErrServer},
		prototest.PageFailure{Name: "other json", Addr: json("not_eldewrito.json"), Want: wire.ErrMalformed},
		prototest.PageFailure{Name: "cut json", Addr: json("truncated.json"), Want: wire.ErrMalformed})
}

func TestOptions(t *testing.T) {
	prototest.OptionsErrors(t, Protocol, prototest.BadOptions{"{password: x, password_file: /nonexistent}": "eldewrito password: "})
}

func TestQuerierContract(t *testing.T) {
	prototest.QuerierContract(t, prototest.Contract{
		Protocol: Protocol, Name: "eldewrito", DefaultPort: 11775, Transport: "tcp",
		Settings: protocols.Settings{Players: true},
	})
}

// TestGamedig queries the same fake info servers with gamedig (npm, game
// eldewrito) and the Querier. An open server: name, map, max, version and player
// names agree (gamedig reports no player count of its own: its numplayers is
// the list's length). A passworded one: gamedig fails (it reads the players the
// server withholds), we report the server with a players phase error.
func TestGamedig(t *testing.T) {
	addr := fake(t, "")
	gd, res := prototest.GamedigQuery(t, "eldewrito", nil, Protocol, protocols.Settings{Players: true}, addr)
	if gd.Name != res.Name || gd.Map != res.Map || int64(gd.MaxPlayers) != res.MaxPlayers.Value || gd.Version != res.Version || len(gd.Players) != len(res.PlayerList) {
		t.Errorf("querier %+v, gamedig %+v", res, gd)
	}

	locked := fake(t, testPassword)
	if _, msg, ok := prototest.Gamedig(t, "eldewrito", locked.Port(), nil); ok {
		t.Errorf("gamedig read a passworded server")
	} else {
		t.Logf("gamedig on a passworded server: %s", msg)
	}
	res, _, err := prototest.QueryOnce(t, newQuerier, locked, protocols.Settings{Players: true})
	if err != nil || res.Password != protocols.FlagTrue || len(res.PhaseErrors) != 1 {
		t.Errorf("querier on a passworded server: %v, %+v", err, res)
	}
}

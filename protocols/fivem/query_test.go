package fivem

import (
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// challengeOf returns the challenge of a `getinfo <challenge>` request.
func challengeOf(req []byte) (string, bool) {
	return strings.CutPrefix(string(req), "\xff\xff\xff\xffgetinfo ")
}

// infoReply is FXServer's reply to getinfo with challenge c.
func infoReply(c string) []byte {
	return []byte("\xff\xff\xff\xffinfoResponse\n\\sv_maxclients\\48\\clients\\2\\challenge\\" + c +
		"\\gamename\\CitizenFX\\protocol\\4\\hostname\\^1Fake ^7RP\\gametype\\Freeroam\\mapname\\fivem-map-hipster\\iv\\7")
}

func answer(req []byte) [][]byte {
	c, ok := challengeOf(req)
	if !ok {
		return nil
	}
	return [][]byte{infoReply(c)}
}

const playersBody = `[{"endpoint":"198.51.100.9:1234","id":1,"identifiers":["ip:198.51.100.9","license:abc"],"name":"^2Niko","ping":31},` +
	`{"endpoint":"127.0.0.1","id":2,"identifiers":["license:def"],"name":"Roman","ping":-1}]`

const infoBody = `{"server":"FXServer-master SERVER v1.0.0.7290 linux","vars":{"sv_maxClients":"48","gamename":"gta5"},"resources":["hardcap"],"version":7}`

// fxServer runs the fake's HTTP handler on a TCP port and the UDP handler on
// the same port number, as FXServer does: TCP is bound first on :0, then UDP
// takes its number (retried on the rare port already taken over UDP).
func fxServer(t testing.TB, udp prototest.Handler, h http.Handler) netip.AddrPort {
	t.Helper()
	for range 20 {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		prototest.NoError(t, err)
		addr := l.Addr().(*net.TCPAddr).AddrPort()
		pc, err := net.ListenPacket("udp", addr.String())
		if err != nil {
			l.Close()
			continue
		}
		srv := httptest.NewUnstartedServer(h)
		srv.Listener.Close()
		srv.Listener = l
		srv.Start()
		t.Cleanup(srv.Close)
		prototest.ServeUDP(t, pc, udp)
		return addr
	}
	t.Fatal("no port free over both TCP and UDP")
	return netip.AddrPort{}
}

func fxMux(players, info http.HandlerFunc) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/players.json", players)
	mux.HandleFunc("/info.json", info)
	return mux
}

func jsonHandler(body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(body))
	}
}

// fakeRP is the start of the ProbeLine of the fake's getinfo reply.
const fakeRP = `"Fake RP" "fivem-map-hipster" "Freeroam" `

// Players is `clients` as sent; neither side knows bots (NPCs are no clients).
func TestQueryFull(t *testing.T) {
	addr := fxServer(t, answer, fxMux(jsonHandler(playersBody), jsonHandler(infoBody)))
	res, tr, err := prototest.QueryNew(t, Protocol, addr, protocols.Settings{Players: true, Rules: true}, 2*time.Second)
	prototest.CheckProbe(t, res, tr, err, fakeRP+`"FXServer-master SERVER v1.0.0.7290 linux" 2/48 bots ? pw 0 [Niko Roman] rules 2 info 9 partial [] | info:ok,players:ok,rules:ok skipped 0 log 0`)
	if res.PlayerList[0] != (protocols.Player{Name: "Niko", Ping: protocols.Known(31)}) || res.PlayerList[1] != (protocols.Player{Name: "Roman"}) || res.Rules[0].Key != "gamename" {
		t.Errorf("player list %+v, rules %q", res.PlayerList, res.Rules)
	}
	prototest.CheckBots(t, res, 2, prototest.Unknown, true)
	// players.json holds identifiers and addresses: none of it reaches the trace.
	prototest.NoSecrets(t, nil, tr, nil, "license:", "198.51.100.9")
}

// Without players or rules, info.json alone is fetched, for the version: the
// build is exported by default, the convars only with rules.
func TestQueryInfoOnly(t *testing.T) {
	hit := make(chan string, 4)
	players := func(w http.ResponseWriter, r *http.Request) { hit <- r.URL.Path }
	info := func(w http.ResponseWriter, r *http.Request) { hit <- r.URL.Path; jsonHandler(infoBody)(w, r) }
	res, tr, err := prototest.QueryNew(t, Protocol, fxServer(t, answer, fxMux(players, info)), protocols.Settings{}, 2*time.Second)
	prototest.CheckProbe(t, res, tr, err, fakeRP+`"FXServer-master SERVER v1.0.0.7290 linux" 2/48 bots ? pw 0 - rules - info 9 partial [] | info:ok,version:ok skipped 0 log 0`)
	if n := len(hit); n != 1 || <-hit != "/info.json" {
		t.Errorf("%d HTTP requests, want /info.json alone", n)
	}
}

// A failing HTTP side leaves the info standing, with phase errors.
func TestQueryHTTPFailures(t *testing.T) {
	type failure struct {
		name    string
		players http.HandlerFunc
		want    error
		msg     string
	}
	cases := []failure{
		{"rate limited", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusTooManyRequests)
			w.Write([]byte("Rate limit exceeded."))
		}, wire.ErrServer, "429"},
		{"not json", jsonHandler("nope"), wire.ErrMalformed, "array"},
	}
	for _, h := range prototest.HTTPHazards(t, maxPlayersBody) {
		cases = append(cases, failure{h.Name, h.Handler, h.Want, h.Msg})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			addr := fxServer(t, answer, fxMux(c.players, jsonHandler("<")))
			res, _ := prototest.QueryOK(t, Protocol, addr, protocols.Settings{Players: true, Rules: true}, 700*time.Millisecond)
			if res.Name != "Fake RP" || res.PlayerList != nil || len(res.PhaseErrors) != 2 {
				t.Fatalf("result %+v", res)
			}
			pe := res.PhaseErrors[0]
			if pe.Phase != "players" || !errors.Is(pe.Err, c.want) || !strings.Contains(pe.Err.Error(), c.msg) {
				t.Errorf("players phase error %v, want %v with %q", pe.Err, c.want, c.msg)
			}
			if strings.Contains(pe.Err.Error(), prototest.Unquoted) {
				t.Errorf("error quotes the body: %v", pe.Err)
			}
			if re := res.PhaseErrors[1]; re.Phase != "rules" || wire.Reason(re.Err) == "" {
				t.Errorf("rules phase error %+v", re)
			}
		})
	}
}

// No HTTP server at all on the port (UDP only): the players and version phases
// are refused.
func TestQueryNoHTTP(t *testing.T) {
	res, tr, err := prototest.QueryNew(t, Protocol, prototest.UDP(t, answer), protocols.Settings{Players: true}, 2*time.Second)
	prototest.CheckProbe(t, res, tr, err, fakeRP+`"" 2/48 bots ? pw 0 - rules - info 9 partial [players:refused version:refused] | info:ok,players:refused,version:refused`)
}

// The getinfo side alone: stray OOB datagrams and replies with another
// challenge are skipped and the real reply taken; only wrong challenges fail
// as a mismatch, a broken infoResponse as malformed.
func TestQueryInfoReplies(t *testing.T) {
	for _, tc := range []struct {
		name    string
		replies func(c string) [][]byte
		d       time.Duration
		want    error
	}{
		{"strays then the reply", func(c string) [][]byte {
			return [][]byte{infoReply("other"), []byte("\xff\xff\xff\xffprint\nhello"), infoReply(c)}
		}, 2 * time.Second, nil},
		{"wrong challenge only", func(string) [][]byte { return [][]byte{infoReply("other")} }, 300 * time.Millisecond, wire.ErrMismatch},
		{"broken info", func(string) [][]byte { return [][]byte{[]byte("\xff\xff\xff\xffinfoResponse\nno backslash")} }, 2 * time.Second, wire.ErrMalformed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			addr := prototest.UDP(t, func(req []byte) [][]byte {
				c, ok := challengeOf(req)
				if !ok {
					return nil
				}
				return tc.replies(c)
			})
			res, _, err := prototest.QueryNew(t, Protocol, addr, protocols.Settings{}, tc.d)
			if !prototest.WantedError(t, err, tc.want) && res.Name != "Fake RP" {
				t.Errorf("name %q", res.Name)
			}
		})
	}
}

// The contract's fake speaks UDP only: no info.json to fetch.
func TestQuerierContract(t *testing.T) {
	prototest.QuerierContract(t, prototest.Contract{
		Protocol: Protocol, Name: "fivem", DefaultPort: 30120, Transport: "udp", Answer: answer, WantName: "Fake RP",
		Settings: protocols.Settings{Options: noVersion},
	})
}

// noVersion is the Options func of `fivem: {version: false}`.
func noVersion(v any) error {
	f := false
	v.(*Options).Version = &f
	return nil
}

// version: false makes no HTTP request without players or rules; with rules
// info.json is still read, convars and build alike.
func TestQueryVersionOff(t *testing.T) {
	hit := make(chan string, 4)
	info := func(w http.ResponseWriter, r *http.Request) { hit <- r.URL.Path; jsonHandler(infoBody)(w, r) }
	addr := fxServer(t, answer, fxMux(info, info))
	res, _, err := prototest.QueryNew(t, Protocol, addr, protocols.Settings{Options: noVersion}, 2*time.Second)
	if err != nil || res.Version != "" || res.PhaseErrors != nil {
		t.Fatalf("%+v, %v", res, err)
	}
	if len(hit) != 0 {
		t.Errorf("HTTP request to %s", <-hit)
	}
	res, _, err = prototest.QueryNew(t, Protocol, addr, protocols.Settings{Options: noVersion, Rules: true}, 2*time.Second)
	if err != nil || res.Version == "" || len(res.Rules) == 0 {
		t.Fatalf("%+v, %v", res, err)
	}
}

// BenchmarkQuery is a getinfo exchange plus players.json and info.json over loopback.
func BenchmarkQuery(b *testing.B) {
	addr := fxServer(b, answer, fxMux(jsonHandler(playersBody), jsonHandler(infoBody)))
	prototest.QueryBench(b, Protocol, protocols.Settings{Players: true, Rules: true}, addr)
}

package doom3

import (
	"bytes"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// command returns the command word of a request (FF FF word 00 challenge).
func command(req []byte) string {
	if len(req) < 7 || req[0] != 0xFF || req[1] != 0xFF {
		return ""
	}
	end := bytes.IndexByte(req[2:], 0)
	if end < 0 {
		return ""
	}
	return string(req[2 : 2+end])
}

// answer patches the request's 4 challenge bytes into reply after its response name,
// as the engine does.
func answer(req, reply []byte) []byte {
	out := append([]byte(nil), reply...)
	n := bytes.IndexByte(out[2:], 0) + 3
	if len(req) >= 4 && n+4 <= len(out) {
		copy(out[n:n+4], req[len(req)-4:])
	}
	return out
}

// server answers getInfo and getInfoEx with the given replies (nil: stay silent) and
// counts the requests per command.
type server struct {
	info, infoEx []byte
	n            map[string]*atomic.Int32
}

func newServer(t testing.TB, info, infoEx []byte) (*server, netip.AddrPort) {
	s := &server{info: info, infoEx: infoEx, n: map[string]*atomic.Int32{"getInfo": {}, "getInfoEx": {}}}
	addr := prototest.UDP(t, func(req []byte) [][]byte {
		cmd := command(req)
		if c, ok := s.n[cmd]; ok {
			c.Add(1)
		}
		switch {
		case cmd == "getInfo" && s.info != nil:
			return [][]byte{answer(req, s.info)}
		case cmd == "getInfoEx" && s.infoEx != nil:
			return [][]byte{answer(req, s.infoEx)}
		}
		return nil
	})
	return s, addr
}

// Without players wanted, one getInfo (ET:QW's getInfoEx is not asked) gives
// what the vector decodes to, rules without a player list.
func TestQueryVariants(t *testing.T) {
	for _, name := range []string{"doom3_players", "prey_players", "quake4_players", "etqw_info", "unknown_major"} {
		t.Run(name, func(t *testing.T) {
			w := wantOf(t, name)
			srv, addr := newServer(t, vector(t, name), nil)
			res, tr, err := prototest.QueryNew(t, Protocol, addr, protocols.Settings{Rules: true}, 2*time.Second)
			if err != nil {
				t.Fatal(err)
			}
			w.Result.PlayerList = nil
			w.Result.Check(t, res)
			if n := srv.n["getInfoEx"].Load(); res.PlayerList != nil || len(res.Rules) != w.Pairs || len(res.PhaseErrors) != 0 || prototest.PhaseResults(tr) != "info:true" || n != 0 {
				t.Errorf("result %+v, phases %s, %d getInfoEx requests; want %d rules, no player list", res, prototest.PhaseResults(tr), n, w.Pairs)
			}
			if req := tr.Packets[0].Data; len(req) != 14 || command(req) != "getInfo" {
				t.Errorf("request % x", req)
			}
		})
	}
}

// The players phase: ET:QW's infoExResponse replaces the getInfo answer (its
// name, scores and teams); when it fails, or the records of the getInfo answer
// do not decode, that answer stands beside the phase error.
func TestQueryPlayersPhase(t *testing.T) {
	off := false
	for _, c := range []struct {
		name, info, infoEx string // vectors; no infoEx: silence
		opts               *Options
		wantName           string
		players            int // listed
		infoExes           int32
		phases             string // the trace's, and the result's phase errors after "|"
	}{
		{"infoEx replaces info", "etqw_info", "etqw_infoex", nil, "XP Server", 2, 1, "info:ok,players:ok|"},
		{"infoEx silent", "etqw_info", "", nil, "The Base", 2, 1, "info:ok,players:timeout|players:timeout"},
		{"infoEx disabled", "etqw_info", "etqw_infoex", &Options{ETQWInfoEx: &off}, "The Base", 2, 0, "info:ok|"},
		{"infoEx broken", "etqw_info", "infoex_no_ext", nil, "The Base", 2, 1, "info:ok,players:truncated|players:truncated"},
		{"records broken", "players_not_increasing", "", nil, "Dup", 1, 0, "info:ok|players:malformed"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			var infoEx []byte
			if c.infoEx != "" {
				infoEx = vector(t, c.infoEx)
			}
			srv, addr := newServer(t, vector(t, c.info), infoEx)
			s := protocols.Settings{Players: true}
			if c.opts != nil {
				s.Options = prototest.OptionsOf(*c.opts)
			}
			d := 2 * time.Second
			if strings.Contains(c.phases, "timeout") {
				d = 400 * time.Millisecond
			}
			res, tr, err := prototest.QueryNew(t, Protocol, addr, s, d)
			if err != nil {
				t.Fatal(err)
			}
			if n := srv.n["getInfoEx"].Load(); res.Name != c.wantName || len(res.PlayerList) != c.players || n < c.infoExes || n > 0 && c.infoExes == 0 {
				t.Errorf("result %+v after %d getInfoEx", res, n)
			}
			if got := prototest.PhaseReasons(tr) + "|" + prototest.PhaseErrorReasons(res); got != c.phases {
				t.Fatalf("phases %s, want %s", got, c.phases)
			}
			// Scores come with the infoExResponse only; an unknown count stays unknown.
			if got := res.PlayerList[len(res.PlayerList)-1]; got.Score.Known != (c.wantName == "XP Server") ||
				c.wantName == "XP Server" && (res.PlayerList[0].Score != protocols.Known(1235) || got.Team != "strogg") {
				t.Errorf("players %+v", res.PlayerList)
			}
			if c.info == "players_not_increasing" && res.Players.Known {
				t.Errorf("players %+v from broken records", res.Players)
			}
		})
	}
}

// Replies to another request (a wrong challenge) and garbage are skipped and
// noted; only such, or a reply that does not decode, fail the query.
func TestQueryChallenge(t *testing.T) {
	good := vector(t, "doom3_players")
	wrong := func(req []byte) []byte {
		r := answer(req, good)
		r[15] ^= 0xFF // a reply to some other request
		return r
	}
	addr := prototest.UDP(t, func(req []byte) [][]byte { return [][]byte{wrong(req), []byte("garbage"), answer(req, good)} })
	if res, tr, err := prototest.QueryNew(t, Protocol, addr, protocols.Settings{}, 2*time.Second); err != nil || res.Name != "Red Server" || prototest.Ignored(tr) != 2 {
		t.Errorf("%v, name %q, %d replies ignored, want 2", err, res.Name, prototest.Ignored(tr))
	}
	reply := func(r func(req []byte) []byte) prototest.Handler {
		return func(req []byte) [][]byte { return [][]byte{r(req)} }
	}
	vec := func(name string) prototest.Handler {
		return reply(func(req []byte) []byte { return answer(req, vector(t, name)) })
	}
	prototest.ReplyFailures(t, Protocol, nil, protocols.Settings{},
		prototest.ReplyFailure{Name: "only mismatches", Handler: reply(wrong), D: 300 * time.Millisecond, Want: wire.ErrMismatch},
		prototest.ReplyFailure{Name: "only garbage", Handler: reply(func([]byte) []byte { return []byte("\xff\xff\xff\xffstatusResponse\n") }),
			D: 300 * time.Millisecond, Want: wire.ErrMalformed},
		prototest.ReplyFailure{Name: "trunc_dict", Handler: vec("trunc_dict"), D: 300 * time.Millisecond, Want: wire.ErrTruncated},
		prototest.ReplyFailure{Name: "bad_name", Handler: vec("bad_name"), D: 300 * time.Millisecond, Want: wire.ErrMalformed}, // not an infoResponse: skipped, then reported
	)
}

// Silence, a closed port and a cancelled probe are failures too: the contract
// checks them.
func TestQuerierContract(t *testing.T) {
	t.Parallel()
	good := vector(t, "doom3_players")
	prototest.QuerierContract(t, prototest.Contract{
		Protocol: Protocol, Name: "doom3", DefaultPort: 27666, Transport: "udp",
		Answer:   func(req []byte) [][]byte { return [][]byte{answer(req, good)} },
		WantName: "Red Server", RetryAttempts: 2,
	})
}

// New refuses negative retries and an options block it cannot decode; the
// request is FF FF, the command, NUL and the challenge, little-endian.
func TestNew(t *testing.T) {
	if _, err := newQuerier(protocols.Settings{Retries: -1}); err == nil {
		t.Error("negative retries accepted")
	}
	prototest.OptionsErrors(t, Protocol, nil)
	if got := request("getInfo", 0xC3C2C1C0); string(got) != "\xff\xffgetInfo\x00\xc0\xc1\xc2\xc3" {
		t.Errorf("request % x", got)
	}
}

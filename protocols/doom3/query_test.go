package doom3

import (
	"bytes"
	"errors"
	"net/netip"
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

func query(t testing.TB, s protocols.Settings, addr netip.AddrPort, d time.Duration) (*protocols.Result, *wire.Trace, error) {
	t.Helper()
	q, err := newQuerier(s)
	if err != nil {
		t.Fatal(err)
	}
	tr := wire.NewTrace()
	res, err := q.Query(prototest.Context(t, d), protocols.At(addr), tr)
	return res, tr, err
}

func TestQueryVariants(t *testing.T) {
	for _, c := range []struct {
		vector        string
		name, game    string
		players, bots int64
	}{
		{"doom3_players", "Red Server", "baseDOOM-1", 3, unknown},
		{"prey_players", "Prey Hunt", "base", 2, unknown},
		{"quake4_players", "Quad Arena", "Q4MP 1.4.2", 2, unknown},
		{"etqw_info", "The Base", "baseETQW-1", 1, 1}, // 2 listed, 1 a bot
		{"unknown_major", "Mystery", "", 2, unknown},
	} {
		t.Run(c.vector, func(t *testing.T) {
			srv, addr := newServer(t, vector(t, c.vector), nil)
			res, tr, err := query(t, protocols.Settings{Rules: true}, addr, 2*time.Second)
			if err != nil {
				t.Fatal(err)
			}
			if res.Name != c.name || res.Game != c.game {
				t.Errorf("name/game = %q/%q, want %q/%q", res.Name, res.Game, c.name, c.game)
			}
			checkCount(t, "players", res.Players, c.players)
			checkCount(t, "bots", res.Bots, c.bots)
			if res.PlayerList != nil || len(res.Rules) == 0 || len(res.PhaseErrors) != 0 {
				t.Errorf("player list %v, %d rules, phase errors %v", res.PlayerList, len(res.Rules), res.PhaseErrors)
			}
			if len(tr.Phases) != 1 || tr.Phases[0].Name != "info" || tr.Phases[0].Err != nil {
				t.Errorf("phases = %+v", tr.Phases)
			}
			// Without players wanted, ET:QW gets no getInfoEx.
			if n := srv.n["getInfoEx"].Load(); n != 0 {
				t.Errorf("%d getInfoEx requests", n)
			}
			req := tr.Packets[0].Data
			if len(req) != 14 || command(req) != "getInfo" {
				t.Errorf("request % x", req)
			}
		})
	}
}

func TestQueryETQWInfoEx(t *testing.T) {
	_, addr := newServer(t, vector(t, "etqw_info"), vector(t, "etqw_infoex"))
	res, tr, err := query(t, protocols.Settings{Players: true}, addr, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	// The infoExResponse replaces the first answer: its name, scores and teams.
	if res.Name != "XP Server" || len(res.PlayerList) != 2 || res.PlayerList[0].Score != protocols.Known(1235) || res.PlayerList[1].Team != "strogg" {
		t.Errorf("result = %+v", res)
	}
	if len(tr.Phases) != 2 || tr.Phases[1].Name != "players" || tr.Phases[1].Err != nil {
		t.Errorf("phases = %+v", tr.Phases)
	}
	if len(res.PhaseErrors) != 0 {
		t.Errorf("phase errors %v", res.PhaseErrors)
	}
}

func TestQueryETQWInfoExSilent(t *testing.T) {
	t.Parallel()
	_, addr := newServer(t, vector(t, "etqw_info"), nil)
	deadline := 400 * time.Millisecond
	start := time.Now()
	res, _, err := query(t, protocols.Settings{Players: true}, addr, deadline)
	if err != nil {
		t.Fatal(err)
	}
	if time.Since(start) > deadline+time.Second+prototest.LagSince(start) {
		t.Errorf("returned after %v", time.Since(start))
	}
	if len(res.PhaseErrors) != 1 || res.PhaseErrors[0].Phase != "players" || !errors.Is(res.PhaseErrors[0].Err, wire.ErrTimeout) {
		t.Fatalf("phase errors = %v", res.PhaseErrors)
	}
	// The getInfo answer still stands, players without statistics.
	if res.Name != "The Base" || len(res.PlayerList) != 2 || res.PlayerList[1].Score.Known {
		t.Errorf("result = %+v", res)
	}
}

func TestQueryETQWInfoExDisabled(t *testing.T) {
	srv, addr := newServer(t, vector(t, "etqw_info"), vector(t, "etqw_infoex"))
	off := false
	s := protocols.Settings{Players: true, Options: func(v any) error {
		v.(*Options).ETQWInfoEx = &off
		return nil
	}}
	res, _, err := query(t, s, addr, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if n := srv.n["getInfoEx"].Load(); n != 0 || res.Name != "The Base" || len(res.PlayerList) != 2 {
		t.Errorf("%d getInfoEx requests, result %+v", n, res)
	}
}

func TestQueryETQWInfoExBroken(t *testing.T) {
	_, addr := newServer(t, vector(t, "etqw_info"), vector(t, "infoex_no_ext"))
	res, _, err := query(t, protocols.Settings{Players: true}, addr, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.PhaseErrors) != 1 || !errors.Is(res.PhaseErrors[0].Err, wire.ErrTruncated) || res.Name != "The Base" {
		t.Errorf("result = %+v", res)
	}
}

func TestQueryPlayersPhaseError(t *testing.T) {
	_, addr := newServer(t, vector(t, "players_not_increasing"), nil)
	res, _, err := query(t, protocols.Settings{Players: true}, addr, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if res.Name != "Dup" || res.Players.Known || len(res.PhaseErrors) != 1 || !errors.Is(res.PhaseErrors[0].Err, wire.ErrMalformed) {
		t.Errorf("result = %+v", res)
	}
}

func TestQueryChallenge(t *testing.T) {
	good := vector(t, "doom3_players")
	wrong := func(req []byte) []byte {
		r := answer(req, good)
		r[15] ^= 0xFF // a reply to some other request
		return r
	}
	t.Run("late reply first", func(t *testing.T) {
		addr := prototest.UDP(t, func(req []byte) [][]byte { return [][]byte{wrong(req), []byte("garbage"), answer(req, good)} })
		res, tr, err := query(t, protocols.Settings{}, addr, 2*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		if res.Name != "Red Server" {
			t.Errorf("name %q", res.Name)
		}
		if ignored := countIgnored(tr); ignored != 2 {
			t.Errorf("%d replies ignored, want 2", ignored)
		}
	})
	t.Run("only mismatches", func(t *testing.T) {
		t.Parallel()
		addr := prototest.UDP(t, func(req []byte) [][]byte { return [][]byte{wrong(req)} })
		_, _, err := query(t, protocols.Settings{}, addr, 300*time.Millisecond)
		if !errors.Is(err, wire.ErrMismatch) {
			t.Fatalf("err = %v, want mismatch", err)
		}
	})
	t.Run("only garbage", func(t *testing.T) {
		t.Parallel()
		addr := prototest.UDP(t, func(req []byte) [][]byte { return [][]byte{[]byte("\xff\xff\xff\xffstatusResponse\n")} })
		_, _, err := query(t, protocols.Settings{}, addr, 300*time.Millisecond)
		if !errors.Is(err, wire.ErrMalformed) {
			t.Fatalf("err = %v, want malformed", err)
		}
	})
}

func countIgnored(tr *wire.Trace) int {
	n := 0
	for _, p := range tr.Packets {
		if p.Note != "" {
			n++
		}
	}
	return n
}

// Silence, a closed port and a cancelled probe are failures too: the contract
// checks them.
func TestQueryErrors(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		vector string
		want   error
	}{
		{"trunc_dict", wire.ErrTruncated},
		{"bad_name", wire.ErrMalformed}, // not an infoResponse: skipped, then reported
	} {
		t.Run(c.vector, func(t *testing.T) {
			t.Parallel()
			_, addr := newServer(t, vector(t, c.vector), nil)
			_, _, err := query(t, protocols.Settings{}, addr, 300*time.Millisecond)
			if !errors.Is(err, c.want) {
				t.Fatalf("err = %v, want %v", err, c.want)
			}
		})
	}
}

func TestQuerierContract(t *testing.T) {
	t.Parallel()
	good := vector(t, "doom3_players")
	prototest.QuerierContract(t, prototest.Contract{
		Protocol: Protocol, Name: "doom3", DefaultPort: 27666, Transport: "udp",
		Answer:   func(req []byte) [][]byte { return [][]byte{answer(req, good)} },
		WantName: "Red Server", RetryAttempts: 2,
	})
}

func TestNew(t *testing.T) {
	if _, err := newQuerier(protocols.Settings{Retries: -1}); err == nil {
		t.Error("negative retries accepted")
	}
	bad := protocols.Settings{Options: func(any) error { return errors.New(`unknown field "foo"`) }}
	if _, err := newQuerier(bad); err == nil {
		t.Error("options error swallowed")
	}
}

func TestRequest(t *testing.T) {
	want := []byte("\xff\xffgetInfo\x00\xc0\xc1\xc2\xc3")
	if got := request("getInfo", 0xC3C2C1C0); !bytes.Equal(got, want) {
		t.Errorf("request % x, want % x", got, want)
	}
}

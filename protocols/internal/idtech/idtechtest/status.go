package idtechtest

import (
	"errors"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// Status describes a protocol's one-datagram status exchange for RunStatus.
type Status struct {
	Protocol protocols.Protocol
	// Reply is the server's status reply to req (the challenge echoed, if
	// any) listing the player lines.
	Reply func(req []byte, lines ...string) []byte
	// Line is one player line named name, with score 1 and a non-zero ping;
	// `1 2 "name"` (the quake2/quake3 layout) when nil.
	Line func(name string) string
	// Challenge returns the challenge of a status request; nil when the
	// protocol sends none.
	Challenge func(req []byte) (string, bool)
	// Strays are three datagrams, none the answer to req, that come before
	// the real reply and must each be skipped with a note.
	Strays func(req []byte) [][]byte
	// Unusable replies never answer: the query fails with Want, not a bare
	// timeout, once its deadline passes.
	Unusable map[string]Bad
	// Broken replies are the answer but do not decode: the query fails at
	// once with Want.
	Broken map[string]Bad
	// Shapes are replies that decode to Players player lines.
	Shapes map[string]Shape
	// Full is the query with every setting on, and its result.
	Full Full
	// Contract is run with Protocol and Answer filled in.
	Contract prototest.Contract
}

// Bad is a reply and the error the query fails with.
type Bad struct {
	Reply []byte
	Want  error
}

// Shape is a reply to req (see Status.Reply) and its count of player lines.
type Shape struct {
	Reply   func(req []byte) []byte
	Players int64
}

// RunStatus runs what every idTech status exchange must do, as subtests.
func RunStatus(t *testing.T, s Status) {
	if s.Line == nil {
		s.Line = playerLine
	}
	t.Run("Full", s.full)
	t.Run("SettingsOff", s.settingsOff)
	t.Run("SkipsStrays", s.skipsStrays)
	// Garbage is never a reply, in any of the family's protocols.
	unusable := with(s.Unusable, map[string]Bad{"garbage": {[]byte("\x00\x01garbage"), wire.ErrMalformed}})
	t.Run("NoUsableReply", s.failing(unusable, false))
	t.Run("BrokenReply", s.failing(s.Broken, true))
	t.Run("ReplyShapes", s.replyShapes)
	if s.Challenge != nil {
		t.Run("ChallengeIsRandom", s.challengeIsRandom)
	}
	t.Run("Contract", func(t *testing.T) {
		c := s.Contract
		c.Protocol = s.Protocol
		c.Answer = func(req []byte) [][]byte { return [][]byte{s.Reply(req)} }
		prototest.QuerierContract(t, c)
	})
}

// query runs one query within d against a fake answering every request with h.
func (s Status) query(t *testing.T, set protocols.Settings, d time.Duration, h prototest.Handler, tr *wire.Trace) (*protocols.Result, error) {
	t.Helper()
	return QueryWithin(t, s.Protocol, set, prototest.UDP(t, h), d, tr)
}

// Query queries addr with p's querier for set, within two seconds.
func Query(t testing.TB, p protocols.Protocol, set protocols.Settings, addr netip.AddrPort, tr *wire.Trace) (*protocols.Result, error) {
	t.Helper()
	return QueryWithin(t, p, set, addr, 2*time.Second, tr)
}

// QueryWithin queries addr with p's querier for set, within d.
func QueryWithin(t testing.TB, p protocols.Protocol, set protocols.Settings, addr netip.AddrPort, d time.Duration, tr *wire.Trace) (*protocols.Result, error) {
	t.Helper()
	return prototest.MustNew(t, p, set).Query(prototest.Context(t, d), protocols.At(addr), tr)
}

// Always answers every request with the same datagram.
func Always(b []byte) prototest.Handler { return func([]byte) [][]byte { return [][]byte{b} } }

func (s Status) settingsOff(t *testing.T) {
	res, err := s.query(t, protocols.Settings{}, 2*time.Second, func(req []byte) [][]byte {
		return [][]byte{s.Reply(req, s.Line("a"))}
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.PlayerList != nil || res.Rules != nil || res.Players != protocols.Known(1) || len(res.Info) == 0 {
		t.Errorf("result = %+v", res)
	}
}

// Stray datagrams are skipped and the real reply is used, even when it comes twice.
func (s Status) skipsStrays(t *testing.T) {
	tr := wire.NewTrace()
	res, err := s.query(t, protocols.Settings{Players: true}, 2*time.Second, func(req []byte) [][]byte {
		real := s.Reply(req, s.Line("real"))
		return append(s.Strays(req), real, real)
	}, tr)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.PlayerList) != 1 || res.PlayerList[0].Name != "real" {
		t.Errorf("players = %+v", res.PlayerList)
	}
	ignored := 0
	for _, p := range tr.Packets {
		if p.Note != "" {
			ignored++
		}
	}
	if ignored != 3 {
		t.Errorf("%d packets noted as ignored, want 3", ignored)
	}
}

// failing runs each bad reply: an unusable one fails the query with its
// reason, not a bare timeout, once the 300 ms deadline passes; a broken one
// (answered) fails it at once, well within its 5 s, in the info phase.
func (s Status) failing(cases map[string]Bad, answered bool) func(*testing.T) {
	return func(t *testing.T) {
		if len(cases) == 0 {
			t.Fatal("no replies")
		}
		set, d := protocols.Settings{Retries: 1}, 300*time.Millisecond
		if answered {
			set, d = protocols.Settings{}, 5*time.Second
		}
		for name, tc := range cases {
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				tr := wire.NewTrace()
				start := time.Now()
				_, err := s.query(t, set, d, Always(tc.Reply), tr)
				if !errors.Is(err, tc.Want) || errors.Is(err, wire.ErrTimeout) {
					t.Errorf("err = %v, want %v", err, tc.Want)
				}
				if el := time.Since(start); el > 2*time.Second+prototest.LagSince(start) {
					t.Errorf("returned after %v", el)
				}
				if answered && (len(tr.Phases) != 1 || !errors.Is(tr.Phases[0].Err, tc.Want)) {
					t.Errorf("phases = %+v", tr.Phases)
				}
			})
		}
	}
}

func (s Status) replyShapes(t *testing.T) {
	if len(s.Shapes) == 0 {
		t.Fatal("no reply shapes")
	}
	for name, tc := range s.Shapes {
		t.Run(name, func(t *testing.T) {
			res, err := s.query(t, protocols.Settings{Players: true}, 2*time.Second, func(req []byte) [][]byte {
				return [][]byte{tc.Reply(req)}
			}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if res.Players != protocols.Known(tc.Players) || int64(len(res.PlayerList)) != tc.Players {
				t.Errorf("players = %+v (%d listed), want %d", res.Players, len(res.PlayerList), tc.Players)
			}
		})
	}
}

// The challenge is random per query, and safe for the engine to echo: two
// queries never send the same token.
func (s Status) challengeIsRandom(t *testing.T) {
	seen := make(chan string, 2)
	addr := prototest.UDP(t, func(req []byte) [][]byte {
		c, ok := s.Challenge(req)
		if !ok || len(c) == 0 || len(c) > 128 || strings.ContainsAny(c, "\\\"; \n") {
			t.Errorf("bad request %q", req)
			return nil
		}
		seen <- c
		return [][]byte{s.Reply(req)}
	})
	for range 2 {
		if _, err := Query(t, s.Protocol, protocols.Settings{}, addr, nil); err != nil {
			t.Fatal(err)
		}
	}
	if a, b := <-seen, <-seen; a == b {
		t.Errorf("same challenge twice: %q", a)
	}
}

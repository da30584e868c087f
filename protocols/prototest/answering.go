package prototest

import (
	"bytes"
	"errors"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// Answering is a UDP server for a one-request protocol: it answers request with
// replies (none: silence) and fails the test on any other request.
func Answering(t testing.TB, request []byte, replies ...[]byte) netip.AddrPort {
	return UDP(t, answer(t, request, replies))
}

func answer(t testing.TB, request []byte, replies [][]byte) Handler {
	return func(req []byte) [][]byte {
		if !bytes.Equal(req, request) {
			t.Errorf("request % X, want % X", req, request)
			return nil
		}
		return replies
	}
}

// QueryNew queries addr with a querier p makes of s, within d, and returns what
// the probe would show: the result, the trace and the error.
func QueryNew(t testing.TB, p protocols.Protocol, addr netip.AddrPort, s protocols.Settings, d time.Duration) (*protocols.Result, *wire.Trace, error) {
	t.Helper()
	return QueryWithin(t, MustNew(t, p, s), addr, d)
}

// PhaseReasons is the trace's phases as name:ok or name:reason (wire.Reason of
// its error), comma-separated ("info:ok,players:timeout").
func PhaseReasons(tr *wire.Trace) string {
	var s []string
	for _, p := range tr.Phases {
		r := "ok"
		if p.Err != nil {
			r = wire.Reason(p.Err)
		}
		s = append(s, p.Name+":"+r)
	}
	return strings.Join(s, ",")
}

// Logged says whether one of the trace's log entries holds s.
func Logged(tr *wire.Trace, s string) bool {
	for _, e := range tr.Entries {
		if strings.Contains(e.Msg, s) {
			return true
		}
	}
	return false
}

// ReplyFailure is one way a server's replies fail a probe: the replies a
// server answering the request sends (Answering), or the whole server (Handler);
// the deadline (default 2s) and the error wanted.
type ReplyFailure struct {
	Name    string
	Replies [][]byte
	Handler Handler
	D       time.Duration
	Want    error
}

// ReplyFailures probes each case's server in parallel subtests and wants the
// case's error, and the trace's last phase failed; with a request (a
// one-request protocol), the only phase.
func ReplyFailures(t *testing.T, p protocols.Protocol, request []byte, s protocols.Settings, cases ...ReplyFailure) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			t.Parallel()
			d := tc.D
			if d == 0 {
				d = 2 * time.Second
			}
			h := tc.Handler
			if h == nil {
				h = answer(t, request, tc.Replies)
			}
			_, tr, err := QueryNew(t, p, UDP(t, h), s, d)
			if !errors.Is(err, tc.Want) {
				t.Errorf("err = %v, want %v", err, tc.Want)
			}
			// The phase that failed the probe says so: its phase_success is 0
			// beside probe_success 0 (a reply that decodes to nothing too).
			if n := len(tr.Phases); tc.Want != nil && (n == 0 || tr.Phases[n-1].Err == nil || request != nil && n != 1) {
				t.Errorf("phases %+v, want the last failed", tr.Phases)
			}
		})
	}
}

// Ignored is the number of datagrams the trace notes as skipped (strays).
func Ignored(tr *wire.Trace) int {
	n := 0
	for _, p := range tr.Packets {
		if p.Note != "" {
			n++
		}
	}
	return n
}

// WantedError ends a table case that wants an error: it reports whether want
// is set, after failing the test unless err is it; without want, any err fails.
func WantedError(t testing.TB, err, want error) bool {
	t.Helper()
	if want != nil {
		if !errors.Is(err, want) {
			t.Fatalf("err = %v, want %v", err, want)
		}
		return true
	}
	if err != nil {
		t.Fatal(err)
	}
	return false
}

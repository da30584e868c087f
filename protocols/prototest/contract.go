package prototest

import (
	"context"
	"errors"
	"io"
	"net"
	"net/netip"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// Contract describes one protocol for QuerierContract: what its Protocol must say
// of itself, and, for UDP, a fake server that answers a complete query.
type Contract struct {
	Protocol protocols.Protocol // the package's Protocol

	// What Protocol must declare. Transport also picks the fake servers: "tcp"
	// runs the TCP cases (no retry case: TCP does not re-send).
	Name        string
	DefaultPort uint16
	Transport   string
	PortOffset  int

	// Settings are the module settings of every case (Players, Rules, Options);
	// the cases set Retries themselves.
	Settings protocols.Settings

	// Answer (UDP, required) is a fake server's reply to any request of a complete
	// query with Settings, challenges and all. The retry case loses the first reply
	// Answer gives and wants the query to succeed by re-sending; only that case
	// calls Answer, so it may keep state.
	Answer Handler
	// WantName is the server name the retry case must decode from Answer's replies.
	// Check, when set, asserts more of its result and trace. One of them is needed,
	// so that the case sees the reply decoded, not just no error.
	WantName string
	Check    func(t testing.TB, res *protocols.Result, tr *wire.Trace)

	// The retry case queries with RetryRetries re-sends (default 2) and a deadline of
	// RetryDeadline (default 600ms); RetryAttempts, when set, is the exact number of
	// request sends it must trace (default: at least 2).
	RetryRetries  int
	RetryDeadline time.Duration
	RetryAttempts int

	// SilentAttempts is the least and the most a silent server may get: request
	// sends on UDP with 2 re-sends (default 1 to 3), connections on TCP (default 1).
	SilentAttempts [2]int
	// PhasePerAttempt says the querier retries with a phase per attempt (its own
	// retry loop, challenge and all): a silent server then leaves as many failed
	// phases as sends, not one.
	PhasePerAttempt bool
}

// Deadlines of the contract's cases, and how long past its deadline a case may
// return (this only catches hangs, it is no timing).
const (
	contractSilence = 300 * time.Millisecond
	contractAnswer  = 2 * time.Second
	contractSlack   = 2 * time.Second
)

// QuerierContract runs the cases every Querier must pass, each as a subtest:
//   - "refused": a closed port is ErrRefused, in one failed phase;
//   - "protocol": Protocol declares what c says, with a description, and New
//     works without an options block;
//   - "silence": a server that never answers is ErrTimeout by the deadline, in
//     one failed phase (one per send with PhasePerAttempt), within SilentAttempts;
//   - "cancelled": a probe whose context is already cancelled fails with the
//     reason "timeout";
//   - "retry" (UDP): the first reply Answer gives is lost, and the query still
//     succeeds within the deadline by re-sending, with the reply decoded and no
//     phase errors.
//
// "refused" runs first and alone, the others then in parallel with each other;
// the caller may make its test parallel too.
func QuerierContract(t *testing.T, c Contract) {
	t.Helper()
	c = c.withDefaults(t)
	// First, alone: no server of a parallel case can take the closed port.
	t.Run("refused", c.refused)
	t.Run("protocol", c.declares)
	t.Run("silence", c.silence)
	t.Run("cancelled", c.cancelled)
	if c.Transport != "tcp" {
		t.Run("retry", c.retry)
	}
}

func (c Contract) withDefaults(t *testing.T) Contract {
	t.Helper()
	tcp := c.Transport == "tcp"
	if !tcp && c.Answer == nil {
		t.Fatal("contract: a UDP protocol needs Answer for the retry case")
	}
	if !tcp && c.WantName == "" && c.Check == nil {
		t.Fatal("contract: the retry case needs WantName or Check to see the reply decoded")
	}
	if c.SilentAttempts == [2]int{} {
		c.SilentAttempts = [2]int{1, 3}
		if tcp {
			c.SilentAttempts = [2]int{1, 1}
		}
	}
	if c.RetryRetries == 0 {
		c.RetryRetries = 2
	}
	if c.RetryDeadline == 0 {
		c.RetryDeadline = 600 * time.Millisecond
	}
	return c
}

// refused: a closed port is ErrRefused, in one failed phase.
func (c Contract) refused(t *testing.T) {
	var addr netip.AddrPort
	if c.Transport == "tcp" {
		addr = ClosedTCPPort(t)
	} else {
		addr = ClosedUDPPort(t)
	}
	_, tr, err := c.query(t, 0, contractAnswer, addr)
	if !errors.Is(err, wire.ErrRefused) {
		t.Errorf("err = %v, want refused", err)
	}
	failedPhases(t, tr, 1, wire.ErrRefused)
}

// declares: Protocol says what the contract says, and New works without options.
func (c Contract) declares(t *testing.T) {
	t.Parallel()
	p := c.Protocol
	if p.Name != c.Name || p.DefaultPort != c.DefaultPort || p.Transport != c.Transport || p.PortOffset != c.PortOffset || p.Description == "" {
		t.Errorf("Protocol = %+v, want name %q, port %d, transport %s, offset %d and a description",
			p, c.Name, c.DefaultPort, c.Transport, c.PortOffset)
	}
	if q, err := p.New(protocols.Settings{Options: nil}); err != nil || q == nil {
		t.Errorf("New without options: %v, %v", q, err)
	}
}

// silentServer is a server that never answers: its address and, over TCP, how
// many connections it took.
func (c Contract) silentServer(t *testing.T) (netip.AddrPort, *atomic.Int32) {
	var conns atomic.Int32
	if c.Transport == "tcp" {
		return TCP(t, func(conn net.Conn) { conns.Add(1); io.Copy(io.Discard, conn) }), &conns
	}
	return Silent(t), &conns
}

// silence: a server that never answers is ErrTimeout by the deadline.
func (c Contract) silence(t *testing.T) {
	t.Parallel()
	addr, conns := c.silentServer(t)
	_, tr, err := c.query(t, 2, contractSilence, addr)
	if !errors.Is(err, wire.ErrTimeout) {
		t.Errorf("err = %v, want timeout", err)
	}
	phases := 1
	if c.PhasePerAttempt {
		phases = tr.Attempts
	}
	failedPhases(t, tr, phases, wire.ErrTimeout)
	n := tr.Attempts
	if c.Transport == "tcp" {
		n = int(conns.Load())
	}
	if lo, hi := c.SilentAttempts[0], c.SilentAttempts[1]; n < lo || n > hi {
		t.Errorf("%d attempts (sends over UDP, connections over TCP), want %d to %d", n, lo, hi)
	}
}

// cancelled: a probe whose context is already cancelled fails as a timeout.
func (c Contract) cancelled(t *testing.T) {
	t.Parallel()
	addr, _ := c.silentServer(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.querier(t, 0).Query(ctx, protocols.At(addr), nil); wire.Reason(err) != "timeout" {
		t.Errorf("err = %v, want a timeout reason", err)
	}
}

// retry: the first reply is lost; the query re-sends and succeeds.
func (c Contract) retry(t *testing.T) {
	t.Parallel()
	var lost atomic.Bool
	addr := UDP(t, func(req []byte) [][]byte {
		out := c.Answer(req)
		if len(out) > 0 && !lost.Load() {
			lost.Store(true)
			return nil // the first reply is lost
		}
		return out
	})
	res, tr, err := c.query(t, c.RetryRetries, c.RetryDeadline, addr)
	if err != nil {
		t.Fatal(err)
	}
	if !lost.Load() {
		t.Fatal("Answer never answered: no reply was lost")
	}
	if c.WantName != "" && res.Name != c.WantName {
		t.Errorf("name = %q, want %q", res.Name, c.WantName)
	}
	if len(res.PhaseErrors) != 0 {
		t.Errorf("phase errors %+v", res.PhaseErrors)
	}
	switch {
	case c.RetryAttempts != 0 && tr.Attempts != c.RetryAttempts:
		t.Errorf("attempts = %d, want %d", tr.Attempts, c.RetryAttempts)
	case tr.Attempts < 2:
		t.Errorf("attempts = %d, want the request re-sent", tr.Attempts)
	}
	if c.Check != nil {
		c.Check(t, res, tr)
	}
}

// querier builds the protocol's Querier with the contract's settings.
func (c Contract) querier(t testing.TB, retries int) protocols.Querier {
	t.Helper()
	s := c.Settings
	s.Retries = retries
	q, err := c.Protocol.New(s)
	if err != nil {
		t.Fatal(err)
	}
	return q
}

// query runs one traced probe of addr and checks it returned by its deadline.
func (c Contract) query(t testing.TB, retries int, d time.Duration, addr netip.AddrPort) (*protocols.Result, *wire.Trace, error) {
	t.Helper()
	q := c.querier(t, retries)
	tr := wire.NewTrace()
	start := time.Now()
	res, err := q.Query(Context(t, d), protocols.At(addr), tr)
	if el := time.Since(start); el > d+contractSlack+LagSince(start) {
		t.Errorf("returned after %v, deadline %v", el, d)
	}
	return res, tr, err
}

// failedPhases checks that the trace holds n phases, each failed with want.
func failedPhases(t testing.TB, tr *wire.Trace, n int, want error) {
	t.Helper()
	ok := len(tr.Phases) == n
	for _, p := range tr.Phases {
		ok = ok && errors.Is(p.Err, want)
	}
	if !ok {
		t.Errorf("phases = %+v, want %d, each failed with %v", tr.Phases, n, want)
	}
}

// ClosedTCPPort returns a loopback TCP port with nothing listening.
func ClosedTCPPort(t testing.TB) netip.AddrPort {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	a := l.Addr().(*net.TCPAddr).AddrPort()
	l.Close()
	return a
}

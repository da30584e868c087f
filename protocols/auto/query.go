package auto

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/netip"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/catalog"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

type querier struct {
	protos   []protocols.Protocol // those auto may choose, by name
	queriers map[string]protocols.Querier
	games    []catalog.Game
}

// attempt is what one candidate's query came to.
type attempt struct {
	res  *protocols.Result
	err  error
	tr   *wire.Trace
	dur  time.Duration
	sent bool // false: a second-wave candidate the first's answer made needless
}

// Query runs every candidate the port suggests at once on its own socket, each
// until the deadline; when none has answered after a third of the time left (or
// all have failed), the common protocols the port did not suggest follow, on
// the target's port. The first to answer wins: the others are cancelled (a
// second wave not yet sent is never sent), and Query returns once all have
// returned, so no socket outlives it. The address was judged by the target
// policy before; only its port changes, to the candidates' query ports.
//
// Not a protocols.UDPExchange: it runs other protocols' queriers.
func (q *querier) Query(ctx context.Context, t protocols.Target, tr *wire.Trace) (*protocols.Result, error) {
	addr := t.Addr
	cands := choose(addr.Port(), q.protos, q.games)
	first := len(cands)
	if first > 0 && cands[0].why != defaultWhy {
		cands = append(cands, common(cands, addr.Port(), q.protos)...)
	}
	tr.Logf("auto: port %d suggests %s", addr.Port(), list(cands[:first]))
	if len(cands) > first {
		tr.Logf("auto: then, if none answers, %s", list(cands[first:]))
	}
	// Prompt cancellation: a loser's socket closes when the winner answers, not at
	// the deadline it was dialed with.
	ctx, cancel := context.WithCancel(wire.WithPromptCancel(ctx))
	defer cancel()
	atts := make([]attempt, len(cands))
	done := make(chan int, len(cands))
	// The second wave starts when the first has failed, or after a third of the
	// time left.
	second := make(chan struct{})
	var startSecond sync.Once
	wait := time.Second
	if d, ok := ctx.Deadline(); ok {
		wait = time.Until(d) / 3
	}
	timer := time.AfterFunc(wait, func() { startSecond.Do(func() { close(second) }) })
	defer timer.Stop()
	for i, c := range cands {
		if tr != nil {
			atts[i].tr = wire.NewTrace()
			atts[i].tr.Start = tr.Start
		}
		go func() {
			if c.later {
				select {
				case <-second:
				case <-ctx.Done():
					atts[i].err = fmt.Errorf("%w: not sent, %w", wire.ErrTimeout, ctx.Err())
					done <- i
					return
				}
			}
			atts[i].sent = true
			start := time.Now()
			atts[i].res, atts[i].err = q.queriers[c.proto].Query(ctx, protocols.Target{Addr: netip.AddrPortFrom(addr.Addr(), c.port), Host: t.Host}, atts[i].tr)
			if atts[i].err == nil && atts[i].res == nil {
				atts[i].err = fmt.Errorf("%w: %s returned no result", wire.ErrMalformed, c.proto)
			}
			atts[i].dur = time.Since(start)
			done <- i
		}()
	}
	winner, failed := -1, 0
	for range cands {
		i := <-done
		switch {
		case winner < 0 && atts[i].err == nil:
			winner = i
			cancel()
		case i < first:
			if failed++; failed == first {
				startSecond.Do(func() { close(second) })
			}
		}
	}
	merge(tr, cands, atts, winner)
	if winner < 0 {
		return nil, failure(cands, atts)
	}
	res := atts[winner].res
	res.Protocol, res.QueryPort = cands[winner].proto, cands[winner].port
	return res, nil
}

// failure is the error of a probe no candidate answered: the most telling of the
// candidates' errors (a reply that did not parse says more than silence), with
// what each candidate got.
func failure(cands []candidate, atts []attempt) error {
	best := -1
	for i, a := range atts {
		if !a.sent {
			continue
		}
		switch wire.Reason(a.err) {
		case "timeout", "refused", "network":
		default:
			if best < 0 {
				best = i
			}
		}
	}
	if best < 0 {
		best = slices.IndexFunc(atts, func(a attempt) bool { return errors.Is(a.err, wire.ErrTimeout) })
	}
	if best < 0 {
		best = 0
	}
	var tried []string
	for i, c := range cands {
		if atts[i].sent {
			tried = append(tried, fmt.Sprintf("%s on %d: %s", c.proto, c.port, wire.Reason(atts[i].err)))
		}
	}
	return fmt.Errorf("%w (auto tried %s)", atts[best].err, strings.Join(tried, ", "))
}

// merge copies the candidates' traces into tr: log lines in time order, each
// prefixed with its protocol; packets grouped by candidate; request sends summed.
// Phases are the winner's, or, when none answered, one per candidate named after
// its protocol, so the metrics show which protocols failed and why.
func merge(tr *wire.Trace, cands []candidate, atts []attempt, winner int) {
	if tr == nil {
		return
	}
	from := len(tr.Entries)
	for i, a := range atts {
		c := cands[i]
		if !a.sent {
			continue
		}
		if a.err != nil {
			tr.Logf("auto: %s on port %d: %v", c.proto, c.port, a.err)
		}
		for _, e := range a.tr.Entries {
			tr.Entries = append(tr.Entries, wire.Entry{At: e.At, Msg: c.proto + ": " + e.Msg})
		}
		tr.Attempts += a.tr.Attempts
		first := len(tr.Packets) + 1
		for _, p := range a.tr.Packets {
			n := len(tr.Packets)
			if p.Dir == wire.Sent {
				tr.Sent(p.Data)
			} else {
				tr.Received(p.Data)
			}
			if len(tr.Packets) > n { // kept: restore what the copy lost
				tr.Packets[n].At, tr.Packets[n].Len, tr.Packets[n].Note = p.At, p.Len, p.Note
			}
		}
		if last := len(tr.Packets); last >= first {
			tr.Logf("auto: packets #%d-#%d are %s's", first, last, c.proto)
		}
	}
	slices.SortStableFunc(tr.Entries[from:], func(a, b wire.Entry) int { return cmp.Compare(a.At, b.At) })
	if winner >= 0 {
		c := cands[winner]
		tr.Phases = append(tr.Phases, atts[winner].tr.Phases...)
		tr.Logf("auto: %s answered on port %d", c.proto, c.port)
		return
	}
	for i, a := range atts {
		if a.sent {
			tr.Phases = append(tr.Phases, wire.Phase{Name: cands[i].proto, Duration: a.dur, Err: a.err})
		}
	}
}

func list(cands []candidate) string {
	s := make([]string, len(cands))
	for i, c := range cands {
		s[i] = c.String()
	}
	return strings.Join(s, ", ")
}

package prototest

import (
	"context"
	"fmt"
	"net/netip"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// FakeQuerier is a Querier for the exporter's own tests (probe, web): it answers
// every query with Result and Err, records one sent and one received packet and an
// "info" phase, and remembers what it was asked.
type FakeQuerier struct {
	Result *protocols.Result
	Err    error
	Wait   bool          // block until the context ends, then fail as a timeout
	Delay  time.Duration // answer after this long

	calls atomic.Int32
	mu    sync.Mutex
	addr  netip.AddrPort
}

// Query implements protocols.Querier.
func (f *FakeQuerier) Query(ctx context.Context, t protocols.Target, tr *wire.Trace) (*protocols.Result, error) {
	f.calls.Add(1)
	f.mu.Lock()
	f.addr = t.Addr
	f.mu.Unlock()
	if f.Delay > 0 {
		time.Sleep(f.Delay)
	}
	p := tr.Begin("info")
	tr.Sent([]byte("\xff\xff\xff\xffhello"))
	if f.Wait {
		<-ctx.Done()
		tr.End(p, ctx.Err())
		return nil, fmt.Errorf("%w: waited out", wire.ErrTimeout)
	}
	tr.Received([]byte("\xff\xff\xff\xffworld"))
	tr.End(p, f.Err)
	return f.Result, f.Err
}

// Calls is the number of queries so far.
func (f *FakeQuerier) Calls() int32 { return f.calls.Load() }

// Queried is the address of the last query.
func (f *FakeQuerier) Queried() netip.AddrPort {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.addr
}

// HeapAfterGC is the live heap after two collections (the second frees what the
// first's finalizers released), for tests that bound what something retains.
func HeapAfterGC() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

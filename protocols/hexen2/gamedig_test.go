package hexen2

import (
	"sync"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestGamedig pins why gamedig is no reference here: its hexen2 game sends
// HexenWorld's QuakeWorld-style status (FF FF FF FF FF "status"), which a Hexen II
// (NetQuake) server does not answer, so it fails where the Querier reads the
// server.
func TestGamedig(t *testing.T) {
	var (
		mu  sync.Mutex
		got [][]byte
	)
	h := stock(t).handler(t)
	addr := prototest.UDP(t, func(req []byte) [][]byte {
		mu.Lock()
		got = append(got, append([]byte(nil), req...))
		mu.Unlock()
		if _, _, skip, err := control(req); skip != nil || err != nil {
			return nil // not a control packet: the engine ignores it
		}
		return h(req)
	})
	if _, msg, ok := prototest.Gamedig(t, "hexen2", addr.Port(), nil); ok {
		t.Fatalf("gamedig read a NetQuake server")
	} else {
		t.Logf("gamedig: %s", msg)
	}
	mu.Lock()
	if len(got) == 0 || got[0][0] != 0xFF {
		t.Errorf("gamedig sent %q, not an out-of-band status", got)
	}
	mu.Unlock()
	if _, _, err := prototest.QueryNew(t, Protocol, addr, all, 2*time.Second); err != nil {
		t.Errorf("the Querier: %v", err)
	}
}

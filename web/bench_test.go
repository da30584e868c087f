package web

import (
	"net/http/httptest"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// BenchmarkServeHTTP measures the exporter's own cost of a probe: everything but
// the network (the querier answers at once).
func BenchmarkServeHTTP(b *testing.B) {
	q := &prototest.FakeQuerier{Result: &protocols.Result{
		Name: "bench server", Map: "de_dust2", Game: "Counter-Strike", Version: "1.0",
		Players: protocols.Known(12), MaxPlayers: protocols.Known(32), Bots: protocols.Known(0),
		Password: protocols.FlagFalse,
	}}
	h := newTestHandler(&testing.T{}, q, nil)
	h.Runner.MinInterval = 0
	req := httptest.NewRequest("GET", "/probe?module=fake&target=127.0.0.1:27015", nil)
	req.Header.Set("Accept", "application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1")
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
	}
}

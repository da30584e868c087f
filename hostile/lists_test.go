package hostile

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/config"
	"github.com/gameserver-exporter/gameserver_exporter/discovery"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// hostileList serves prefix, then n bytes of fill (or until the client
// leaves), then suffix, written from one chunk: the server holds nothing of
// the body either.
func hostileList(prefix string, fill byte, n int, suffix string) http.HandlerFunc {
	chunk := []byte(strings.Repeat(string(fill), 64<<10))
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(prefix))
		for left := n; left > 0 && r.Context().Err() == nil; left -= len(chunk) {
			if _, err := w.Write(chunk[:min(left, len(chunk))]); err != nil {
				return
			}
		}
		w.Write([]byte(suffix))
	}
}

// TestHostileLists (issue 35, H2): a discovery source whose list is 8 MiB of
// brackets ahead of the servers (once ~28 bytes of heap per byte, 360 MB of
// RSS), or a 256 MiB body of one endless entry (the body cap), fails its
// refresh having allocated a few MiB at most: far below the chart's 128 Mi
// memory limit, whatever the body's length; so does an entry nested past
// encoding/json's limit, skipped while the body lasts.
//
// It moves a quarter of a GiB through loopback (a few seconds under -race):
// skipped with -short.
func TestHostileLists(t *testing.T) {
	if !inShard(t.Name()) {
		return
	}
	if testing.Short() {
		t.Skip("moves 256 MiB through loopback: skipped with -short")
	}
	mux := http.NewServeMux()
	mux.Handle("/nested", hostileList(`{"a": `, '[', 8<<20, ""))
	mux.Handle("/endless", hostileList(`{"servers":[{"addresses":["`, 'a', 257<<20, `"]}]}`))
	mux.Handle("/deep_entry", hostileList(`{"servers":[{"x":`, '[', 2<<20, ""))
	srv, _ := prototest.HTTP(t, mux, false)
	for _, c := range []struct {
		path string
		want error
	}{
		{"/nested", wire.ErrMalformed},
		{"/endless", wire.ErrTooLarge},
		{"/deep_entry", wire.ErrTruncated},
	} {
		t.Run(c.path, func(t *testing.T) {
			cfg, err := config.Parse([]byte(fmt.Sprintf("discovery:\n  list:\n    type: ddnet\n    url: %s%s\n    timeout: 60s\n    refresh: 10m\n", srv.URL, c.path)))
			if err != nil {
				t.Fatal(err)
			}
			m := discovery.NewManager(nil)
			done := make(chan error, 1)
			m.OnRefresh = func(_ string, err error) { done <- err }
			before := totalAlloc()
			m.Apply(cfg.Discovery) // starts the source: its first refresh
			err = <-done
			alloc := totalAlloc() - before
			m.Stop()
			if !errors.Is(err, c.want) {
				t.Fatalf("refresh: %v, want %v", err, c.want)
			}
			if alloc > 16<<20 {
				t.Fatalf("the refresh allocated %d MiB", alloc>>20)
			}
			t.Logf("%s: %s; %d KiB allocated", c.path, err, alloc>>10)
		})
	}
}

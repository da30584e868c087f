package gcheadroom

import (
	"io"
	"log/slog"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
)

func TestGCPercentFor(t *testing.T) {
	const mib = 1 << 20
	for _, tt := range []struct {
		live, roots, headroom uint64
		want                  int
	}{
		{live: 4 * mib, headroom: 32 * mib, want: 800}, // goal 36 MiB, not 8
		{live: 16 * mib, headroom: 32 * mib, want: 200},
		{live: 64 * mib, headroom: 32 * mib, want: 50},  // grows by 32 MiB: the headroom
		{live: 200 * mib, headroom: 32 * mib, want: 25}, // big heap: a quarter, not GOGC=100's all of it
		{live: 1024, headroom: 32 * mib, want: maxGCPercent},
		{live: 0, headroom: 32 * mib, want: maxGCPercent},
		{live: 12 * mib, roots: 4 * mib, headroom: 32 * mib, want: 200}, // goal 44 MiB: 12 + (12+4)*2
		// 10,000 probes waiting: stacks nearly as large as the heap; goal 66 MiB, not 140.
		{live: 50 * mib, roots: 40 * mib, headroom: 16 * mib, want: 17},
		{live: 10 * mib, roots: 400 * mib, headroom: 16 * mib, want: minGCPercent},
	} {
		if got := gcPercentFor(tt.live, tt.roots, tt.headroom); got != tt.want {
			t.Errorf("gcPercentFor(%d, %d, %d) = %d, want %d", tt.live, tt.roots, tt.headroom, got, tt.want)
		}
	}
}

// TestGCHeadroom: after a collection the tuner has raised the percentage of a small
// heap. Not parallel: it changes the process' GC setting, restored at the end.
func TestGCHeadroom(t *testing.T) {
	if _, ok := os.LookupEnv("GOGC"); ok {
		t.Skip("GOGC is set in the environment: the tuner stays off")
	}
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	stop := Start(1<<30, slog.New(slog.NewTextHandler(io.Discard, nil)))
	defer stop()
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	for range 20 {
		runtime.GC()
		metrics.Read(s)
		if s[0].Value.Uint64() == maxGCPercent {
			return
		}
	}
	t.Fatalf("GC percent %d after 20 collections, want %d", s[0].Value.Uint64(), maxGCPercent)
}

// Package idtechtest holds what the tests of the idTech protocols (quake2,
// quakeworld, darkplaces, quake3) share: the one-datagram status exchange
// suite, the vector loop, fuzz seeds and caps, the benchmarks and the
// real-server captures. A protocol's own tests keep only its quirks.
package idtechtest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// OOB is the four 0xFF bytes that start every connectionless datagram.
const OOB = "\xff\xff\xff\xff"

// Vectors runs check on each hand-built vector of testdata/ (see the
// package's testdata/README.md): NAME.bin with NAME.expected.json read into E.
func Vectors[E any](t *testing.T, check func(t *testing.T, b []byte, e E)) {
	for _, name := range prototest.Names(t, ".expected.json") {
		t.Run(name, func(t *testing.T) {
			e := prototest.ReadJSON[E](t, filepath.Join("testdata", name+".expected.json"))
			b, err := os.ReadFile(filepath.Join("testdata", name+".bin"))
			if err != nil {
				t.Fatal(err)
			}
			check(t, b, e)
		})
	}
}

// DecodeFailed checks a decoder's outcome against a vector's expected error
// reason (none when want is ""): it reports whether the decoder failed as
// wanted, with no reply, and fails the test when the outcome is otherwise.
func DecodeFailed(t testing.TB, err error, gotReply bool, want string) bool {
	t.Helper()
	if want != "" {
		if got := wire.Reason(err); got != want || gotReply {
			t.Fatalf("error %v (reason %q), want reason %q", err, got, want)
		}
		return true
	}
	if err != nil {
		t.Fatal(err)
	}
	return false
}

// CheckInfo checks decoded info pairs against a vector's leading [key, value]s.
func CheckInfo(t testing.TB, got []protocols.KV, want [][2]string) {
	t.Helper()
	for i, kv := range want {
		if i >= len(got) || got[i].Key != kv[0] || got[i].Value != kv[1] {
			t.Errorf("info[%d] = %v, want %q", i, got[min(i, len(got)-1)], kv)
		}
	}
}

// Capture reads a reply recorded from a real local server by
// shared/realworld/capture.sh, skipping when shared/ is absent.
func Capture(t testing.TB, name string) []byte {
	t.Helper()
	s := prototest.SharedDir()
	if s == "" {
		t.Skip("../shared is absent: skipping the real-server captures (own test vectors in testdata/ still run)")
	}
	b, err := os.ReadFile(filepath.Join(s, "realworld", "captures", name))
	if err != nil {
		t.Skipf("no capture %s: %v", name, err)
	}
	return b
}

// PlayerLine is a player line of the quake2/quake3 layout: `score ping "name"`.
func PlayerLine(name string) string { return `1 2 "` + name + `"` }

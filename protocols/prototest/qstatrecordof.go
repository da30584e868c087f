package prototest

import (
	"encoding/json"
	"net/netip"
	"testing"
)

// QstatRecordOf is what QstatJSON reads, into a T of the caller's: a struct that
// embeds QstatServer and adds the rules (-R) or players (-P) it asks for. It
// fails the test unless quakestat saw the server online.
func QstatRecordOf[T interface{ Online() bool }](t testing.TB, flag string, addr netip.AddrPort, extra ...string) T {
	t.Helper()
	out := Qstat(t, append(append([]string{"-json", "-timeout", "5"}, extra...), flag, addr.String())...)
	var recs []T
	if err := json.Unmarshal(out, &recs); err != nil || len(recs) != 1 || !recs[0].Online() {
		t.Fatalf("quakestat output %q: %v", out, err)
	}
	return recs[0]
}

// Online says whether quakestat saw the server online.
func (s QstatServer) Online() bool { return s.Status == "online" }

package minecraft

import (
	"context"
	"errors"
	"net"
	"strings"
	"testing"
)

// fakeResolver answers lookupSRV from a table, recording the questions.
type fakeResolver struct {
	recs  map[string][]*net.SRV
	err   error
	asked []string
}

func (f *fakeResolver) LookupSRV(_ context.Context, service, proto, name string) (string, []*net.SRV, error) {
	q := "_" + service + "._" + proto + "." + name
	f.asked = append(f.asked, q)
	return q + ".", f.recs[q], f.err
}

func TestLookupSRV(t *testing.T) {
	ctx := context.Background()
	r := &fakeResolver{recs: map[string][]*net.SRV{
		"_minecraft._tcp.example.com": {{Target: "mc1.example.com.", Port: 25577, Priority: 0, Weight: 5}, {Target: "mc2.example.com.", Port: 25565, Priority: 1}},
		"_minecraft._tcp.none.test":   {{Target: ".", Port: 0}},
		"_minecraft._tcp.dot.test":    {{Target: ".", Port: 25565}},
		"_minecraft._tcp.zero.test":   {{Target: "a.test.", Port: 0}, {Target: "b.test.", Port: 30000}},
	}}
	for _, tc := range []struct {
		host, target string
		port         uint16
		ok           bool
	}{
		{"example.com", "mc1.example.com", 25577, true},
		{"example.com.", "mc1.example.com", 25577, true}, // a fully qualified name asks the same question
		{"none.test", "", 0, false},                      // "." with port 0: no service
		{"dot.test", "", 0, false},                       // "." : decidedly not available
		{"zero.test", "b.test", 30000, true},             // a record with port 0 is skipped
		{"nosrv.test", "", 0, false},
		// IP literals and empty names are not looked up.
		{"192.0.2.1", "", 0, false},
		{"2001:db8::1", "", 0, false},
		{"[2001:db8::1]", "", 0, false},
		{"", "", 0, false},
		{".", "", 0, false},
	} {
		target, port, ok := lookupSRVWith(ctx, r, tc.host)
		if target != tc.target || port != tc.port || ok != tc.ok {
			t.Errorf("%s: %q %d %v, want %q %d %v", tc.host, target, port, ok, tc.target, tc.port, tc.ok)
		}
	}
	if got := strings.Join(r.asked, " "); got != "_minecraft._tcp.example.com _minecraft._tcp.example.com _minecraft._tcp.none.test "+
		"_minecraft._tcp.dot.test _minecraft._tcp.zero.test _minecraft._tcp.nosrv.test" {
		t.Errorf("asked %s", got)
	}
}

// An error alone means no SRV; records returned with an error (some were
// malformed and filtered out) are still used, like net.Resolver documents.
func TestLookupSRVErrors(t *testing.T) {
	r := &fakeResolver{err: errors.New("no such host")}
	if _, _, ok := lookupSRVWith(context.Background(), r, "example.com"); ok {
		t.Error("ok on a lookup error")
	}
	r.recs = map[string][]*net.SRV{"_minecraft._tcp.example.com": {nil, {Target: "ok.example.com.", Port: 25565}}}
	if target, port, ok := lookupSRVWith(context.Background(), r, "example.com"); !ok || target != "ok.example.com" || port != 25565 {
		t.Errorf("%q %d %v", target, port, ok)
	}
}

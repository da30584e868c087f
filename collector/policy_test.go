package collector

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/gameserver-exporter/gameserver_exporter/config"
	"github.com/gameserver-exporter/gameserver_exporter/config/configtest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// listener is a UDP socket on loopback that tells whether anything reached it.
type listener struct {
	t    *testing.T
	conn *net.UDPConn
}

func listen(t *testing.T, network, addr string) *listener {
	t.Helper()
	c, err := net.ListenUDP(network, net.UDPAddrFromAddrPort(netip.MustParseAddrPort(addr)))
	if err != nil {
		t.Skipf("no %s loopback here: %v", network, err)
	}
	t.Cleanup(func() { c.Close() })
	return &listener{t, c}
}

func (l *listener) port() uint16 { return l.conn.LocalAddr().(*net.UDPAddr).AddrPort().Port() }

// first sends a marker to the listener and returns the first datagram it holds:
// the marker when nothing else arrived before it (loopback keeps the order of one
// socket's queue), so no wait is needed to prove that no packet came.
func (l *listener) first() []byte {
	l.t.Helper()
	s, err := net.DialUDP("udp", nil, l.conn.LocalAddr().(*net.UDPAddr))
	if err != nil {
		l.t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Write([]byte("marker")); err != nil {
		l.t.Fatal(err)
	}
	got := l.read()
	if !bytes.Equal(got, []byte("marker")) {
		for !bytes.Equal(l.read(), []byte("marker")) { // leave the queue empty
		}
	}
	return got
}

func (l *listener) read() []byte {
	l.t.Helper()
	l.conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	buf := make([]byte, 1500)
	n, err := l.conn.Read(buf)
	if err != nil {
		l.t.Fatal(err)
	}
	return buf[:n]
}

// TestPolicyRefusesBeforeSending: a refused target gets HTTP 403 with the rule that
// refused it, and not one packet leaves, on any candidate query port.
func TestPolicyRefusesBeforeSending(t *testing.T) {
	l := listen(t, "udp4", "127.0.0.1:0")
	p := l.port()
	if p < 2 {
		t.Skip("need a port above 1")
	}
	// The listener is the module's second candidate query port.
	const modules = "modules:\n  two_ports:\n    protocol: a2s\n    port_offsets: [0, 1]\n"
	target := func(host string) string { return host + ":" + strconv.Itoa(int(p)-1) }

	// The harness sees a packet when one is sent: 127.0.0.1 is allowed by default.
	run(t, runnerOf(configtest.Modules(t, modules)), "two_ports", target("127.0.0.1"), "1.5")
	if got := l.first(); bytes.Equal(got, []byte("marker")) {
		t.Fatal("control probe of 127.0.0.1 sent nothing: the harness cannot see packets")
	}

	for _, tc := range []struct {
		name, policy, target, want string
	}{
		{"default policy, 0.0.0.0", "", target("0.0.0.0"), "denied by default policy: 0.0.0.0 is unspecified"},
		{"default policy, 0.0.0.0 mapped", "", "[::ffff:0.0.0.0]:" + strconv.Itoa(int(p)-1), "denied by default policy: 0.0.0.0 is unspecified"},
		{"deny list", "target_policy:\n  deny: [127.0.0.0/8]\n", target("127.0.0.1"), "denied by target_policy.deny 127.0.0.0/8: 127.0.0.1"},
		{"deny list, mapped", "target_policy:\n  deny: [127.0.0.0/8]\n", "[::ffff:127.0.0.1]:" + strconv.Itoa(int(p)-1), "denied by target_policy.deny 127.0.0.0/8"},
	} {
		h := runnerOf(configtest.Modules(t, modules+tc.policy))
		if code, msg := requestError(t, h, "two_ports", tc.target, "1.5"); code != http.StatusForbidden || !strings.Contains(msg, tc.want) {
			t.Errorf("%s: %d %q, want 403 with %q", tc.name, code, msg, tc.want)
		}
		if got := l.first(); !bytes.Equal(got, []byte("marker")) {
			t.Errorf("%s: a packet reached 127.0.0.1:%d: %q", tc.name, p, got)
		}
		if n := counterValue(t, h.Metrics.PolicyRefusals); n != 1 {
			t.Errorf("%s: refusals counter %v, want 1", tc.name, n)
		}
	}
}

// TestPolicyZoneBypass: a zone on the address does not get it past a deny entry.
func TestPolicyZoneBypass(t *testing.T) {
	l := listen(t, "udp6", "[::1]:0")
	lo := "lo"
	if _, err := net.InterfaceByName(lo); err != nil {
		lo = "1" // the loopback interface's index on most systems
	}
	h := runnerOf(configtest.Modules(t, "target_policy:\n  deny: [\"::1/128\"]\n"))
	target := "[::1%" + lo + "]:" + strconv.Itoa(int(l.port()))
	code, msg := requestError(t, h, "a2s", target, "1.5")
	if code != http.StatusForbidden || !strings.Contains(msg, "denied by target_policy.deny ::1/128: ::1%"+lo+" (::1)") {
		t.Errorf("%s: %d %q, want 403 from the ::1/128 entry", target, code, msg)
	}
	if got := l.first(); !bytes.Equal(got, []byte("marker")) {
		t.Errorf("%s: a packet reached ::1: %q", target, got)
	}
}

// TestPolicySRVName: the name an SRV record points to is held to the deny patterns.
func TestPolicySRVName(t *testing.T) {
	cfg := configtest.Modules(t, "target_policy:\n  deny: [\"*.svc.cluster.local\"]\n")
	p := &cfg.TargetPolicy
	a := []netip.Addr{netip.MustParseAddr("10.96.0.10")}
	if err := checkPolicy(p, "evil.example", "redis.default.svc.cluster.local", true, a); err == nil || !strings.Contains(err.Error(), `"*.svc.cluster.local"`) {
		t.Errorf("SRV target in a denied name: %v", err)
	}
	if err := checkPolicy(p, "game.example", "game.example", true, a); err != nil {
		t.Errorf("plain name refused: %v", err)
	}
}

// countingResolver counts the lookups a probe makes (DNS and SRV) and answers
// every name with one documentation address.
type countingResolver struct{ dns, srv atomic.Int32 }

func (c *countingResolver) LookupNetIP(context.Context, string, string) ([]netip.Addr, error) {
	c.dns.Add(1)
	return []netip.Addr{netip.MustParseAddr("192.0.2.7")}, nil
}

// TestPolicyBeforeLookup (issue 35, M3): a name the target policy denies (a
// deny pattern, an allow list of names only), or the module's targets do, is
// refused before any SRV or DNS lookup, so a caller cannot tell which denied
// names exist; a name that passes is looked up, and the name its SRV record
// names is judged before it is resolved.
func TestPolicyBeforeLookup(t *testing.T) {
	for _, tc := range []struct {
		name, policy, targets, target string
		srv, dns                      int32
		want                          string // 403 message, or the probe's error
	}{
		{"control: an allowed name is looked up", "deny: [\"nosuchhost*\"]", "", "game.example.org", 1, 1, ""},
		{"deny pattern", "deny: [\"nosuchhost*\"]", "", "nosuchhost-abc", 0, 0, `403 denied by target_policy.deny "nosuchhost*": nosuchhost-abc`},
		{"allow of names only", "allow: [\"*.example.org\"]", "", "other.example.net", 0, 0, "403 refused by target_policy.allow: other.example.net matches none"},
		{"allow with addresses judges addresses", "allow: [\"*.example.org\", 192.0.2.0/24]", "", "other.example.net", 1, 1, ""},
		{"SRV record names a denied name", "deny: [\"*.svc.cluster.local\"]", "", "srv.example.org", 1, 0, `403 denied by target_policy.deny "*.svc.cluster.local": redis.default.svc.cluster.local`},
		{"module targets of names only", "deny: []", "[\"*.example.org\"]", "evil.example.net:27015", 0, 0, "evil.example.net is not among the module's targets"},
		{"module targets, a name without a port (SRV)", "deny: []", "[\"*.example.org\"]", "evil.example.net", 0, 0, "evil.example.net is not among the module's targets"},
		{"module targets, a listed name's SRV record", "deny: []", "[\"*.example.org\"]", "game.example.org", 1, 1, ""},
		{"a name resolving into a denied range", "deny: [192.0.2.0/24]", "", "game.example.org", 1, 1, "403 denied by target_policy.deny 192.0.2.0/24: game.example.org resolves to 192.0.2.7"},
		{"a name the allow list names, resolving outside its ranges", "allow: [\"*.example.org\", 198.51.100.0/24]", "", "game.example.org", 1, 1, ""},
		{"an address outside the allow list", "allow: [198.51.100.0/24]", "", "192.0.2.1", 0, 0, "403 refused by target_policy.allow: 192.0.2.1 is outside the allowed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := configtest.Modules(t, "target_policy:\n  "+tc.policy+"\n")
			res := &countingResolver{}
			q := &prototest.FakeQuerier{Result: &protocols.Result{}}
			p := fakeProtocol(q)
			p.LookupSRV = func(_ context.Context, host string) (string, uint16, bool) {
				res.srv.Add(1)
				if host == "srv.example.org" {
					return "redis.default.svc.cluster.local", 6379, true
				}
				return "", 0, false
			}
			m := &config.Module{Protocol: "fake"}
			if tc.targets != "" {
				if err := yaml.Unmarshal([]byte(tc.targets), &m.Targets); err != nil {
					t.Fatal(err)
				}
			}
			compile(t, m, p)
			cfg.Modules = map[string]*config.Module{"fake": m}
			r := runnerOf(cfg)
			r.Resolver = res
			o, err := r.Run(context.Background(), "fake", tc.target, "")
			var got string
			var re *RequestError
			switch {
			case errors.As(err, &re):
				got = strconv.Itoa(re.Status) + " " + re.Message
			case err != nil:
				t.Fatal(err)
			case o.Err != nil:
				got = o.Err.Error()
			}
			if tc.want == "" && got != "" || !strings.Contains(got, strings.TrimPrefix(tc.want, "403 ")) || strings.HasPrefix(tc.want, "403") != strings.HasPrefix(got, "403") {
				t.Errorf("got %q, want %q", got, tc.want)
			}
			if res.srv.Load() != tc.srv || res.dns.Load() != tc.dns {
				t.Errorf("%d SRV and %d DNS lookups, want %d and %d", res.srv.Load(), res.dns.Load(), tc.srv, tc.dns)
			}
			if queried := q.Calls() == 1; queried != (tc.want == "") {
				t.Errorf("%d queries", q.Calls())
			}
		})
	}
}

// TestSecretGoesOnlyToListedTargets: a module carrying a password sends it only to
// the targets the operator listed (hostile round, row 1: palworld's basic auth went
// to any target a caller named). Another target fails as target_not_allowed with
// nothing sent; a listed one gets the query. A listed name allows that name, not
// another name resolving to the same address.
func TestSecretGoesOnlyToListedTargets(t *testing.T) {
	var requests, withAuth atomic.Int32
	_, addr := prototest.HTTP(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		if r.Header.Get("Authorization") != "" {
			withAuth.Add(1)
		}
		http.Error(w, "no", http.StatusUnauthorized)
	}), false)
	module := func(targets string) string {
		return fmt.Sprintf("modules:\n  pal:\n    protocol: palworld\n    targets: [%s]\n    palworld: {password: hunter2}\n", targets)
	}
	for _, tc := range []struct {
		name, targets, host string // host "": the server's address
		allowed             bool
	}{
		{"other address", "127.0.0.2", "", false},
		{"other CIDR", "10.0.0.0/8", "", false},
		{"other name", "game.example.org", "", false},
		{"a name resolving to the listed name's address", "game.example.org", "evil.example.net", false},
		{"listed address", "127.0.0.1", "", true},
		{"listed CIDR", "127.0.0.0/8", "", true},
		{"listed name, resolved as the operator's DNS says", "game.example.org", "game.example.org", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			requests.Store(0)
			withAuth.Store(0)
			r := runnerOf(configtest.Modules(t, module(tc.targets)))
			r.Resolver = staticResolver{"game.example.org": {addr.Addr()}, "evil.example.net": {addr.Addr()}}
			target := addr.String()
			if tc.host != "" {
				target = fmt.Sprint(tc.host, ":", addr.Port())
			}
			o := run(t, r, "pal", target, "")
			if !tc.allowed {
				if o.Reason() != "target_not_allowed" || requests.Load() != 0 {
					t.Fatalf("targets %s: reason %q (%v), %d requests reached the server", tc.targets, o.Reason(), o.Err, requests.Load())
				}
				if !strings.Contains(o.Err.Error(), "not among the module's targets") {
					t.Errorf("the error says why: %v", o.Err)
				}
				return
			}
			if o.Reason() == "target_not_allowed" || withAuth.Load() == 0 {
				t.Fatalf("targets %s: reason %q, %d requests with credentials", tc.targets, o.Reason(), withAuth.Load())
			}
		})
	}
}

package config

import (
	"net/netip"
	"strings"
	"testing"
)

func addrs(s ...string) []netip.Addr {
	var out []netip.Addr
	for _, a := range s {
		out = append(out, netip.MustParseAddr(a))
	}
	return out
}

func TestTargetPolicy(t *testing.T) {
	p := TargetPolicy{
		Allow: []string{"192.0.2.0/24", "2001:db8::/32", "*.games.example"},
		Deny:  []string{"192.0.2.66", "bad.games.example", "127.0.0.0/8"},
	}
	if err := p.compile(); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		host  string
		addrs []netip.Addr
		want  string // "" = allowed, else a fragment of the reason
	}{
		{"192.0.2.10", addrs("192.0.2.10"), ""},
		{"2001:db8::1", addrs("2001:db8::1"), ""},
		{"198.51.100.1", addrs("198.51.100.1"), "outside the allowed"},
		{"192.0.2.66", addrs("192.0.2.66"), "denied range"},
		{"cs.games.example", addrs("198.51.100.9"), ""},
		{"CS.Games.Example.", addrs("198.51.100.9"), ""},
		{"bad.games.example", addrs("192.0.2.1"), "denied hostname"},
		// a permitted name that resolves into a denied range is refused
		{"sneaky.games.example", addrs("127.0.0.1"), "denied range"},
		// every address of a multi-address name counts
		{"multi.other.example", addrs("192.0.2.1", "192.0.2.66"), "denied range"},
		{"multi2.other.example", addrs("192.0.2.1", "198.51.100.1"), "outside the allowed"},
		{"ok.other.example", addrs("192.0.2.1", "192.0.2.2"), ""},
		{"::ffff:127.0.0.1", addrs("::ffff:127.0.0.1"), "denied range"},
	}
	for _, tc := range tests {
		err := p.Check(tc.host, tc.addrs)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s %v: refused: %v", tc.host, tc.addrs, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s %v: got %v, want %q", tc.host, tc.addrs, err, tc.want)
		}
	}
	var empty TargetPolicy
	if err := empty.Check("anything", addrs("10.0.0.1")); err != nil {
		t.Errorf("no policy must allow everything: %v", err)
	}
}

func TestTargetPolicyErrors(t *testing.T) {
	for _, tc := range []struct{ yml, want string }{
		{"target_policy:\n  allow: [\"10.0.0.0/33\"]\n", `target_policy.allow: invalid CIDR "10.0.0.0/33"`},
		{"target_policy:\n  deny: [\"[a-\"]\n", `target_policy.deny: invalid hostname pattern "[a-"`},
		{"target_policy:\n  alow: []\n", `field alow not found`},
	} {
		_, err := Parse([]byte(tc.yml))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want %q", tc.yml, err, tc.want)
		}
	}
}

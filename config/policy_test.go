package config

import (
	"net/netip"
	"os"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

func addrs(s ...string) []netip.Addr {
	var out []netip.Addr
	for _, a := range s {
		out = append(out, netip.MustParseAddr(a))
	}
	return out
}

type policyCase struct {
	host  string
	addrs []netip.Addr // nil: host itself, as an address
	want  string       // "" = allowed, else a fragment of the reason
}

func runPolicyCases(t *testing.T, p *TargetPolicy, cases []policyCase) {
	t.Helper()
	for _, tc := range cases {
		as := tc.addrs
		if as == nil {
			as = addrs(tc.host)
		}
		_, notAddr := netip.ParseAddr(tc.host)
		err := p.Check(tc.host, notAddr != nil, as)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s %v: refused: %v", tc.host, as, err)
		case tc.want != "" && err == nil:
			t.Errorf("%s %v: allowed, want refused (%q)", tc.host, as, tc.want)
		case tc.want != "" && !strings.Contains(err.Error(), tc.want):
			t.Errorf("%s %v: got %q, want %q", tc.host, as, err, tc.want)
		}
	}
}

func compiled(t *testing.T, allow, deny []string) *TargetPolicy {
	t.Helper()
	p := &TargetPolicy{Allow: allow, Deny: deny}
	if err := p.compile(); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestTargetPolicy(t *testing.T) {
	p := compiled(t,
		[]string{"192.0.2.0/24", "2001:db8::/32", "*.games.example"},
		[]string{"192.0.2.66", "bad.games.example", "127.0.0.0/8"})
	runPolicyCases(t, p, []policyCase{
		{"192.0.2.10", nil, ""},
		{"2001:db8::1", nil, ""},
		{"198.51.100.1", nil, "refused by target_policy.allow: 198.51.100.1 is outside the allowed"},
		{"192.0.2.66", nil, "denied by target_policy.deny 192.0.2.66/32: 192.0.2.66"},
		{"cs.games.example", addrs("198.51.100.9"), ""},
		{"CS.Games.Example.", addrs("198.51.100.9"), ""},
		{"bad.games.example", addrs("192.0.2.1"), `denied by target_policy.deny "bad.games.example"`},
		// a permitted name that resolves into a denied range is refused
		{"sneaky.games.example", addrs("127.0.0.1"), "denied by target_policy.deny 127.0.0.0/8: sneaky.games.example resolves to 127.0.0.1"},
		// every address of a multi-address name counts
		{"multi.other.example", addrs("192.0.2.1", "192.0.2.66"), "192.0.2.66"},
		{"multi2.other.example", addrs("192.0.2.1", "198.51.100.1"), "outside the allowed"},
		{"ok.other.example", addrs("192.0.2.1", "192.0.2.2"), ""},
		{"::ffff:127.0.0.1", nil, "denied by target_policy.deny 127.0.0.0/8: ::ffff:127.0.0.1 (the IPv4-mapped form of 127.0.0.1)"},
		// a name allowed by pattern does not open the default policy
		{"meta.games.example", addrs("169.254.169.254"), "denied by default policy"},
	})
}

// TestDefaultPolicy: with no policy configured, the classes no game server uses
// are refused in every spelling; loopback and private ranges are not.
func TestDefaultPolicy(t *testing.T) {
	cases := []policyCase{
		// refused
		{"0.0.0.0", nil, "denied by default policy: 0.0.0.0 is unspecified"},
		{"0.1.2.3", nil, "unspecified"},
		{"::", nil, "denied by default policy: :: is unspecified"},
		{"169.254.169.254", nil, "denied by default policy: 169.254.169.254 is link-local"},
		{"169.254.1.1", nil, "link-local"},
		{"fe80::1", nil, "fe80::1 is link-local"},
		{"fe80::1%eth0", nil, "denied by default policy: fe80::1%eth0 (fe80::1) is link-local"},
		{"fe80::a9fe:a9fe%2", nil, "link-local"},
		{"100.100.100.200", nil, "Alibaba Cloud metadata"},
		{"fd00:ec2::254", nil, "denied by default policy: fd00:ec2::254 is the AWS metadata service"},
		{"224.0.0.1", nil, "multicast"},
		{"239.255.255.250", nil, "multicast"},
		{"ff02::1", nil, "multicast"},
		{"ff05::1%eth0", nil, "multicast"},
		{"255.255.255.255", nil, "broadcast"},
		// the embedded forms
		{"::ffff:169.254.169.254", nil, "(the IPv4-mapped form of 169.254.169.254) is link-local"},
		{"64:ff9b::a9fe:a9fe", nil, "denied by default policy: 64:ff9b::a9fe:a9fe (the NAT64 form of 169.254.169.254) is link-local"},
		{"64:ff9b::", nil, "(the NAT64 form of 0.0.0.0) is unspecified"},
		{"64:ff9b::e000:1", nil, "multicast"},
		{"64:ff9b:1::a9fe:a9fe", nil, "NAT64 form of 169.254.169.254"},       // /96 layout
		{"64:ff9b:1:a9fe:a9:fe00::", nil, "NAT64 form of 169.254.169.254"},   // /48 layout
		{"64:ff9b:1:a9:fe:a9fe::", nil, "NAT64 form of 169.254.169.254"},     // /56 layout
		{"64:ff9b:1:0:a9:fea9:fe00:0", nil, "NAT64 form of 169.254.169.254"}, // /64 layout
		{"2002:a9fe:a9fe::1", nil, "(the 6to4 form of 169.254.169.254) is link-local"},
		{"2002:ffff:ffff::", nil, "broadcast"},
		{"::a9fe:a9fe", nil, "(the IPv4-compatible form of 169.254.169.254)"},
		{"::ffff:0:a9fe:a9fe", nil, "(the IPv4-translated form of 169.254.169.254)"},
		{"64:ff9b::6464:64c8", nil, "Alibaba"},
		// names are judged on every address they resolve to
		{"metadata.example", addrs("169.254.169.254"), "denied by default policy: metadata.example resolves to 169.254.169.254, which is link-local"},
		{"half.example", addrs("10.0.0.1", "fe80::1%eth0"), "half.example resolves to fe80::1%eth0 (fe80::1)"},
		// allowed
		{"127.0.0.1", nil, ""},
		{"127.1.2.3", nil, ""},
		{"::1", nil, ""},
		{"::1%lo", nil, ""},
		{"::ffff:127.0.0.1", nil, ""},
		{"10.0.0.1", nil, ""},
		{"172.16.5.4", nil, ""},
		{"192.168.1.20", nil, ""},
		{"100.64.0.1", nil, ""},
		{"fd00::1", nil, ""},
		{"fd00:ec2::253", nil, ""},
		{"203.0.113.7", nil, ""},
		{"2001:db8::1", nil, ""},
		{"64:ff9b::cb00:7107", nil, ""},
		{"64:ff9b:1::cb00:7107", nil, ""}, // other layouts read 0.x.x.x: padding, not a destination
		{"2002:cb00:7107::1", nil, ""},
		{"lan.example", addrs("192.168.1.20", "fd00::20"), ""},
	}
	runPolicyCases(t, nil, cases)
	runPolicyCases(t, &TargetPolicy{}, cases)
	cfg := mustParse(t, "")
	runPolicyCases(t, &cfg.TargetPolicy, cases)
}

// TestOpenDefault: an allow CIDR inside a default range opens that part of it; a
// broad allow entry does not, and deny still wins (and matches IPv4-mapped forms).
func TestOpenDefault(t *testing.T) {
	everything := []string{"0.0.0.0/0", "::/0"}
	for _, tc := range []struct {
		allow, deny []string
		cases       []policyCase
	}{
		{everything, nil, []policyCase{
			{"203.0.113.7", nil, ""},
			{"169.254.169.254", nil, "denied by default policy"},
			{"fe80::1%eth0", nil, "denied by default policy"},
		}},
		{append(everything, "169.254.169.254"), nil, []policyCase{
			{"169.254.169.254", nil, ""},
			{"64:ff9b::a9fe:a9fe", nil, ""}, // its IPv4 form is opened, the IPv6 one allowed by ::/0
			{"169.254.1.1", nil, "denied by default policy"},
		}},
		{[]string{"169.254.0.0/16"}, nil, []policyCase{
			{"169.254.1.1", nil, ""},
			{"64:ff9b::a9fe:a9fe", nil, "outside the allowed"}, // an allow list still has to hold the address
			{"10.0.0.1", nil, "outside the allowed"},
		}},
		{append(everything, "fe80::/10", "ff02::1", "224.0.0.0/4", "255.255.255.255", "0.0.0.0/8", "::", "fd00:ec2::254"), nil, []policyCase{
			{"fe80::1%eth0", nil, ""},
			{"ff02::1", nil, ""},
			{"ff02::2", nil, "multicast"},
			{"239.1.2.3", nil, ""},
			{"255.255.255.255", nil, ""},
			{"0.0.0.0", nil, ""},
			{"::", nil, ""},
			{"fd00:ec2::254", nil, ""},
		}},
		{append(everything, "169.254.10.0/24"), nil, []policyCase{ // the README's example
			{"169.254.10.5", nil, ""},
			{"169.254.169.254", nil, "denied by default policy"},
			{"fe80::1%eth0", nil, "denied by default policy"},
			{"198.51.100.1", nil, ""},
		}},
		{append(everything, "169.254.169.254"), []string{"169.254.0.0/16"}, []policyCase{
			{"169.254.169.254", nil, "denied by target_policy.deny 169.254.0.0/16"},
		}},
		{nil, []string{"::ffff:10.0.0.0/104", "*"}, []policyCase{ // an IPv4-mapped CIDR means its IPv4 range
			{"10.1.2.3", nil, "denied by target_policy.deny 10.0.0.0/8"},
			{"11.0.0.1", nil, ""},
			{"any.example", addrs("11.0.0.1"), `denied by target_policy.deny "*"`},
		}},
	} {
		runPolicyCases(t, compiled(t, tc.allow, tc.deny), tc.cases)
	}
}

// TestConfigmapPolicy: the deny list of the Kubernetes example holds against every
// spelling of the addresses it means, which it did not before the policy judged the
// address the socket uses (zone dropped, embedded IPv4 read).
func TestConfigmapPolicy(t *testing.T) {
	b, err := os.ReadFile("../examples/kubernetes/configmap.yml")
	if err != nil {
		t.Fatal(err)
	}
	var cm struct {
		Data map[string]string `yaml:"data"`
	}
	if err := yaml.Unmarshal(b, &cm); err != nil {
		t.Fatal(err)
	}
	cfg := mustParse(t, cm.Data["modules.yml"])
	runPolicyCases(t, &cfg.TargetPolicy, []policyCase{
		{"::1%lo", nil, "denied by target_policy.deny ::1/128: ::1%lo (::1)"},
		{"::1%1", nil, "::1/128"},
		{"0.0.0.0", nil, "denied by default policy: 0.0.0.0 is unspecified"},
		{"fe80::1%eth0", nil, "fe80::1%eth0 (fe80::1)"},
		{"fd00:ec2::254", nil, "AWS metadata"},
		{"64:ff9b::a9fe:a9fe", nil, "NAT64 form of 169.254.169.254"},
		{"127.0.0.1", nil, "127.0.0.0/8"},
		{"::ffff:127.0.0.1", nil, "127.0.0.0/8"},
		{"::127.0.0.1", nil, "IPv4-compatible form of 127.0.0.1"},
		{"64:ff9b::7f00:1", nil, "NAT64 form of 127.0.0.1"},
		{"64:ff9b:1::7f00:1", nil, "NAT64 form of 127.0.0.1"},
		{"2002:7f00:1::", nil, "6to4 form of 127.0.0.1"},
		{"::ffff:0:7f00:1", nil, "IPv4-translated form of 127.0.0.1"},
		{"redis.default.svc.cluster.local", addrs("10.96.0.10"), `"*.cluster.local"`},
		{"redis.default.svc", addrs("10.96.0.10"), `"*.svc"`},
		{"kubernetes", addrs("10.96.0.1"), `"kubernetes"`},
		{"kubernetes.default", addrs("10.96.0.1"), `"kubernetes.default"`},
		{"kubernetes.default.svc", addrs("10.96.0.1"), `"kubernetes.default.svc"`},
		{"pod-1.ns.pod.cluster.local", addrs("10.244.1.5"), `"*.cluster.local"`},
		{"grafana.monitoring", addrs("10.100.7.7"), "10.96.0.0/12"},
		{"10.244.1.5", nil, "10.244.0.0/16"},
		{"game.example", addrs("10.1.2.3"), ""},
		{"203.0.113.7", nil, ""},
	})
}

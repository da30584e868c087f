package config

import (
	"net/netip"
	"os"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// policyCase is a row of testdata/policies.yml: a host, a fragment of the reason
// it is refused ("": allowed), then the addresses it resolves to (none: the host
// itself, as an address).
type policyCase []string

// policies is testdata/policies.yml.
type policies struct {
	Default, Configmap []policyCase
	Lists              []struct {
		Allow, Deny []string
		Cases       []policyCase
	}
}

func runPolicyCases(t *testing.T, p *TargetPolicy, cases []policyCase) {
	t.Helper()
	for _, tc := range cases {
		host, want := tc[0], tc[1]
		resolved := tc[2:]
		if len(resolved) == 0 {
			resolved = tc[:1]
		}
		var as []netip.Addr
		for _, a := range resolved {
			as = append(as, netip.MustParseAddr(a))
		}
		_, notAddr := netip.ParseAddr(host)
		err := p.Check(host, notAddr != nil, as)
		switch {
		case want == "" && err != nil:
			t.Errorf("%s %v: refused: %v", host, as, err)
		case want != "" && err == nil:
			t.Errorf("%s %v: allowed, want refused (%q)", host, as, want)
		case want != "" && !strings.Contains(err.Error(), want):
			t.Errorf("%s %v: got %q, want %q", host, as, err, want)
		}
	}
}

// TestDefaultPolicy: no policy, an empty one and the built-in config's refuse
// the same.
func TestDefaultPolicy(t *testing.T) {
	cases := readYAML[policies](t, "policies.yml").Default
	runPolicyCases(t, nil, cases)
	runPolicyCases(t, &TargetPolicy{}, cases)
	cfg := mustParse(t, "")
	runPolicyCases(t, &cfg.TargetPolicy, cases)
}

func TestPolicyLists(t *testing.T) {
	for _, l := range readYAML[policies](t, "policies.yml").Lists {
		p := &TargetPolicy{Allow: l.Allow, Deny: l.Deny}
		if err := p.compile(); err != nil {
			t.Fatal(err)
		}
		runPolicyCases(t, p, l.Cases)
	}
}

// TestConfigmapPolicy: the Kubernetes example's target_policy.
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
	runPolicyCases(t, &cfg.TargetPolicy, readYAML[policies](t, "policies.yml").Configmap)
}

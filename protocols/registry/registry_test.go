package registry

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
)

func TestProtocols(t *testing.T) {
	seen := map[string]bool{}
	for _, p := range All() {
		if p.Name == "" || seen[p.Name] {
			t.Errorf("protocol name %q empty or repeated", p.Name)
		}
		seen[p.Name] = true
		if p.DefaultPort == 0 || (p.Transport != "udp" && p.Transport != "tcp") || p.Description == "" {
			t.Errorf("%s: incomplete descriptor %+v", p.Name, p)
		}
		q, err := p.New(protocols.Settings{Players: true, Rules: true})
		if err != nil || q == nil {
			t.Errorf("%s: New: %v", p.Name, err)
		}
		if got, ok := Lookup(p.Name); !ok || got.Name != p.Name {
			t.Errorf("Lookup(%s) failed", p.Name)
		}
	}
	if _, ok := Lookup("nope"); ok {
		t.Error("Lookup(nope) succeeded")
	}
}

package catalog

import (
	"sort"
	"testing"
)

func TestCatalog(t *testing.T) {
	seen := map[string]bool{}
	for i, g := range Games {
		if seen[g.Module] {
			t.Errorf("%s listed twice", g.Module)
		}
		seen[g.Module] = true
		if g.Name == "" || g.Protocol == "" || g.Port == 0 || len(g.Offsets) == 0 || g.Source == "" {
			t.Errorf("%s: incomplete row %+v", g.Module, g)
		}
		for _, off := range g.Offsets {
			if p := int(g.Port) + off; p <= 0 || p > 65535 {
				t.Errorf("%s: offset %d leaves the port range", g.Module, off)
			}
		}
		if i > 0 && Games[i-1].Module > g.Module {
			t.Errorf("keep the catalog sorted: %s before %s", Games[i-1].Module, g.Module)
		}
	}
	if !sort.SliceIsSorted(Games, func(i, j int) bool { return Games[i].Module < Games[j].Module }) {
		t.Error("catalog not sorted")
	}
	if g, ok := Lookup("valheim"); !ok || g.Offsets[0] != 1 {
		t.Errorf("Lookup(valheim) = %+v %v", g, ok)
	}
}

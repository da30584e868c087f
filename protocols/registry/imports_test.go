package registry

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
)

// TestNoSiblingImports: a protocol package imports no other protocol package; code
// two protocols share lives in protocols/internal/<family> or wire. Only the
// registry, module auto (which runs the others) and tests may name several.
func TestNoSiblingImports(t *testing.T) {
	const root = "github.com/gameserver-exporter/gameserver_exporter/protocols/"
	out, err := exec.Command("go", "list", "-json=ImportPath,Imports", "../...").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	protocolPkgs := map[string]bool{}
	for _, p := range All() {
		protocolPkgs[root+p.Name] = true
	}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	checked := 0
	for dec.More() {
		var pkg struct {
			ImportPath string
			Imports    []string
		}
		if err := dec.Decode(&pkg); err != nil {
			t.Fatal(err)
		}
		if !protocolPkgs[pkg.ImportPath] {
			continue
		}
		checked++
		for _, imp := range pkg.Imports {
			if protocolPkgs[imp] {
				t.Errorf("%s imports its sibling %s: move the shared code to protocols/internal", pkg.ImportPath, imp)
			}
		}
	}
	if checked != len(protocolPkgs) { // a package named otherwise than its protocol
		t.Errorf("checked %d of %d protocol packages", checked, len(protocolPkgs))
	}
}

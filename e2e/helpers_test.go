package e2e

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/internal/testenv"
)

func TestMain(m *testing.M) {
	code := m.Run()
	testenv.RemoveBuilt()
	os.Exit(code)
}

// repoRoot is the module root: the tests run in <root>/e2e.
func repoRoot(t testing.TB) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Dir(wd)
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("no go.mod in %s: run the tests from the e2e package directory", root)
	}
	return root
}

func readFile(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func exporterBinary(t testing.TB) string { return testenv.ExporterBinary(t, repoRoot(t)) }

// startExporter runs the built exporter on a free loopback port and waits for it.
func startExporter(t testing.TB, args ...string) *testenv.Exporter {
	t.Helper()
	return testenv.StartExporter(t, exporterBinary(t), args...)
}

// endToEnd skips t under -short (it starts what says) and runs it in parallel
// with the other end-to-end tests.
func endToEnd(t *testing.T, what string) {
	t.Helper()
	if testing.Short() {
		t.Skipf("starts %s: skipped with -short", what)
	}
	t.Parallel()
}

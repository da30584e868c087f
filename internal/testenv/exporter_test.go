package testenv

import (
	"os"
	"path/filepath"
	"testing"
)

func TestBuildExporter(t *testing.T) {
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "go.mod"), []byte("module fake\n\ngo 1.22\n"), 0o644)
	os.WriteFile(filepath.Join(root, "main.go"), []byte("package main\n\nfunc main() {}\n"), 0o644)
	defer RemoveBuilt()
	p := ExporterBinary(t, root)
	if again, err := BuildExporter("/nonexistent"); again != p || err != nil { // built once
		t.Errorf("second build: %q %v, want %q", again, err, p)
	}
	if _, err := os.Stat(p); err != nil {
		t.Error(err)
	}
	var b builder
	b.remove() // nothing built
	if _, err := b.build("/nonexistent"); err == nil {
		t.Error("built in a missing directory")
	}
	b.remove()
	t.Setenv("TMPDIR", "/nonexistent")
	if _, err := new(builder).build(root); err == nil {
		t.Error("built without a temporary directory")
	}
}

func TestStartExporter(t *testing.T) {
	t.Setenv("GSE_TESTENV_FAKE", "serve")
	e := StartExporter(t, os.Args[0], "--log.level=warn")
	if code, body := e.Get(t, "/metrics"); code != 200 || body != "up 1\n" {
		t.Errorf("/metrics: %d %q", code, body)
	}
	e.Stop()
	wantFail(t, "connection refused", func(tb testing.TB) { e.Get(tb, "/metrics") })
	t.Setenv("GSE_TESTENV_FAKE", "exit")
	wantFail(t, "exporter exited", func(tb testing.TB) { StartExporter(tb, os.Args[0]) })
}

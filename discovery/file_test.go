package discovery

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSDFile: a file source serves its lines as targets, takes an edit at the
// next refresh, and keeps the last good list through a broken edit, whose
// error names the line and never quotes it (the status is shown on /modules).
func TestSDFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "targets.txt")
	os.WriteFile(p, []byte("# mine\n192.0.2.1:27015\ngame.example.org:27016\n"), 0o600)
	cfg := parse(t, fmt.Sprintf("mine: {type: file, path: %s, module: a2s, refresh: 10m}", p))
	m, _ := started(t, cfg)
	code, groups, body := getSD(t, m, "source=mine")
	if code != 200 || len(groups) != 2 || groups[1].Targets[0] != "game.example.org:27016" || groups[0].Labels["__param_module"] != "a2s" {
		t.Fatalf("%d %s", code, body)
	}
	os.WriteFile(p, []byte("192.0.2.9:27015\n"), 0o600)
	if _, err := m.Refresh(context.Background(), "mine"); err != nil {
		t.Fatal(err)
	}
	if _, groups, _ := getSD(t, m, "source=mine"); len(groups) != 1 || groups[0].Targets[0] != "192.0.2.9:27015" {
		t.Fatalf("after an edit: %+v", groups)
	}
	os.WriteFile(p, []byte("192.0.2.9:27015\nroot:$6$hunter2$abc:19000:0:99999:7:::\n"), 0o600)
	if _, err := m.Refresh(context.Background(), "mine"); err == nil || strings.Contains(err.Error(), "hunter2") {
		t.Fatalf("a broken edit: %v", err)
	}
	if _, groups, _ := getSD(t, m, "source=mine"); len(groups) != 1 {
		t.Fatalf("after a broken edit: %+v, want the last good list", groups)
	}
	var status strings.Builder
	m.WriteSources(&status)
	if st := m.Statuses(); len(st) != 1 || !strings.Contains(st[0].LastError, "line 2: not host:port") ||
		strings.Contains(st[0].LastError+status.String(), "hunter2") {
		t.Fatalf("%+v\n%s", st, status.String())
	}
}

package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestWindowsBinaryUnderWine cross-builds the Windows binary and starts it under
// wine, where one is installed that can run it: --version and --config.check of
// the example modules. Debian 12's wine (8.0) cannot: Go's runtime (1.22 on) needs
// ProcessPrng from bcryptprimitives.dll, which Wine has from 9.0 on; the test then
// skips saying so (README, Windows).
func TestWindowsBinaryUnderWine(t *testing.T) {
	if testing.Short() || runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		t.Skip("needs linux/amd64 and no -short")
	}
	var wine string
	for _, name := range []string{"wine64", "wine"} {
		if p, err := exec.LookPath(name); err == nil {
			wine = p
			break
		}
	}
	if wine == "" {
		t.Skip("wine not installed (Debian package wine): skipping the Windows binary run")
	}
	exe := filepath.Join(t.TempDir(), "gameserver_exporter.exe")
	build := exec.Command("go", "build", "-trimpath", "-o", exe, ".")
	build.Env = append(os.Environ(), "GOOS=windows", "GOARCH=amd64", "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build for windows: %v\n%s", err, out)
	}
	run := func(args ...string) (string, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, wine, append([]string{exe}, args...)...)
		cmd.Env = append(os.Environ(), "WINEPREFIX="+t.TempDir(), "WINEDEBUG=-all", "DISPLAY=")
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	out, err := run("--version")
	if strings.Contains(out, "bcryptprimitives") {
		v, _ := exec.Command(wine, "--version").Output()
		t.Skipf("%s cannot run Go binaries (bcryptprimitives.dll missing: Wine 9.0 or later has it): skipping\n%s", strings.TrimSpace(string(v)), out)
	}
	if err != nil || !strings.Contains(out, "gameserver_exporter, version") {
		t.Fatalf("--version under wine: %v\n%s", err, out)
	}
	if out, err := run("--config.check", "--config.file=examples/modules.yml"); err != nil || !strings.Contains(out, "Config file is ok") {
		t.Errorf("--config.check under wine: %v\n%s", err, out)
	}
}

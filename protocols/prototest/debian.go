package prototest

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// NeedDebian installs Debian packages that are missing when we are root (with
// services kept from starting: the tests start their own servers on loopback), and
// skips the test when that is impossible.
func NeedDebian(t testing.TB, pkgs ...string) {
	t.Helper()
	var missing []string
	for _, p := range pkgs {
		out, _ := exec.Command("dpkg-query", "-W", "-f=${Status}", p).Output()
		if !bytes.Contains(out, []byte("ok installed")) {
			missing = append(missing, p)
		}
	}
	if len(missing) == 0 {
		return
	}
	if os.Geteuid() != 0 {
		t.Skipf("Debian packages %v are not installed and we are not root: skipping", missing)
	}
	if _, err := os.Stat("/usr/sbin/policy-rc.d"); os.IsNotExist(err) {
		WriteFile(t, "/usr/sbin/policy-rc.d", "#!/bin/sh\nexit 101\n")
		os.Chmod("/usr/sbin/policy-rc.d", 0o755)
		defer os.Remove("/usr/sbin/policy-rc.d")
	}
	install := func() error {
		cmd := exec.Command("apt-get", append([]string{"install", "-y", "--no-install-recommends"}, missing...)...)
		cmd.Env = append(os.Environ(), "DEBIAN_FRONTEND=noninteractive")
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("%v: %s", err, lastLines(out))
		}
		return nil
	}
	if err := install(); err != nil {
		if out, err := exec.Command("apt-get", "update").CombinedOutput(); err != nil {
			t.Skipf("apt-get update failed (%v): %s", err, lastLines(out))
		}
		if err := install(); err != nil {
			t.Skipf("cannot install %v: %v", missing, err)
		}
	}
}

func lastLines(b []byte) string {
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	return strings.Join(lines[max(0, len(lines)-3):], " | ")
}

// WriteFile writes s to path or fails the test.
func WriteFile(t testing.TB, path, s string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

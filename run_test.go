package main

import (
	"net"
	"os/exec"
	"strings"
	"testing"
)

// What a first run meets: the server's flags in --help, a busy port that says
// how to pick another, and make run's PORT and ARGS.

// TestHelpListsServerFlags: the top-level --help lists serve's flags (the default
// command's), exporter-toolkit's among them, besides the commands.
func TestHelpListsServerFlags(t *testing.T) {
	for _, arg := range []string{"--help", "-h"} {
		out, err := exe(arg)
		if err != nil {
			t.Fatalf("%s: %v\n%s", arg, err, out)
		}
		wantAll(t, out, "Flags of serve, the default command:", "--web.listen-address", "--web.config.file",
			"web.systemd-socket", "--probe.max-concurrent", "config.check", "Commands:", "query")
	}
}

// TestBusyPort: an address another process listens on fails at once, saying
// which flag (and make variable) picks another.
func TestBusyPort(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	out, err := exe("--web.listen-address=" + l.Addr().String())
	if err == nil || !strings.Contains(out, "address already in use") || !strings.Contains(out, "--web.listen-address=:PORT (make run PORT=...)") {
		t.Errorf("busy port: %v\n%s", err, out)
	}
}

// TestMakeRunPort: make run passes PORT as the listen address and ARGS as flags.
func TestMakeRunPort(t *testing.T) {
	mk, err := exec.LookPath("make")
	if err != nil {
		t.Skip("make is not installed: skipping")
	}
	out, err := exec.Command(mk, "--no-print-directory", "-n", "run", "PORT=10116", "ARGS=--log.level=debug --config.file=examples/modules.yml").CombinedOutput()
	if err != nil {
		t.Fatalf("make -n run: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "./gameserver_exporter --web.listen-address=:10116 --log.level=debug --config.file=examples/modules.yml") {
		t.Errorf("make -n run PORT=10116 ARGS=...:\n%s", out)
	}
	out, _ = exec.Command(mk, "--no-print-directory", "-n", "run").CombinedOutput() // no "Entering directory" under make test
	if !strings.Contains(string(out), "./gameserver_exporter \n") && !strings.HasSuffix(strings.TrimRight(string(out), " \n"), "./gameserver_exporter") {
		t.Errorf("make -n run without PORT must run the binary without flags:\n%s", out)
	}
}

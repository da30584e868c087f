package mumble

import (
	"bytes"
	"context"
	"errors"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

const murmurd = "/usr/sbin/murmurd"

// serverVersion is the upstream version of the installed mumble-server package
// ("1.3.4" from "1.3.4-4"), or murmurd's own -version output.
func serverVersion(t *testing.T) string {
	t.Helper()
	if out, err := exec.Command("dpkg-query", "-W", "-f=${Version}", "mumble-server").Output(); err == nil {
		v := string(out)
		if i := strings.IndexByte(v, ':'); i >= 0 {
			v = v[i+1:] // epoch
		}
		return regexp.MustCompile(`^[0-9]+\.[0-9]+\.[0-9]+`).FindString(v)
	}
	out, _ := exec.Command(murmurd, "-version").CombinedOutput()
	return regexp.MustCompile(`[0-9]+\.[0-9]+\.[0-9]+`).FindString(string(out))
}

// TestRealServer starts Debian's mumble-server (murmurd) on loopback with its own
// ini (no registration, no Ice, no Bonjour, no D-Bus) and checks the Querier
// against the server's configuration and package version and against quakestat.
func TestRealServer(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a real server: skipped with -short")
	}
	prototest.NeedDebian(t, "mumble-server")
	want := serverVersion(t)
	if want == "" {
		t.Skip("cannot tell the installed murmurd version")
	}
	port := prototest.FreePort(t)
	// Started as root, murmurd drops to the mumble-server user: the directory
	// holding its database must be open to it (t.TempDir's parent is not).
	dir, err := os.MkdirTemp("", "gse-mumble-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	ini := strings.Join([]string{
		"database=" + filepath.Join(dir, "murmur.sqlite"),
		"host=127.0.0.1",
		"port=" + strconv.Itoa(int(port)),
		"users=23",
		"bandwidth=96000",
		"allowping=true",
		"registerName=",
		"registerHostname=",
		"bonjour=false",
		"ice=",
		"dbus=",
		"logfile=",
		"pidfile=",
		"kdfiterations=1000", // skips the start-up PBKDF2 benchmark (seconds)
	}, "\n") + "\n"
	iniPath := filepath.Join(dir, "murmur.ini")
	if err := os.WriteFile(iniPath, []byte(ini), 0o644); err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	cmd := exec.Command(murmurd, "-fg", "-ini", iniPath)
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = &log, &log
	if err := cmd.Start(); err != nil {
		t.Skipf("cannot start murmurd: %v", err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-done
		if t.Failed() {
			t.Logf("murmurd output:\n%s", log.String())
		}
	})

	addr := netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), port)
	q := newQuerier(t, protocols.Settings{Rules: true, Retries: 1})
	deadline := time.Now().Add(20 * time.Second)
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		_, err = q.Query(ctx, addr, wire.NewTrace())
		cancel()
		if err == nil {
			break
		}
		select {
		case <-done:
			t.Fatalf("murmurd exited: %v", err)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("murmurd did not answer within 20s: %v", err)
		}
		if errors.Is(err, wire.ErrRefused) {
			<-tick.C // not bound yet: do not spin
		}
	}

	res, err := q.Query(prototest.Context(t, 2*time.Second), addr, wire.NewTrace())
	if err != nil {
		t.Fatal(err)
	}
	qs := prototest.QstatJSON(t, "-mumble", addr)
	// Against the configuration and the package version (qstat's version is wrong).
	if res.Version != want || res.Players != protocols.Known(0) || res.MaxPlayers != protocols.Known(23) || res.Game != Game {
		t.Errorf("result %+v, want version %s, 0/23 users", res, want)
	}
	if !slices.Contains(res.Rules, protocols.KV{Key: "bandwidth", Value: "96000"}) {
		t.Errorf("rules %+v", res.Rules)
	}
	// Against the reference client at the same moment.
	if qs.Status != "online" || int64(qs.NumPlayers) != res.Players.Value || int64(qs.MaxPlayers) != res.MaxPlayers.Value {
		t.Errorf("qstat %+v, querier %+v", qs, res)
	}
}

package quakeworld

import (
	"bytes"
	"errors"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestRealServer starts the real mvdsv (Debian packages mvdsv + ktx) on a free
// loopback port with a generated box map, queries it with the Querier and
// checks the answer against the server's own configuration and against what
// quakestat -qws reports at the same moment.
func TestRealServer(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a real mvdsv server: skipped with -short")
	}
	const (
		mvdsv    = "/usr/games/mvdsv"
		qwprogs  = "/usr/lib/quakeworld/ktx/qwprogs.so"
		ktxData  = "/usr/share/games/quake/ktx"
		hostname = "Exporter Test QW"
	)
	prototest.NeedDebian(t, "mvdsv", "ktx")

	// basedir/ktx holds links to the packaged KTX mod and the generated map;
	// mvdsv wants id1 and qw to exist as well.
	base := t.TempDir()
	for _, d := range []string{"ktx/maps", "id1", "qw"} {
		if err := os.MkdirAll(filepath.Join(base, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	entries, err := os.ReadDir(ktxData)
	if err != nil {
		t.Skipf("KTX data missing: %v", err)
	}
	for _, e := range entries {
		if err := os.Symlink(filepath.Join(ktxData, e.Name()), filepath.Join(base, "ktx", e.Name())); err != nil && !errors.Is(err, os.ErrExist) {
			t.Fatal(err)
		}
	}
	os.Remove(filepath.Join(base, "ktx", "qwprogs.so"))
	if err := os.Symlink(qwprogs, filepath.Join(base, "ktx", "qwprogs.so")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(base, "ktx", "maps", "exbox.bsp"), boxBSP(), 0o644); err != nil {
		t.Fatal(err)
	}

	port := prototest.FreePort(t)
	// setmaster none: no heartbeats to any master, whatever a config says.
	// k_defmode ffa / k_defmap: KTX's default 4on4 mode would switch to dm3.
	cmd := exec.Command(mvdsv, "-basedir", base, "-game", "ktx", "-ip", "127.0.0.1", "-port", strconv.Itoa(int(port)),
		"+setmaster", "none", "+set", "k_defmap", "exbox", "+set", "k_defmode", "ffa",
		"+hostname", hostname, "+map", "exbox")
	cmd.Dir = base
	cmd.Env = append(os.Environ(), "HOME="+base)
	var log bytes.Buffer
	cmd.Stdout, cmd.Stderr = &log, &log
	if err := cmd.Start(); err != nil {
		t.Skipf("cannot start mvdsv: %v", err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-exited
		if t.Failed() {
			t.Logf("mvdsv output:\n%s", log.String())
		}
	})

	addr := netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), port)
	q := newQuerier(t, protocols.Settings{Players: true, Rules: true, Retries: 1})
	res := waitForAnswer(t, exited, func() (*protocols.Result, error) {
		return q.Query(prototest.Context(t, 500*time.Millisecond), addr, nil)
	})

	// KTX's ffa mode sets maxclients itself (26); the box has no waypoints for
	// frogbots, so nobody plays.
	if res.Name != hostname || res.Map != "exbox" || !res.MaxPlayers.Known || res.MaxPlayers.Value < 1 || res.Players != protocols.Known(0) ||
		res.Password != protocols.FlagFalse || len(res.PlayerList) != 0 || res.Version == "" || len(res.Rules) == 0 {
		t.Errorf("querier: %+v", res)
	}
	qs := prototest.QstatJSON(t, "-qws", addr)
	if qs.Status != "online" || qs.Name != res.Name || qs.Map != res.Map || qs.Game != res.Game ||
		int64(qs.NumPlayers) != res.Players.Value || int64(qs.MaxPlayers) != res.MaxPlayers.Value {
		t.Errorf("qstat %+v, querier %q %q %q %+v %+v", qs, res.Name, res.Map, res.Game, res.Players, res.MaxPlayers)
	}
}

// waitForAnswer polls query until the server answers, it exits, or 20 s pass.
// A closed port answers at once (refused), so attempts are paced by a ticker.
func waitForAnswer(t *testing.T, exited <-chan struct{}, query func() (*protocols.Result, error)) *protocols.Result {
	t.Helper()
	deadline := time.After(20 * time.Second)
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		res, err := query()
		if err == nil {
			return res
		}
		select {
		case <-exited:
			t.Fatalf("the server exited before answering (last query: %v)", err)
		case <-deadline:
			t.Fatalf("no answer within 20 s: %v", err)
		case <-tick.C:
		}
	}
}

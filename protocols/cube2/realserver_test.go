package cube2

import (
	"bytes"
	"context"
	"errors"
	"net"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

const cube2Server = "/usr/lib/cube2/cube2_server"

// freeGamePort finds a loopback UDP port P with P+1 free too (the info port).
func freeGamePort(t *testing.T) uint16 {
	t.Helper()
	for range 50 {
		a, err := net.ListenPacket("udp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		p := a.LocalAddr().(*net.UDPAddr).Port
		b, err := net.ListenPacket("udp", net.JoinHostPort("127.0.0.1", strconv.Itoa(p+1)))
		a.Close()
		if err == nil {
			b.Close()
			if p < 65535 {
				return uint16(p)
			}
		}
	}
	t.Fatal("no free pair of UDP ports")
	return 0
}

// startServer starts cmd and kills it (by its own pid) when the test ends.
func startServer(t *testing.T, cmd *exec.Cmd) *bytes.Buffer {
	t.Helper()
	var log bytes.Buffer
	cmd.Stdout, cmd.Stderr = &log, &log
	if err := cmd.Start(); err != nil {
		t.Skipf("cannot start %s: %v", cmd.Path, err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-done
		if t.Failed() {
			t.Logf("server output:\n%s", log.String())
		}
	})
	return &log
}

// waitUp polls addr with q until it answers or the deadline passes.
func waitUp(t *testing.T, q protocols.Querier, addr netip.AddrPort, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		_, err := q.Query(ctx, addr, nil)
		cancel()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("server did not answer within %v: %v", within, err)
		}
		if errors.Is(err, wire.ErrRefused) {
			<-tick.C // not bound yet: do not spin
		}
	}
}

// TestRealServer starts Debian's cube2-server (Sauerbraten 2020-12-27) on
// loopback, with master server updates off and the master name pointing at
// loopback, and checks the Querier against its configuration and quakestat.
func TestRealServer(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a real server: skipped with -short")
	}
	prototest.NeedDebian(t, "cube2-server")
	port := freeGamePort(t)
	dir := t.TempDir()
	cfg := "serverdesc \"GSE Real Sauer\"\n" +
		"serverip 127.0.0.1\n" +
		"serverport " + strconv.Itoa(int(port)) + "\n" +
		"maxclients 9\n" +
		"serverpass secret\n" +
		"updatemaster 0\n" +
		"mastername 127.0.0.1\n" +
		"publicserver 0\n"
	if err := os.WriteFile(filepath.Join(dir, "server-init.cfg"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(cube2Server)
	cmd.Dir = dir // the server reads server-init.cfg from its working directory
	cmd.Env = append(os.Environ(), "HOME="+dir)
	startServer(t, cmd)

	addr := netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), port+1)
	waitUp(t, newQuerier(t, protocols.Settings{}), addr, 15*time.Second)

	tr := wire.NewTrace()
	res, err := newQuerier(t, protocols.Settings{Players: true, Rules: true, Retries: 1}).Query(prototest.Context(t, 3*time.Second), addr, tr)
	if err != nil {
		t.Fatal(err)
	}
	if res.PhaseErrors != nil {
		t.Errorf("phase errors %+v", res.PhaseErrors)
	}
	// Against the configuration: no map is loaded and nobody is connected.
	if res.Game != GameSauerbraten || res.Name != "GSE Real Sauer" || res.Map != "" || res.Version != "260" ||
		res.Players != protocols.Known(0) || res.MaxPlayers != protocols.Known(9) || res.Password != protocols.FlagTrue {
		t.Errorf("result %+v", res)
	}
	if res.PlayerList == nil || len(res.PlayerList) != 0 || res.Bots != protocols.Known(0) {
		t.Errorf("players %+v, bots %+v", res.PlayerList, res.Bots)
	}
	rules := map[string]string{}
	for _, kv := range res.Rules {
		rules[kv.Key] = kv.Value
	}
	if rules["uptime"] == "" || rules["mastermode_name"] != "password" {
		t.Errorf("rules %+v", res.Rules)
	}
	// Against the reference client at the same moment (it is given the game port).
	qs := prototest.QstatJSON(t, "-cubes", netip.AddrPortFrom(addr.Addr(), port))
	if qs.Status != "online" || qs.Name != res.Name || qs.Map != res.Map ||
		int64(qs.NumPlayers) != res.Players.Value || int64(qs.MaxPlayers) != res.MaxPlayers.Value {
		t.Errorf("qstat %+v, querier %+v", qs, res)
	}
}

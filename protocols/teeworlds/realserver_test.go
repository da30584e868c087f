package teeworlds

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestRealServer starts the Debian teeworlds-server (0.7.5) on 127.0.0.1 with
// master registration off and checks the 0.7 handshake against the server's
// configuration: no reference client speaks 0.7 (qstat -tees only asks with
// 0.5/0.6 requests, which this server ignores, as checked here too).
func TestRealServer(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a real Teeworlds server: skipped with -short")
	}
	prototest.NeedDebian(t, "teeworlds-server")
	port := prototest.FreePort(t)
	dir := t.TempDir()
	// -f only accepts paths relative to the storage dirs: the cwd is one
	prototest.WriteFile(t, filepath.Join(dir, "server.cfg"), fmt.Sprintf(`sv_name "Exporter Test Tee"
sv_port %d
bindaddr 127.0.0.1
sv_register 0
sv_max_clients 9
sv_map dm2
sv_gametype ctf
password "secret"
`, port))
	prototest.StartServer(t, dir, "/usr/games/teeworlds-server", "-f", "server.cfg")

	addr := netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), port)
	for _, version := range []string{VersionAuto, Version07} {
		q, _ := New(protocols.Settings{Players: true, Retries: 1, Options: func(v any) error { v.(*Options).Version = version; return nil }})
		var res *protocols.Result
		prototest.Poll(t, 20*time.Second, func() error {
			ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
			defer cancel()
			var err error
			res, err = q.Query(ctx, addr, nil)
			return err
		})
		info := map[string]string{}
		for _, kv := range res.Info {
			info[kv.Key] = kv.Value
		}
		if res.Name != "Exporter Test Tee" || res.Map != "dm2" || res.Game != "CTF" || res.MaxPlayers != protocols.Known(9) ||
			res.Players != protocols.Known(0) || res.Password != protocols.FlagTrue || !strings.HasPrefix(res.Version, "0.7") ||
			res.PlayerList == nil || len(res.PlayerList) != 0 || info["protocol"] != "0.7" {
			t.Errorf("%s: result %+v", version, res)
		}
		t.Logf("%s: %q %s %s %s, %v", version, res.Name, res.Version, res.Game, res.Map, info)
	}
	// The 0.6 request gets no answer from a 0.7 server.
	q, _ := New(protocols.Settings{Options: func(v any) error { v.(*Options).Version = Version06; return nil }})
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	if _, err := q.Query(ctx, addr, nil); !errors.Is(err, protocols.ErrTimeout) {
		t.Errorf("0.6 query of a 0.7 server: %v, want timeout", err)
	}
}

package armagetron

import (
	"context"
	"fmt"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestRealServer starts the Debian armagetronad-dedicated on 127.0.0.1 with
// master-server contact off and checks the Querier against the server's own
// configuration (no reference client here reads Armagetron except gamedig).
// The fresh server has never been primed, so this also proves the small
// request comes first.
func TestRealServer(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a real Armagetron server: skipped with -short")
	}
	prototest.NeedDebian(t, "armagetronad-dedicated")
	port := prototest.FreePort(t)
	dir := t.TempDir()
	for _, d := range []string{"cfg", "var", "data"} {
		if err := os.Mkdir(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cfg := fmt.Sprintf("SERVER_IP 127.0.0.1\nSERVER_PORT %d\nSERVER_NAME 0x00ff00Exporter 0xffffffTest Grid\n"+
		"TALK_TO_MASTER 0\nMAX_CLIENTS 5\n", port)
	prototest.WriteFile(t, filepath.Join(dir, "cfg", "settings_custom.cfg"), cfg)
	prototest.WriteFile(t, filepath.Join(dir, "cfg", "autoexec.cfg"), cfg)
	prototest.StartServer(t, dir, "/usr/games/armagetronad-dedicated.real",
		"--datadir", "/usr/share/games/armagetronad", "--configdir", "/etc/armagetronad",
		"--userconfigdir", filepath.Join(dir, "cfg"), "--vardir", filepath.Join(dir, "var"),
		"--userdatadir", filepath.Join(dir, "data"), "-d")

	addr := netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), port)
	q, _ := Protocol.New(protocols.Settings{Players: true, Rules: true})
	var res *protocols.Result
	prototest.Poll(t, 25*time.Second, func() error {
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
	if res.Name != "Exporter Test Grid" || res.MaxPlayers != protocols.Known(5) || res.Players != protocols.Known(0) ||
		len(res.PlayerList) != 0 || !strings.HasPrefix(res.Version, "0.2") {
		t.Errorf("result %+v", res)
	}
	if info["name"] != "0x00ff00Exporter 0xffffffTest Grid" || info["port"] != fmt.Sprint(port) {
		t.Errorf("info %v", info)
	}
	t.Logf("real server: %q %s, %v", res.Name, res.Version, info)
}

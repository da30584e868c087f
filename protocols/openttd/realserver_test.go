package openttd

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestRealServer starts the Debian openttd in dedicated mode on 127.0.0.1
// (local game type, no relay or coordinator, so nothing leaves the machine)
// and checks the Querier against the server's own configuration: no reference
// client can read OpenTTD 13 (qstat -ottds speaks the old UDP protocol).
func TestRealServer(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a real OpenTTD server: skipped with -short")
	}
	prototest.NeedDebian(t, "openttd", "openttd-opengfx")
	const name = "Exporter Test OpenTTD"
	port := prototest.FreePort(t)
	dir := t.TempDir()
	cfg := filepath.Join(dir, "openttd.cfg")
	prototest.WriteFile(t, cfg, fmt.Sprintf(`[network]
server_name = %s
server_port = %d
server_bind_addresses = 127.0.0.1
server_game_type = local
max_clients = 7
max_companies = 5
use_relay_service = never
[game_creation]
map_x = 6
map_y = 7
landscape = arctic
[gui]
autosave = off
`, name, port))
	prototest.StartServer(t, dir, "/usr/games/openttd", "-D", fmt.Sprintf("127.0.0.1:%d", port), "-c", cfg,
		"-x", "-s", "null", "-m", "null", "-G", "4242")

	addr := netipAddr(port)
	q, _ := Protocol.New(protocols.Settings{Rules: true})
	var res *protocols.Result
	prototest.Poll(t, 25*time.Second, func() error {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		var err error
		res, err = q.Query(ctx, addr, nil)
		return err
	})
	info := map[string]string{}
	for _, kv := range res.Info {
		info[kv.Key] = kv.Value
	}
	if res.Name != name || res.MaxPlayers != protocols.Known(7) || res.Players != protocols.Known(0) ||
		res.Password != protocols.FlagFalse || !strings.HasPrefix(res.Version, "1") || res.Map != "" {
		t.Errorf("result %+v", res)
	}
	for k, v := range map[string]string{
		"companies_max": "5", "companies_on": "0", "map_width": "64", "map_height": "128",
		"landscape": "sub-arctic", "dedicated": "true", "game_info_version": "6",
	} {
		if info[k] != v && !(k == "game_info_version" && info[k] == "7") { // 14+ send version 7
			t.Errorf("info %s = %q, want %q (all: %v)", k, info[k], v, info)
		}
	}
	t.Logf("real server: %q %s, %v", res.Name, res.Version, info)
}

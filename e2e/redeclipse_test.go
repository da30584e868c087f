package e2e

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// Red Eclipse 1.6 (Debian package redeclipse-server), a Cube 2 engine game.
const (
	redeclipseName = "Exporter Test RE"
	redeclipseMap  = "dutility"
	// The info reply's slot count is sv_serverclients plus the spectator slots
	// (sv_serverspectators), both set here so the sum is ours, not a default.
	redeclipseClients    = 7
	redeclipseSpectators = 3
	redeclipseMode       = 2 // deathmatch
)

// startRedEclipse starts redeclipse-server with its own home (servinit.cfg) on
// loopback: no master server (servermaster ""), no LAN broadcast answers
// (serverlanport 0), a join password and a fixed map and mode (rotation off:
// otherwise the first game's mode and mutators are drawn at random). It returns
// the game port; the server answers queries on the game port + 1.
func startRedEclipse(t *testing.T) (*proc, int) {
	t.Helper()
	const (
		dir    = "/usr/lib/games/redeclipse" // the binary finds its data from here
		server = dir + "/redeclipse-server"
	)
	needDebian(t, "redeclipse-server")
	needBin(t, server)
	port := serverPort(t, 2)
	home := t.TempDir()
	prototest.WriteFile(t, filepath.Join(home, "servinit.cfg"), fmt.Sprintf(`servertype 1
serverip 127.0.0.1
serverport %d
servermaster ""
serverlanport 0
masterserver 0
sv_serverdesc %q
sv_serverclients %d
sv_serverspectators %d
sv_defaultmap %q
sv_defaultmode %d
sv_defaultmuts 0
sv_rotatemode 0
sv_rotatemuts 0
serverpass "secret"
`, port, redeclipseName, redeclipseClients, redeclipseSpectators, redeclipseMap, redeclipseMode))
	return startProc(t, "redeclipse", dir, []string{"HOME=" + home}, server, "-h"+home), port
}

// testRealRedEclipse: the built-in redeclipse module (protocol cube2, queried on
// the game port + 1) against the server's configuration, the package version and
// quakestat -cubes, which reads the name and the map but takes Red Eclipse's
// time attribute for the player limit (600): the limit is compared with the
// configuration only.
func testRealRedEclipse(t *testing.T, ex exporterClient, p *proc, port int) {
	want := redeclipseVersion()
	if want == "" {
		t.Fatal("cannot tell the installed redeclipse-server version")
	}
	r := ex.waitProbe(t, p, "redeclipse", port, nil)
	qs := qstatNow(t, "-cubes", port)
	r.checkUp(t, port+1)
	r.checkInfo(t, map[string]string{"protocol": "cube2", "name": redeclipseName, "map": redeclipseMap,
		"game": "Red Eclipse", "version": want})
	r.want(t, "gameserver_players", 0)
	r.want(t, "gameserver_players_max", redeclipseClients+redeclipseSpectators)
	// serverpass puts the server in master mode "password".
	r.want(t, "gameserver_password_required", 1)
	info := ex.decodedInfo(t, "redeclipse", port)
	for k, v := range map[string]string{
		"layout": "redeclipse", "mode": strconv.Itoa(redeclipseMode), "mutators": "0",
		"max_clients": strconv.Itoa(redeclipseClients + redeclipseSpectators), "mastermode_name": "password", "version": want,
	} {
		if info[k] != v {
			t.Errorf("decoded %s = %q, want %q (all: %v)", k, info[k], v, info)
		}
	}
	if qs != nil && (qs.Status != "online" || qs.Name != redeclipseName || qs.Map != redeclipseMap || qs.NumPlayers != 0) {
		t.Errorf("quakestat %+v, want %q on %s with no players", *qs, redeclipseName, redeclipseMap)
	}
}

// redeclipseVersion is the upstream version of the installed redeclipse-server
// package ("1.6.0" from "1.6.0-1").
func redeclipseVersion() string {
	out, err := exec.Command("dpkg-query", "-W", "-f=${Version}", "redeclipse-server").Output()
	if err != nil {
		return ""
	}
	if m := regexp.MustCompile(`^(?:[0-9]+:)?([0-9]+\.[0-9]+\.[0-9]+)`).FindStringSubmatch(string(out)); m != nil {
		return m[1]
	}
	return ""
}

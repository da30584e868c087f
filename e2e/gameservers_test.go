package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"text/template"

	"github.com/gameserver-exporter/gameserver_exporter/internal/testenv"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// Launch recipes for the Debian-packaged game servers, on loopback, master servers
// off; the tests assert the constants below, what each server was configured with.

var installMu sync.Mutex

// launch is how a server starts: the Debian packages it needs (installed when
// missing and we are root, or the test skips), the files it reads, written into
// its directory dir (also its HOME; "$DIR" in a file or an argument is dir), and
// its working directory when not dir.
type launch struct {
	pkgs     string
	dir, cwd string
	files    map[string]string // path under dir -> content; a path ending in / is a directory
	env      []string
}

// install installs the recipe's packages when missing, one install at a time
// (parallel tests would fight over dpkg's lock).
func (l launch) install(t *testing.T) {
	t.Helper()
	installMu.Lock()
	defer installMu.Unlock()
	prototest.NeedDebian(t, strings.Fields(l.pkgs)...)
}

// start runs argv (argv[0] a packaged binary) as the recipe says; the server stops
// (its process group) when the test ends.
func (l launch) start(t *testing.T, argv ...string) *testenv.Proc {
	t.Helper()
	l.install(t)
	if _, err := os.Stat(argv[0]); err != nil {
		t.Skipf("%s missing after install: %v", argv[0], err)
	}
	if l.dir == "" {
		l.dir = t.TempDir()
	}
	if l.cwd == "" {
		l.cwd = l.dir
	}
	for name, content := range l.files {
		p, isDir := filepath.Join(l.dir, name), strings.HasSuffix(name, "/")
		if err := os.MkdirAll(map[bool]string{true: p, false: filepath.Dir(p)}[isDir], 0o755); err != nil {
			t.Fatal(err)
		}
		if !isDir {
			prototest.WriteFile(t, p, strings.ReplaceAll(content, "$DIR", l.dir))
		}
	}
	for i := range argv {
		argv[i] = strings.ReplaceAll(argv[i], "$DIR", l.dir)
	}
	return testenv.StartProc(t, filepath.Base(argv[0]), l.cwd, append([]string{"HOME=" + l.dir}, l.env...), argv...)
}

// conf is a server's configuration file testdata/servers/name with vals in its
// {{.Fields}}.
func conf(t *testing.T, name string, vals map[string]any) string {
	t.Helper()
	tmpl, err := template.ParseFiles(filepath.Join("testdata", "servers", name))
	var b strings.Builder
	if err == nil {
		err = tmpl.Option("missingkey=error").Execute(&b, vals)
	}
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// debVersion is the upstream version of an installed Debian package ("5.6.1" from
// "5.6.1+dfsg+~1.9.0mt8+dfsg-2").
func debVersion(t *testing.T, pkg string) string {
	t.Helper()
	out, _ := exec.Command("dpkg-query", "-W", "-f=${Version}", pkg).Output()
	m := regexp.MustCompile(`^(?:[0-9]+:)?([0-9]+\.[0-9]+\.[0-9]+)`).FindStringSubmatch(string(out))
	if m == nil {
		t.Fatalf("cannot tell the installed %s version (%q)", pkg, out)
	}
	return m[1]
}

// QuakeWorld: mvdsv with the KTX mod (Debian packages mvdsv and ktx).
const (
	qwHostname = "Exporter Test QW"
	qwMap      = "exbox"
)

// startQuakeWorld starts mvdsv on testdata/exbox.bsp (mvdsv answers nothing before
// it has loaded a map, and no free one ships in Debian): one empty box room, BSP v29
// (e2e/qwbsp_test.go in the history generated it from the format's description).
func startQuakeWorld(t *testing.T) (*testenv.Proc, int) {
	const ktxData = "/usr/share/games/quake/ktx"
	port := testenv.ServerPort(t, 1)
	bsp := prototest.File(t, qwMap+".bsp")
	// basedir/ktx links to the packaged KTX mod beside the map; mvdsv wants id1
	// and qw to exist as well.
	l := launch{pkgs: "mvdsv ktx", dir: t.TempDir(), files: map[string]string{"ktx/maps/" + qwMap + ".bsp": string(bsp), "id1/": "", "qw/": ""}}
	l.install(t)
	entries, err := os.ReadDir(ktxData)
	if err != nil {
		t.Skipf("KTX data missing: %v", err)
	}
	links := map[string]string{"qwprogs.so": "/usr/lib/quakeworld/ktx/qwprogs.so"}
	for _, e := range entries {
		if links[e.Name()] == "" {
			links[e.Name()] = filepath.Join(ktxData, e.Name())
		}
	}
	if err := os.MkdirAll(filepath.Join(l.dir, "ktx"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(l.dir, "ktx", name)); err != nil {
			t.Fatal(err)
		}
	}
	// setmaster none: no heartbeats, whatever a config says. k_defmode ffa /
	// k_defmap: KTX's default 4on4 mode would switch to dm3.
	return l.start(t, "/usr/games/mvdsv", "-basedir", "$DIR", "-game", "ktx", "-ip", "127.0.0.1", "-port", strconv.Itoa(port),
		"+setmaster", "none", "+set", "k_defmap", qwMap, "+set", "k_defmode", "ffa", "+hostname", qwHostname, "+map", qwMap), port
}

// DarkPlaces: Nexuiz 2.5.2 (Debian package nexuiz-server), with bots.
const (
	nexuizHostname = "Exporter Test DP"
	nexuizMap      = "aggressor"
	nexuizMax      = 10
	nexuizBots     = 4
)

func startNexuiz(t *testing.T) (*testenv.Proc, int) {
	port := testenv.ServerPort(t, 1)
	// sv_public 0: no heartbeats. bot_join_empty keeps the bots on a server
	// without humans; maxplayers is a command, not a cvar.
	return launch{pkgs: "nexuiz-server"}.start(t, "/usr/games/nexuiz-server",
		"+set", "net_address", "127.0.0.1", "+set", "net_address_ipv6", "::1", "+set", "port", strconv.Itoa(port),
		"+set", "sv_public", "0", "+set", "hostname", nexuizHostname, "+maxplayers", strconv.Itoa(nexuizMax),
		"+set", "bot_join_empty", "1", "+set", "minplayers", strconv.Itoa(nexuizBots),
		"+set", "g_maplist", nexuizMap, "+set", "timelimit", "0", "+set", "fraglimit", "0", "+map", nexuizMap), port
}

// Cube 2: Sauerbraten 2020-12-27 (Debian package cube2-server).
const (
	cube2Name = "GSE Real Sauer"
	cube2Max  = 9
)

// startCube2 starts cube2_server (server-init.cfg from its working directory)
// with a password and master updates off. It answers on the game port + 1.
func startCube2(t *testing.T) (*testenv.Proc, int) {
	port := testenv.ServerPort(t, 2)
	return launch{pkgs: "cube2-server", files: map[string]string{
		"server-init.cfg": conf(t, "cube2-server-init.cfg", map[string]any{"Name": cube2Name, "Port": port, "Max": cube2Max}),
	}}.start(t, "/usr/lib/cube2/cube2_server"), port
}

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

// startRedEclipse starts redeclipse-server with its own home (servinit.cfg): no
// master, no LAN answers, a join password, a fixed map and mode (rotation off: no
// random first game). It answers queries on the game port + 1.
func startRedEclipse(t *testing.T) (*testenv.Proc, int) {
	port := testenv.ServerPort(t, 2)
	const dir = "/usr/lib/games/redeclipse" // the binary finds its data from here
	return launch{pkgs: "redeclipse-server", cwd: dir, files: map[string]string{
		"servinit.cfg": conf(t, "redeclipse-servinit.cfg", map[string]any{"Port": port, "Name": redeclipseName,
			"Clients": redeclipseClients, "Spectators": redeclipseSpectators, "Map": redeclipseMap, "Mode": redeclipseMode}),
	}}.start(t, dir+"/redeclipse-server", "-h$DIR"), port
}

// Mumble: murmurd (Debian package mumble-server).
const (
	mumbleUsers     = 23
	mumbleBandwidth = 96000
)

// startMumble starts murmurd on loopback with its own ini (no registration, Ice,
// Bonjour or D-Bus; kdfiterations skips the start-up PBKDF2 benchmark).
func startMumble(t *testing.T) (*testenv.Proc, int) {
	port := testenv.ServerPort(t, 1)
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
	return launch{pkgs: "mumble-server", dir: dir, files: map[string]string{
		"murmur.ini": conf(t, "murmur.ini", map[string]any{"Port": port, "Users": mumbleUsers, "Bandwidth": mumbleBandwidth}),
	}}.start(t, "/usr/sbin/murmurd", "-fg", "-ini", "$DIR/murmur.ini"), port
}

// OpenTTD 13 in dedicated mode (Debian packages openttd and openttd-opengfx).
const (
	openttdName         = "Exporter Test OpenTTD"
	openttdClients      = 7
	openttdCompaniesMax = 5
)

// startOpenTTD starts a dedicated OpenTTD with a local game type (no relay or
// coordinator: nothing leaves the machine) on a small arctic map.
func startOpenTTD(t *testing.T) (*testenv.Proc, int) {
	port := testenv.ServerPort(t, 1)
	return launch{pkgs: "openttd openttd-opengfx", files: map[string]string{
		"openttd.cfg": conf(t, "openttd.cfg", map[string]any{"Name": openttdName, "Port": port, "Clients": openttdClients, "Companies": openttdCompaniesMax}),
	}}.start(t, "/usr/games/openttd", "-D", loopback(port).String(), "-c", "$DIR/openttd.cfg", "-x", "-s", "null", "-m", "null", "-G", "4242"), port
}

// Armagetron Advanced 0.2.9 (Debian package armagetronad-dedicated).
const (
	armagetronRawName = "0x00ff00Exporter 0xffffffTest Grid" // with colour codes
	armagetronName    = "Exporter Test Grid"
	armagetronMax     = 5
)

// startArmagetron starts armagetronad-dedicated with master-server contact off.
// The fresh server has never been primed: a probe that works proves the small
// info request comes first.
func startArmagetron(t *testing.T) (*testenv.Proc, int) {
	port := testenv.ServerPort(t, 1)
	cfg := fmt.Sprintf("SERVER_IP 127.0.0.1\nSERVER_PORT %d\nSERVER_NAME %s\nTALK_TO_MASTER 0\nMAX_CLIENTS %d\n",
		port, armagetronRawName, armagetronMax)
	return launch{pkgs: "armagetronad-dedicated", files: map[string]string{"cfg/settings_custom.cfg": cfg, "cfg/autoexec.cfg": cfg, "var/": "", "data/": ""}}.start(t,
		"/usr/games/armagetronad-dedicated.real", "--datadir", "/usr/share/games/armagetronad", "--configdir", "/etc/armagetronad",
		"--userconfigdir", "$DIR/cfg", "--vardir", "$DIR/var", "--userdatadir", "$DIR/data", "-d"), port
}

// Teeworlds 0.7.5 (Debian package teeworlds-server).
const (
	teeworldsName = "Exporter Test Tee"
	teeworldsMap  = "dm2"
	teeworldsMax  = 9
)

// startTeeworlds starts teeworlds-server with registration off, a CTF game and a
// password. -f only accepts paths relative to the storage dirs: the cwd is one.
func startTeeworlds(t *testing.T) (*testenv.Proc, int) {
	port := testenv.ServerPort(t, 1)
	return launch{pkgs: "teeworlds-server", files: map[string]string{
		"server.cfg": conf(t, "teeworlds-server.cfg", map[string]any{"Name": teeworldsName, "Port": port, "Max": teeworldsMax, "Map": teeworldsMap}),
	}}.start(t, "/usr/games/teeworlds-server", "-f", "server.cfg"), port
}

// DDNet 16.4 (Debian package ddnet-server), a Teeworlds 0.6 server.
const (
	ddnetName = "Exporter Test DDNet"
	ddnetMap  = "dm6"
	ddnetGame = "DDraceNetwork" // DDNet's fixed game type without sv_test_cmds
	// ddnetMax stays within the 16 slots of a 0.6 reply: above it DDNet's
	// answer to the 0.6 gie3 says 16 and appends " [N/M]" to the name.
	ddnetMax = 13
)

// startDDNet starts DDNet-Server with registration off and a password. storage.cfg
// makes the working directory the only writable storage path, before the data dir
// (its autoexec_server.cfg replaces the packaged one). sv_ipv4only: an IPv6 socket
// on the bind address 127.0.0.1 would fail.
func startDDNet(t *testing.T) (*testenv.Proc, int) {
	port := testenv.ServerPort(t, 1)
	return launch{pkgs: "ddnet-server", files: map[string]string{
		"storage.cfg":         "add_path $CURRENTDIR\nadd_path $DATADIR\n",
		"autoexec_server.cfg": conf(t, "ddnet-autoexec_server.cfg", map[string]any{"Name": ddnetName, "Port": port, "Max": ddnetMax, "Map": ddnetMap}),
	}}.start(t, "/usr/games/DDNet-Server"), port
}

// OpenArena 0.8.8 (Debian package openarena-server, ioquake3 engine).
const (
	openArenaName = "GSE e2e OpenArena"
	openArenaMap  = "oa_dm1"
	openArenaMax  = 8
)

// openArenaBots join with +addbot right after the map loads (bot_minplayers would
// add one bot every 10 seconds). Sorted, as the checks compare sorted names.
var openArenaBots = []string{"Merman", "Neko", "Sergei"}

// openArenaCyrillic is a Russian server's name as a Windows console types it:
// "Сервер" in Windows-1251 bytes, which ioquake3 keeps as they are.
const openArenaCyrillic = "GSE e2e \xd1\xe5\xf0\xe2\xe5\xf0"

// startOpenArena starts a LAN-only dedicated OpenArena server (dedicated 1: no
// master heartbeats, all masters blank) on loopback UDP port, IPv4 only, named
// openArenaName, with openArenaBots.
func startOpenArena(t *testing.T, port int) *testenv.Proc {
	return startOpenArenaAs(t, port, openArenaName, openArenaBots)
}

// startOpenArenaAs is startOpenArena with another name and other bots.
func startOpenArenaAs(t *testing.T, port int, name string, bots []string) *testenv.Proc {
	// ioq3 joins its arguments into one command line, quoting only those with
	// spaces: an empty value must be passed as the two characters "".
	const empty = `""`
	args := []string{"/usr/games/openarena-server",
		"+set", "dedicated", "1", "+set", "net_enabled", "1",
		"+set", "net_ip", "127.0.0.1", "+set", "net_port", fmt.Sprint(port),
		"+set", "sv_master1", empty, "+set", "sv_master2", empty, "+set", "sv_master3", empty,
		"+set", "sv_master4", empty, "+set", "sv_master5", empty, "+set", "sv_dlURL", empty,
		"+set", "sv_hostname", name, "+set", "sv_maxclients", fmt.Sprint(openArenaMax),
		"+set", "bot_enable", "1", "+set", "g_gametype", "0", "+set", "fraglimit", "0", "+set", "timelimit", "0",
		"+map", openArenaMap}
	for _, b := range bots {
		args = append(args, "+addbot", b, "1")
	}
	return launch{pkgs: "openarena-server"}.start(t, args...)
}

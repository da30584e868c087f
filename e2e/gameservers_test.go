package e2e

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// Launch recipes for the real game servers of the Debian archive, each on free
// loopback port(s) with master-server contact off. Every recipe installs its
// package when it is missing and we are root (prototest.NeedDebian), or skips the
// test with a message. The servers are stopped (by process group) when the test
// that started them ends. The values the tests assert are the constants below:
// what each server was configured with.

// installMu serialises package installs: parallel tests would fight over dpkg's lock.
var installMu sync.Mutex

// needDebian is prototest.NeedDebian, one install at a time.
func needDebian(t *testing.T, pkgs ...string) {
	t.Helper()
	installMu.Lock()
	defer installMu.Unlock()
	prototest.NeedDebian(t, pkgs...)
}

// needBin skips the test when a packaged binary is missing after the install.
func needBin(t *testing.T, bin string) {
	t.Helper()
	if _, err := os.Stat(bin); err != nil {
		t.Skipf("%s missing after install: %v", bin, err)
	}
}

func mkdirs(t *testing.T, base string, dirs ...string) {
	t.Helper()
	for _, d := range dirs {
		if err := os.MkdirAll(filepath.Join(base, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

// QuakeWorld: mvdsv with the KTX mod (Debian packages mvdsv and ktx).
const (
	qwHostname = "Exporter Test QW"
	qwMap      = "exbox"
)

// startQuakeWorld starts mvdsv with a generated box map: no free Quake map ships
// in Debian, and mvdsv answers nothing before it has loaded one.
func startQuakeWorld(t *testing.T) (*proc, int) {
	t.Helper()
	const (
		mvdsv   = "/usr/games/mvdsv"
		qwprogs = "/usr/lib/quakeworld/ktx/qwprogs.so"
		ktxData = "/usr/share/games/quake/ktx"
	)
	needDebian(t, "mvdsv", "ktx")
	needBin(t, mvdsv)
	// basedir/ktx holds links to the packaged KTX mod and the generated map;
	// mvdsv wants id1 and qw to exist as well.
	base := t.TempDir()
	mkdirs(t, base, "ktx/maps", "id1", "qw")
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
	if err := os.WriteFile(filepath.Join(base, "ktx", "maps", qwMap+".bsp"), boxBSP(), 0o644); err != nil {
		t.Fatal(err)
	}
	port := serverPort(t, 1)
	// setmaster none: no heartbeats to any master, whatever a config says.
	// k_defmode ffa / k_defmap: KTX's default 4on4 mode would switch to dm3.
	p := startProc(t, "mvdsv", base, []string{"HOME=" + base}, mvdsv,
		"-basedir", base, "-game", "ktx", "-ip", "127.0.0.1", "-port", strconv.Itoa(port),
		"+setmaster", "none", "+set", "k_defmap", qwMap, "+set", "k_defmode", "ffa",
		"+hostname", qwHostname, "+map", qwMap)
	return p, port
}

// DarkPlaces: Nexuiz 2.5.2 (Debian package nexuiz-server).
const (
	nexuizHostname = "Exporter Test DP"
	nexuizMap      = "aggressor"
	nexuizMax      = 10
	nexuizBots     = 4
)

// startNexuiz starts nexuiz-server with nexuizBots bots on nexuizMap.
func startNexuiz(t *testing.T) (*proc, int) {
	t.Helper()
	const server = "/usr/games/nexuiz-server"
	needDebian(t, "nexuiz-server")
	needBin(t, server)
	home := t.TempDir()
	port := serverPort(t, 1)
	// Loopback only (IPv4 and IPv6), sv_public 0: no master heartbeats.
	// bot_join_empty keeps the bots on a server without humans; maxplayers is a
	// command, not a cvar.
	p := startProc(t, "nexuiz", home, []string{"HOME=" + home}, server,
		"+set", "net_address", "127.0.0.1", "+set", "net_address_ipv6", "::1", "+set", "port", strconv.Itoa(port),
		"+set", "sv_public", "0", "+set", "hostname", nexuizHostname, "+maxplayers", strconv.Itoa(nexuizMax),
		"+set", "bot_join_empty", "1", "+set", "minplayers", strconv.Itoa(nexuizBots),
		"+set", "g_maplist", nexuizMap, "+set", "timelimit", "0", "+set", "fraglimit", "0", "+map", nexuizMap)
	return p, port
}

// Cube 2: Sauerbraten 2020-12-27 (Debian package cube2-server).
const (
	cube2Name = "GSE Real Sauer"
	cube2Max  = 9
)

// startCube2 starts cube2_server with a password, master server updates off and
// the master name pointing at loopback. It returns the game port; the server
// answers queries on the game port + 1.
func startCube2(t *testing.T) (*proc, int) {
	t.Helper()
	const server = "/usr/lib/cube2/cube2_server"
	needDebian(t, "cube2-server")
	needBin(t, server)
	port := serverPort(t, 2)
	dir := t.TempDir()
	prototest.WriteFile(t, filepath.Join(dir, "server-init.cfg"), fmt.Sprintf("serverdesc %q\n"+
		"serverip 127.0.0.1\nserverport %d\nmaxclients %d\nserverpass secret\n"+
		"updatemaster 0\nmastername 127.0.0.1\npublicserver 0\n", cube2Name, port, cube2Max))
	// The server reads server-init.cfg from its working directory.
	return startProc(t, "cube2", dir, []string{"HOME=" + dir}, server), port
}

// serverPort returns a loopback port free for TCP and UDP, with the n-1 ports
// after it free for UDP too (cube2 answers queries on the game port + 1). It is
// drawn below the kernel's ephemeral range (32768 and up by default), so no
// client socket (the exporter's, quakestat's, another test's port 0) can take it
// between this check and the server's bind, and never twice in one test binary,
// so servers started in parallel never get the same one.
func serverPort(t *testing.T, n int) int {
	t.Helper()
	const lo, hi = 15000, 25000 // clear of the servers' own default ports
	portsMu.Lock()
	defer portsMu.Unlock()
	for range 200 {
		p := lo + rand.IntN(hi-lo-n)
		if !portsFree(p, n) {
			continue
		}
		for i := range n {
			portsTaken[p+i] = true
		}
		return p
	}
	t.Fatalf("no free run of %d loopback ports in [%d, %d)", n, lo, hi)
	return 0
}

var (
	portsMu    sync.Mutex
	portsTaken = map[int]bool{}
)

func portsFree(p, n int) bool {
	for i := range n {
		if portsTaken[p+i] {
			return false
		}
	}
	l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(p)))
	if err != nil {
		return false
	}
	defer l.Close()
	for i := range n {
		u, err := net.ListenPacket("udp", net.JoinHostPort("127.0.0.1", strconv.Itoa(p+i)))
		if err != nil {
			return false
		}
		defer u.Close()
	}
	return true
}

// Mumble: murmurd (Debian package mumble-server).
const (
	mumbleUsers     = 23
	mumbleBandwidth = 96000
	murmurd         = "/usr/sbin/murmurd"
)

// startMumble starts murmurd on loopback with its own ini (no registration, no
// Ice, no Bonjour, no D-Bus).
func startMumble(t *testing.T) (*proc, int) {
	t.Helper()
	needDebian(t, "mumble-server")
	needBin(t, murmurd)
	port := serverPort(t, 1)
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
	ini := filepath.Join(dir, "murmur.ini")
	prototest.WriteFile(t, ini, strings.Join([]string{
		"database=" + filepath.Join(dir, "murmur.sqlite"),
		"host=127.0.0.1",
		"port=" + strconv.Itoa(port),
		"users=" + strconv.Itoa(mumbleUsers),
		"bandwidth=" + strconv.Itoa(mumbleBandwidth),
		"allowping=true",
		"registerName=",
		"registerHostname=",
		"bonjour=false",
		"ice=",
		"dbus=",
		"logfile=",
		"pidfile=",
		"kdfiterations=1000", // skips the start-up PBKDF2 benchmark (seconds)
	}, "\n")+"\n")
	return startProc(t, "murmurd", dir, nil, murmurd, "-fg", "-ini", ini), port
}

// mumbleVersion is the upstream version of the installed mumble-server package
// ("1.3.4" from "1.3.4-4"), or murmurd's own -version output.
func mumbleVersion() string {
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

// OpenTTD 13 in dedicated mode (Debian packages openttd and openttd-opengfx).
const (
	openttdName         = "Exporter Test OpenTTD"
	openttdClients      = 7
	openttdCompaniesMax = 5
)

// startOpenTTD starts a dedicated OpenTTD with a local game type (no relay or
// coordinator: nothing leaves the machine) on a small arctic map.
func startOpenTTD(t *testing.T) (*proc, int) {
	t.Helper()
	const server = "/usr/games/openttd"
	needDebian(t, "openttd", "openttd-opengfx")
	needBin(t, server)
	port := serverPort(t, 1)
	dir := t.TempDir()
	cfg := filepath.Join(dir, "openttd.cfg")
	prototest.WriteFile(t, cfg, fmt.Sprintf(`[network]
server_name = %s
server_port = %d
server_bind_addresses = 127.0.0.1
server_game_type = local
max_clients = %d
max_companies = %d
use_relay_service = never
[game_creation]
map_x = 6
map_y = 7
landscape = arctic
[gui]
autosave = off
`, openttdName, port, openttdClients, openttdCompaniesMax))
	return startProc(t, "openttd", dir, []string{"HOME=" + dir}, server,
		"-D", fmt.Sprintf("127.0.0.1:%d", port), "-c", cfg, "-x", "-s", "null", "-m", "null", "-G", "4242"), port
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
func startArmagetron(t *testing.T) (*proc, int) {
	t.Helper()
	const server = "/usr/games/armagetronad-dedicated.real"
	needDebian(t, "armagetronad-dedicated")
	needBin(t, server)
	port := serverPort(t, 1)
	dir := t.TempDir()
	mkdirs(t, dir, "cfg", "var", "data")
	cfg := fmt.Sprintf("SERVER_IP 127.0.0.1\nSERVER_PORT %d\nSERVER_NAME %s\nTALK_TO_MASTER 0\nMAX_CLIENTS %d\n",
		port, armagetronRawName, armagetronMax)
	prototest.WriteFile(t, filepath.Join(dir, "cfg", "settings_custom.cfg"), cfg)
	prototest.WriteFile(t, filepath.Join(dir, "cfg", "autoexec.cfg"), cfg)
	return startProc(t, "armagetron", dir, []string{"HOME=" + dir}, server,
		"--datadir", "/usr/share/games/armagetronad", "--configdir", "/etc/armagetronad",
		"--userconfigdir", filepath.Join(dir, "cfg"), "--vardir", filepath.Join(dir, "var"),
		"--userdatadir", filepath.Join(dir, "data"), "-d"), port
}

// Teeworlds 0.7.5 (Debian package teeworlds-server).
const (
	teeworldsName = "Exporter Test Tee"
	teeworldsMap  = "dm2"
	teeworldsMax  = 9
)

// startTeeworlds starts teeworlds-server with registration off, a CTF game and a
// password.
func startTeeworlds(t *testing.T) (*proc, int) {
	t.Helper()
	const server = "/usr/games/teeworlds-server"
	needDebian(t, "teeworlds-server")
	needBin(t, server)
	port := serverPort(t, 1)
	dir := t.TempDir()
	// -f only accepts paths relative to the storage dirs: the cwd is one.
	prototest.WriteFile(t, filepath.Join(dir, "server.cfg"), fmt.Sprintf(`sv_name %q
sv_port %d
bindaddr 127.0.0.1
sv_register 0
sv_max_clients %d
sv_map %s
sv_gametype ctf
password "secret"
`, teeworldsName, port, teeworldsMax, teeworldsMap))
	return startProc(t, "teeworlds", dir, []string{"HOME=" + dir}, server, "-f", "server.cfg"), port
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

// startDDNet starts DDNet-Server with registration off and a password. A
// storage.cfg in the working directory makes that directory the only writable
// storage path (the sqlite file, demos and dumps go there, not to
// ~/.local/share/ddnet) and puts it before the data dir, so its
// autoexec_server.cfg replaces the packaged one (test commands, a log file,
// votes).
func startDDNet(t *testing.T) (*proc, int) {
	t.Helper()
	const server = "/usr/games/DDNet-Server"
	needDebian(t, "ddnet-server")
	needBin(t, server)
	port := serverPort(t, 1)
	dir := t.TempDir()
	prototest.WriteFile(t, filepath.Join(dir, "storage.cfg"), "add_path $CURRENTDIR\nadd_path $DATADIR\n")
	// sv_ipv4only: otherwise DDNet also opens an IPv6 socket on the bind
	// address, which fails for 127.0.0.1, and the server does not start.
	prototest.WriteFile(t, filepath.Join(dir, "autoexec_server.cfg"), fmt.Sprintf(`sv_name %q
sv_port %d
bindaddr 127.0.0.1
sv_ipv4only 1
sv_register 0
sv_test_cmds 0
sv_max_clients %d
sv_map %s
password "secret"
`, ddnetName, port, ddnetMax, ddnetMap))
	return startProc(t, "ddnet", dir, []string{"HOME=" + dir}, server), port
}

// OpenArena 0.8.8 (Debian package openarena-server, ioquake3 engine).
const (
	openArenaBin  = "/usr/games/openarena-server"
	openArenaName = "GSE e2e OpenArena"
	openArenaMap  = "oa_dm1"
	openArenaMax  = 8
)

// openArenaBots join with +addbot right after the map loads (bot_minplayers would
// add one bot every 10 seconds). Sorted, as the checks compare sorted names.
var openArenaBots = []string{"Merman", "Neko", "Sergei"}

// startOpenArena starts a LAN-only dedicated OpenArena server (dedicated 1: no
// master heartbeats, all masters blank) on loopback UDP port, IPv4 only, with
// openArenaBots.
func startOpenArena(t *testing.T, port int) *proc {
	t.Helper()
	needDebian(t, "openarena-server")
	needBin(t, openArenaBin)
	home := t.TempDir()
	// ioq3 joins its arguments into one command line, quoting only those with
	// spaces: an empty value must be passed as the two characters "".
	const empty = `""`
	args := []string{openArenaBin,
		"+set", "dedicated", "1", "+set", "net_enabled", "1",
		"+set", "net_ip", "127.0.0.1", "+set", "net_port", fmt.Sprint(port),
		"+set", "sv_master1", empty, "+set", "sv_master2", empty, "+set", "sv_master3", empty,
		"+set", "sv_master4", empty, "+set", "sv_master5", empty, "+set", "sv_dlURL", empty,
		"+set", "sv_hostname", openArenaName, "+set", "sv_maxclients", fmt.Sprint(openArenaMax),
		"+set", "bot_enable", "1", "+set", "g_gametype", "0", "+set", "fraglimit", "0", "+set", "timelimit", "0",
		"+map", openArenaMap}
	for _, b := range openArenaBots {
		args = append(args, "+addbot", b, "1")
	}
	return startProc(t, "openarena", home, []string{"HOME=" + home}, args...)
}

package e2e

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/internal/testenv"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// realServerWait bounds each subtest's wait for its server to answer through the
// exporter (a package install comes before and is not counted).
const realServerWait = 30 * time.Second

// TestRealServers starts one exporter (the built-in modules plus those of
// testdata/realservers.yml) and every Debian-packaged game server a protocol
// speaks to; each subtest probes its server through /probe and asserts the
// metrics against quakestat at the same moment or, where no reference client
// reads the protocol, the server's configuration. Nexuiz ignores a second query
// from one address within a second: only darkplaces_players probes it.
func TestRealServers(t *testing.T) {
	endToEnd(t, "real game servers")
	modules, err := filepath.Abs(filepath.Join("testdata", "realservers.yml"))
	if err != nil {
		t.Fatal(err)
	}
	// --probe.min-interval=1s (the default, pinned): polls in between get the last
	// result, so no server sees more than a query a second from one module.
	ex := exporterClient{startExporter(t, "--probe.min-interval=1s", "--config.file="+modules)}
	for _, s := range []struct {
		name  string
		start func(*testing.T) (*testenv.Proc, int) // the server and the port the target names
		check func(*testing.T, exporterClient, *testenv.Proc, int)
	}{
		{"quakeworld", startQuakeWorld, testRealQuakeWorld},
		{"darkplaces", startNexuiz, testRealDarkPlaces},
		{"cube2", startCube2, testRealCube2},
		{"redeclipse", startRedEclipse, testRealRedEclipse},
		{"mumble", startMumble, testRealMumble},
		{"openttd", startOpenTTD, testRealOpenTTD},
		{"armagetron", startArmagetron, testRealArmagetron},
		{"teeworlds", startTeeworlds, testRealTeeworlds},
		{"ddnet", startDDNet, testRealDDNet},
		{"quake3", func(t *testing.T) (*testenv.Proc, int) {
			port := testenv.ServerPort(t, 1)
			return startOpenArena(t, port), port
		}, testRealOpenArena},
		{"quake3_cp1251", func(t *testing.T) (*testenv.Proc, int) {
			port := testenv.ServerPort(t, 1)
			return startOpenArenaAs(t, port, openArenaCyrillic, nil), port
		}, testRealOpenArenaCyrillic},
	} {
		t.Run(s.name, func(t *testing.T) {
			// Starting is quick (an install aside) and runs before t.Parallel, so
			// every server boots at once, whatever -parallel allows for the checks.
			p, port := s.start(t)
			t.Parallel()
			s.check(t, ex, p, port)
		})
	}
}

// expect is what one module's probe of a real server must report once it
// succeeds (and ready, when given, holds): quakestat (flag qstat, "" none) asked
// at the same moment agrees on the players, the max players (unless qstatNoMax)
// and the gameserver_info labels qlabels; the labels info, the version's prefix
// (where the package's version is not the one reported), the metric values
// metrics, the decoded reply's key/values decoded and its rules (of which
// gameserver_rules counts every one) from the debug output.
type expect struct {
	module      string
	queryOffset int // the query port's offset from the game port the target names
	ready       func(probeResult) (bool, string)
	qstat       string
	qlabels     []string
	qstatNoMax  bool
	info        map[string]string
	version     string
	metrics     map[string]float64
	decoded     map[string]string
	rules       map[string]string
}

// check probes x.module on 127.0.0.1:port until it succeeds, then checks x.
func (e exporterClient) check(t *testing.T, p *testenv.Proc, port int, x expect) probeResult {
	t.Helper()
	r := e.waitProbe(t, p, x.module, port, x.ready)
	var qs *prototest.QstatServer // quakestat's, where it reads the protocol and is installed
	if x.qstat != "" && haveQstat(t) {
		s := prototest.QstatJSON(t, x.qstat, loopback(port))
		qs = &s
	}
	r.checkUp(t, port+x.queryOffset)
	r.checkInfo(t, x.info)
	if v := r.info()["version"]; !strings.HasPrefix(v, x.version) {
		t.Errorf("%s: version %q, want %s...", x.module, v, x.version)
	}
	r.wantAll(t, x.metrics)
	if x.decoded != nil || x.rules != nil {
		d := e.decoded(t, x.module, port)
		if x.rules != nil {
			r.want(t, "gameserver_rules", float64(len(d.rules)))
		}
		wantKeys(t, x.module+": decoded", d.info, x.decoded)
		wantKeys(t, x.module+": decoded rule", d.rules, x.rules)
	}
	if qs != nil && x.qstatNoMax {
		qs.MaxPlayers = int(r.metric("gameserver_players_max"))
	}
	r.checkQstat(t, qs, x.qlabels...)
	return r
}

// testRealQuakeWorld: mvdsv + KTX on a generated box map. KTX's ffa mode sets
// maxclients itself (26); the box has no waypoints for frogbots: nobody plays.
func testRealQuakeWorld(t *testing.T, ex exporterClient, p *testenv.Proc, port int) {
	r := ex.check(t, p, port, expect{module: "quakeworld", qstat: "-qws", qlabels: []string{"name", "map", "game"},
		info:    map[string]string{"protocol": "quakeworld", "name": qwHostname, "map": qwMap},
		metrics: map[string]float64{"gameserver_players": 0, "gameserver_password_required": 0}})
	if r.metric("gameserver_players_max") < 1 || r.info()["version"] == "" || r.info()["game"] == "" {
		t.Errorf("want at least one slot, a version and a game:\n%s", r.Body)
	}
	// The serverinfo key/values as rules.
	ex.check(t, p, port, expect{module: "quakeworld_rules", rules: map[string]string{"hostname": qwHostname, "map": qwMap}})
}

// testRealDarkPlaces: Nexuiz with four bots, against its configuration and
// quakestat -P -nexuizs. Probed with darkplaces_players only (see TestRealServers):
// its getstatus is the built-in module's, players and cvars are in every reply.
func testRealDarkPlaces(t *testing.T, ex exporterClient, p *testenv.Proc, port int) {
	withQstat := haveQstat(t)
	var qs *qstatServer
	run := 0
	r := ex.check(t, p, port, expect{module: "darkplaces_players",
		// Until the bots are in and the exporter and quakestat see the same players
		// (a bot may score in between). quakestat -P's getstatus falls in the flood
		// block its getinfo started: its runs take turns among 127.0.0.2-9.
		ready: func(r probeResult) (bool, string) {
			got := r.players()
			if r.metric("gameserver_bots") < nexuizBots || !withQstat {
				return len(got) >= nexuizBots && r.metric("gameserver_bots") >= nexuizBots, fmt.Sprintf("exporter %v", got)
			}
			run++
			s, err := quakestat("quakestat", "-nexuizs", fmt.Sprintf("127.0.0.%d", 2+run%8), loopback(port).String())
			if err != nil {
				return false, err.Error()
			}
			qs = &s
			return maps.Equal(got, s.players()), fmt.Sprintf("exporter %v, quakestat %v", got, s.players())
		},
		info: map[string]string{"protocol": "darkplaces", "name": nexuizHostname, "map": nexuizMap, "game": "Nexuiz", "version": "2.5.2"},
		// Every player is a bot, with a score series and ping 0: no human plays.
		metrics: map[string]float64{"gameserver_players_max": nexuizMax, "gameserver_players": 0, "gameserver_bots": nexuizBots}})
	players := r.players()
	if len(players) != nexuizBots || len(r.series("gameserver_player_score")) != nexuizBots {
		t.Errorf("players %v, want %d with a score each:\n%s", players, nexuizBots, r.Body)
	}
	for name, pl := range players {
		if pl.ping != 0 {
			t.Errorf("bot %q: ping %vms, want 0", name, pl.ping)
		}
	}
	if r.metric("gameserver_rules") < 1 { // the cvars of the same getstatus reply
		t.Errorf("gameserver_rules: want the cvars:\n%s", r.Body)
	}
	if qs != nil {
		t.Logf("quakestat run %d agrees: %v", run, qs.players())
		r.checkQstat(t, &qs.QstatServer, "name", "map", "game")
	}
}

// testRealCube2: Sauerbraten, queried on the game port + 1. No map is loaded and
// nobody is connected (bots need a connected client to run them); the password
// sets the master mode. The info count leaves bots out, and without extinfo
// (the built-in module) there is no bot count; quakestat -cubes reports no game.
func testRealCube2(t *testing.T, ex exporterClient, p *testenv.Proc, port int) {
	r := ex.check(t, p, port, expect{module: "cube2", queryOffset: 1, qstat: "-cubes", qlabels: []string{"name", "map"},
		info:    map[string]string{"protocol": "cube2", "name": cube2Name, "map": "", "game": "Sauerbraten", "version": "260"},
		metrics: map[string]float64{"gameserver_players": 0, "gameserver_players_max": cube2Max, "gameserver_password_required": 1}})
	if _, ok := r.Value("gameserver_bots"); ok {
		t.Errorf("gameserver_bots without extinfo, want absent:\n%s", r.Body)
	}
	// With extinfo: the player list (for the bot count) and the uptime, with the
	// info reply's attributes as rules.
	r = ex.check(t, p, port, expect{module: "cube2_extinfo", queryOffset: 1,
		metrics: map[string]float64{"gameserver_players": 0, "gameserver_bots": 0},
		rules:   map[string]string{"mastermode_name": "password"}})
	if s := r.series("gameserver_player_score"); len(s) != 0 {
		t.Errorf("player series %v on an empty server", s)
	}
	rules := ex.decoded(t, "cube2_extinfo", port).rules
	if _, err := strconv.ParseUint(rules["uptime"], 10, 64); err != nil {
		t.Errorf("rule uptime = %q, want seconds (all: %v)", rules["uptime"], rules)
	}
}

// testRealRedEclipse: the built-in redeclipse module (protocol cube2, on the game
// port + 1). quakestat -cubes reads the name and the map but takes Red Eclipse's
// time attribute for the player limit (600): the limit is compared with the
// configuration only. serverpass puts the server in master mode "password".
func testRealRedEclipse(t *testing.T, ex exporterClient, p *testenv.Proc, port int) {
	v, slots := debVersion(t, "redeclipse-server"), redeclipseClients+redeclipseSpectators
	ex.check(t, p, port, expect{module: "redeclipse", queryOffset: 1, qstat: "-cubes", qlabels: []string{"name", "map"}, qstatNoMax: true,
		info:    map[string]string{"protocol": "cube2", "name": redeclipseName, "map": redeclipseMap, "game": "Red Eclipse", "version": v},
		metrics: map[string]float64{"gameserver_players": 0, "gameserver_players_max": float64(slots), "gameserver_password_required": 1},
		decoded: map[string]string{"layout": "redeclipse", "mode": strconv.Itoa(redeclipseMode), "mutators": "0",
			"max_clients": strconv.Itoa(slots), "mastermode_name": "password", "version": v}})
}

// testRealMumble: murmurd, against its configuration, the package version and
// quakestat -mumble (whose version is wrong, and no name is in the ping reply).
func testRealMumble(t *testing.T, ex exporterClient, p *testenv.Proc, port int) {
	ex.check(t, p, port, expect{module: "mumble", qstat: "-mumble",
		info:    map[string]string{"protocol": "mumble", "game": "Mumble", "version": debVersion(t, "mumble-server")},
		metrics: map[string]float64{"gameserver_players": 0, "gameserver_players_max": mumbleUsers}})
	// With rules: the allowed bandwidth per user, the one rule.
	ex.check(t, p, port, expect{module: "mumble_rules", metrics: map[string]float64{"gameserver_rules": 1},
		rules: map[string]string{"bandwidth": strconv.Itoa(mumbleBandwidth)}})
}

// testRealOpenTTD: OpenTTD 13, against its configuration (qstat -ottds speaks the
// old UDP protocol, which 13.x does not answer); what has no metric, from the
// decoded reply.
func testRealOpenTTD(t *testing.T, ex exporterClient, p *testenv.Proc, port int) {
	ex.check(t, p, port, expect{module: "openttd", version: "1",
		info:    map[string]string{"protocol": "openttd", "name": openttdName, "map": ""},
		metrics: map[string]float64{"gameserver_players": 0, "gameserver_players_max": openttdClients, "gameserver_password_required": 0},
		decoded: map[string]string{"companies_max": strconv.Itoa(openttdCompaniesMax), "companies_on": "0", "map_width": "64",
			"map_height": "128", "landscape": "sub-arctic", "dedicated": "true"}})
	if v := ex.decoded(t, "openttd", port).info["game_info_version"]; v != "6" && v != "7" { // 14+ send version 7
		t.Errorf("decoded game_info_version = %q, want 6", v)
	}
}

// testRealArmagetron: Armagetron Advanced, never primed, against its
// configuration (no reference client here reads it).
func testRealArmagetron(t *testing.T, ex exporterClient, p *testenv.Proc, port int) {
	ex.check(t, p, port, expect{module: "armagetron", version: "0.2.",
		info:    map[string]string{"protocol": "armagetron", "name": armagetronName},
		metrics: map[string]float64{"gameserver_players": 0, "gameserver_players_max": armagetronMax},
		decoded: map[string]string{"name": armagetronRawName, "port": strconv.Itoa(port)}})
}

// testRealTeeworlds: Teeworlds 0.7.5, against its configuration: no reference
// client speaks 0.7 (qstat -tees asks with 0.5/0.6 requests, which it ignores).
// The built-in module detects the version, teeworlds_07 pins it, and
// teeworlds_06's request gets no answer.
func testRealTeeworlds(t *testing.T, ex exporterClient, p *testenv.Proc, port int) {
	for _, module := range []string{"teeworlds", "teeworlds_07"} {
		ex.check(t, p, port, expect{module: module, decoded: map[string]string{"protocol": "0.7"}, version: "0.7.",
			info:    map[string]string{"protocol": "teeworlds", "name": teeworldsName, "map": teeworldsMap, "game": "CTF"},
			metrics: map[string]float64{"gameserver_players": 0, "gameserver_players_max": teeworldsMax, "gameserver_bots": 0, "gameserver_password_required": 1}})
	}
	// The server is up (it answered both): the 0.6 gie3 is ignored, so the probe
	// runs out of its module's 300ms.
	r, err := ex.probe("teeworlds_06", port)
	if err != nil {
		t.Fatal(err)
	}
	r.wantAll(t, map[string]float64{"probe_success": 0, "probe_timeout_seconds": 0.3})
	if _, ok := r.Families["gameserver_info"]; ok || r.failure() != "timeout" {
		t.Errorf("teeworlds_06: want a timeout, without gameserver_info:\n%s", r.Body)
	}
}

// testRealDDNet: DDNet, a Teeworlds 0.6 server, against its configuration and
// quakestat -tees. The built-in module's first round trip carries the 0.6 gie3,
// which DDNet answers at once; ddnet_06 pins that request. DDNet names the 0.6
// version it speaks, then its own.
func testRealDDNet(t *testing.T, ex exporterClient, p *testenv.Proc, port int) {
	for _, module := range []string{"teeworlds", "ddnet_06"} {
		ex.check(t, p, port, expect{module: module, qstat: "-tees", qlabels: []string{"name", "map", "game"}, version: "0.6.4, ",
			info:    map[string]string{"protocol": "teeworlds", "name": ddnetName, "map": ddnetMap, "game": ddnetGame},
			metrics: map[string]float64{"gameserver_players": 0, "gameserver_players_max": ddnetMax, "gameserver_password_required": 1},
			decoded: map[string]string{"protocol": "0.6", "max_clients": strconv.Itoa(ddnetMax), "flags": "1"}})
	}
}

// testRealOpenArena: OpenArena (ioquake3) with three bots, against its
// configuration and quakestat -q3s. Its getstatus counts no bots (they are
// ping-0 lines), so the querier asks getinfo too: g_humanplayers 0 of 3
// clients, so no player and three bots.
func testRealOpenArena(t *testing.T, ex exporterClient, p *testenv.Proc, port int) {
	bots := float64(len(openArenaBots))
	r := ex.check(t, p, port, expect{module: "quake3",
		ready: func(r probeResult) (bool, string) {
			return r.metric("gameserver_bots") == bots, fmt.Sprintf("%v bots", r.metric("gameserver_bots"))
		},
		info:    map[string]string{"protocol": "quake3", "name": openArenaName, "map": openArenaMap},
		metrics: map[string]float64{"gameserver_players": 0, "gameserver_bots": bots, "gameserver_players_max": openArenaMax}})
	// With the player list, from its own address: ioquake3 rate-limits
	// getstatus per address.
	if haveQstat(t) {
		qs, err := quakestat("quakestat", "-q3s", "127.0.0.4", loopback(port).String())
		if err != nil {
			t.Fatal(err)
		}
		if got := qs.playerNames(); !slices.Equal(got, openArenaBots) {
			t.Errorf("quakestat lists %v, want the bots %v", got, openArenaBots)
		}
		r.checkQstat(t, &qs.QstatServer, "name", "map") // quakestat -q3s reports no game
	}
}

// testRealOpenArenaCyrillic: a server whose name is Windows-1251 bytes reads as
// Latin-1 by default (what ioquake3 itself assumes) and as Cyrillic with
// `quake3: {encoding: windows-1251}`.
func testRealOpenArenaCyrillic(t *testing.T, ex exporterClient, p *testenv.Proc, port int) {
	for _, c := range []struct{ module, name string }{
		{"quake3", "GSE e2e Ñåðâåð"},
		{"quake3_cp1251", "GSE e2e Сервер"},
	} {
		ex.check(t, p, port, expect{module: c.module,
			info:    map[string]string{"protocol": "quake3", "name": c.name, "map": openArenaMap},
			metrics: map[string]float64{"gameserver_players": 0, "gameserver_players_max": openArenaMax}})
	}
}

package catalog

import (
	"bufio"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/registry"
)

var moduleName = regexp.MustCompile(`^[a-z0-9][a-z0-9_]*$`)

func TestCatalog(t *testing.T) {
	seen := map[string]bool{}
	for i, g := range Games {
		if seen[g.Module] {
			t.Errorf("%s listed twice", g.Module)
		}
		seen[g.Module] = true
		if !moduleName.MatchString(g.Module) {
			t.Errorf("%q: module names are lower-case letters, digits and _", g.Module)
		}
		if g.Name == "" || g.Protocol == "" || g.Port == 0 || len(g.Offsets) == 0 {
			t.Errorf("%s: incomplete row %+v", g.Module, g)
		}
		if strings.TrimSpace(g.Source) == "" {
			t.Errorf("%s: no Source: every row cites where its ports come from", g.Module)
		}
		if _, ok := registry.Lookup(g.Protocol); !ok {
			t.Errorf("%s: protocol %q is not in the registry", g.Module, g.Protocol)
		}
		if len(g.Offsets) > 8 {
			t.Errorf("%s: %d offsets, config allows 8", g.Module, len(g.Offsets))
		}
		for j, off := range g.Offsets {
			if p := int(g.Port) + off; p <= 0 || p > 65535 {
				t.Errorf("%s: offset %d leaves the port range", g.Module, off)
			}
			for _, prev := range g.Offsets[:j] {
				if prev == off {
					t.Errorf("%s: offset %d twice", g.Module, off)
				}
			}
		}
		if i > 0 && Games[i-1].Module >= g.Module {
			t.Errorf("keep the catalog sorted: %s before %s", Games[i-1].Module, g.Module)
		}
	}
	if len(Games) < 120 {
		t.Errorf("%d games, want at least 120", len(Games))
	}
	if g, ok := Lookup("valheim"); !ok || g.Offsets[0] != 1 {
		t.Errorf("Lookup(valheim) = %+v %v", g, ok)
	}
	if _, ok := Lookup("nosuchgame"); ok {
		t.Error("Lookup(nosuchgame) found a row")
	}
}

// TestOptions: every protocol block is a YAML mapping for a catalog row.
func TestOptions(t *testing.T) {
	for module, body := range gameOptions {
		if _, ok := Lookup(module); !ok {
			t.Errorf("options for %s, which has no row", module)
		}
		var m map[string]any
		if err := yaml.Unmarshal([]byte(body), &m); err != nil || len(m) == 0 {
			t.Errorf("%s: options %q are not a YAML mapping: %v", module, body, err)
		}
	}
}

// TestCorrections pins the rows fixed against their sources (issue 15 §1), so a
// later edit that brings back the old values fails here.
func TestCorrections(t *testing.T) {
	for _, tc := range []struct {
		module, protocol string
		port             uint16
		first            int // the query port the first offset gives
	}{
		{"icarus", "a2s", 17777, 27015},
		{"abioticfactor", "a2s", 7777, 27015},
		{"insurgencysandstorm", "a2s", 27102, 27131},
		{"spaceengineers", "a2s", 27016, 27016},
		{"palworld", "palworld", 8212, 8212},
		{"7daystodie", "a2s", 26900, 26900},
		{"rust", "a2s", 28015, 28016},
		{"vrising", "a2s", 9876, 9877},
		{"theisle", "eos", 7777, 7777},
		{"sonsoftheforest", "a2s", 8766, 27016},
		{"minecraftbedrock", "bedrock", 19132, 19132},
		{"ut2004", "unreal2", 7777, 7778},
		{"bf4", "frostbite", 47200, 47200},
	} {
		g, ok := Lookup(tc.module)
		if !ok {
			t.Errorf("no row %s", tc.module)
			continue
		}
		if g.Protocol != tc.protocol || g.Port != tc.port || int(g.Port)+g.Offsets[0] != tc.first {
			t.Errorf("%s: %s %d first query port %d, want %s %d %d", tc.module, g.Protocol, g.Port, int(g.Port)+g.Offsets[0], tc.protocol, tc.port, tc.first)
		}
	}
}

// TestReadme: the README's game catalog lists exactly the catalog's modules, in order.
func TestReadme(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	start := strings.Index(s, "each row's ports come from.\n\n")
	end := strings.Index(s, " (and every protocol's own module).")
	if start < 0 || end < start {
		t.Fatal("README: no game catalog list (after \"each row's ports come from.\", before \"(and every protocol's own module).\")")
	}
	listed := strings.Split(strings.Join(strings.Fields(s[start+len("each row's ports come from.\n\n"):end]), ""), ",")
	var want []string
	for _, g := range Games {
		want = append(want, g.Module)
	}
	if !slices.Equal(listed, want) {
		for _, m := range want {
			if !slices.Contains(listed, m) {
				t.Errorf("README game catalog lacks %s", m)
			}
		}
		for _, m := range listed {
			if _, ok := Lookup(m); !ok {
				t.Errorf("README game catalog lists %s, which has no row", m)
			}
		}
		t.Errorf("README game catalog: %d modules, the catalog %d, both sorted", len(listed), len(want))
	}
}

// wantCovered is how many of gamedig's ids a named module probes today: raise it as
// rows land, never lower it.
const wantCovered = 357

// gamedigProtocols: which of our protocols read a gamedig protocol's servers.
var gamedigProtocols = map[string][]string{
	"valve": {"a2s", "goldsrc"}, "goldsrc": {"goldsrc", "a2s"}, "sdtd": {"a2s"}, "dayz": {"a2s"}, "toxikk": {"a2s"},
	"gamespy1": {"gamespy1"}, "gamespy2": {"gamespy2"}, "gamespy3": {"gamespy3"}, "ut3": {"gamespy3"}, "jc2mp": {"gamespy3"},
	"quake1": {"quakeworld"}, "quake2": {"quake2"}, "quake3": {"quake3"}, "warsow": {"quake3"}, "xonotic": {"darkplaces"},
	"doom3": {"doom3"}, "ase": {"ase"}, "unreal2": {"unreal2"}, "battlefield": {"frostbite"},
	"minecraft": {"minecraft", "bedrock"}, "asa": {"list", "eos"}, "theisleevrima": {"eos"}, "squad": {"eos"}, "renown": {"eos"},
	"samp": {"samp"}, "gtasao": {"samp"}, "vcmp": {"samp"}, "mumble": {"mumble"}, "mumbleping": {"mumble"},
	"armagetron": {"armagetron"}, "fivem": {"fivem"}, "hytale": {"hytale"}, "openttd": {"openttd"},
	"palworld": {"palworld"}, "satisfactory": {"satisfactory"}, "soldat": {"soldat"}, "starmade": {"starmade"},
	"teamspeak2": {"teamspeak2"}, "teamspeak3": {"teamspeak3"}, "terraria": {"terraria"},
	"buildandshoot": {"buildandshoot"}, "rfactor": {"rfactor"}, "assettocorsa": {"assettocorsa"}, "cs2d": {"cs2d"},
	"eco": {"eco"}, "eldewrito": {"eldewrito"}, "farmingsimulator": {"farmingsimulator"}, "hexen2": {"hexen2"},
	"kspdmp": {"kspdmp"}, "mafia2mp": {"mafia2mp"}, "mafia2online": {"mafia2mp"}, "savage2": {"savage2"},
	"tribes1": {"tribes1"}, "starsiege": {"tribes1"},
	"ffow": {"ffow"}, "nadeo": {"nadeo"}, "ventrilo": {"ventrilo"}, "discord": {"discord"},
	"scpsl": {"scpsl"}, "hawakening": {"hawakening"},
	// games gamedig finds in a public list, as protocol list does
	"beammp": {"list"}, "brokeprotocol": {"list"}, "geneshift": {"list"}, "altvmp": {"list"}, "ragemp": {"list"},
	"minetest": {"list"}, "renegadex": {"list"}, "vintagestory": {"list"}, "factorio": {"list"},
}

// gamedigDiffers: games we read with another protocol than gamedig, and why.
var gamedigDiffers = map[string]string{
	"nexuiz":  "a DarkPlaces game: getstatus is its own query (gamedig asks quake3)",
	"roo4145": "Red Orchestra: Ostfront is an Unreal 2 engine game, unreal2 on port + 1 as LinuxGSM roserver (gamedig asks gamespy1 on + 10)",
	"theisle": "The Isle Legacy's A2S went with Legacy; Evrima sessions are in EOS",
}

// TestGamedigCoverage: every game gamedig reads has a module here, or a reason why not.
func TestGamedigCoverage(t *testing.T) {
	f, err := os.Open("testdata/gamedig_ids.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ids := map[string]bool{}
	covered := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(line)
		if len(fields) != 3 {
			t.Errorf("%q: want id, gamedig protocol, module", line)
			continue
		}
		id, gdProto, module := fields[0], fields[1], fields[2]
		if ids[id] {
			t.Errorf("%s listed twice", id)
		}
		ids[id] = true
		if module == "-" {
			t.Errorf("%s (gamedig %s): no module", id, gdProto)
			continue
		}
		proto := module // a protocol's own module
		if g, ok := Lookup(module); ok {
			proto = g.Protocol
		} else if _, ok := registry.Lookup(module); !ok {
			t.Errorf("%s: module %s is neither a catalog row nor a protocol", id, module)
			continue
		}
		if !slices.Contains(gamedigProtocols[gdProto], proto) && gamedigDiffers[id] == "" {
			t.Errorf("%s: gamedig reads it with %s, module %s speaks %s", id, gdProto, module, proto)
		}
		covered++
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	for id := range gamedigDiffers {
		if !ids[id] {
			t.Errorf("%s is not a gamedig id in testdata", id)
		}
	}
	t.Logf("gamedig ids: %d; a named module probes %d", len(ids), covered)
	if covered < wantCovered {
		t.Errorf("%d gamedig ids covered, want at least %d", covered, wantCovered)
	}
}

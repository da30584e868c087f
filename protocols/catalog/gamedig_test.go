package catalog

import (
	"bufio"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/registry"
)

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

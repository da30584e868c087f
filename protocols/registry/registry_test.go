package registry

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
)

func TestProtocols(t *testing.T) {
	seen := map[string]bool{}
	for _, p := range All() {
		if p.Name == "" || seen[p.Name] {
			t.Errorf("protocol name %q empty or repeated", p.Name)
		}
		seen[p.Name] = true
		if p.DefaultPort == 0 || (p.Transport != "udp" && p.Transport != "tcp") || p.Description == "" {
			t.Errorf("%s: incomplete descriptor %+v", p.Name, p)
		}
		q, err := p.New(protocols.Settings{Players: true, Rules: true})
		if err != nil || q == nil {
			t.Errorf("%s: New: %v", p.Name, err)
		}
		if got, ok := Lookup(p.Name); !ok || got.Name != p.Name {
			t.Errorf("Lookup(%s) failed", p.Name)
		}
	}
	if _, ok := Lookup("nope"); ok {
		t.Error("Lookup(nope) succeeded")
	}
}

// TestNoSiblingImports: a protocol package imports no other protocol package; code
// two protocols share lives in protocols/internal/<family> or wire. Only the
// registry, module auto (which runs the others) and tests may name several.
func TestNoSiblingImports(t *testing.T) {
	const root = "github.com/gameserver-exporter/gameserver_exporter/protocols/"
	out, err := exec.Command("go", "list", "-json=ImportPath,Imports", "../...").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	protocolPkgs := map[string]bool{}
	for _, p := range All() {
		protocolPkgs[root+p.Name] = true
	}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	checked := 0
	for dec.More() {
		var pkg struct {
			ImportPath string
			Imports    []string
		}
		if err := dec.Decode(&pkg); err != nil {
			t.Fatal(err)
		}
		if !protocolPkgs[pkg.ImportPath] {
			continue
		}
		checked++
		for _, imp := range pkg.Imports {
			if protocolPkgs[imp] {
				t.Errorf("%s imports its sibling %s: move the shared code to protocols/internal", pkg.ImportPath, imp)
			}
		}
	}
	if checked != len(protocolPkgs) { // a package named otherwise than its protocol
		t.Errorf("checked %d of %d protocol packages", checked, len(protocolPkgs))
	}
}

// botSources says, for every registered protocol, where it learns which
// players are bots. The rule (README, Metrics): gameserver_players counts
// humans wherever the protocol tells bots apart, gameserver_bots the bots,
// and a count the protocol cannot know is absent. A protocol registered
// without an entry here fails TestBotSources: say where its bots come from
// ("none" when the server does not tell), and pin it with a TestBots* test in
// its package (prototest.CheckBots).
var botSources = map[string]string{
	"a2s":          "A2S_INFO bots byte (players byte less it)",
	"armagetron":   "none: the count is network users, AI players hold no connection",
	"ase":          "none",
	"bedrock":      "none",
	"cube2":        "extinfo client numbers from 128 (the info count already leaves bots out)",
	"darkplaces":   "`bots` key, else ping-0 lines",
	"doom3":        "ET:QW per-player bot flag; none on Doom 3, Quake 4, Prey",
	"eos":          "none (a session counts players only)",
	"list":         "none: lists count players only",
	"ffow":         "none: the LSQ info has no bot count, the player record no bot mark",
	"fivem":        "none: NPCs hold no client slot",
	"frostbite":    "none",
	"gamespy1":     "none: stock Unreal Tournament counts and lists its humans only",
	"gamespy2":     "none",
	"gamespy3":     "Battlefield 2 AIBot_ column, when the table lists numplayers rows",
	"gamespy4":     "none",
	"goldsrc":      "A2S info bots byte, infostring `bots` key (players less it); none in the 'C' reply",
	"hytale":       "none",
	"minecraft":    "none",
	"mumble":       "none",
	"nadeo":        "none: Nadeo servers have no bots (the player list counts everyone connected)",
	"openttd":      "none: clients are players, AI companies are no clients",
	"palworld":     "none: the game has no bot players",
	"quake2":       "none",
	"quake3":       "`bots` / `g_botplayers` keys, else getinfo's clients less g_humanplayers when the status has ping-0 lines",
	"quakeworld":   "none",
	"samp":         "none: NPCs are counted and listed as players (open.mp takes them off the max), nothing marks them",
	"satisfactory": "none (no player count at all)",
	"savage":       "none",
	"skycoop":      "none",
	"soldat":       "REFRESHX slots without an IP address (Rcon.pas fills it for humans only)",
	"starmade":     "none: the status counts connected players only",
	"teamspeak2":   "none: a voice server has no bots",
	"teamspeak3":   "none (query clients are left out)",
	"teeworlds":    "0.7 client flag 2; none on 0.6",
	"terraria":     "none: the game has no bot players",
	"ventrilo":     "none: a voice server has no bots (phantoms are a user's second presence, counted as clients)",
	"unreal2":      "the info count less the player list's length (the count includes bots, the list holds humans), when players are asked",

	// Issue 26, the second table (a group of its own, so the lines above keep their alignment).
	"assettocorsa":     "none: a dedicated server runs no AI cars",
	"buildandshoot":    "none",
	"cs2d":             "serverinfo bots byte (players byte less it); the list has no bot mark",
	"eco":              "none: the game has no bot players",
	"eldewrito":        "none: the game has no bot players",
	"farmingsimulator": "none: helpers take no slot and the feed marks no bots",
	"hexen2":           "none: stock servers run no bots",
	"kspdmp":           "none: the game has no bot players",
	"mafia2mp":         "none",
	"rfactor":          "the reply's AI byte; the players byte counts humans",
	"savage2":          "none",
	"tribes1":          "none",
	"discord":          "none: presence_count counts every member online, bot accounts too, and the widget marks none",
	"scpsl":            "none: the game has no bot players; Players' n counts those connected",
	"hawakening":       "none: Users lists the pilots' accounts and the listing marks no bots",
}

// botsTest: a test named for the bot rule, or the rule checked where the package's
// vectors are (prototest.CheckBots).
var botsTest = regexp.MustCompile(`(?m)^func TestBots\w*\(t \*testing\.T\)|\bprototest\.CheckBots\(`)

func TestBotSources(t *testing.T) {
	registered := map[string]bool{}
	for _, p := range All() {
		registered[p.Name] = true
		if botSources[p.Name] == "" {
			t.Errorf("protocol %s: no bot source in botSources: say where it learns which players are bots (or \"none\")", p.Name)
		}
		tests := goSource(t, filepath.Join("..", p.Name), true)
		if tests == "" {
			t.Errorf("protocol %s: no tests in ../%s", p.Name, p.Name)
		} else if !botsTest.MatchString(tests) {
			t.Errorf("protocol %s: no TestBots* test and no prototest.CheckBots in its package's tests", p.Name)
		}
	}
	for name := range botSources {
		if !registered[name] {
			t.Errorf("botSources names %s, which is not registered", name)
		}
	}
}

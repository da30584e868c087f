package auto

import (
	"fmt"
	"slices"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/catalog"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/registry"
)

func names(cs []candidate) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = fmt.Sprintf("%s:%d", c.proto, c.port)
	}
	return out
}

func only(list ...string) []protocols.Protocol {
	var out []protocols.Protocol
	for _, n := range list {
		p, _ := registry.Lookup(n)
		out = append(out, p)
	}
	return out
}

// TestChoose: the candidates of the real registry and catalog for ports people
// give, most likely first.
func TestChoose(t *testing.T) {
	var all []protocols.Protocol // what newQuerier offers: nothing off target
	for _, p := range registry.All() {
		if !p.OffTarget {
			all = append(all, p)
		}
	}
	tests := []struct {
		name   string
		port   uint16
		protos []protocols.Protocol
		want   []string
	}{
		{"valheim game port: its query port", 2456, all, []string{"a2s:2457"}},
		// Chrome: ASE on 27015 + 123; m2o (Mafia II Online) also gives 27015 as its game port, its query port next.
		{"steam query port", 27015, all, []string{"a2s:27015", "a2s:27016", "goldsrc:27015", "ase:27138", "mafia2mp:27016"}},
		{"minecraft: java status and query", 25565, all, []string{"gamespy4:25565", "minecraft:25565"}},
		{"quake3 and quake live (a2s)", 27960, all, []string{"quake3:27960", "a2s:27960"}},
		{"ase game port: +123", 22003, all, []string{"ase:22126"}},
		{"ase query port as given", 22126, all, []string{"ase:22126"}},
		{"2302: halo, arma3, dayz, and more", 2302, all, []string{"a2s:2303", "gamespy2:2302", "gamespy1:2303", "a2s:27016"}}, // OFP, Arma CWA and Resistance, Take On Helicopters: gamespy1 on +1
		{"7777: capped, the most voted first", 7777, all,
			[]string{"a2s:27015", "gamespy1:7778", "unreal2:7778", "samp:7777", "satisfactory:7777", "a2s:7780"}},
		{"unknown port: the defaults", 12345, all,
			[]string{"a2s:12345", "quake3:12345", "minecraft:12345", "gamespy4:12345", "gamespy2:12345", "gamespy1:12345"}},
		{"top port: no offset overflows", 65535, all,
			[]string{"a2s:65535", "quake3:65535", "minecraft:65535", "gamespy4:65535", "gamespy2:65535", "gamespy1:65535"}},
		{"limited module, unknown port", 12345, only("quake3", "hytale"), []string{"quake3:12345"}},
		{"limited module outside the defaults", 12345, only("ase", "hytale"), []string{"ase:12468", "hytale:12345"}},
		{"limited module, known port", 2456, only("quake3"), []string{"quake3:2456"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := names(choose(tc.port, tc.protos, catalog.Games))
			if !slices.Equal(got, tc.want) {
				t.Errorf("choose(%d) = %v, want %v", tc.port, got, tc.want)
			}
		})
	}
}

// TestChooseVotes: a port many games share outranks one a single protocol has,
// and never more than maxCandidates are tried.
func TestChooseVotes(t *testing.T) {
	protos := only("a2s", "quake3", "gamespy1", "gamespy2", "gamespy3", "gamespy4", "doom3", "quake2")
	var games []catalog.Game
	for i, p := range protos {
		games = append(games, catalog.Game{Module: fmt.Sprint("g", i), Protocol: p.Name, Port: 1000, Offsets: []int{0}})
	}
	games = append(games,
		catalog.Game{Module: "x", Protocol: "quake2", Port: 1000, Offsets: []int{0}},
		catalog.Game{Module: "y", Protocol: "quake2", Port: 900, Offsets: []int{100}})
	got := choose(1000, protos, games)
	if len(got) != maxCandidates {
		t.Fatalf("%d candidates, want %d: %v", len(got), maxCandidates, names(got))
	}
	if got[0].proto != "quake2" || got[0].votes != 3 {
		t.Errorf("first = %+v, want quake2 with 3 votes", got[0])
	}
	if got[1].proto != "a2s" || got[0].why != "g7's game port" {
		t.Errorf("order after the votes must be the catalog's: %v (%s)", names(got), got[0].why)
	}
}

package master

import (
	"strings"
	"testing"
)

// TestCarries: what each type of list fills, as its decoder does (the entries of
// ddnet.go, geneshift.go, pterodactyl.go, steamweb.go; the UDP masters and files
// list addresses only), a preset's field map included.
func TestCarries(t *testing.T) {
	tests := []struct {
		src  Source
		want Carried
	}{
		{Source{Type: TypeQuake3}, Carried{}},
		{Source{Type: TypeQuakeWorld}, Carried{}},
		{Source{Type: TypeSteam}, Carried{}},
		{Source{Type: TypeFile}, Carried{}},
		{Source{Type: TypeSteam, KeyFile: "/k"}, Carried{Name: true, Map: true, Game: true, Players: true}},
		{Source{Type: TypeDDNet}, Carried{Name: true, Map: true, Game: true, Players: true}},
		{Source{Type: TypeGeneshift}, Carried{Name: true, Map: true, Players: true}},
		{Source{Type: TypePterodactyl}, Carried{Name: true}},
		{Source{Type: TypeHTTPJSON, Fields: Fields{Address: "ip", Name: "n", Players: "p"}}, Carried{Name: true, Players: true}},
		{Source{Preset: "beammp"}, Carried{Name: true, Map: true, Players: true}},
		{Source{Preset: "minetest"}, Carried{Name: true, Game: true, Players: true}},
	}
	for _, tc := range tests {
		if got := Carries(tc.src); got != tc.want {
			t.Errorf("Carries(%+v) = %+v, want %+v", tc.src, got, tc.want)
		}
	}
	if got := strings.Join(CarriedBy("game"), ", "); got != "ddnet, http_json mapping fields.game, steam with key_file" {
		t.Errorf("CarriedBy(game) = %s", got)
	}
	if got := strings.Join(CarriedBy("name"), ", "); got != "ddnet, geneshift, http_json mapping fields.name, pterodactyl, ragemp, scum, steam with key_file" {
		t.Errorf("CarriedBy(name) = %s", got)
	}
}

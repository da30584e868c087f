package collector

import (
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/config"
	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// playerLines returns the per-player series of a probe's metrics, in exposition order.
func playerLines(o *Outcome) string {
	var b strings.Builder
	for _, line := range strings.SplitAfter(string(Append(nil, o, false)), "\n") {
		if strings.HasPrefix(line, "gameserver_player_") {
			b.WriteString(line)
		}
	}
	return b.String()
}

// TestPlayerInfoNamesOnly: a protocol that reports names only (Mafia 2 MP, VC:MP,
// Armagetron, a list's player names) or names and teams still shows each player,
// through the whole collector, under the per-player cap.
func TestPlayerInfoNamesOnly(t *testing.T) {
	res := &protocols.Result{Players: protocols.Known(4), PlayerList: []protocols.Player{
		{Name: "Vito"}, {Name: "Joe", Team: "Falcone"}, {Name: "Vito"}, {Name: "Henry\x01", Team: "Clemente"},
	}}
	for _, tt := range []struct {
		players bool
		max     int
		want    string
	}{
		{players: false, max: 10, want: ""},
		{players: true, max: 10, want: `gameserver_player_info{player="Henry",team="Clemente"} 1
gameserver_player_info{player="Joe",team="Falcone"} 1
gameserver_player_info{player="Vito",team=""} 1
gameserver_player_info{player="Vito (2)",team=""} 1
`},
		{players: true, max: 2, want: `gameserver_player_info{player="Joe",team="Falcone"} 1
gameserver_player_info{player="Vito",team=""} 1
`},
	} {
		mods := map[string]*config.Module{"names": {Protocol: "fake", Players: tt.players, MaxPlayerSeries: tt.max}}
		r := newTestRunner(t, &prototest.FakeQuerier{Result: res}, mods)
		o := run(t, r, "names", "127.0.0.1:27015", "")
		if !o.Success() {
			t.Fatalf("probe failed: %v", o.Err)
		}
		if got := playerLines(o); got != tt.want {
			t.Errorf("players %v, max %d:\n%s\nwant:\n%s", tt.players, tt.max, got, tt.want)
		}
	}
}

// TestPlayerInfoBesideNumbers: a player with numbers has its info series too, under
// the same (de-duplicated) name as its numbers.
func TestPlayerInfoBesideNumbers(t *testing.T) {
	res := &protocols.Result{PlayerList: []protocols.Player{
		{Name: "amy", Score: protocols.Known(3), Team: "red"}, {Name: "amy", Ping: protocols.Known(40)},
	}}
	r := newTestRunner(t, &prototest.FakeQuerier{Result: res}, nil)
	want := `gameserver_player_info{player="amy",team="red"} 1
gameserver_player_info{player="amy (2)",team=""} 1
gameserver_player_ping_seconds{player="amy (2)"} 0.04
gameserver_player_score{player="amy"} 3
`
	if got := playerLines(run(t, r, "fake", "127.0.0.1:27015", "")); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

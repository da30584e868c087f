package collector

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/prometheus/common/expfmt"

	"github.com/gameserver-exporter/gameserver_exporter/config"
	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// replay is a prometheus.Collector that emits the samples of some families as const
// metrics: the registry path that buildFamilies replaces.
type replay struct{ *families }

func (r replay) Describe(ch chan<- *prometheus.Desc) {}

func (r replay) Collect(ch chan<- prometheus.Metric) {
	for _, s := range r.samples {
		d := prometheus.NewDesc(s.d.name, s.d.help, s.d.labels, nil)
		ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, s.v, r.values[s.lo:s.hi]...)
	}
}

// TestFamiliesMatchRegistry proves that building families directly exposes exactly
// what a fresh registry per probe (blackbox's way) would, in both text formats.
func TestFamiliesMatchRegistry(t *testing.T) {
	mod := &config.Module{Protocol: "fake", Players: true, Rules: true, MaxPlayerSeries: 10}
	tr := wire.NewTrace()
	tr.End(tr.Begin("challenge"), nil)
	tr.End(tr.Begin("info"), nil)
	tr.End(tr.Begin("players"), wire.ErrTimeout)
	tr.Attempts = 3
	o := &Outcome{Module: mod, Trace: tr, Port: 27015, When: time.Unix(1_700_000_000, 0), Result: &protocols.Result{
		Name: "srv", Map: "m", Game: "g", Version: "v",
		Uptime: protocols.SpanSeconds(86400), MapTime: protocols.SpanSeconds(90),
		Players: protocols.Known(2), MaxPlayers: protocols.Known(8), Bots: protocols.Known(0),
		Password: protocols.FlagTrue, Modded: protocols.FlagFalse,
		State: "playing", States: []string{"idle", "loading", "playing"},
		SubStates: []protocols.SubState{{Name: "b", Version: 2}, {Name: "a", Version: 1}},
		Rules:     []protocols.KV{{Key: "k", Value: "v"}},
		Queue:     protocols.Known(4),
		Mods:      []protocols.Mod{{Name: "CBA_A3", ID: "450814997"}, {Name: "ACE", ID: "463939057"}},
		PlayerList: []protocols.Player{
			{Name: "zed", Score: protocols.Known(-1), Ping: protocols.Known(50)},
			{Name: "amy", Score: protocols.Known(3), Duration: 1.5, DurationKnown: true},
		},
	}}
	compareWithRegistry(t, buildFamilies(o))
}

// TestEncoderEdgeCases covers what expfmt escapes or formats specially.
func TestEncoderEdgeCases(t *testing.T) {
	f := newFamilies()
	f.add(info, 1, "back\\slash", "new\nline", `quo"te`, "fake", "ünï©ødé")
	f.add(players, 12345678901)
	f.add(playersMax, 0.5)
	f.add(queryPort, 999999)
	f.add(queryAttempts, 1e6)
	f.add(rulesCount, -999999)
	f.add(modsCount, math.Copysign(0, -1))
	f.add(queued, 123456.5)
	f.add(bots, -1)
	f.add(probeDuration, 1e-7)
	f.add(probeTimeout, math.Inf(1))
	f.add(probeSuccess, math.NaN())
	f.add(playerScore, -3, "b")
	f.add(playerScore, 2, "a")
	f.add(playerScore, 1e21, "c")
	compareWithRegistry(t, f)
}

// TestMods: mods are exported with rules only, capped, duplicates dropped, and an
// empty list is a known zero.
func TestMods(t *testing.T) {
	mods := []protocols.Mod{{Name: "b", ID: "2"}, {Name: "a", ID: "1"}, {Name: "a", ID: "1"}, {Name: "a", ID: "3"}, {Name: "c"}}
	for _, tt := range []struct {
		rules bool
		max   int
		mods  []protocols.Mod
		want  string // the mod series, in exposition order
	}{
		{rules: false, max: 10, mods: mods, want: ""},
		{rules: true, max: 10, mods: nil, want: ""},
		{rules: true, max: 10, mods: []protocols.Mod{}, want: "gameserver_mods 0\n"},
		{rules: true, max: 10, mods: mods, want: `gameserver_mod_info{id="",mod="c"} 1
gameserver_mod_info{id="1",mod="a"} 1
gameserver_mod_info{id="2",mod="b"} 1
gameserver_mod_info{id="3",mod="a"} 1
gameserver_mods 5
`},
		{rules: true, max: 2, mods: mods, want: `gameserver_mod_info{id="1",mod="a"} 1
gameserver_mod_info{id="2",mod="b"} 1
gameserver_mods 5
`},
	} {
		mod := &config.Module{Protocol: "fake", Rules: tt.rules, MaxPlayerSeries: tt.max}
		o := &Outcome{Module: mod, Result: &protocols.Result{Mods: tt.mods}}
		if got := seriesLines(o, "gameserver_mod"); got != tt.want {
			t.Errorf("rules=%v max=%d %v:\n%s\nwant\n%s", tt.rules, tt.max, tt.mods, got, tt.want)
		}
	}
}

// compareWithRegistry compares what f exposes with what a pedantic registry
// exposes of the same samples, in both text formats.
func compareWithRegistry(t *testing.T, f *families) {
	t.Helper()
	var names []string
	for _, s := range f.samples {
		names = append(names, s.d.name)
	}
	for _, format := range []expfmt.FormatType{expfmt.TypeTextPlain, expfmt.TypeOpenMetrics} {
		theirs, err := testutil.CollectAndFormat(replay{f}, format, names...)
		if ours := string(f.appendTo(nil, format == expfmt.TypeOpenMetrics)); err != nil || ours != string(theirs) {
			t.Errorf("%s differs from the registry path (%v):\n--- ours\n%s\n--- registry\n%s", expfmt.NewFormat(format), err, ours, theirs)
		}
	}
}

// seriesLines returns the series of a probe's metrics whose names start with
// prefix, in exposition order.
func seriesLines(o *Outcome, prefix string) string {
	var b strings.Builder
	for _, line := range strings.SplitAfter(string(Append(nil, o, false)), "\n") {
		if strings.HasPrefix(line, prefix) {
			b.WriteString(line)
		}
	}
	return b.String()
}

// TestPlayerInfo: a protocol that reports names only (Mafia 2 MP, VC:MP,
// Armagetron, a list's player names) or names and teams still shows each player,
// through the whole collector, under the per-player cap; a player with numbers
// has its info series too, under the same (de-duplicated) name as its numbers.
func TestPlayerInfo(t *testing.T) {
	names := &protocols.Result{Players: protocols.Known(4), PlayerList: []protocols.Player{
		{Name: "Vito"}, {Name: "Joe", Team: "Falcone"}, {Name: "Vito"}, {Name: "Henry\x01", Team: "Clemente"},
	}}
	numbers := &protocols.Result{PlayerList: []protocols.Player{
		{Name: "amy", Score: protocols.Known(3), Team: "red"}, {Name: "amy", Ping: protocols.Known(40)},
	}}
	for _, tt := range []struct {
		res     *protocols.Result
		players bool
		max     int
		want    string
	}{
		{names, false, 10, ""},
		{names, true, 10, `gameserver_player_info{player="Henry",team="Clemente"} 1
gameserver_player_info{player="Joe",team="Falcone"} 1
gameserver_player_info{player="Vito",team=""} 1
gameserver_player_info{player="Vito (2)",team=""} 1
`},
		{names, true, 2, `gameserver_player_info{player="Joe",team="Falcone"} 1
gameserver_player_info{player="Vito",team=""} 1
`},
		{numbers, true, 10, `gameserver_player_info{player="amy",team="red"} 1
gameserver_player_info{player="amy (2)",team=""} 1
gameserver_player_ping_seconds{player="amy (2)"} 0.04
gameserver_player_score{player="amy"} 3
`},
	} {
		mods := map[string]*config.Module{"names": {Protocol: "fake", Players: tt.players, MaxPlayerSeries: tt.max}}
		r := newTestRunner(t, &prototest.FakeQuerier{Result: tt.res}, mods)
		o := run(t, r, "names", "127.0.0.1:27015", "")
		if !o.Success() {
			t.Fatalf("probe failed: %v", o.Err)
		}
		if got := seriesLines(o, "gameserver_player_"); got != tt.want {
			t.Errorf("%v, players %v, max %d:\n%s\nwant:\n%s", tt.res.PlayerList, tt.players, tt.max, got, tt.want)
		}
	}
}

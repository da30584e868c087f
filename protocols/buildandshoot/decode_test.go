package buildandshoot

import (
	"errors"
	"fmt"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// The testdata replies follow piqueserver's statusserver.py (piqueserver.json)
// and the older team layout gamedig reads (pyspades.json); values are our own.
func TestDecode(t *testing.T) {
	tests := []struct {
		file    string
		err     error
		want    string // name|map|game|version|players max
		players string
	}{
		{file: "piqueserver.json", want: "Pique CTF|hallway|ctf|piqueserver 1.0.0|{3 true} {32 true}",
			players: "[Deuce/Blue/7/48 Ace/Green/2/120 Watcher/Spectator/0/30]"},
		{file: "pyspades.json", want: "Classic TDM|classicgen|tdm|0.75|{2 true} {24 true}",
			players: "[Deuce/Blue/3/60 Ace/Green/-/-]"},
		{file: "not_bns.json", err: wire.ErrMalformed},
		{file: "truncated.json", err: wire.ErrMalformed},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			s, err := decode(prototest.File(t, tc.file))
			if !errors.Is(err, tc.err) || (err == nil) != (tc.err == nil) {
				t.Fatalf("err = %v, want %v", err, tc.err)
			}
			if err != nil {
				return
			}
			res := s.result(true)
			if got := fmt.Sprintf("%s|%s|%s|%s|%v %v", res.Name, res.Map, res.Game, res.Version, res.Players, res.MaxPlayers); got != tc.want {
				t.Errorf("result %s, want %s", got, tc.want)
			}
			var pl []string
			for _, p := range res.PlayerList {
				score, ping := "-", "-"
				if p.Score.Known {
					score = fmt.Sprint(p.Score.Value)
				}
				if p.Ping.Known {
					ping = fmt.Sprint(p.Ping.Value)
				}
				pl = append(pl, fmt.Sprintf("%s/%s/%s/%s", p.Name, p.Team, score, ping))
			}
			if got := fmt.Sprint(pl); got != tc.players {
				t.Errorf("players %s, want %s", got, tc.players)
			}
			if s.result(false).PlayerList != nil {
				t.Error("players not asked for")
			}
			// piqueserver's serverUptime (seconds) is the start time; pyspades sends none.
			if want := map[string]protocols.Span{"piqueserver.json": protocols.SpanSeconds(3600.25)}[tc.file]; res.Uptime != want {
				t.Errorf("uptime %+v, want %+v", res.Uptime, want)
			}
		})
	}
	if _, err := decode([]byte(`{"serverName":"x","players":{"blue":5}}`)); !errors.Is(err, wire.ErrMalformed) {
		t.Errorf("players of the wrong shape: %v", err)
	}
}

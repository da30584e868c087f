package quakeworld

import (
	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/idtech"
)

// result maps the reply onto a protocols.Result.
//
// Spectators are not players: they are left out of Players and PlayerList
// (qstat counts them apart too). Bots are not reported: KTX frogbots look like
// any other client (mvdsv fakes their ping as 10).
//
// Password: qwsv and its descendants set `needpass` (bit 1: player password,
// bit 2: spectator password) only while a password is set and remove the key
// otherwise, so its absence means "no password".
func (r *reply) result(players, rules bool) *protocols.Result {
	res := &protocols.Result{Info: r.Pairs}
	res.Name = r.Text("hostname")
	res.Map = r.Text("map")
	res.Game = r.Text("*gamedir", "*progs")
	res.Version = r.Text("*version")
	res.MaxPlayers = r.Count("maxclients")
	res.Password = r.NeedPass(protocols.FlagFalse)
	n := 0
	for i := range r.Players {
		if !r.Players[i].Spectator {
			n++
		}
	}
	res.Players = protocols.Known(int64(n))
	if players {
		res.PlayerList = make([]protocols.Player, 0, n)
		for i := range r.Players {
			p := &r.Players[i]
			if p.Spectator {
				continue
			}
			out := protocols.Player{
				Name:  idtech.Readable(p.Name),
				Score: protocols.Known(p.Frags),
				Ping:  protocols.Known(p.Ping),
				Team:  idtech.Readable(p.Team),
			}
			if p.Minutes >= 0 { // whole minutes: the server rounds down
				out.Duration, out.DurationKnown = float64(p.Minutes)*60, true
			}
			res.PlayerList = append(res.PlayerList, out)
		}
	}
	if rules {
		res.Rules = r.Pairs
	}
	return res
}

package quake2

import (
	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/idtech"
)

// result maps the reply onto a protocols.Result.
//
// Game is the mod directory (`game`, empty for baseq2) or else the game
// library's `gamename`. Password comes from `needpass`, which the stock game
// library keeps in the serverinfo (bit 1: player password, bit 2: spectator
// password); without it the password state is unknown. Bots are not reported:
// they are ordinary client lines, and a LAN player can have ping 0 too.
func (r *reply) result(players, rules bool) *protocols.Result {
	res := &protocols.Result{Info: r.Pairs}
	res.Name = r.Text("hostname")
	res.Map = r.Text("mapname")
	res.Game = r.Text("game")
	if res.Game == "" {
		res.Game = r.Text("gamename")
	}
	res.Version = r.Text("version")
	res.MaxPlayers = r.Count("maxclients")
	res.Password = r.NeedPass(protocols.FlagUnknown)
	res.Players = protocols.Known(int64(len(r.Players)))
	if players {
		res.PlayerList = make([]protocols.Player, len(r.Players))
		for i := range r.Players {
			p := &r.Players[i]
			res.PlayerList[i] = protocols.Player{
				Name:  idtech.Readable(p.Name),
				Score: protocols.Known(p.Score),
				Ping:  protocols.Known(p.Ping),
			}
		}
	}
	if rules {
		res.Rules = r.Pairs
	}
	return res
}

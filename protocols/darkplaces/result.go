package darkplaces

import (
	"fmt"
	"strings"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/idtech"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// errNoList is the players phase error of an infoResponse answer.
var errNoList = fmt.Errorf("%w: the server answered getstatus with an infoResponse: its player list does not fit in one datagram", wire.ErrTruncated)

// full reports whether the reply is a statusResponse, with the player list.
func (r *reply) full() bool { return r.Response == idtech.StatusResponse }

func (r *reply) textOf(key string) string {
	v, _ := r.Raw(key)
	return text(v)
}

// result maps the reply onto a protocols.Result.
//
// Bots is the server's own count (`bots`) or else, in older engines without
// that key, the player lines with ping 0. Players counts humans: `clients`
// (or else the player lines), which include the bots, less the bots. Version is the game's from qcstatus
// (`dm:2.5.2::...`) or else the numeric gameversion. DarkPlaces reports no
// password state. An infoResponse answer (the list did not fit) gives the
// counts and, when players were asked for, a players phase error.
func (r *reply) result(players, rules bool) *protocols.Result {
	res := &protocols.Result{Info: r.Pairs}
	res.Name = r.textOf("hostname")
	res.Map = r.textOf("mapname")
	res.Game = r.textOf("gamename")
	res.Version = r.textOf("gameversion")
	if qc, ok := r.Raw("qcstatus"); ok {
		if f := strings.Split(string(qc), ":"); len(f) > 1 && f[1] != "" {
			res.Version = text([]byte(f[1]))
		}
	}
	res.MaxPlayers = r.Count("sv_maxclients")
	clients := r.Count("clients")
	res.Bots = r.Count("bots")
	if r.full() {
		if !clients.Known {
			clients = protocols.Known(int64(len(r.Players)))
		}
		if !res.Bots.Known {
			res.Bots = protocols.Known(int64(r.botLines()))
		}
	}
	res.Players = idtech.Humans(clients, res.Bots)
	if players {
		if r.full() {
			res.PlayerList = make([]protocols.Player, len(r.Players))
			for i := range r.Players {
				p := &r.Players[i]
				out := &res.PlayerList[i]
				out.Name = text(p.Name)
				if p.ScoreKnown {
					out.Score = protocols.Known(p.Score)
				}
				out.Ping = protocols.Known(p.Ping)
				out.Team = text(p.Team)
				out.Bot = p.Bot()
			}
		} else {
			res.PhaseErrors = append(res.PhaseErrors, protocols.PhaseError{Phase: "players", Err: errNoList})
		}
	}
	if rules {
		res.Rules = r.Pairs
	}
	return res
}

// botLines counts the player lines of bots.
func (r *reply) botLines() int {
	n := 0
	for i := range r.Players {
		if r.Players[i].Bot() {
			n++
		}
	}
	return n
}

package darkplaces

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/quake3"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/quakeworld"
)

// errNoList is the players phase error of an infoResponse answer.
var errNoList = fmt.Errorf("%w: the server answered getstatus with an infoResponse: its player list does not fit in one datagram", protocols.ErrTruncated)

// Full reports whether the reply is a statusResponse, with the player list.
func (r *Reply) Full() bool { return r.Q3.Response == quake3.StatusResponse }

func (r *Reply) raw(key string) ([]byte, bool) {
	v, ok := r.Q3.Lookup(key)
	return latin1Bytes(v), ok
}

func (r *Reply) text(key string) string {
	v, _ := r.raw(key)
	return Text(v)
}

// count parses a non-negative count; anything else is "not reported".
func (r *Reply) count(key string) protocols.Count {
	v, ok := r.raw(key)
	if !ok {
		return protocols.Count{}
	}
	n, ok := quakeworld.ParseInt(bytes.TrimSpace(v))
	if !ok || n < 0 {
		return protocols.Count{}
	}
	return protocols.Known(n)
}

// Result maps the reply onto a protocols.Result.
//
// Players and bots are the server's own counts (`clients` includes bots);
// without them (older engines have no `bots` key) the player lines are
// counted, ping 0 marking a bot. Version is the game's from qcstatus
// (`dm:2.5.2::...`) or else the numeric gameversion. DarkPlaces reports no
// password state. An infoResponse answer (the list did not fit) gives the
// counts and, when players were asked for, a players phase error.
func (r *Reply) Result(players, rules bool) *protocols.Result {
	res := &protocols.Result{Info: r.Q3.Info}
	res.Name = r.text("hostname")
	res.Map = r.text("mapname")
	res.Game = r.text("gamename")
	res.Version = r.text("gameversion")
	if qc, ok := r.raw("qcstatus"); ok {
		if f := strings.Split(string(qc), ":"); len(f) > 1 && f[1] != "" {
			res.Version = Text([]byte(f[1]))
		}
	}
	res.MaxPlayers = r.count("sv_maxclients")
	res.Players = r.count("clients")
	res.Bots = r.count("bots")
	if r.Full() {
		if !res.Players.Known {
			res.Players = protocols.Known(int64(len(r.Players)))
		}
		if !res.Bots.Known {
			n := 0
			for i := range r.Players {
				if r.Players[i].Bot() {
					n++
				}
			}
			res.Bots = protocols.Known(int64(n))
		}
	}
	if players {
		if r.Full() {
			res.PlayerList = make([]protocols.Player, len(r.Players))
			for i := range r.Players {
				p := &r.Players[i]
				out := &res.PlayerList[i]
				out.Name = Text(p.Name)
				if p.ScoreKnown {
					out.Score = protocols.Known(p.Score)
				}
				out.Ping = protocols.Known(p.Ping)
				out.Team = Text(p.Team)
				out.Bot = p.Bot()
			}
		} else {
			res.PhaseErrors = append(res.PhaseErrors, protocols.PhaseError{Phase: "players", Err: errNoList})
		}
	}
	if rules {
		res.Rules = r.Q3.Info
	}
	return res
}

package quake3

import (
	"strings"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/idtech"
)

// result maps the reply onto a protocols.Result. Key names differ between games,
// so each field tries the known spellings in order.
//
// Bots: stock servers (ioq3/OpenArena included) list bots as ordinary player
// lines with ping 0, and a human on a LAN can have ping 0 too, so no line is
// marked as a bot here. Bots is reported only when the server counts them
// itself: the `bots` key (DarkPlaces/Nexuiz/Xonotic) or `g_botplayers`, or in
// an infoResponse `clients` minus `g_humanplayers` (ioq3 1.36+; the querier
// asks getinfo for it, see countBots). Players counts humans: the player lines
// (or `clients`) less those bots when they are known, all of them otherwise.
func (r *reply) result(players, rules bool) *protocols.Result {
	res := &protocols.Result{Info: r.Pairs}
	res.Name = r.clean("sv_hostname", "hostname")
	res.Map = r.clean("mapname")
	res.Game = r.clean("gamename", "game", "fs_game")
	res.Version = r.clean("version", "shortversion")
	res.MaxPlayers = r.count("sv_maxclients", "maxclients")
	if v, ok := r.Lookup("g_needpass", "needpass", "pswrd"); ok {
		if n, ok := idtech.ParseInt([]byte(strings.TrimSpace(v))); ok {
			res.Password = protocols.FlagOf(n != 0)
		}
	}
	res.Bots = r.count("bots", "g_botplayers")
	if v, ok := r.Lookup("sv_uptime"); ok {
		res.Uptime = parseUptime(v)
	}
	var clients protocols.Count
	if r.Response == idtech.StatusResponse {
		// The line count is what the server really lists; some forks report
		// wrong client counts in their keys (Unvanquished #1028).
		clients = protocols.Known(int64(len(r.Players)))
	} else {
		clients = r.count("clients")
		humans := r.count("g_humanplayers")
		if !res.Bots.Known && clients.Known && humans.Known && humans.Value <= clients.Value {
			res.Bots = protocols.Known(clients.Value - humans.Value)
		}
	}
	res.Players = idtech.Humans(clients, res.Bots)
	if players && r.Response == idtech.StatusResponse {
		res.PlayerList = make([]protocols.Player, len(r.Players))
		for i := range r.Players {
			p := &r.Players[i]
			out := &res.PlayerList[i]
			out.Name = p.Clean
			if v, ok := p.Score(); ok {
				out.Score = protocols.Known(v)
			}
			if v, ok := p.Ping(); ok {
				out.Ping = protocols.Known(v)
			}
			out.Team = p.Team()
		}
	}
	if rules {
		res.Rules = r.Pairs
	}
	return res
}

func (r *reply) clean(keys ...string) string {
	v, _ := r.Lookup(keys...)
	return idtech.StripColours(v)
}

// count parses a non-negative count; anything else is "not reported". It trims
// the decoded value (so Latin-1's U+0085 and U+00A0 count as blanks), unlike
// idtech.Info.Count, which trims the raw bytes.
func (r *reply) count(keys ...string) protocols.Count {
	v, ok := r.Lookup(keys...)
	if !ok {
		return protocols.Count{}
	}
	n, ok := idtech.ParseInt([]byte(strings.TrimSpace(v)))
	if !ok || n < 0 {
		return protocols.Count{}
	}
	return protocols.Known(n)
}

// pingZero counts the player lines with ping 0: bots have it (and so can a
// human on a LAN).
func (r *reply) pingZero() int {
	n := 0
	for i := range r.Players {
		if v, ok := r.Players[i].Ping(); ok && v == 0 {
			n++
		}
	}
	return n
}

// parseUptime reads Wolfenstein: Enemy Territory's sv_uptime ("12d00h09m": days,
// hours, minutes, each part optional but in that order); anything else is not
// reported.
func parseUptime(v string) protocols.Span {
	v = strings.TrimSpace(v)
	var secs float64
	units := []struct {
		suffix byte
		secs   float64
	}{{'d', 86400}, {'h', 3600}, {'m', 60}}
	parts := 0
	for _, u := range units {
		i := strings.IndexByte(v, u.suffix)
		if i < 0 {
			continue
		}
		n, ok := idtech.ParseInt([]byte(v[:i]))
		if !ok || i == 0 || i > 6 || n < 0 {
			return protocols.Span{}
		}
		secs += float64(n) * u.secs
		v = v[i+1:]
		parts++
	}
	if parts == 0 || v != "" {
		return protocols.Span{}
	}
	return protocols.SpanSeconds(secs)
}

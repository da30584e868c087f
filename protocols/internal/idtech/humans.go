package idtech

import "github.com/gameserver-exporter/gameserver_exporter/protocols"

// Humans is a client count without its bots: the engines count bots among
// their clients (and list them as player lines), while Result.Players counts
// humans only. Without a bot count it is total; a bot count above total (a
// lying server, or counts taken at different moments) leaves it unknown.
func Humans(total, bots protocols.Count) protocols.Count {
	switch {
	case !total.Known || !bots.Known:
		return total
	case bots.Value > total.Value:
		return protocols.Count{}
	}
	return protocols.Known(total.Value - bots.Value)
}

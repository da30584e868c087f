package unreal2

import (
	"strconv"
	"strings"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
)

// status gathers what the phases decoded, for the Result and its debug key/values.
type status struct {
	in         *info
	scoreboard []player // records that are no player (see isScoreLine)
}

// result fills a Result from the info reply alone.
func (s *status) result() *protocols.Result {
	in := s.in
	res := &protocols.Result{Name: in.name, Map: in.mapName, Game: in.game}
	// int32 counts: a negative one is a broken server, not a count.
	if in.numPlayers >= 0 {
		res.Players = protocols.Known(int64(in.numPlayers))
	}
	if in.maxPlayer >= 0 {
		res.MaxPlayers = protocols.Known(int64(in.maxPlayer))
	}
	res.InfoFunc = s.infoKV
	return res
}

// splitBots splits the info's player count, which counts bots too, into the humans
// the player list holds and the bots the list leaves out. UT2004's DeathMatch
// reports Max(NumPlayers, Min(NumPlayers+NumBots, MaxPlayers-1)) when a human is on
// and NumPlayers otherwise, and its player list (GetServerPlayers) walks only the
// PlayerControllers. A list longer than the count (a lying server) leaves the bots
// unknown.
func splitBots(res *protocols.Result, counted, listed int) {
	res.Players = protocols.Known(int64(listed))
	if counted >= listed {
		res.Bots = protocols.Known(int64(counted - listed))
	}
}

// isScoreLine tells the team score lines some mods append to the player list (3SPN:
// "Red Team" / "Blue Team" with only a score) from players: node-gamedig takes a
// record with player number 0 for such a line; a line also has no ping and no stats
// id, which a connected player has. XMP numbers no player, so it has none.
func isScoreLine(p player, version uint32) bool {
	return version != versionXMP && p.num == 0 && p.ping == 0 && p.statsID == 0
}

// addPlayers sets the player list, keeping score lines apart.
func (s *status) addPlayers(res *protocols.Result, ps []player) {
	res.PlayerList = make([]protocols.Player, 0, len(ps))
	for _, p := range ps {
		if isScoreLine(p, s.in.version) {
			s.scoreboard = append(s.scoreboard, p)
			continue
		}
		res.PlayerList = append(res.PlayerList, protocols.Player{
			Name:  p.name,
			Score: protocols.Known(int64(p.score)),
			Ping:  protocols.Known(int64(p.ping)),
			Team:  p.team,
		})
	}
}

// addRules reads the password and version from the rules stock servers send:
// GamePassword=True only when a password is needed, and ServerVersion (the engine
// version). complete says the phase ended without error, so a missing GamePassword
// means none is needed.
func addRules(res *protocols.Result, kv []protocols.KV, complete bool) {
	pw := protocols.FlagUnknown
	if complete {
		pw = protocols.FlagFalse
	}
	for _, p := range kv {
		switch {
		case strings.EqualFold(p.Key, "GamePassword"):
			pw = protocols.FlagOf(strings.EqualFold(p.Value, "True"))
		case strings.EqualFold(p.Key, "ServerVersion") && res.Version == "":
			res.Version = p.Value
		}
	}
	res.Password = pw
}

// infoKV lists the info reply's fields (and any score lines) for debug output.
func (s *status) infoKV() []protocols.KV {
	in := s.in
	i32 := func(v int32) string { return strconv.FormatInt(int64(v), 10) }
	kv := []protocols.KV{
		{Key: "protocol_version", Value: "0x" + strconv.FormatUint(uint64(in.version), 16)},
		{Key: "server_id", Value: i32(in.serverID)},
		{Key: "ip", Value: in.ip},
		{Key: "game_port", Value: i32(in.gamePort)},
		{Key: "query_port", Value: i32(in.queryPort)},
		{Key: "server_name", Value: in.name},
		{Key: "map_name", Value: in.mapName},
		{Key: "game_type", Value: in.game},
		{Key: "current_players", Value: i32(in.numPlayers)},
		{Key: "max_players", Value: i32(in.maxPlayer)},
	}
	if in.layout != "" {
		kv = append(kv, protocols.KV{Key: "layout", Value: in.layout})
	}
	if in.layout == "killingfloor" {
		kv = append(kv, protocols.KV{Key: "wave_current", Value: i32(in.waveCurrent)}, protocols.KV{Key: "wave_total", Value: i32(in.waveTotal)})
	}
	if in.layout != "" {
		kv = append(kv, protocols.KV{Key: "ping", Value: i32(in.ping)})
	}
	if in.layout == "ut2004" || in.layout == "killingfloor" {
		kv = append(kv, protocols.KV{Key: "flags", Value: "0x" + strconv.FormatUint(uint64(uint32(in.flags)), 16)}, protocols.KV{Key: "skill", Value: in.skill})
	}
	if in.trailing > 0 {
		kv = append(kv, protocols.KV{Key: "trailing_bytes", Value: strconv.Itoa(in.trailing)})
	}
	for _, p := range s.scoreboard {
		kv = append(kv, protocols.KV{Key: "score_line " + p.name, Value: i32(p.score)})
	}
	return kv
}

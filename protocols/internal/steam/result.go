package steam

import (
	"iter"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// Text returns s as valid UTF-8: as is when it already is (no copy), else read as
// Windows-1252 (GoldSrc servers send the Windows code page their clients typed).
func Text(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return wire.UTF8([]byte(s))
}

// Result maps the info reply onto the exporter's Result.
//
// Players is the number of humans: the wire count includes bots, and Valve's own
// server browser shows players minus bots (serverbrowser BaseGamesPage), so
// gameserver_players matches what players see and gameserver_bots carries the rest.
// Info keeps the raw count under "players". MaxPlayers is the slot count as sent.
// Rust writes the real counts (which do not fit a byte) into its keywords as
// cp<current>, mp<max> and qp<queued>; they win over the byte fields, and qp is the
// queue. Only for Rust (AppID 252490): elsewhere such tags are not counts (TF2 tags
// a game mode "cp"). DayZ's queue tag (lqs) is read for DayZ alone, likewise.
func (in *Info) Result() *protocols.Result {
	r := &protocols.Result{
		Name:       Text(in.Name),
		Map:        Text(in.Map),
		Game:       Text(in.Game),
		Version:    Text(in.Version),
		MaxPlayers: protocols.Known(int64(in.MaxPlayers)),
		Password:   protocols.FlagOf(in.Visibility != 0),
	}
	players := int64(in.Players)
	if in.HasBots {
		r.Bots = protocols.Known(int64(in.Bots))
		players = max(players-int64(in.Bots), 0)
	}
	if in.HasHLTVCounts {
		// The byte fields saturate on a big relay: the longs are the real numbers.
		// They are signed on the wire: a broken relay must not report -1 players.
		players = max(int64(in.Spectators), 0)
		r.MaxPlayers = protocols.Known(max(int64(in.SpectatorSlots), 0))
	}
	r.Players = protocols.Known(players)
	if in.Extra&EDFKeywords != 0 && in.FullAppID() == AppIDRust {
		cp, mp, qp, modded := rustTags(in.Keywords)
		if cp >= 0 {
			r.Players = protocols.Known(cp)
		}
		if mp >= 0 {
			r.MaxPlayers = protocols.Known(mp)
		}
		if qp >= 0 {
			r.Queue = protocols.Known(qp)
		}
		if modded {
			r.Modded = protocols.FlagTrue
		}
	}
	// DayZ writes its login queue into the keywords as lqs<N>. Only for DayZ: in
	// another game such a tag means whatever that game makes of it.
	if in.Extra&EDFKeywords != 0 && IsDayZ(in.FullAppID()) {
		if q := dayzQueue(in.Keywords); q >= 0 {
			r.Queue = protocols.Known(q)
		}
	}
	r.InfoFunc = in.KV // formatted only if debug output asks
	return r
}

// rustTags reads Rust's count tags (cp93, mp125, qp4) from keywords; -1 when absent.
func rustTags(kw string) (cp, mp, qp int64, modded bool) {
	cp, mp, qp = -1, -1, -1
	for tag := range keywordTags(kw) {
		if tag == "modded" {
			modded = true
			continue
		}
		if len(tag) < 3 || len(tag) > 9 {
			continue
		}
		n, err := strconv.ParseUint(tag[2:], 10, 32)
		if err != nil {
			continue
		}
		switch tag[:2] {
		case "cp":
			cp = int64(n)
		case "mp":
			mp = int64(n)
		case "qp":
			qp = int64(n)
		}
	}
	return cp, mp, qp, modded
}

// dayzQueue reads DayZ's login queue tag (lqs3) from keywords; -1 when absent. The
// other DayZ tags (no3rd, privHive, external, isDLC, etm/entm, the HH:MM time) stay
// in the raw keywords of the debug output.
func dayzQueue(kw string) int64 {
	for tag := range keywordTags(kw) {
		if len(tag) < 4 || len(tag) > 13 || tag[:3] != "lqs" {
			continue
		}
		if n, err := strconv.ParseUint(tag[3:], 10, 32); err == nil {
			return int64(n)
		}
	}
	return -1
}

// keywordTags yields the comma-separated tags of A2S keywords, leading spaces
// trimmed, without allocating.
func keywordTags(kw string) iter.Seq[string] {
	return func(yield func(string) bool) {
		for tag := range strings.SplitSeq(kw, ",") {
			if !yield(strings.TrimLeft(tag, " ")) {
				return
			}
		}
	}
}

// kvBuilder collects the key/values of debug output (Info.KV, called only when
// debug output is asked for: plain formatting is enough).
type kvBuilder struct {
	kv []protocols.KV
}

func (k *kvBuilder) str(key, v string) {
	k.kv = append(k.kv, protocols.KV{Key: key, Value: Text(v)})
}

func (k *kvBuilder) uint(key string, v uint64) {
	k.kv = append(k.kv, protocols.KV{Key: key, Value: strconv.FormatUint(v, 10)})
}

func (k *kvBuilder) int(key string, v int64) {
	k.kv = append(k.kv, protocols.KV{Key: key, Value: strconv.FormatInt(v, 10)})
}

// char writes an ASCII type letter as itself and anything else as its number.
func (k *kvBuilder) char(key string, c byte) {
	if c > ' ' && c < 0x7F {
		k.kv = append(k.kv, protocols.KV{Key: key, Value: string(rune(c))})
		return
	}
	k.uint(key, uint64(c))
}

// KV lists every decoded field in wire order, for debug output. app_id is the full
// AppID (from the GameID when the 16-bit field cannot hold it).
func (in *Info) KV() []protocols.KV {
	k := kvBuilder{kv: make([]protocols.KV, 0, 32)}
	if in.Type == TypeInfoDetailed {
		in.detailedKV(&k)
	} else {
		in.sourceKV(&k)
	}
	if in.Extra&EDFKeywords != 0 && in.FullAppID() == AppIDRust {
		if _, _, qp, _ := rustTags(in.Keywords); qp >= 0 {
			k.int("queued_players", qp)
		}
	}
	if in.Extra&EDFKeywords != 0 && IsDayZ(in.FullAppID()) {
		if q := dayzQueue(in.Keywords); q >= 0 {
			k.int("queued_players", q)
		}
	}
	if in.UnknownEDF {
		k.str("edf_unknown_layout", "true")
	}
	if in.Truncated {
		k.str("truncated", "true")
	}
	if in.Trailing > 0 {
		k.int("trailing_bytes", int64(in.Trailing))
	}
	return k.kv
}

func (in *Info) sourceKV(k *kvBuilder) {
	k.uint("protocol", uint64(in.Protocol))
	k.str("name", in.Name)
	k.str("map", in.Map)
	k.str("folder", in.Folder)
	k.str("game", in.Game)
	k.uint("app_id", uint64(in.FullAppID()))
	k.uint("players", uint64(in.Players))
	k.uint("max_players", uint64(in.MaxPlayers))
	k.uint("bots", uint64(in.Bots))
	k.char("server_type", in.ServerType)
	k.char("environment", in.Environment)
	k.uint("visibility", uint64(in.Visibility))
	k.uint("vac", uint64(in.VAC))
	if in.HasShip {
		k.uint("ship_mode", uint64(in.ShipMode))
		k.uint("ship_witnesses", uint64(in.ShipWitnesses))
		k.uint("ship_duration", uint64(in.ShipTime))
	}
	k.str("version", in.Version)
	if in.EDF == 0 && in.Extra == 0 {
		return
	}
	k.uint("edf", uint64(in.EDF))
	if in.Extra&EDFPort != 0 {
		k.uint("game_port", uint64(in.GamePort))
	}
	if in.Extra&EDFSteamID != 0 {
		k.uint("steam_id", in.SteamID)
	}
	if in.Extra&EDFSpectator != 0 {
		k.uint("spectator_port", uint64(in.SpectatorPort))
		k.str("spectator_name", in.SpectatorName)
	}
	if in.Extra&EDFKeywords != 0 {
		k.str("keywords", in.Keywords)
	}
	if in.Extra&EDFGameID != 0 {
		k.uint("game_id", in.GameID)
	}
}

func (in *Info) detailedKV(k *kvBuilder) {
	k.str("address", in.Address)
	k.str("name", in.Name)
	k.str("map", in.Map)
	k.str("folder", in.Folder)
	k.str("game", in.Game)
	k.uint("players", uint64(in.Players))
	k.uint("max_players", uint64(in.MaxPlayers))
	k.uint("protocol", uint64(in.Protocol))
	k.char("server_type", in.ServerType)
	k.char("environment", in.Environment)
	k.uint("visibility", uint64(in.Visibility))
	if m := in.Mod; m != nil {
		k.uint("mod", 1)
		k.str("mod_link", m.Link)
		k.str("mod_download_link", m.DownloadLink)
		k.int("mod_version", int64(m.Version))
		k.int("mod_size", int64(m.Size))
		k.uint("mod_type", uint64(m.Type))
		k.uint("mod_dll", uint64(m.DLL))
	} else {
		k.uint("mod", 0)
	}
	if in.HasVAC {
		k.uint("vac", uint64(in.VAC))
	}
	if in.HasBots {
		k.uint("bots", uint64(in.Bots))
	}
	if in.HasHLTVCounts {
		k.int("spectators", int64(in.Spectators))
		k.int("spectator_slots", int64(in.SpectatorSlots))
	}
}

// placeholder is the name of the entry CS:GO lists when host_players_show is not
// 2: it is the slot count, not a player.
const placeholder = "Max Players"

// Result maps the player list onto the exporter's players. appID is the game's
// (Info.FullAppID, 0 when unknown). CS:GO's "Max Players" placeholder is not a
// player: for CS:GO every such entry is dropped, wherever it stands in the list;
// for another game only a list made of that one entry is taken for it.
func (p *Players) Result(appID uint32) []protocols.Player {
	list := p.List
	switch {
	case len(list) == 1 && list[0].Name == placeholder:
		return []protocols.Player{}
	case appID == AppIDCSGO:
		list = withoutPlaceholders(list)
	}
	out := make([]protocols.Player, len(list))
	for i, pl := range list {
		d := float64(pl.Duration)
		out[i] = protocols.Player{
			Name:  Text(pl.Name),
			Score: protocols.Known(int64(pl.Score)),
			// -1 (The Ship bots), NaN and infinities are not durations.
			Duration:      d,
			DurationKnown: d >= 0 && !math.IsInf(d, 0),
		}
		if !out[i].DurationKnown {
			out[i].Duration = 0
		}
	}
	return out
}

// withoutPlaceholders returns list without its placeholder entries, copying only
// when there is one.
func withoutPlaceholders(list []Player) []Player {
	if !slices.ContainsFunc(list, isPlaceholder) {
		return list
	}
	return slices.DeleteFunc(slices.Clone(list), isPlaceholder)
}

func isPlaceholder(p Player) bool { return p.Name == placeholder }

// Result returns the rules as valid UTF-8 key/values, all of them: ResultFor also
// reads the binary message of Arma 3 and DayZ.
func (r *Rules) Result() []protocols.KV { return ResultKV(r.List) }

// ResultKV returns list as valid UTF-8 key/values.
func ResultKV(list []protocols.KV) []protocols.KV {
	out := make([]protocols.KV, len(list))
	for i, kv := range list {
		out[i] = protocols.KV{Key: Text(kv.Key), Value: Text(kv.Value)}
	}
	return out
}

package tribes1

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

const (
	headerLen = 4 // reply byte, echo (2), request byte
	// maxPlayers caps the Starsiege 2009 player loop, which runs to the datagram's
	// end (its count is a 32-bit field); a Tribes count is a byte.
	maxPlayers = 256
	// starsiege2009 is the game string of the Starsiege 2009 server's own layout.
	starsiege2009 = "Starsiege"
)

// newRequest is the request byte and the two echo bytes (little-endian).
func newRequest(req byte, echo uint16) []byte { return []byte{req, byte(echo), byte(echo >> 8)} }

// answers says whether b answers the request: skip when it does not (another
// packet, another echo), with ErrMismatch for a wrong echo so that a timeout can
// say so.
func answers(b []byte, req byte, echo uint16) error {
	if len(b) < headerLen || b[0] != req+1 || b[3] != req {
		return fmt.Errorf("%w: not an info reply (want % X ?? ?? %02X)", wire.ErrMalformed, req+1, req)
	}
	if got := uint16(b[1]) | uint16(b[2])<<8; got != echo {
		return fmt.Errorf("%w: reply echoes %04X, sent %04X", wire.ErrMismatch, got, echo)
	}
	return nil
}

// team is one team row.
type team struct {
	Name   string
	Values []string
}

// player is one player row.
type player struct {
	Name   string
	Ping   int // ms (the byte times 4)
	Loss   int
	Team   int
	Values []string
}

// reply is a decoded info reply of either layout.
type reply struct {
	Game, Version, Name      string
	Dedicated, Password      bool
	Players, Max             int64
	CPU                      int
	Mod, Type, Map, MOTD     string
	TeamFields, PlayerFields []string
	Teams                    []team
	PlayerList               []player
	PlayersErr               error
	Starsiege                bool
	Extra                    []protocols.KV // Starsiege 2009's flags and limits
}

func pascal(rd *wire.Reader, what string) string {
	return wire.Windows1252(rd.Bytes(int(rd.Uint8(what+" length")), what))
}

func flag(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

// decode parses the reply after the header: the status fields are required, the
// team and player rows that follow may be cut (PlayersErr).
func decode(b []byte) (*reply, error) {
	if len(b) < headerLen {
		return nil, fmt.Errorf("%w: %d-byte reply", wire.ErrTruncated, len(b))
	}
	rd := wire.NewReader(b[headerLen:])
	r := &reply{}
	r.Game = pascal(&rd, "game")
	r.Version = pascal(&rd, "version")
	r.Name = pascal(&rd, "server name")
	if rd.Err() == nil && r.Game == starsiege2009 {
		return decodeStarsiege(&rd, r)
	}
	r.Dedicated = rd.Uint8("dedicated") != 0
	r.Password = rd.Uint8("password") != 0
	r.Players = int64(rd.Uint8("players"))
	r.Max = int64(rd.Uint8("max players"))
	r.CPU = int(rd.Uint16LE("cpu speed"))
	r.Mod = pascal(&rd, "mod")
	r.Type = pascal(&rd, "mission type")
	r.Map = pascal(&rd, "map")
	r.MOTD = pascal(&rd, "motd")
	if err := rd.Err(); err != nil {
		return nil, err
	}
	nTeams := int(rd.Uint8("team count"))
	r.TeamFields = fields(pascal(&rd, "team columns"))
	r.PlayerFields = fields(pascal(&rd, "player columns"))
	for i := 0; i < nTeams && rd.Err() == nil; i++ {
		t := team{Name: pascal(&rd, "team name")}
		t.Values = values(pascal(&rd, "team values"))
		if rd.Err() == nil {
			r.Teams = append(r.Teams, t)
		}
	}
	for i := int64(0); i < r.Players && rd.Err() == nil; i++ {
		p := player{Ping: int(rd.Uint8("player ping")) * 4, Loss: int(rd.Uint8("player packet loss")), Team: int(rd.Uint8("player team"))}
		p.Name = pascal(&rd, "player name")
		p.Values = values(pascal(&rd, "player values"))
		if rd.Err() == nil {
			r.PlayerList = append(r.PlayerList, p)
		}
	}
	if err := rd.Err(); err != nil {
		r.PlayersErr = fmt.Errorf("after %d of %d players: %w", len(r.PlayerList), r.Players, err)
	}
	return r, nil
}

// starsiegeTeams names the Starsiege 2009 team bits.
var starsiegeTeams = map[uint8]string{1: "yellow", 2: "blue", 4: "red", 8: "purple"}

func decodeStarsiege(rd *wire.Reader, r *reply) (*reply, error) {
	r.Starsiege = true
	r.Password = rd.Uint8("password") != 0
	r.Dedicated = rd.Uint8("dedicated") != 0
	kv := func(k, v string) { r.Extra = append(r.Extra, protocols.KV{Key: k, Value: v}) }
	kv("drop_in_progress", flag(rd.Uint8("drop in progress") != 0))
	kv("game_in_progress", flag(rd.Uint8("game in progress") != 0))
	r.Players = int64(rd.Uint32LE("players"))
	r.Max = int64(rd.Uint32LE("max players"))
	kv("team_play", strconv.Itoa(int(rd.Uint8("team play"))))
	r.Map = pascal(rd, "map")
	r.CPU = int(rd.Uint16LE("cpu speed"))
	kv("factory_vehicles", strconv.Itoa(int(rd.Uint8("factory vehicles"))))
	kv("allow_tecmix", strconv.Itoa(int(rd.Uint8("allow tecmix"))))
	for _, k := range []string{"spawn_limit", "frag_limit", "time_limit", "tech_limit", "combat_limit", "mass_limit", "players_sent"} {
		kv(k, strconv.FormatUint(uint64(rd.Uint32LE(k)), 10))
	}
	if err := rd.Err(); err != nil {
		return nil, err
	}
	for rd.Len() > 0 {
		if len(r.PlayerList) >= maxPlayers {
			r.PlayersErr = fmt.Errorf("%w: more than %d players", wire.ErrTooLarge, maxPlayers)
			break
		}
		p := player{Name: pascal(rd, "player name")}
		t := rd.Uint8("player team")
		if err := rd.Err(); err != nil {
			r.PlayersErr = fmt.Errorf("after %d players: %w", len(r.PlayerList), err)
			break
		}
		p.Team = int(t)
		r.PlayerList = append(r.PlayerList, p)
	}
	return r, nil
}

// fields splits a column title string: tab-separated, each title after the first
// led by one layout byte; lower-cased, "team name"/"player name" read as "name".
func fields(s string) []string {
	if s == "" {
		return nil
	}
	parts := strings.Split(s, "\t")
	for i, p := range parts {
		if i > 0 && p != "" {
			p = p[1:]
		}
		p = strings.ToLower(strings.TrimSpace(p))
		if p == "team name" || p == "player name" {
			p = "name"
		}
		parts[i] = p
	}
	return parts
}

func values(s string) []string {
	if s == "" {
		return nil
	}
	parts := strings.Split(s, "\t")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return parts
}

// column returns the value of the named column, with the server's placeholders.
func column(names, vals []string, name string) (string, bool) {
	for i, n := range names {
		if n == name && i < len(vals) {
			return vals[i], true
		}
	}
	return "", false
}

func (r *reply) teamName(i int) string {
	if r.Starsiege {
		return starsiegeTeams[uint8(i)]
	}
	if i >= 0 && i < len(r.Teams) {
		return r.Teams[i].Name
	}
	return ""
}

// Result turns the reply into a protocols.Result.
func (r *reply) Result(players, rules bool) *protocols.Result {
	res := &protocols.Result{
		Name:       r.Name,
		Map:        r.Map,
		Game:       r.Type,
		Version:    r.Version,
		Players:    protocols.Known(r.Players),
		MaxPlayers: protocols.Known(r.Max),
		Password:   protocols.FlagOf(r.Password),
	}
	if r.Starsiege {
		res.Game = r.Game
	}
	kv := func(k, v string) protocols.KV { return protocols.KV{Key: k, Value: v} }
	set := []protocols.KV{kv("game", r.Game), kv("dedicated", flag(r.Dedicated)), kv("cpu", strconv.Itoa(r.CPU))}
	if !r.Starsiege {
		set = append(set, kv("mod", r.Mod), kv("mission_type", r.Type), kv("motd", r.MOTD), kv("teams", strconv.Itoa(len(r.Teams))))
		for _, t := range r.Teams {
			if s, ok := column(r.TeamFields, t.Values, "score"); ok {
				set = append(set, kv("team_score_"+t.Name, s))
			}
		}
	}
	set = append(set, r.Extra...)
	res.Info = set
	if rules {
		res.Rules = set
	}
	if players {
		if r.PlayersErr != nil {
			res.PhaseErrors = append(res.PhaseErrors, protocols.PhaseError{Phase: "players", Err: r.PlayersErr})
		}
		for _, p := range r.PlayerList {
			pl := protocols.Player{Name: p.Name, Team: r.teamName(p.Team)}
			if !r.Starsiege {
				pl.Ping = protocols.Known(int64(p.Ping))
				if s, ok := column(r.PlayerFields, p.Values, "score"); ok {
					if n, err := strconv.ParseInt(s, 10, 64); err == nil {
						pl.Score = protocols.Known(n)
					}
				}
			}
			res.PlayerList = append(res.PlayerList, pl)
		}
	}
	return res
}

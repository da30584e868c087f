package cs2d

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// request is one unreliable packet: packet number 1 (u16 LE; odd numbers are the
// unreliable ones), the serverinfo request 0xFB 0x01, the pair 0xF5 0x03 every known
// client sends between the two requests, and the player list request 0xFB 0x05.
var request = []byte{0x01, 0x00, 0xFB, 0x01, 0xF5, 0x03, 0xFB, 0x05}

// infoHeader starts the answer: the packet number and the serverinfo message id.
var infoHeader = []byte{0x01, 0x00, 0xFB, 0x01}

// playersHeader starts the player list message that follows the serverinfo.
var playersHeader = []byte{0xFB, 0x05}

// Bits of the first flags byte.
const (
	flagPassword    = 1 << 0
	flagUSGNOnly    = 1 << 1 // registered (U.S.G.N.) players only
	flagFogOfWar    = 1 << 2
	flagFriendly    = 1 << 3 // friendly fire
	flagGameMode    = 1 << 5 // a game mode byte follows the player counts
	flagLua         = 1 << 6
	flagForceLight  = 1 << 7
	flag2Recoil     = 1 << 0
	flag2OffScreen  = 1 << 1 // off-screen damage
	flag2Downloads  = 1 << 2
	teamSpectator   = 0
	teamTerrorist   = 1
	teamCounterTerr = 2
)

// gameModes names the game mode byte (CS2D's sv_gamemode values).
var gameModes = []string{"standard", "deathmatch", "team deathmatch", "construction", "zombies"}

// player is one entry of the player list.
type player struct {
	ID     uint8
	Name   string
	Team   uint8
	Score  int32
	Deaths int32
}

// reply is a decoded answer.
type reply struct {
	Flags, Flags2 uint8
	Name, Map     string
	Players, Max  uint8
	Mode          int // -1: not sent
	Bots          uint8
	// PlayerList is nil when the player list message is absent; PlayersErr says why
	// it is missing or cut.
	PlayerList []player
	PlayersErr error
}

// answers reports whether a datagram is the answer to our request; skip says why not.
func answers(b []byte) error {
	if !bytes.HasPrefix(b, infoHeader) {
		return fmt.Errorf("%w: datagram does not start with the serverinfo header % X", wire.ErrMalformed, infoHeader)
	}
	return nil
}

// decode parses an answer: the serverinfo message, then the player list message when
// it follows. A cut serverinfo is an error; a missing or cut player list is kept in
// PlayersErr (the status is known without it).
func decode(b []byte) (*reply, error) {
	if err := answers(b); err != nil {
		return nil, err
	}
	rd := wire.NewReader(b[len(infoHeader):])
	r := &reply{Mode: -1}
	r.Flags = rd.Uint8("flags")
	r.Name = strip(wire.UTF8(pascal(&rd, "server name")))
	r.Map = wire.UTF8(pascal(&rd, "map"))
	r.Players = rd.Uint8("players")
	r.Max = rd.Uint8("max players")
	if r.Flags&flagGameMode != 0 {
		r.Mode = int(rd.Uint8("game mode"))
	}
	r.Bots = rd.Uint8("bots")
	r.Flags2 = rd.Uint8("flags2")
	if err := rd.Err(); err != nil {
		return nil, err
	}
	if rd.Len() == 0 {
		r.PlayersErr = fmt.Errorf("%w: the answer ends after the serverinfo, no player list", wire.ErrServer)
		return r, nil
	}
	off := len(infoHeader) + rd.Offset()
	if h := rd.Bytes(len(playersHeader), "player list header"); !bytes.Equal(h, playersHeader) {
		r.PlayersErr = fmt.Errorf("%w: player list header at offset %d is % X, want % X", wire.ErrMalformed, off, h, playersHeader)
		if rd.Err() != nil {
			r.PlayersErr = rd.Err()
		}
		return r, nil
	}
	n := int(rd.Uint8("player count")) // a byte: at most 255 entries
	r.PlayerList = make([]player, 0, min(n, rd.Len()/11))
	for i := range n {
		p := player{ID: rd.Uint8("player id")}
		p.Name = strip(wire.UTF8(pascal(&rd, "player name")))
		p.Team = rd.Uint8("player team")
		p.Score = rd.Int32LE("player score")
		p.Deaths = rd.Int32LE("player deaths")
		if err := rd.Err(); err != nil {
			r.PlayersErr = fmt.Errorf("player %d of %d: %w", i, n, err)
			break
		}
		r.PlayerList = append(r.PlayerList, p)
	}
	return r, nil
}

// pascal reads a string prefixed by its length byte.
func pascal(rd *wire.Reader, what string) []byte {
	return rd.Bytes(int(rd.Uint8(what+" length")), what)
}

// colour is the CS2D colour code's mark, ©, followed by nine digits (RRRGGGBBB).
const colour = "\u00a9"

// strip removes CS2D colour codes (©255000000) from a name.
func strip(s string) string {
	if !strings.Contains(s, colour) {
		return s
	}
	var b strings.Builder
	for {
		i := strings.Index(s, colour)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		rest := s[i+len(colour):]
		if len(rest) >= 9 && allDigits(rest[:9]) {
			s = rest[9:]
			continue
		}
		b.WriteString(colour)
		s = rest
	}
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// teamName names a team byte.
func teamName(t uint8) string {
	switch t {
	case teamSpectator:
		return "spectator"
	case teamTerrorist:
		return "terrorists"
	case teamCounterTerr:
		return "counter-terrorists"
	}
	return strconv.Itoa(int(t))
}

func modeName(m int) string {
	if m >= 0 && m < len(gameModes) {
		return gameModes[m]
	}
	return strconv.Itoa(m)
}

func flag(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

// Result turns the reply into a protocols.Result. Bots take player slots and are
// counted in the players byte, so Players is the humans: players less bots.
func (r *reply) Result(players, rules bool) *protocols.Result {
	res := &protocols.Result{
		Name:       r.Name,
		Map:        r.Map,
		MaxPlayers: protocols.Known(int64(r.Max)),
		Password:   protocols.FlagOf(r.Flags&flagPassword != 0),
	}
	if r.Bots <= r.Players {
		res.Players = protocols.Known(int64(r.Players - r.Bots))
		res.Bots = protocols.Known(int64(r.Bots))
	} else {
		res.Players = protocols.Known(int64(r.Players)) // a lying bots byte: the total stays true
	}
	if r.Mode >= 0 {
		res.Game = modeName(r.Mode)
	}
	kv := func(k, v string) protocols.KV { return protocols.KV{Key: k, Value: v} }
	settings := []protocols.KV{
		kv("usgn_only", flag(r.Flags&flagUSGNOnly != 0)),
		kv("fog_of_war", flag(r.Flags&flagFogOfWar != 0)),
		kv("friendly_fire", flag(r.Flags&flagFriendly != 0)),
		kv("lua", flag(r.Flags&flagLua != 0)),
		kv("force_light", flag(r.Flags&flagForceLight != 0)),
		kv("recoil", flag(r.Flags2&flag2Recoil != 0)),
		kv("offscreen_damage", flag(r.Flags2&flag2OffScreen != 0)),
		kv("downloads", flag(r.Flags2&flag2Downloads != 0)),
	}
	res.Info = append([]protocols.KV{
		kv("flags", strconv.Itoa(int(r.Flags))), kv("flags2", strconv.Itoa(int(r.Flags2))),
		kv("players", strconv.Itoa(int(r.Players))), kv("bots", strconv.Itoa(int(r.Bots))),
	}, settings...)
	if rules {
		res.Rules = settings
		if r.Mode >= 0 {
			res.Rules = append(res.Rules, kv("game_mode", strconv.Itoa(r.Mode)))
		}
	}
	if players {
		if r.PlayersErr != nil {
			res.PhaseErrors = append(res.PhaseErrors, protocols.PhaseError{Phase: "players", Err: r.PlayersErr})
		}
		for _, p := range r.PlayerList {
			res.PlayerList = append(res.PlayerList, protocols.Player{
				Name: p.Name, Team: teamName(p.Team), Score: protocols.Known(int64(p.Score)),
			})
		}
	}
	return res
}

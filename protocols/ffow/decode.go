package ffow

import (
	"fmt"
	"math"
	"strconv"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/steam"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// Message types: A2S's, with the LSQ info request of its own.
const (
	typeInfoRequest = 0x46 // 'F', followed by "LSQ"
	typeChallenge   = steam.TypeChallenge
	typeInfo        = steam.TypeInfo
	typePlayers     = steam.TypePlayers
	typeRules       = steam.TypeRules
)

// Requests, built once and never written (the trace keeps them by reference).
var (
	infoRequest         = []byte("\xFF\xFF\xFF\xFFFLSQ")
	getChallengeRequest = []byte{0xFF, 0xFF, 0xFF, 0xFF, 0x57}
	playersBase         = []byte{0xFF, 0xFF, 0xFF, 0xFF, 0x55} // + the challenge
	rulesBase           = []byte{0xFF, 0xFF, 0xFF, 0xFF, 0x56}
)

// minListVersion is the first protocol version that answers players and rules
// (qstat's fl.c asks for them only above 1).
const minListVersion = 2

// info is a decoded LSQ info reply. Strings hold the bytes as sent.
type info struct {
	Version                           byte // protocol version
	Name, Map, Mod, Mode, Desc, Build string
	GamePort                          uint16
	Players, Max                      byte
	Dedicated, OS                     byte // letters: 'd'/'l', 'w'/'l'
	Password, Secure                  bool
	FPS, Round, MaxRounds             byte
	TimeLeft                          uint16 // seconds left in the round
}

// decodeInfo decodes the 0x49 answer to the LSQ info request.
func decodeInfo(b []byte) (*info, error) {
	t, err := steam.Header(b, "info reply")
	if err != nil {
		return nil, err
	}
	if t != typeInfo {
		return nil, fmt.Errorf("%w: info reply type 0x%02x, want 0x49", wire.ErrMalformed, t)
	}
	c := steam.NewCursor(b)
	c.Skip(5, "header")
	in := &info{Version: c.Uint8("protocol version")}
	in.Name = c.Str("server name")
	in.Map = c.Str("map")
	in.Mod = c.Str("mod")
	in.Mode = c.Str("game mode")
	in.Desc = c.Str("description")
	in.Build = c.Str("version")
	in.GamePort = c.Uint16BE("game port")
	in.Players = c.Uint8("players")
	in.Max = c.Uint8("max players")
	in.Dedicated = c.Uint8("dedicated")
	in.OS = c.Uint8("os")
	in.Password = c.Uint8("password") != 0
	in.Secure = c.Uint8("anticheat") != 0
	in.FPS = c.Uint8("frame rate")
	in.Round = c.Uint8("round")
	in.MaxRounds = c.Uint8("max rounds")
	in.TimeLeft = c.Uint16BE("time left")
	if err := c.Err(); err != nil {
		return nil, err
	}
	return in, nil
}

// result maps the info record onto a Result. The game is the mod name, as qstat
// reports it; Info keeps the rest.
func (in *info) result() *protocols.Result {
	res := &protocols.Result{
		Name:       wire.UTF8([]byte(in.Name)),
		Map:        wire.UTF8([]byte(in.Map)),
		Game:       wire.UTF8([]byte(in.Mod)),
		Version:    wire.UTF8([]byte(in.Build)),
		Players:    protocols.Known(int64(in.Players)),
		MaxPlayers: protocols.Known(int64(in.Max)),
		Password:   protocols.FlagOf(in.Password),
	}
	res.Info = []protocols.KV{
		{Key: "protocol", Value: strconv.Itoa(int(in.Version))},
		{Key: "gamemode", Value: wire.UTF8([]byte(in.Mode))},
		{Key: "description", Value: wire.UTF8([]byte(in.Desc))},
		{Key: "game_port", Value: strconv.Itoa(int(in.GamePort))},
		{Key: "dedicated", Value: letter(in.Dedicated)},
		{Key: "os", Value: letter(in.OS)},
		{Key: "anticheat", Value: strconv.FormatBool(in.Secure)},
		{Key: "frame_rate", Value: strconv.Itoa(int(in.FPS))},
		{Key: "round", Value: strconv.Itoa(int(in.Round))},
		{Key: "max_rounds", Value: strconv.Itoa(int(in.MaxRounds))},
		{Key: "time_left", Value: strconv.Itoa(int(in.TimeLeft))},
	}
	return res
}

// letter shows a one-letter field as the letter, or its number when it is none.
func letter(b byte) string {
	if b >= 0x20 && b < 0x7f {
		return string(rune(b))
	}
	return strconv.Itoa(int(b))
}

// playerTail is what follows a player's name: score (int32), time connected
// (float32), ping (uint16), profile id (uint32), team (byte).
const playerTail = 4 + 4 + 2 + 4 + 1

// player is one record of the 0x44 reply.
type player struct {
	Name     string
	Score    int32
	Duration float32
	Ping     uint16
	Profile  uint32
	Team     byte
}

// decodePlayers decodes the 0x44 reply: a record cut short, or fewer records than
// the count, is ErrTruncated (a list that stops early would be exported as all).
func decodePlayers(b []byte) ([]player, error) {
	t, err := steam.Header(b, "player reply")
	if err != nil {
		return nil, err
	}
	if t != typePlayers {
		return nil, fmt.Errorf("%w: player reply type 0x%02x, want 0x44", wire.ErrMalformed, t)
	}
	c := steam.NewCursor(b)
	c.Skip(5, "header")
	n := int(c.Uint8("player count"))
	if err := c.Err(); err != nil {
		return nil, err
	}
	// A record takes at least 17 bytes: cap the allocation by what can be there.
	out := make([]player, 0, min(n, c.Len()/(2+playerTail)))
	for i := range n {
		if c.Len() == 0 {
			break
		}
		var p player
		c.Skip(1, "player index")
		p.Name = c.Str("player name")
		p.Score = int32(c.Uint32BE("player score"))
		p.Duration = math.Float32frombits(c.Uint32BE("player time"))
		p.Ping = c.Uint16BE("player ping")
		p.Profile = c.Uint32BE("player profile id")
		p.Team = c.Uint8("player team")
		if err := c.Err(); err != nil {
			return nil, fmt.Errorf("player %d of %d: %w", i, n, err)
		}
		out = append(out, p)
	}
	if len(out) < n {
		return nil, fmt.Errorf("%w: %d of %d player records", wire.ErrTruncated, len(out), n)
	}
	return out, nil
}

// playerList maps player records onto the Result's list.
func playerList(ps []player) []protocols.Player {
	out := make([]protocols.Player, len(ps))
	for i, p := range ps {
		d := float64(p.Duration)
		known := d >= 0 && !math.IsInf(d, 0) // NaN fails d >= 0
		if !known {
			d = 0
		}
		out[i] = protocols.Player{
			Name:          wire.UTF8([]byte(p.Name)),
			Score:         protocols.Known(int64(p.Score)),
			Ping:          protocols.Known(int64(p.Ping)),
			Duration:      d,
			DurationKnown: known,
			Team:          strconv.Itoa(int(p.Team)),
		}
	}
	return out
}

// decodeRules decodes the 0x45 reply: a big-endian pair count, then NUL-terminated
// names and values. At most steam.MaxRules pairs are kept.
func decodeRules(b []byte) ([]protocols.KV, error) {
	t, err := steam.Header(b, "rules reply")
	if err != nil {
		return nil, err
	}
	if t != typeRules {
		return nil, fmt.Errorf("%w: rules reply type 0x%02x, want 0x45", wire.ErrMalformed, t)
	}
	c := steam.NewCursor(b)
	c.Skip(5, "header")
	n := int(c.Uint16BE("rule count"))
	if err := c.Err(); err != nil {
		return nil, err
	}
	if n > steam.MaxRules {
		return nil, fmt.Errorf("%w: %d rules, at most %d are read", wire.ErrTooLarge, n, steam.MaxRules)
	}
	out := make([]protocols.KV, 0, min(n, c.Len()/2))
	for i := range n {
		k := c.Str("rule name")
		v := c.Str("rule value")
		if err := c.Err(); err != nil {
			return nil, fmt.Errorf("rule %d of %d: %w", i, n, err)
		}
		out = append(out, protocols.KV{Key: wire.UTF8([]byte(k)), Value: wire.UTF8([]byte(v))})
	}
	return out, nil
}

package mafia2mp

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// maxPlayers caps the player list, which runs to the datagram's end.
const maxPlayers = 1024

// player is one player entry.
type player struct {
	Name string
	Ping protocols.Count
}

// reply is a decoded info reply.
type reply struct {
	Name, Players, Max, Mode string
	Password                 bool
	PlayerList               []player
	PlayersErr               error
}

// answers says whether b starts with the tag we sent.
func answers(b []byte, tag string) error {
	if !bytes.HasPrefix(b, []byte(tag)) {
		return fmt.Errorf("%w: reply does not start with %q", wire.ErrMalformed, tag)
	}
	return nil
}

// decode parses the reply after the tag, its strings made UTF-8 by text;
// online says each player has a ping.
func decode(b []byte, tag string, text func([]byte) string) (*reply, error) {
	// str reads a string led by a length byte that counts itself (0 reads as empty).
	str := func(rd *wire.Reader, what string) string {
		n := int(rd.Uint8(what + " length"))
		if n == 0 {
			return ""
		}
		return text(rd.Bytes(n-1, what))
	}
	if err := answers(b, tag); err != nil {
		return nil, err
	}
	online := tag == tagOnline
	rd := wire.NewReader(b[len(tag):])
	r := &reply{}
	r.Name = str(&rd, "server name")
	r.Players = str(&rd, "players")
	r.Max = str(&rd, "max players")
	r.Mode = str(&rd, "game mode")
	r.Password = rd.Uint8("password") != 0
	if err := rd.Err(); err != nil {
		return nil, err
	}
	for rd.Len() > 0 {
		if len(r.PlayerList) >= maxPlayers {
			r.PlayersErr = fmt.Errorf("%w: more than %d players", wire.ErrTooLarge, maxPlayers)
			break
		}
		p := player{Name: str(&rd, "player name")}
		if rd.Err() == nil && p.Name == "" {
			break // the list's end mark
		}
		if online {
			if n, err := strconv.ParseInt(strings.TrimSpace(str(&rd, "player ping")), 10, 64); err == nil {
				p.Ping = protocols.Known(n)
			}
		}
		if err := rd.Err(); err != nil {
			r.PlayersErr = fmt.Errorf("after %d players: %w", len(r.PlayerList), err)
			break
		}
		r.PlayerList = append(r.PlayerList, p)
	}
	return r, nil
}

// Result turns the reply into a protocols.Result. The game mode string is the
// mod's version on M2MP servers (gamedig reports it as both); it is the game here.
func (r *reply) Result(players bool) *protocols.Result {
	res := &protocols.Result{
		Name:       r.Name,
		Game:       r.Mode,
		Players:    protocols.ParseCount(r.Players),
		MaxPlayers: protocols.ParseCount(r.Max),
		Password:   protocols.FlagOf(r.Password),
		Info: []protocols.KV{
			{Key: "players", Value: r.Players}, {Key: "max_players", Value: r.Max}, {Key: "game_mode", Value: r.Mode},
		},
	}
	if players {
		if r.PlayersErr != nil {
			res.PhaseErrors = append(res.PhaseErrors, protocols.PhaseError{Phase: "players", Err: r.PlayersErr})
		}
		for _, p := range r.PlayerList {
			res.PlayerList = append(res.PlayerList, protocols.Player{Name: p.Name, Ping: p.Ping})
		}
	}
	return res
}

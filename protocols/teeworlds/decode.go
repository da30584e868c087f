package teeworlds

import (
	"bytes"
	"fmt"
	"strconv"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// maxClients caps the client entries kept: 0.7 and DDNet servers have at
// most 64 clients, 0.6 at most 16.
const maxClients = 64

// client is one entry of the info's client list.
type client struct {
	Name, Clan string
	Country    int64 // ISO 3166-1 numeric, -1 for none
	Score      int64
	Player     bool // false: spectator
	Bot        bool // 0.7 only
}

// info is a decoded inf3 reply of either protocol version.
type info struct {
	Protocol   string // version07 or version06
	Token      int64  // the browser token echoed by the server
	Version    string
	Name       string
	Hostname   string // 0.7 only
	Map        string
	GameType   string
	Flags      int64 // bit 0: password
	SkillLevel int64 // 0.7 only
	NumPlayers int64 // clients in the game, spectators excluded
	MaxPlayers int64 // player slots
	NumClients int64 // everyone connected
	MaxClients int64
	Clients    []client
	Trailing   int // bytes after the last complete client entry
}

// reader walks an inf3 payload: NUL-terminated strings and packed ints.
type reader struct {
	r wire.Reader
}

func (p *reader) str(what string) string { return wire.UTF8(p.r.CString(what)) }

// int reads a 0.7 packed int (at most 5 bytes).
func (p *reader) int(what string) int64 {
	off := p.r.Offset()
	c := p.r.Uint8(what)
	sign := c >> 6 & 1
	v := uint32(c & 0x3F)
	for i, shift := 0, 6; c&0x80 != 0; i, shift = i+1, shift+7 {
		if i == 4 {
			p.r.Fail(fmt.Errorf("%w: %s at offset %d: packed int longer than 5 bytes", wire.ErrMalformed, what, off))
			return 0
		}
		c = p.r.Uint8(what)
		v |= uint32(c&0x7F) << shift
	}
	if p.r.Err() != nil {
		return 0
	}
	if sign == 1 {
		return int64(int32(^v))
	}
	return int64(int32(v))
}

// num reads a 0.6 number: a decimal string.
func (p *reader) num(what string) int64 {
	off := p.r.Offset()
	s := p.r.CString(what)
	if p.r.Err() != nil {
		return 0
	}
	v, err := strconv.ParseInt(string(s), 10, 32)
	if err != nil {
		p.r.Fail(fmt.Errorf("%w: %s at offset %d is not a number: %q", wire.ErrMalformed, what, off, s))
		return 0
	}
	return v
}

// decodeInfo07 decodes the payload of a 0.7 connectionless packet:
// "\xff\xff\xff\xffinf3", the echoed browser token, then the info.
func decodeInfo07(b []byte) (info, error) {
	if !bytes.HasPrefix(b, infoMagic) {
		return info{}, fmt.Errorf("%w: payload does not start with inf3", wire.ErrMalformed)
	}
	p := reader{r: wire.NewReader(b[len(infoMagic):])}
	in := info{Protocol: version07}
	in.Token = p.int("token")
	in.Version = p.str("version")
	in.Name = p.str("server name")
	in.Hostname = p.str("hostname")
	in.Map = p.str("map")
	in.GameType = p.str("game type")
	in.Flags = p.int("flags")
	in.SkillLevel = p.int("skill level")
	in.NumPlayers = p.int("players")
	in.MaxPlayers = p.int("max players")
	in.NumClients = p.int("clients")
	in.MaxClients = p.int("max clients")
	if err := p.r.Err(); err != nil {
		return info{}, err
	}
	err := in.clients(&p, func(i int) client {
		c := client{Name: p.str(fmt.Sprintf("client %d name", i)), Clan: p.str(fmt.Sprintf("client %d clan", i))}
		c.Country = p.int(fmt.Sprintf("client %d country", i))
		c.Score = p.int(fmt.Sprintf("client %d score", i))
		flags := p.int(fmt.Sprintf("client %d flags", i))
		c.Player, c.Bot = flags&1 == 0, flags&2 != 0
		return c
	})
	return in, err
}

// decodeInfo06 decodes the payload of a 0.5/0.6 connectionless packet:
// "\xff\xff\xff\xffinf3", then every field as a NUL-terminated string.
func decodeInfo06(b []byte) (info, error) {
	if !bytes.HasPrefix(b, infoMagic) {
		return info{}, fmt.Errorf("%w: payload does not start with inf3", wire.ErrMalformed)
	}
	p := reader{r: wire.NewReader(b[len(infoMagic):])}
	in := info{Protocol: version06}
	in.Token = p.num("token")
	in.Version = p.str("version")
	in.Name = p.str("server name")
	in.Map = p.str("map")
	in.GameType = p.str("game type")
	in.Flags = p.num("flags")
	in.NumPlayers = p.num("players")
	in.MaxPlayers = p.num("max players")
	in.NumClients = p.num("clients")
	in.MaxClients = p.num("max clients")
	if err := p.r.Err(); err != nil {
		return info{}, err
	}
	err := in.clients(&p, func(i int) client {
		c := client{Name: p.str(fmt.Sprintf("client %d name", i)), Clan: p.str(fmt.Sprintf("client %d clan", i))}
		c.Country = p.num(fmt.Sprintf("client %d country", i))
		c.Score = p.num(fmt.Sprintf("client %d score", i))
		c.Player = p.num(fmt.Sprintf("client %d is player", i)) != 0
		return c
	})
	return in, err
}

// clients reads the client entries that follow the counts: as many as the
// payload holds, at most maxClients. A broken entry is an error; bytes that
// remain after maxClients entries are counted as Trailing.
func (in *info) clients(p *reader, next func(i int) client) error {
	for i := 0; p.r.Len() > 0; i++ {
		if i == maxClients {
			in.Trailing = p.r.Len()
			break
		}
		c := next(i)
		if err := p.r.Err(); err != nil {
			*in = info{}
			return err
		}
		in.Clients = append(in.Clients, c)
	}
	return nil
}

// Result turns the info into the exporter's Result. Players counts the
// connected clients less the bots and MaxPlayers is the client limit
// (sv_max_clients), as the server browser shows them; the player-slot numbers
// are in info. 0.7 flags each listed bot (client flag 2; the count of clients
// includes every occupied slot), so Bots counts them; 0.6 has no flag and
// every client counts.
func (in info) Result(players bool) *protocols.Result {
	res := &protocols.Result{
		Game:       in.GameType,
		Name:       in.Name,
		Map:        in.Map,
		Version:    in.Version,
		Players:    protocols.CountOf(&in.NumClients), // a negative count is none
		MaxPlayers: protocols.CountOf(&in.MaxClients),
		Password:   protocols.FlagOf(in.Flags&1 != 0),
	}
	i := func(v int64) string { return strconv.FormatInt(v, 10) }
	res.Info = []protocols.KV{
		{Key: "protocol", Value: in.Protocol},
		{Key: "version", Value: in.Version},
		{Key: "name", Value: in.Name},
		{Key: "map", Value: in.Map},
		{Key: "gametype", Value: in.GameType},
		{Key: "flags", Value: i(in.Flags)},
		{Key: "num_players", Value: i(in.NumPlayers)},
		{Key: "max_players", Value: i(in.MaxPlayers)},
		{Key: "num_clients", Value: i(in.NumClients)},
		{Key: "max_clients", Value: i(in.MaxClients)},
	}
	if in.Protocol == version07 {
		res.Info = append(res.Info, protocols.KV{Key: "hostname", Value: in.Hostname}, protocols.KV{Key: "skill_level", Value: i(in.SkillLevel)})
		var bots int64
		for _, c := range in.Clients {
			if c.Bot {
				bots++
			}
		}
		res.Bots = protocols.Known(bots)
		if bots <= in.NumClients {
			res.Players = protocols.Known(in.NumClients - bots)
		} else {
			res.Players = protocols.Count{} // a count that lies: neither is sure
		}
	}
	if players {
		res.PlayerList = make([]protocols.Player, 0, len(in.Clients))
		for _, c := range in.Clients {
			team := "spectator"
			if c.Player {
				team = "player"
			}
			res.PlayerList = append(res.PlayerList, protocols.Player{Name: c.Name, Score: protocols.Known(c.Score), Team: team, Bot: c.Bot})
		}
	}
	return res
}

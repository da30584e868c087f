package cube2

import (
	"fmt"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// Extended info constants (fpsgame/extinfo.h).
const (
	extAck       = -1  // every extinfo reply starts with it, after the echo
	extVersion   = 105 // the extinfo version whose player record layout is decoded here
	extNoError   = 0
	extError     = 1   // the client asked for does not exist, or an unknown command
	extRespIDs   = -10 // the datagram lists client numbers
	extRespStats = -11 // the datagram carries one client's stats
)

// playersRequest asks for every client's stats: 0 (extended info), EXT_PLAYERSTATS
// (1), client number -1 (all). Nothing may follow: server mods read further ints as
// options (zeromod's extended stats).
func playersRequest() []byte { return []byte{0x00, 0x01, 0xFF} }

// uptimeRequest asks for the uptime: 0 (extended info), EXT_UPTIME (0).
func uptimeRequest() []byte { return []byte{0x00, 0x00} }

// playerStats is one client's EXT_PLAYERSTATS record (extinfo version 105).
type playerStats struct {
	CN, Ping   int32
	Name, Team string
	Frags      int32
	Flags      int32 // flags scored
	Deaths     int32
	Teamkills  int32
	Accuracy   int32 // percent
	Health     int32
	Armour     int32
	Gun        int32
	Privilege  int32 // 0 none, 1 master, 2 auth, 3 admin
	State      int32 // 0 alive, 1 dead, 2 spawning, 3 lagged, 4 editing, 5 spectator
}

// Bot reports whether the client is a bot (client numbers from MAXCLIENTS up).
func (p *playerStats) Bot() bool { return p.CN >= botCN }

// extPlayers is one datagram of the EXT_PLAYERSTATS answer: the list of client
// numbers (IsIDs) or one client's stats.
type extPlayers struct {
	Version int32
	IsIDs   bool
	IDs     []int32
	Player  playerStats
}

// extHeader checks the echo, EXT_ACK and reads the extinfo version.
func extHeader(b, req []byte) (wire.Reader, int32, error) {
	r, err := echo(b, req)
	if err != nil {
		return r, 0, err
	}
	off := r.Offset()
	ack := getInt(&r, "extinfo ack")
	version := getInt(&r, "extinfo version")
	if err := r.Err(); err != nil {
		return r, 0, err
	}
	if ack != extAck {
		return r, 0, fmt.Errorf("%w: extinfo ack %d at offset %d, want -1", wire.ErrMalformed, ack, off)
	}
	return r, version, nil
}

// decodePlayers parses one datagram answering playersRequest.
func decodePlayers(b []byte) (*extPlayers, error) {
	r, version, err := extHeader(b, playersRequest())
	if err != nil {
		return nil, err
	}
	off := r.Offset()
	switch code := getInt(&r, "extinfo error code"); {
	case r.Err() != nil:
		return nil, r.Err()
	case code == extError:
		return nil, fmt.Errorf("%w: extinfo error at offset %d (extinfo version %d)", wire.ErrServer, off, version)
	case code != extNoError:
		return nil, fmt.Errorf("%w: extinfo error code %d at offset %d", wire.ErrMalformed, code, off)
	}
	x := &extPlayers{Version: version}
	off = r.Offset()
	switch kind := getInt(&r, "extinfo reply type"); {
	case r.Err() != nil:
		return nil, r.Err()
	case kind == extRespIDs:
		x.IsIDs = true
		for r.Len() > 0 {
			id := getInt(&r, "client number")
			if len(x.IDs) >= maxPlayers {
				return nil, fmt.Errorf("%w: more than %d client numbers", wire.ErrTooLarge, maxPlayers)
			}
			x.IDs = append(x.IDs, id)
		}
		if err := r.Err(); err != nil {
			return nil, err
		}
		return x, nil
	case kind == extRespStats:
		if err := readStats(&r, &x.Player); err != nil {
			return nil, err
		}
		return x, nil
	default:
		return nil, fmt.Errorf("%w: extinfo reply type %d at offset %d, want -10 or -11", wire.ErrMalformed, kind, off)
	}
}

// readStats reads a client record. The three bytes of the client's IP address
// that follow are not read: they are nobody's business here.
func readStats(r *wire.Reader, p *playerStats) error {
	p.CN = getInt(r, "client number")
	p.Ping = getInt(r, "ping")
	if err := r.Err(); err != nil {
		return err
	}
	name, err := getString(r, "player name")
	if err != nil {
		return err
	}
	team, err := getString(r, "team")
	if err != nil {
		return err
	}
	p.Name, p.Team = text(stripColours(name, false)), text(stripColours(team, false))
	for _, f := range []*int32{&p.Frags, &p.Flags, &p.Deaths, &p.Teamkills, &p.Accuracy,
		&p.Health, &p.Armour, &p.Gun, &p.Privilege, &p.State} {
		*f = getInt(r, "player stats")
	}
	return r.Err()
}

// decodeUptime parses the answer to uptimeRequest: the uptime in seconds.
func decodeUptime(b []byte) (version, uptime int32, err error) {
	r, version, err := extHeader(b, uptimeRequest())
	if err != nil {
		return 0, 0, err
	}
	uptime = getInt(&r, "uptime")
	if err := r.Err(); err != nil {
		return 0, 0, err
	}
	return version, uptime, nil
}

package unreal2

import (
	"encoding/binary"
	"fmt"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// Packet types: the last byte of a request and the fifth byte of its replies.
const (
	typeInfo    = 0x00
	typeRules   = 0x01
	typePlayers = 0x02
)

// versionXMP is the reply version of Unreal 2 XMP, whose player records differ.
const versionXMP = 0x7E

// Caps on what one phase keeps; the server sends no counts for either list.
const (
	maxPlayerEntries = 1024 // records kept per players phase (stock servers have at most 32 players)
	maxRulePairs     = 1024 // pairs kept per rules phase
	maxProps         = 64   // key/value pairs read per XMP player record (a count byte allows 255)
)

// teamBits are the stats id bits stock UT2004 sets for team 0 and team 1.
const (
	teamRedBit  = 1 << 29
	teamBlueBit = 1 << 30
)

// request returns the query of one packet type.
func request(kind byte) []byte { return []byte{0x79, 0x00, 0x00, 0x00, kind} }

// errNotReply marks a datagram that is no reply of the wanted type: the querier
// skips it.
var errNotReply = fmt.Errorf("%w: not an Unreal 2 reply of the requested type", wire.ErrMalformed)

// splitReply returns the version and body of a reply of type kind, or errNotReply.
// The version is any value below 256: every one qstat knows is, and it keeps
// datagrams of other protocols out.
func splitReply(b []byte, kind byte) (version uint32, body []byte, err error) {
	if len(b) < 5 {
		return 0, nil, fmt.Errorf("%w: %d bytes", errNotReply, len(b))
	}
	v := binary.LittleEndian.Uint32(b)
	if v > 0xFF {
		return 0, nil, fmt.Errorf("%w: version %#x", errNotReply, v)
	}
	if b[4] != kind {
		return 0, nil, fmt.Errorf("%w: type %#x, want %#x", errNotReply, b[4], kind)
	}
	return v, b[5:], nil
}

// info is a decoded server info reply.
type info struct {
	version               uint32
	serverID              int32
	ip                    string
	gamePort, queryPort   int32
	name, mapName, game   string
	numPlayers, maxPlayer int32

	layout      string // "ut2003" (ping only), "ut2004" (ping, flags, skill), "killingfloor"; "" when nothing follows the counts
	waveCurrent int32  // Killing Floor
	waveTotal   int32  // Killing Floor
	ping, flags int32
	skill       string
	trailing    int // bytes after the last field decoded
}

// decodeInfo decodes the body of a server info reply (after version and type).
func decodeInfo(version uint32, body []byte) (*info, error) {
	r := wire.NewReader(body)
	in := &info{version: version}
	in.serverID = r.Int32LE("server id")
	in.ip = readString(&r, "ip")
	in.gamePort = r.Int32LE("game port")
	in.queryPort = r.Int32LE("query port")
	in.name = readString(&r, "server name")
	in.mapName = readString(&r, "map name")
	in.game = readString(&r, "game type")
	in.numPlayers = r.Int32LE("current players")
	in.maxPlayer = r.Int32LE("max players")
	if err := r.Err(); err != nil {
		return nil, err
	}
	in.tail(r.Rest())
	return in, nil
}

// tail decodes what follows the player counts, which differs by engine. Killing
// Floor's layout is taken only when it accounts for every byte: a stock skill
// string is one digit, far too short for the standard layout to pass as it.
func (in *info) tail(b []byte) {
	if r := wire.NewReader(b); len(b) >= 17 {
		wc, wt := r.Int32LE("wave"), r.Int32LE("waves")
		ping, flags := r.Int32LE("ping"), r.Int32LE("flags")
		skill := readString(&r, "skill")
		if r.Err() == nil && r.Len() == 0 {
			in.layout, in.waveCurrent, in.waveTotal, in.ping, in.flags, in.skill = "killingfloor", wc, wt, ping, flags, skill
			return
		}
	}
	r := wire.NewReader(b)
	if len(b) < 4 {
		in.trailing = len(b)
		return
	}
	in.layout, in.ping = "ut2003", r.Int32LE("ping")
	if r.Len() >= 5 {
		save := r
		flags := r.Int32LE("flags")
		skill := readString(&r, "skill")
		if r.Err() == nil {
			in.layout, in.flags, in.skill = "ut2004", flags, skill
		} else {
			r = save
		}
	}
	in.trailing = r.Len()
}

// decodeRules appends the key/value pairs of one rules datagram body to kv, keeping
// at most maxRulePairs in all. A pair cut by the end of the datagram is dropped and
// reported with the pairs before it.
func decodeRules(kv []protocols.KV, body []byte) ([]protocols.KV, error) {
	r := wire.NewReader(body)
	for i := 0; r.Len() > 0; i++ {
		k := readString(&r, "rule key")
		v := readString(&r, "rule value")
		if err := r.Err(); err != nil {
			return kv, fmt.Errorf("rule %d of the datagram: %w", i, err)
		}
		if len(kv) >= maxRulePairs {
			return kv, fmt.Errorf("%w: more than %d rules", wire.ErrTooLarge, maxRulePairs)
		}
		kv = append(kv, protocols.KV{Key: k, Value: v})
	}
	return kv, nil
}

// player is one record of a players reply.
type player struct {
	num     int32 // player number; 0 on XMP, and on the team score lines some mods append
	name    string
	ping    int32
	score   int32
	statsID int32
	team    string // "red", "blue" (stats id bits), XMP's "team" property, or ""
}

// decodePlayers appends the records of one players datagram body to ps, keeping at
// most maxPlayerEntries in all. A record cut by the end of the datagram is dropped
// and reported with the records before it.
func decodePlayers(ps []player, version uint32, body []byte) ([]player, error) {
	r := wire.NewReader(body)
	for i := len(ps); r.Len() > 0; i++ {
		if len(ps) >= maxPlayerEntries {
			return ps, fmt.Errorf("%w: more than %d player records", wire.ErrTooLarge, maxPlayerEntries)
		}
		var p player
		p.num = r.Int32LE("player number")
		if version == versionXMP {
			r.Skip(4, "player id") // qstat: never set
		}
		p.name = readString(&r, "player name")
		p.ping = r.Int32LE("player ping")
		p.score = r.Int32LE("player score")
		p.statsID = r.Int32LE("player stats id")
		if version == versionXMP {
			p.team = readProps(&r)
		} else {
			switch {
			case p.statsID&teamRedBit != 0:
				p.team = "red"
			case p.statsID&teamBlueBit != 0:
				p.team = "blue"
			}
		}
		if err := r.Err(); err != nil {
			return ps, fmt.Errorf("player record %d: %w", i, err)
		}
		ps = append(ps, p)
	}
	return ps, nil
}

// readProps reads an XMP player's key/value properties and returns its "team".
func readProps(r *wire.Reader) string {
	n := int(r.Uint8("player property count"))
	if n > maxProps {
		r.Fail(fmt.Errorf("%w: %d player properties, at most %d read", wire.ErrTooLarge, n, maxProps))
		return ""
	}
	team := ""
	for range n {
		k := readString(r, "player property key")
		v := readString(r, "player property value")
		if k == "team" {
			team = v
		}
	}
	return team
}

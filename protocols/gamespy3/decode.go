package gamespy3

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/gamespy"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// Caps (spec §9). A start byte cannot exceed 255, so rows stay below 256 + a block.
const (
	headerLen  = 16 // type, session, "splitnum\0", packet number, section
	maxColumns = 64
	maxRows    = 256
	maxPairs   = 1024
)

// packet is one stat reply datagram with its splitnum header decoded (spec §5.1).
type packet struct {
	session [4]byte
	index   int  // 0-based packet number
	last    bool // the last packet of the reply
	section byte // section of the first item: 0 K/V, 1 players, 2 teams
	body    []byte
}

// parsePacket decodes a stat reply's 16-byte header. The "splitnum" text is not
// checked (GeyserMC sends "GeyserMC"), only the length.
func parsePacket(b []byte) (packet, error) {
	if len(b) < headerLen {
		return packet{}, fmt.Errorf("%w: stat reply of %d bytes, header needs %d", wire.ErrTruncated, len(b), headerLen)
	}
	if b[0] != 0x00 {
		return packet{}, fmt.Errorf("%w: reply type 0x%02x at offset 0, want 0x00", wire.ErrMalformed, b[0])
	}
	return packet{
		session: [4]byte(b[1:5]),
		index:   int(b[14] & 0x7F),
		last:    b[14]&0x80 != 0,
		section: b[15],
		body:    b[headerLen:],
	}, nil
}

// column is one field of a table: values by row, nil where none was sent.
type column struct {
	name string
	vals [][]byte
}

type table struct{ cols []*column }

// col returns the column called name, adding it; nil once maxColumns are taken.
func (t *table) col(name string) *column {
	for _, c := range t.cols {
		if c.name == name {
			return c
		}
	}
	if len(t.cols) == maxColumns {
		return nil
	}
	c := &column{name: name}
	t.cols = append(t.cols, c)
	return c
}

func (c *column) set(row int, v []byte) {
	for len(c.vals) <= row {
		c.vals = append(c.vals, nil)
	}
	c.vals[row] = v
}

func (t *table) rows() int {
	n := 0
	for _, c := range t.cols {
		n = max(n, len(c.vals))
	}
	return n
}

// find returns the column whose name, without suffix, is one of names.
func (t *table) find(suffix string, names ...string) *column {
	for _, n := range names {
		for _, c := range t.cols {
			if strings.EqualFold(strings.TrimSuffix(c.name, suffix), n) {
				return c
			}
		}
	}
	return nil
}

func (t *table) anyAt(row int) bool {
	for _, c := range t.cols {
		if _, ok := c.at(row); ok {
			return true
		}
	}
	return false
}

func (c *column) at(row int) ([]byte, bool) {
	if c == nil || row >= len(c.vals) || c.vals[row] == nil {
		return nil, false
	}
	return c.vals[row], true
}

// reply is the decoded body of a whole (or partial) stat reply.
type reply struct {
	kv            []gamespy.Pair
	kvDone        bool // the empty key that ends the K/V section was seen
	players, team table
	dropped       int // values past the row or column caps
}

// recode reads the reply's strings with text, a module's `encoding:` (nil: as
// sent): the decoders then take their valid UTF-8 as it is.
func (r *reply) recode(text func([]byte) string) {
	if text == nil {
		return
	}
	gamespy.Recode(text, r.kv)
	for _, t := range []*table{&r.players, &r.team} {
		for _, c := range t.cols {
			for i, v := range c.vals {
				c.vals[i] = []byte(text(v))
			}
		}
	}
}

// decodeBody adds one packet's body to r (spec §5.2, §5.3 step 3). A string cut by
// the end of the packet is dropped: the next packet re-opens its block.
func (r *reply) decodeBody(p packet) error {
	rd := wire.NewReader(p.body)
	if p.section == 0 && !r.kvDone {
		for rd.Len() > 0 {
			key := rd.CString("key")
			if rd.Err() != nil {
				return nil
			}
			if len(key) == 0 {
				r.kvDone = true
				break
			}
			val := rd.CString("value")
			if rd.Err() != nil {
				return nil
			}
			// UT3 sends a bare setting id where a value is missing; the value is the
			// next string (spec §5.4, gamedig).
			if bareID(val) {
				save := rd
				if next := rd.CString("value"); rd.Err() == nil && len(next) > 0 {
					val = next
				} else {
					rd = save
				}
			}
			if len(r.kv) == maxPairs {
				return fmt.Errorf("%w: more than %d key/value pairs at offset %d", wire.ErrTooLarge, maxPairs, headerLen+rd.Offset())
			}
			r.kv = append(r.kv, gamespy.Pair{Key: string(key), Value: val})
		}
	}
	for rd.Len() > 0 {
		// Terminators and section ids are both bytes <= 2 where a field name may
		// start: skip them (gamedig), which also absorbs UT3's extra NULs.
		if c, _ := rd.Peek(); c <= 2 {
			rd.Skip(1, "section byte")
			continue
		}
		name := rd.CString("field name")
		start := int(rd.Uint8("field start"))
		if rd.Err() != nil {
			return nil
		}
		t := &r.players
		if strings.HasSuffix(string(name), "_t") {
			t = &r.team
		}
		c := t.col(string(name))
		for row := start; ; row++ {
			v := rd.CString("field value")
			if rd.Err() != nil || len(v) == 0 {
				break
			}
			// Later packets overwrite by row: that repairs the truncated copy a
			// packet may end with (spec §5.3 step 4).
			if c == nil || row >= maxRows {
				r.dropped++
				continue
			}
			c.set(row, v)
		}
	}
	return nil
}

// bareID matches UT3's "p<digits>" setting ids (long ones only, so that a short
// value like "p1" is never taken for one).
func bareID(v []byte) bool {
	if len(v) < 7 || v[0] != 'p' {
		return false
	}
	for _, c := range v[1:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// decode decodes the datagrams of one stat reply, in any order, into a Result with
// players and rules. Duplicates are ignored. A reply with packets missing, or whose
// K/V section never ends, is decoded as far as it goes and the error wraps
// ErrTruncated.
func decode(datagrams ...[]byte) (*protocols.Result, error) {
	var a assembler
	for i, d := range datagrams {
		p, err := parsePacket(d)
		if err != nil {
			return nil, fmt.Errorf("datagram %d: %w", i, err)
		}
		if _, _, err := a.add(p); err != nil {
			return nil, err
		}
	}
	r, cut, err := a.decode()
	if err != nil {
		return nil, err
	}
	res := r.result(true)
	res.PlayerList = r.playerList(res)
	if cut == nil {
		r.setBots(res, res.PlayerList)
	}
	return res, cut
}

// setBots counts the players the table flags in its AIBot_ column (Battlefield
// 2 and 2142), when the table lists every player numplayers counts: numplayers
// counts the rows, bots included (the real BF2 replies list numplayers rows),
// so Players becomes the humans. A table shorter than numplayers (Project
// Reality lists at most 64 of its 100) or without the column leaves the bots
// unknown and numplayers as it is.
func (r *reply) setBots(res *protocols.Result, list []protocols.Player) {
	if r.players.find("_", "AIBot") == nil || !res.Players.Known || res.Players.Value != int64(len(list)) {
		return
	}
	var bots int64
	for _, p := range list {
		if p.Bot {
			bots++
		}
	}
	res.Players = protocols.Known(res.Players.Value - bots)
	res.Bots = protocols.Known(bots)
}

// result maps the K/V section (spec §5, §5.4) and keeps it whole in Info, and in
// Rules when rules is set.
func (r *reply) result(rules bool) *protocols.Result {
	res := &protocols.Result{}
	res.Name = gamespy.First(r.kv, wire.UTF8, "hostname")
	res.Map = mapName(r.kv)
	res.Version = gamespy.First(r.kv, wire.UTF8, "gamever")
	res.Game = gamespy.First(r.kv, wire.UTF8, "gamename", "game_id", "gametype", "p1073741826") // UT3: game type id
	gamespy.SetCounts(res, r.kv)
	res.Info = gamespy.AppendInfo(make([]protocols.KV, 0, len(r.kv)), r.kv, nil)
	if rules {
		res.Rules = res.Info
	}
	return res
}

// mapName finds the map: mapname (BF2MC: map), or UT3's setting p1073741825, which
// retail UT3 also packs into mapname as "OwningPlayerId=…,p1073741825=…" (spec §5.4).
func mapName(kv []gamespy.Pair) string {
	if v, ok := gamespy.Lookup(kv, "p1073741825"); ok && len(v) > 0 {
		return wire.UTF8(v)
	}
	v, ok := gamespy.Lookup(kv, "mapname")
	if !ok || len(v) == 0 {
		v, _ = gamespy.Lookup(kv, "map")
	}
	s := wire.UTF8(v)
	if !strings.HasPrefix(s, "OwningPlayerId=") {
		return s
	}
	packed := ""
	for _, f := range strings.Split(s, ",") {
		k, val, _ := strings.Cut(f, "=")
		if k == "p1073741825" || (k == "mapname" && packed == "") {
			packed = val
		}
	}
	return packed
}

// playerList maps the player table (player_/name_, score_, ping_, team_, AIBot_).
// Team numbers index the team table from 1, as Battlefield 2 sends them (qstat).
// Names are trimmed: BF2 prefixes them with a clan tag and a space, tag or not.
// numplayers stands in when the server sent none: the row count.
func (r *reply) playerList(res *protocols.Result) []protocols.Player {
	t := &r.players
	n := t.rows()
	if !res.Players.Known && len(t.cols) > 0 {
		if _, sent := gamespy.Lookup(r.kv, "numplayers"); !sent {
			res.Players = protocols.Known(int64(n))
		}
	}
	name, score, ping, team, bot := t.find("_", "player", "name"), t.find("_", "score", "frags", "kills"),
		t.find("_", "ping"), t.find("_", "team"), t.find("_", "AIBot")
	teamCol := r.team.find("_t", "team")
	out := make([]protocols.Player, 0, n)
	for i := range n {
		if !t.anyAt(i) {
			continue // a hole left by a lying start byte: no player there
		}
		var p protocols.Player
		if v, ok := name.at(i); ok {
			p.Name = strings.TrimSpace(wire.UTF8(v))
		}
		if v, ok := score.at(i); ok {
			p.Score = gamespy.ParseCount(v)
		}
		if v, ok := ping.at(i); ok {
			p.Ping = gamespy.ParseCount(v)
		}
		if v, ok := team.at(i); ok {
			p.Team = strings.TrimSpace(wire.UTF8(v))
			if k, err := strconv.Atoi(p.Team); err == nil && k >= 1 {
				if tn, ok := teamCol.at(k - 1); ok {
					p.Team = wire.UTF8(tn)
				}
			}
		}
		if v, ok := bot.at(i); ok {
			p.Bot = gamespy.ParseFlag(v) == protocols.FlagTrue
		}
		out = append(out, p)
	}
	return out
}

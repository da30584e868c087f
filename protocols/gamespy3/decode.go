package gamespy3

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// Caps (spec §9). A start byte cannot exceed 255, so rows stay below 256 + a block.
const (
	headerLen  = 16 // type, session, "splitnum\0", packet number, section
	maxColumns = 64
	maxRows    = 256
	maxPairs   = 1024
)

// Packet is one stat reply datagram with its splitnum header decoded (spec §5.1).
type Packet struct {
	Session [4]byte
	Index   int  // 0-based packet number
	Last    bool // the last packet of the reply
	Section byte // section of the first item: 0 K/V, 1 players, 2 teams
	Body    []byte
}

// ParsePacket decodes a stat reply's 16-byte header. The "splitnum" text is not
// checked (GeyserMC sends "GeyserMC"), only the length.
func ParsePacket(b []byte) (Packet, error) {
	if len(b) < headerLen {
		return Packet{}, fmt.Errorf("%w: stat reply of %d bytes, header needs %d", protocols.ErrTruncated, len(b), headerLen)
	}
	if b[0] != 0x00 {
		return Packet{}, fmt.Errorf("%w: reply type 0x%02x at offset 0, want 0x00", protocols.ErrMalformed, b[0])
	}
	return Packet{
		Session: [4]byte(b[1:5]),
		Index:   int(b[14] & 0x7F),
		Last:    b[14]&0x80 != 0,
		Section: b[15],
		Body:    b[headerLen:],
	}, nil
}

// ParseChallenge decodes a handshake reply (spec §3): 0x09, the session echo and the
// token as ASCII decimal, which may be negative or above 2^31 (truncated to 32 bits).
// need is false for the token "0": the server wants no challenge bytes.
func ParseChallenge(b []byte) (session [4]byte, token [4]byte, need bool, err error) {
	if len(b) < 5 {
		return session, token, false, fmt.Errorf("%w: challenge reply of %d bytes", protocols.ErrTruncated, len(b))
	}
	if b[0] != 0x09 {
		return session, token, false, fmt.Errorf("%w: challenge reply type 0x%02x at offset 0, want 0x09", protocols.ErrMalformed, b[0])
	}
	session = [4]byte(b[1:5])
	s := b[5:]
	if i := bytes.IndexByte(s, 0); i >= 0 {
		s = s[:i]
	}
	s = bytes.TrimSpace(s)
	if len(s) == 0 || len(s) > 20 {
		return session, token, false, fmt.Errorf("%w: challenge token %q at offset 5 is not a decimal number", protocols.ErrChallenge, s)
	}
	n, perr := strconv.ParseInt(string(s), 10, 64)
	if perr != nil {
		// Between 2^63 and 2^64: only the low 32 bits matter anyway.
		u, uerr := strconv.ParseUint(string(s), 10, 64)
		if uerr != nil {
			return session, token, false, fmt.Errorf("%w: challenge token %q at offset 5 is not a decimal number", protocols.ErrChallenge, s)
		}
		n = int64(u)
	}
	v := uint32(n)
	token = [4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}
	return session, token, n != 0, nil
}

type pair struct {
	key   string
	value []byte
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
	kv            []pair
	kvDone        bool // the empty key that ends the K/V section was seen
	players, team table
	dropped       int // values past the row or column caps
}

// decodeBody adds one packet's body to r (spec §5.2, §5.3 step 3). A string cut by
// the end of the packet is dropped: the next packet re-opens its block.
func (r *reply) decodeBody(p Packet) error {
	rd := wire.NewReader(p.Body)
	if p.Section == 0 && !r.kvDone {
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
				return fmt.Errorf("%w: more than %d key/value pairs at offset %d", protocols.ErrTooLarge, maxPairs, headerLen+rd.Offset())
			}
			r.kv = append(r.kv, pair{key: string(key), value: val})
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

// Decode decodes the datagrams of one stat reply, in any order, into a Result with
// players and rules. Duplicates are ignored. A reply with packets missing, or whose
// K/V section never ends, is decoded as far as it goes and the error wraps
// ErrTruncated.
func Decode(datagrams ...[]byte) (*protocols.Result, error) {
	var a assembler
	for i, d := range datagrams {
		p, err := ParsePacket(d)
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
	return res, cut
}

// result maps the K/V section (spec §5, §5.4) and keeps it whole in Info, and in
// Rules when rules is set.
func (r *reply) result(rules bool) *protocols.Result {
	res := &protocols.Result{}
	str := func(keys ...string) string {
		for _, k := range keys {
			if v, ok := lookup(r.kv, k); ok && len(v) > 0 {
				return wire.UTF8(v)
			}
		}
		return ""
	}
	res.Name = str("hostname")
	res.Map = mapName(r.kv)
	res.Version = str("gamever")
	res.Game = str("gamename", "game_id", "gametype", "p1073741826") // UT3: game type id
	if v, ok := lookup(r.kv, "numplayers"); ok {
		res.Players = parseCount(v)
	}
	if v, ok := lookup(r.kv, "maxplayers"); ok {
		res.MaxPlayers = parseCount(v)
	}
	if v, ok := lookup(r.kv, "password"); ok {
		res.Password = parseFlag(v)
	}
	res.Info = info(r.kv)
	if rules {
		res.Rules = res.Info
	}
	return res
}

// info converts the pairs, a repeated key keeping its first place and last value.
func info(kv []pair) []protocols.KV {
	out := make([]protocols.KV, 0, len(kv))
	seen := make(map[string]int, len(kv))
	for _, p := range kv {
		e := protocols.KV{Key: wire.UTF8([]byte(p.key)), Value: wire.UTF8(p.value)}
		if i, ok := seen[p.key]; ok {
			out[i] = e
			continue
		}
		seen[p.key] = len(out)
		out = append(out, e)
	}
	return out
}

// mapName finds the map: mapname (BF2MC: map), or UT3's setting p1073741825, which
// retail UT3 also packs into mapname as "OwningPlayerId=…,p1073741825=…" (spec §5.4).
func mapName(kv []pair) string {
	if v, ok := lookup(kv, "p1073741825"); ok && len(v) > 0 {
		return wire.UTF8(v)
	}
	v, ok := lookup(kv, "mapname")
	if !ok || len(v) == 0 {
		v, _ = lookup(kv, "map")
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

func lookup(kv []pair, key string) ([]byte, bool) {
	for i := len(kv) - 1; i >= 0; i-- {
		if strings.EqualFold(kv[i].key, key) {
			return kv[i].value, true
		}
	}
	return nil, false
}

// playerList maps the player table (player_/name_, score_, ping_, team_, AIBot_).
// Team numbers index the team table from 1, as Battlefield 2 sends them (qstat).
// Names are trimmed: BF2 prefixes them with a clan tag and a space, tag or not.
// numplayers stands in when the server sent none: the row count.
func (r *reply) playerList(res *protocols.Result) []protocols.Player {
	t := &r.players
	n := t.rows()
	if !res.Players.Known && len(t.cols) > 0 {
		if _, sent := lookup(r.kv, "numplayers"); !sent {
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
			p.Score = parseCount(v)
		}
		if v, ok := ping.at(i); ok {
			p.Ping = parseCount(v)
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
			p.Bot = parseFlag(v) == protocols.FlagTrue
		}
		out = append(out, p)
	}
	return out
}

func parseCount(v []byte) protocols.Count {
	s := strings.TrimPrefix(strings.TrimSpace(string(v)), "+")
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return protocols.Count{}
	}
	return protocols.Known(n)
}

func parseFlag(v []byte) protocols.Flag {
	switch strings.ToLower(strings.TrimSpace(string(v))) {
	case "1", "true", "yes", "on":
		return protocols.FlagTrue
	case "0", "false", "no", "off":
		return protocols.FlagFalse
	}
	return protocols.FlagUnknown
}

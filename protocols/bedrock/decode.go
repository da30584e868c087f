package bedrock

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/mctext"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// RakNet offline message ids and layout.
const (
	idPing  = 0x01
	idPong  = 0x1c
	pingLen = 1 + 8 + 16 + 8 // id, time, magic, client GUID
	// pongHeader is id, time, server GUID, magic, string length.
	pongHeader = 1 + 8 + 8 + 16 + 2
	magicAt    = 1 + 8 + 8
)

// magic is RakNet's OFFLINE_MESSAGE_DATA_ID, carried by every offline message.
var magic = [16]byte{0x00, 0xff, 0xff, 0x00, 0xfe, 0xfe, 0xfe, 0xfe, 0xfd, 0xfd, 0xfd, 0xfd, 0x12, 0x34, 0x56, 0x78}

// Caps on what a pong can make the decoder hold.
const (
	// maxServerID bounds the server id string. RakNet itself caps offline ping
	// data at 400 bytes and a pong is never split, so anything near a datagram's
	// size is not a server list entry.
	maxServerID = 4096
	// maxFields bounds the fields kept: the layout has 12, extras are kept as
	// field_N up to this many.
	maxFields = 32
)

// Field names of the server id string, in wire order (Info keys).
var fieldNames = [...]string{
	"edition", "motd", "protocol", "version", "players", "max_players",
	"server_id", "level_name", "gamemode", "gamemode_numeric", "port_v4", "port_v6",
}

const (
	fMOTD    = 1
	fVersion = 3
	fPlayers = 4
	fMax     = 5
	fLevel   = 7
)

// pong is a decoded Unconnected Pong.
type pong struct {
	time     int64
	guid     uint64
	fields   []string // the server id string split at unescaped ';', UTF-8
	dropped  int      // fields past maxFields
	trailing int      // bytes after the string
}

// answers tells whether b is the pong to a ping sent with time: nil if so (as far
// as b reaches), else why b is skipped. A pong to someone else's ping (another
// time) is ErrMismatch, anything that is not a RakNet pong ErrMalformed.
func answers(b []byte, time int64) error {
	if len(b) == 0 || b[0] != idPong {
		return fmt.Errorf("%w: not an unconnected pong (%d bytes%s)", wire.ErrMalformed, len(b), firstByte(b))
	}
	if len(b) >= 9 {
		if got := int64(binary.BigEndian.Uint64(b[1:])); got != time {
			return fmt.Errorf("%w: pong echoes time %d, sent %d", wire.ErrMismatch, got, time)
		}
	}
	if len(b) >= magicAt+len(magic) && !bytes.Equal(b[magicAt:magicAt+len(magic)], magic[:]) {
		return fmt.Errorf("%w: pong without RakNet's offline magic at offset %d", wire.ErrMalformed, magicAt)
	}
	return nil
}

func firstByte(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return fmt.Sprintf(", id %#04x", b[0])
}

// decode decodes an Unconnected Pong: 1c, time, server GUID, magic, uint16 BE
// length, server id string. Bytes after the string are counted, not read.
func decode(b []byte) (*pong, error) {
	if len(b) == 0 || b[0] != idPong {
		return nil, fmt.Errorf("%w: not an unconnected pong", wire.ErrMalformed)
	}
	if len(b) < pongHeader {
		return nil, fmt.Errorf("%w: pong of %d bytes, header needs %d", wire.ErrTruncated, len(b), pongHeader)
	}
	if !bytes.Equal(b[magicAt:magicAt+len(magic)], magic[:]) {
		return nil, fmt.Errorf("%w: no RakNet offline magic at offset %d", wire.ErrMalformed, magicAt)
	}
	n := int(binary.BigEndian.Uint16(b[pongHeader-2:]))
	if n > maxServerID {
		return nil, fmt.Errorf("%w: server id string of %d bytes (cap %d)", wire.ErrTooLarge, n, maxServerID)
	}
	if rest := len(b) - pongHeader; n > rest {
		return nil, fmt.Errorf("%w: server id string of %d bytes at offset %d, %d left", wire.ErrTruncated, n, pongHeader, rest)
	}
	p := &pong{
		time:     int64(binary.BigEndian.Uint64(b[1:])),
		guid:     binary.BigEndian.Uint64(b[9:]),
		trailing: len(b) - pongHeader - n,
	}
	s := wire.UTF8(b[pongHeader : pongHeader+n])
	p.fields, p.dropped = split(s)
	if len(p.fields) < 2 {
		return nil, fmt.Errorf("%w: server id string %q has no ';'-separated fields", wire.ErrMalformed, head(s, 32))
	}
	return p, nil
}

// split cuts the server id string at ';'. A backslash escapes a ';' inside a
// field (a MOTD may hold one); the terminating ';' leaves no empty last field.
func split(s string) (fields []string, dropped int) {
	if t, ok := strings.CutSuffix(s, ";"); ok && !strings.HasSuffix(t, `\`) {
		s = t // a ';' after a backslash is escaped: kept
	}
	fields = make([]string, 0, min(strings.Count(s, ";")+1, maxFields))
	var cur strings.Builder
	escaped := false
	add := func(f string) {
		if len(fields) < maxFields {
			fields = append(fields, f)
		} else {
			dropped++
		}
	}
	start := 0
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '\\' && i+1 < len(s) && s[i+1] == ';':
			cur.WriteString(s[start:i])
			cur.WriteByte(';')
			i++
			start = i + 1
			escaped = true
		case s[i] == ';':
			add(field(&cur, s[start:i], escaped))
			start, escaped = i+1, false
		}
	}
	add(field(&cur, s[start:], escaped))
	return fields, dropped
}

// field returns the field ending in tail, joined to what cur holds when the
// field had escapes (the common case allocates nothing).
func field(cur *strings.Builder, tail string, escaped bool) string {
	if !escaped {
		return tail
	}
	cur.WriteString(tail)
	f := cur.String()
	cur.Reset()
	return f
}

// get returns field i, or "" when the server sent fewer.
func (p *pong) get(i int) (string, bool) {
	if i < len(p.fields) {
		return p.fields[i], true
	}
	return "", false
}

// result maps the pong: Name is the MOTD's first line, Map the level name (the
// MOTD's second line on servers that put text there), both without § codes.
func (p *pong) result() *protocols.Result {
	r := &protocols.Result{}
	if s, ok := p.get(fMOTD); ok {
		r.Name = plain(s)
	}
	if s, ok := p.get(fLevel); ok {
		r.Map = plain(s)
	}
	r.Version, _ = p.get(fVersion)
	r.Players = count(p.get(fPlayers))
	r.MaxPlayers = count(p.get(fMax))
	r.InfoFunc = p.info
	return r
}

// info lists the RakNet server GUID and every field by name.
func (p *pong) info() []protocols.KV {
	kv := make([]protocols.KV, 0, len(p.fields)+3)
	kv = append(kv, protocols.KV{Key: "raknet_guid", Value: strconv.FormatUint(p.guid, 10)})
	for i, f := range p.fields {
		k := "field_" + strconv.Itoa(i)
		if i < len(fieldNames) {
			k = fieldNames[i]
		}
		kv = append(kv, protocols.KV{Key: k, Value: f})
	}
	if p.dropped > 0 {
		kv = append(kv, protocols.KV{Key: "fields_dropped", Value: strconv.Itoa(p.dropped)})
	}
	if p.trailing > 0 {
		kv = append(kv, protocols.KV{Key: "trailing_bytes", Value: strconv.Itoa(p.trailing)})
	}
	return kv
}

// count parses a player count; anything but a non-negative decimal is not reported.
func count(s string, ok bool) protocols.Count {
	v, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if !ok || err != nil || v < 0 {
		return protocols.Count{}
	}
	return protocols.Known(v)
}

// plain strips Minecraft's formatting codes and trims the blanks MOTDs are
// centred with.
func plain(s string) string { return strings.TrimSpace(mctext.StripCodes(s)) }

func head(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

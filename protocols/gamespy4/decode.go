package gamespy4

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

const (
	// fullHeaderLen is type, session and the 11-byte "splitnum\0\x80\0" padding,
	// whose text is not checked (GeyserMC sends "GeyserMC", test captures zeros).
	fullHeaderLen = 16
	maxPairs      = 256
	// maxNames bounds the player list kept from one datagram (up to 64 KiB).
	maxNames = 1024
)

// knownKeys are vanilla's full-stat keys: the MOTD ends at the first "\0<key>\0"
// (spec §6.3, mcstatus), because a MOTD may hold NUL bytes.
var knownKeys = []string{"gametype", "game_id", "version", "plugins", "map", "numplayers", "maxplayers", "hostport", "hostip"}

// Stat is a decoded stat reply: its key/values in wire order and, for a full stat,
// the player names (nil when the reply has no player section).
type Stat struct {
	KV      []KV
	Players [][]byte
}

// KV is one raw key/value pair.
type KV struct {
	Key, Value []byte
}

// ParseChallenge decodes a handshake reply (spec §3): 0x09, the session echo and the
// token as ASCII decimal, possibly negative or above 2^31 (truncated to 32 bits),
// returned as the 4 big-endian bytes the stat request carries.
func ParseChallenge(b []byte) (session, token [4]byte, err error) {
	if len(b) < 5 {
		return session, token, fmt.Errorf("%w: challenge reply of %d bytes", protocols.ErrTruncated, len(b))
	}
	if b[0] != 0x09 {
		return session, token, fmt.Errorf("%w: challenge reply type 0x%02x at offset 0, want 0x09", protocols.ErrMalformed, b[0])
	}
	session = [4]byte(b[1:5])
	s := b[5:]
	if i := bytes.IndexByte(s, 0); i >= 0 {
		s = s[:i]
	}
	s = bytes.TrimSpace(s)
	n, perr := strconv.ParseInt(string(s), 10, 64)
	if perr != nil {
		u, uerr := strconv.ParseUint(string(s), 10, 64) // 2^63..2^64: the low bits still count
		if uerr != nil || len(s) > 20 {
			return session, token, fmt.Errorf("%w: challenge token %q at offset 5 is not a decimal number", protocols.ErrChallenge, s)
		}
		n = int64(u)
	}
	v := uint32(n)
	return session, [4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}, nil
}

// DecodeFull decodes a full-stat reply (spec §6.1): header and padding, K/V pairs up
// to an empty key (the MOTD resynchronised on the next known key), then the
// "\x01player_\0\0" block and player names up to an empty one or the end of the
// datagram. A reply cut inside the K/V pairs or a name keeps what precedes and
// the error wraps ErrTruncated.
func DecodeFull(b []byte) (*Stat, error) {
	if len(b) < fullHeaderLen {
		return nil, fmt.Errorf("%w: full stat reply of %d bytes, header needs %d", protocols.ErrTruncated, len(b), fullHeaderLen)
	}
	if b[0] != 0x00 {
		return nil, fmt.Errorf("%w: reply type 0x%02x at offset 0, want 0x00", protocols.ErrMalformed, b[0])
	}
	st := &Stat{}
	body := b[fullHeaderLen:]
	off := 0
	for {
		key, n := cstring(body[off:])
		if n < 0 {
			return st, fmt.Errorf("%w: key at offset %d has no NUL terminator", protocols.ErrTruncated, fullHeaderLen+off)
		}
		off += n
		if len(key) == 0 {
			break
		}
		var val []byte
		if string(key) == "hostname" {
			val, n = motd(body[off:])
		} else {
			val, n = cstring(body[off:])
		}
		if n < 0 {
			return st, fmt.Errorf("%w: value of %q at offset %d has no NUL terminator", protocols.ErrTruncated, key, fullHeaderLen+off)
		}
		off += n
		if len(st.KV) == maxPairs {
			return nil, fmt.Errorf("%w: more than %d key/value pairs at offset %d", protocols.ErrTooLarge, maxPairs, fullHeaderLen+off)
		}
		st.KV = append(st.KV, KV{Key: key, Value: val})
	}
	// The player section: section id, "player_", start byte. Tolerant like
	// gamespy3: skip bytes <= 2, take whatever field name comes.
	for off < len(body) && body[off] <= 2 {
		off++
	}
	if off >= len(body) {
		return st, nil // no player section at all
	}
	_, n := cstring(body[off:])
	if n < 0 || off+n >= len(body) {
		return st, fmt.Errorf("%w: player section header at offset %d", protocols.ErrTruncated, fullHeaderLen+off)
	}
	off += n + 1 // field name and start byte
	st.Players = [][]byte{}
	for off < len(body) {
		name, n := cstring(body[off:])
		if n < 0 {
			return st, fmt.Errorf("%w: player name at offset %d has no NUL terminator", protocols.ErrTruncated, fullHeaderLen+off)
		}
		off += n
		if len(name) == 0 {
			break
		}
		if len(st.Players) < maxNames {
			st.Players = append(st.Players, name)
		}
	}
	return st, nil
}

// cstring returns the bytes before the first NUL and how many bytes it spans with
// the NUL; n is -1 when there is none.
func cstring(b []byte) (s []byte, n int) {
	i := bytes.IndexByte(b, 0)
	if i < 0 {
		return nil, -1
	}
	return b[:i], i + 1
}

// motd reads the hostname value, which may hold NULs (vanilla writes each char's low
// byte, so U+2A00 arrives as 0x00): it ends before the first "\0<known key>\0".
func motd(b []byte) ([]byte, int) {
	end := -1
	for _, k := range knownKeys {
		pat := "\x00" + k + "\x00"
		if i := bytes.Index(b, []byte(pat)); i >= 0 && (end < 0 || i < end) {
			end = i
		}
	}
	if end < 0 {
		return cstring(b) // hostname sent last: nothing to resynchronise on
	}
	return b[:end], end + 1
}

// DecodeBasic decodes a basic-stat reply (spec §6.2): MOTD, gametype, map,
// numplayers and maxplayers as strings, hostport as a little-endian u16, hostip.
// The pairs get the full stat's key names.
func DecodeBasic(b []byte) (*Stat, error) {
	if len(b) < 5 {
		return nil, fmt.Errorf("%w: basic stat reply of %d bytes", protocols.ErrTruncated, len(b))
	}
	if b[0] != 0x00 {
		return nil, fmt.Errorf("%w: reply type 0x%02x at offset 0, want 0x00", protocols.ErrMalformed, b[0])
	}
	r := wire.NewReader(b)
	r.Skip(5, "header")
	st := &Stat{}
	for _, k := range []string{"hostname", "gametype", "map", "numplayers", "maxplayers"} {
		v := r.CString(k)
		if r.Err() != nil {
			return st, r.Err()
		}
		st.KV = append(st.KV, KV{Key: []byte(k), Value: v})
	}
	for _, k := range []string{"numplayers", "maxplayers"} {
		if v, _ := lookup(st.KV, k); !parseCount(v).Known {
			return nil, fmt.Errorf("%w: %s %q is not a number (a MOTD with a NUL byte?)", protocols.ErrMalformed, k, v)
		}
	}
	port := r.Uint16LE("hostport")
	ip := r.CString("hostip")
	if r.Err() != nil {
		return st, r.Err()
	}
	st.KV = append(st.KV, KV{Key: []byte("hostport"), Value: []byte(strconv.Itoa(int(port)))}, KV{Key: []byte("hostip"), Value: ip})
	return st, nil
}

// Result maps the stat (spec §6): the MOTD without its § colour codes as the name,
// game_id (else gametype) as the game. numplayers is the count even when the list
// disagrees (PocketMine load balancers, Geyser). players and rules select whether
// the player list and the K/V pairs as rules are filled; Info always holds the
// pairs as sent.
func (s *Stat) Result(players, rules bool) *protocols.Result {
	res := &protocols.Result{}
	str := func(keys ...string) string {
		for _, k := range keys {
			if v, ok := lookup(s.KV, k); ok && len(v) > 0 {
				return text(v)
			}
		}
		return ""
	}
	res.Name = strings.TrimSpace(stripColours(str("hostname")))
	res.Map = str("map")
	res.Game = str("game_id", "gametype")
	res.Version = str("version")
	if v, ok := lookup(s.KV, "numplayers"); ok {
		res.Players = parseCount(v)
	} else if s.Players != nil {
		res.Players = protocols.Known(int64(len(s.Players)))
	}
	if v, ok := lookup(s.KV, "maxplayers"); ok {
		res.MaxPlayers = parseCount(v)
	}
	res.Info = make([]protocols.KV, 0, len(s.KV))
	for _, kv := range s.KV {
		res.Info = append(res.Info, protocols.KV{Key: text(kv.Key), Value: text(kv.Value)})
	}
	if rules {
		res.Rules = res.Info
	}
	if players && s.Players != nil {
		res.PlayerList = make([]protocols.Player, len(s.Players))
		for i, n := range s.Players {
			res.PlayerList[i].Name = text(n)
		}
	}
	return res
}

// text decodes a string (spec §6.3): vanilla sends each char's low byte, so
// ISO-8859-1; third-party servers may send UTF-8, taken when the bytes are valid
// UTF-8 (an ISO-8859-1 text almost never is once it has bytes above 0x7F).
func text(b []byte) string { return wire.UTF8(b) }

// stripColours removes Minecraft formatting codes: § and the character after it.
func stripColours(s string) string {
	if !strings.ContainsRune(s, '§') {
		return s
	}
	var out strings.Builder
	skip := false
	for _, r := range s {
		switch {
		case skip:
			skip = false
		case r == '§':
			skip = true
		default:
			out.WriteRune(r)
		}
	}
	return out.String()
}

func lookup(kv []KV, key string) ([]byte, bool) {
	for i := len(kv) - 1; i >= 0; i-- {
		if string(kv[i].Key) == key {
			return kv[i].Value, true
		}
	}
	return nil, false
}

func parseCount(v []byte) protocols.Count {
	n, err := strconv.ParseInt(strings.TrimSpace(string(v)), 10, 64)
	if err != nil {
		return protocols.Count{}
	}
	return protocols.Known(n)
}

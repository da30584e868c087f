package gamespy4

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/gamespy"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/mctext"
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

// stat is a decoded stat reply: its key/values in wire order and, for a full stat,
// the player names (nil when the reply has no player section).
type stat struct {
	kv      []gamespy.Pair
	players [][]byte
}

// decodeFull decodes a full-stat reply (spec §6.1): header and padding, K/V pairs up
// to an empty key (the MOTD resynchronised on the next known key), then the
// "\x01player_\0\0" block and player names up to an empty one or the end of the
// datagram. A reply cut inside the K/V pairs or a name keeps what precedes and
// the error wraps ErrTruncated.
func decodeFull(b []byte) (*stat, error) {
	if len(b) < fullHeaderLen {
		return nil, fmt.Errorf("%w: full stat reply of %d bytes, header needs %d", wire.ErrTruncated, len(b), fullHeaderLen)
	}
	if b[0] != 0x00 {
		return nil, fmt.Errorf("%w: reply type 0x%02x at offset 0, want 0x00", wire.ErrMalformed, b[0])
	}
	st := &stat{}
	body := b[fullHeaderLen:]
	off := 0
	for {
		key, n := cstring(body[off:])
		if n < 0 {
			return st, fmt.Errorf("%w: key at offset %d has no NUL terminator", wire.ErrTruncated, fullHeaderLen+off)
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
			return st, fmt.Errorf("%w: value of %q at offset %d has no NUL terminator", wire.ErrTruncated, key, fullHeaderLen+off)
		}
		off += n
		if len(st.kv) == maxPairs {
			return nil, fmt.Errorf("%w: more than %d key/value pairs at offset %d", wire.ErrTooLarge, maxPairs, fullHeaderLen+off)
		}
		st.kv = append(st.kv, gamespy.Pair{Key: string(key), Value: val})
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
		return st, fmt.Errorf("%w: player section header at offset %d", wire.ErrTruncated, fullHeaderLen+off)
	}
	off += n + 1 // field name and start byte
	st.players = [][]byte{}
	for off < len(body) {
		name, n := cstring(body[off:])
		if n < 0 {
			return st, fmt.Errorf("%w: player name at offset %d has no NUL terminator", wire.ErrTruncated, fullHeaderLen+off)
		}
		off += n
		if len(name) == 0 {
			break
		}
		if len(st.players) < maxNames {
			st.players = append(st.players, name)
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

// decodeBasic decodes a basic-stat reply (spec §6.2): MOTD, gametype, map,
// numplayers and maxplayers as strings, hostport as a little-endian u16, hostip.
// The pairs get the full stat's key names.
func decodeBasic(b []byte) (*stat, error) {
	if len(b) < 5 {
		return nil, fmt.Errorf("%w: basic stat reply of %d bytes", wire.ErrTruncated, len(b))
	}
	if b[0] != 0x00 {
		return nil, fmt.Errorf("%w: reply type 0x%02x at offset 0, want 0x00", wire.ErrMalformed, b[0])
	}
	r := wire.NewReader(b)
	r.Skip(5, "header")
	st := &stat{}
	for _, k := range []string{"hostname", "gametype", "map", "numplayers", "maxplayers"} {
		v := r.CString(k)
		if r.Err() != nil {
			return st, r.Err()
		}
		st.kv = append(st.kv, gamespy.Pair{Key: k, Value: v})
	}
	for _, k := range []string{"numplayers", "maxplayers"} {
		if v, _ := gamespy.Lookup(st.kv, k); !gamespy.ParseCount(v).Known {
			return nil, fmt.Errorf("%w: %s %q is not a number (a MOTD with a NUL byte?)", wire.ErrMalformed, k, v)
		}
	}
	port := r.Uint16LE("hostport")
	ip := r.CString("hostip")
	if r.Err() != nil {
		return st, r.Err()
	}
	st.kv = append(st.kv, gamespy.Pair{Key: "hostport", Value: []byte(strconv.Itoa(int(port)))}, gamespy.Pair{Key: "hostip", Value: ip})
	return st, nil
}

// result maps the stat (spec §6): the MOTD without its § colour codes as the name,
// game_id (else gametype) as the game. numplayers is the count even when the list
// disagrees (PocketMine load balancers, Geyser). players and rules select whether
// the player list and the K/V pairs as rules are filled; Info always holds the
// pairs as sent.
func (s *stat) result(players, rules bool) *protocols.Result {
	res := &protocols.Result{}
	res.Name = strings.TrimSpace(mctext.StripCodes(gamespy.First(s.kv, text, "hostname")))
	res.Map = gamespy.First(s.kv, text, "map")
	res.Game = gamespy.First(s.kv, text, "game_id", "gametype")
	res.Version = gamespy.First(s.kv, text, "version")
	if v, ok := gamespy.Lookup(s.kv, "numplayers"); ok {
		res.Players = gamespy.ParseCount(v)
	} else if s.players != nil {
		res.Players = protocols.Known(int64(len(s.players)))
	}
	if v, ok := gamespy.Lookup(s.kv, "maxplayers"); ok {
		res.MaxPlayers = gamespy.ParseCount(v)
	}
	// Every pair as sent, repeats included.
	res.Info = make([]protocols.KV, 0, len(s.kv))
	for _, kv := range s.kv {
		res.Info = append(res.Info, protocols.KV{Key: wire.UTF8([]byte(kv.Key)), Value: text(kv.Value)})
	}
	if rules {
		res.Rules = res.Info
	}
	if players && s.players != nil {
		res.PlayerList = make([]protocols.Player, len(s.players))
		for i, n := range s.players {
			res.PlayerList[i].Name = text(n)
		}
	}
	return res
}

// text decodes a string (spec §6.3): vanilla sends each char's low byte, so
// ISO-8859-1; third-party servers may send UTF-8, taken when the bytes are valid
// UTF-8 (an ISO-8859-1 text almost never is once it has bytes above 0x7F).
func text(b []byte) string { return wire.UTF8(b) }

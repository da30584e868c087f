package doom3

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

const (
	// maxDatagram bounds what decode accepts (the engine caps messages at 16 KiB).
	maxDatagram = 64 << 10
	// maxRecords caps player records: the engine's MAX_CLIENTS. Ids below 32 that
	// must increase already bound the list; this guards the loop on its own.
	maxRecords = 64
	// asyncClients is MAX_ASYNC_CLIENTS: the list terminator, and one past the last id.
	asyncClients = 32
	// wolfClients ends Wolfenstein's list in qstat (its MAX_WOLF_ASYNC_CLIENTS);
	// gamedig expects 32 there, so the Wolfenstein layout accepts either.
	wolfClients = 16
	// maxPairs caps the dictionary (a 64 KiB datagram could hold ~21 000 tiny pairs).
	maxPairs = 1024
	// maxDeleted caps the dictionary's list of deleted keys (always empty in practice).
	maxDeleted = 64
)

// Response names. The challenge echo follows the name in every layout.
const (
	respInfo   = "infoResponse"
	respInfoEx = "infoExResponse"
)

// variant is the game a reply was recognised as.
type variant string

const (
	variantDoom3   variant = "doom3"
	variantQuake4  variant = "quake4"
	variantPrey    variant = "prey"
	variantETQW    variant = "etqw"
	variantWolf    variant = "wolfenstein" // Wolfenstein (2009)
	variantUnknown variant = "unknown"
)

// layout is the shape of one player record.
type layout uint8

const (
	layoutNone   layout = iota // no record was parsed with any shape
	layoutDoom3                // id u8, ping u16, rate u32, name (Doom 3, Prey)
	layoutQuake4               // Doom 3 + clan string
	layoutETQW                 // id u8, ping u16, name, clan-tag position u8, clan tag, bot u8
	// layoutWolf is Wolfenstein (2009): the Doom 3 record (with rate) plus ET:QW's
	// clan-tag position, clan tag and bot ("type") flag. gamedig's third probe
	// (hasClanTag, hasClanTagPos, hasTypeFlag without isEtqw) and its old
	// wolfenstein2009 definition; qstat's -wolfs reads the same fields.
	layoutWolf
)

func (l layout) String() string {
	switch l {
	case layoutDoom3:
		return "doom3"
	case layoutQuake4:
		return "quake4"
	case layoutETQW:
		return "etqw"
	case layoutWolf:
		return "wolfenstein"
	}
	return "none"
}

// pair is one dictionary entry, its text decoded with decode's text (Doom 3 is
// 7-bit, Quake 4 sends Latin-1, a Windows server what its users typed).
type pair struct{ Key, Value string }

// player is one player record; strings are decoded as the pairs are.
type player struct {
	ID      uint8
	Ping    uint16
	Rate    uint32 // Doom 3, Quake 4, Prey
	HasRate bool
	Name    string
	Clan    string // Quake 4 clan, ET:QW and Wolfenstein clan tag
	ClanPos uint8  // ET:QW, Wolfenstein: where the tag goes relative to the name
	Bot     bool   // ET:QW and Wolfenstein mark bots
	HasBot  bool

	// ET:QW infoExResponse statistics.
	Ext    bool
	XP     float32
	Team   string
	Kills  int32
	Deaths int32
}

// etqwTail is what ET:QW sends after the OS mask.
type etqwTail struct {
	Ranked     bool
	TimeLeft   int32 // milliseconds
	GameState  uint8
	ServerType uint8 // 0 regular, 1 ET:QW TV
	Interested uint8 // server type 0
	Connected  int32 // server type 1
	MaxClients int32 // server type 1
}

// reply is a decoded infoResponse / infoExResponse.
type reply struct {
	Response  string
	Challenge uint32
	// ETQW is true for the ET:QW header (two more u32s: Field2 and Size).
	ETQW      bool
	Field2    uint32
	Protocol  uint32
	Size      uint32
	Variant   variant
	Layout    layout
	Info      []pair
	Players   []player
	OSMask    uint32
	HasOSMask bool
	Tail      *etqwTail
	Trailing  []byte
	// PlayersErr is why the player list (or what follows it) could not be trusted;
	// the dictionary is still good.
	PlayersErr error
}

// Major and Minor split the protocol version (major in the high 16 bits).
func (r *reply) Major() uint32 { return r.Protocol >> 16 }
func (r *reply) Minor() uint32 { return r.Protocol & 0xFFFF }

// Lookup returns the first value whose key matches name case-insensitively (the
// engine's dictionaries ignore case: one ET:QW capture sends si_maxplayers).
func (r *reply) Lookup(name string) (string, bool) {
	for _, p := range r.Info {
		if strings.EqualFold(p.Key, name) {
			return p.Value, true
		}
	}
	return "", false
}

// decode parses one reply datagram, its strings read with text: wire.UTF8, or
// the code page the module's `encoding:` names. A reply cut inside the
// dictionary returns the pairs read so far together with an ErrTruncated error;
// a bad player list is not an error but reply.PlayersErr.
func decode(b []byte, text func([]byte) string) (*reply, error) {
	if len(b) > maxDatagram {
		return nil, fmt.Errorf("%w: datagram of %d bytes, limit %d", wire.ErrTooLarge, len(b), maxDatagram)
	}
	r := wire.NewReader(b)
	marker := r.Uint16LE("marker")
	if err := r.Err(); err != nil {
		return nil, err
	}
	if marker != 0xFFFF {
		return nil, fmt.Errorf("%w: marker %04x at offset 0, want ffff", wire.ErrMalformed, marker)
	}
	name := r.CString("response name")
	if err := r.Err(); err != nil {
		return nil, err
	}
	rep := &reply{Response: string(name)}
	if rep.Response != respInfo && rep.Response != respInfoEx {
		return nil, fmt.Errorf("%w: response name %q at offset 2", wire.ErrMalformed, wire.Latin1(truncate(name, 32)))
	}
	rep.Challenge = r.Uint32LE("challenge")
	first := r.Uint32LE("protocol")
	if err := r.Err(); err != nil {
		return nil, err
	}
	// Doom 3, Quake 4 and Prey put the protocol (major 1-4) here; ET:QW puts an
	// unknown word (FF FF FF FF) and then the protocol (major 10+) and a size.
	rep.Protocol = first
	if major := first >> 16; rep.Response == respInfoEx || major == 0 || major >= 10 {
		etqw := r
		field2 := first
		proto := etqw.Uint32LE("protocol")
		size := etqw.Uint32LE("size")
		// Take the ET:QW header only if its protocol or size fits: a Doom 3 layout
		// reply with an unknown large major would put dictionary text here.
		if etqw.Err() == nil && (rep.Response == respInfoEx || (proto>>16 >= 10 && proto>>16 < 100) || int64(size) == int64(etqw.Len())) {
			r = etqw
			rep.ETQW, rep.Field2, rep.Protocol, rep.Size = true, field2, proto, size
			if int64(size) > int64(r.Len()) {
				rep.PlayersErr = fmt.Errorf("%w: size field says %d bytes follow offset %d, %d do", wire.ErrTruncated, size, r.Offset(), r.Len())
			}
		} else if err := etqw.Err(); err != nil {
			return nil, err
		}
	}
	info, err := readDict(&r, text)
	rep.Info = info
	if err != nil {
		return rep, err
	}
	rep.Variant = detect(rep)
	decodePlayers(rep, &r, text)
	if rep.PlayersErr != nil {
		return rep, nil
	}
	decodeTail(rep, &r, text)
	return rep, nil
}

// readDict reads a "delta dictionary against nothing": pairs up to an empty key,
// then deleted keys up to an empty string (always none, so `... value 00 00 00`).
func readDict(r *wire.Reader, text func([]byte) string) ([]pair, error) {
	var pairs []pair
	for {
		off := r.Offset()
		key := r.CString("dictionary key")
		if err := r.Err(); err != nil {
			return pairs, err
		}
		if len(key) == 0 {
			break
		}
		if len(pairs) == maxPairs {
			return pairs, fmt.Errorf("%w: more than %d dictionary pairs at offset %d", wire.ErrTooLarge, maxPairs, off)
		}
		val := r.CString("dictionary value")
		if err := r.Err(); err != nil {
			return pairs, fmt.Errorf("%w (key %q)", err, wire.Latin1(truncate(key, 32)))
		}
		pairs = append(pairs, pair{Key: text(key), Value: text(val)})
	}
	for i := 0; ; i++ {
		if i == maxDeleted {
			return pairs, fmt.Errorf("%w: more than %d deleted dictionary keys at offset %d", wire.ErrTooLarge, maxDeleted, r.Offset())
		}
		k := r.CString("dictionary deleted-key list")
		if err := r.Err(); err != nil {
			return pairs, err
		}
		if len(k) == 0 {
			return pairs, nil
		}
	}
}

// detect names the game: by header shape and protocol major, and by keys when the
// major is one no known game uses. Wolfenstein's protocol number is in no source,
// so a Wolfenstein key (a hint, not seen in a capture) wins over the major.
func detect(rep *reply) variant {
	major := rep.Major()
	v, _ := rep.Lookup("si_version")
	g, _ := rep.Lookup("gamename")
	s := strings.ToLower(v + " " + g)
	switch {
	case !rep.ETQW && strings.Contains(s, "wolfenstein"):
		return variantWolf
	case rep.ETQW && major >= 10:
		return variantETQW
	case !rep.ETQW && major == 1:
		return variantDoom3
	case !rep.ETQW && major == 2:
		return variantQuake4
	case !rep.ETQW && (major == 3 || major == 4): // retail, demo
		return variantPrey
	}
	switch {
	case strings.Contains(s, "etqw"):
		return variantETQW
	case strings.Contains(s, "quake4"), strings.Contains(s, "q4mp"):
		return variantQuake4
	case strings.Contains(s, "prey"):
		return variantPrey
	case strings.HasPrefix(s, "doom"):
		return variantDoom3
	}
	return variantUnknown
}

func truncate(b []byte, n int) []byte {
	if len(b) > n {
		return b[:n]
	}
	return b
}

// echo returns the challenge echoed by a reply named resp, if b is one. It looks only at
// the header, so a late answer to an earlier request (or a stray packet) is skipped
// before any decoding.
func echo(b []byte, resp string) (uint32, bool) {
	n := 2 + len(resp) + 1
	if len(b) < n+4 || b[0] != 0xFF || b[1] != 0xFF || b[n-1] != 0 || !bytes.Equal(b[2:n-1], []byte(resp)) {
		return 0, false
	}
	return uint32(b[n]) | uint32(b[n+1])<<8 | uint32(b[n+2])<<16 | uint32(b[n+3])<<24, true
}

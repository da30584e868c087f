package a2s

// Bohemia Interactive's games answer A2S like any Steamworks title, with two extras:
//
//   - the info keywords carry the login queue (DayZ: lqs<N>), read in result.go;
//   - A2S_RULES starts with one binary message cut into chunks, the "server browser
//     protocol" that lists DLC, difficulty, mods and signature keys.
//
// The chunk pairs: the key is two bytes, chunk index and chunk count (1-based); the
// value is a slice of the message, escaped so that it holds no NUL (and no 0xFF):
// 01 01 -> 01, 01 02 -> 00, 01 03 -> FF. The message, little-endian:
//
//	byte    version                    3 (Arma 3), 2 (DayZ)
//	byte    general (overflow) flags
//	uint16  DLC flags                  one bit per DLC
//	uint16  difficulty                 Arma 3 only
//	uint32  DLC hash                   one per set DLC bit
//	byte    mod count
//	  uint32  mod hash
//	  byte    ID length: low 4 bits the length, 0x10 set for a creator DLC
//	  ...     ID, little-endian, that many bytes (Steam Workshop ID, 0 for a local mod)
//	  byte    name length
//	  ...     name (folder name for a local mod)
//	byte    signature count
//	  byte    key name length
//	  ...     key name
//	byte    description length          DayZ only
//	...     description
//
// Sources (facts only, no code taken): the Bohemia wiki page
// https://community.bistudio.com/wiki/Arma_3:_ServerBrowserProtocol3 (DLC flags, field
// types), WoozyMasta/a2s pkg/a3sb (docs/a3sb.drawio, docs/dzsb.drawio: chunk keys,
// escapes, the ID length byte with its DLC bit, the DayZ variant without difficulty
// and with a description) and gamedig's protocols/dayz.js (lqs, the chunks first in
// the rules).

import (
	"fmt"
	"math/bits"
	"strconv"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/steam"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// appIDArma3 is Arma 3's Steam AppID (DayZ's are steam.AppIDDayZ*).
const appIDArma3 = 107410

// maxMods caps the mods kept from one message (the count is one byte, so 255 today).
const maxMods = 1024

// bohemiaLayout selects which variant of the message a game sends.
type bohemiaLayout uint8

const (
	layoutNone  bohemiaLayout = iota // not a Bohemia game: rules are left alone
	layoutArma3                      // Arma 3 ServerBrowserProtocol3
	layoutDayZ                       // DayZ Server Browser v2
)

// bohemiaLayoutOf returns the layout the game with this AppID uses.
func bohemiaLayoutOf(appID uint32) bohemiaLayout {
	switch appID {
	case appIDArma3:
		return layoutArma3
	case steam.AppIDDayZ, steam.AppIDDayZExperimental:
		return layoutDayZ
	}
	return layoutNone
}

// bohemia is a decoded server browser message. Names hold the bytes as sent.
type bohemia struct {
	Version    byte
	Flags      byte   // general flags (overflow)
	DLC        uint16 // DLC flag bits
	Mods       []bohemiaMod
	CreatorDLC []uint64 // Steam AppIDs of the creator DLC listed among the mods
	Signatures int      // signature keys listed
	// Description is DayZ's server description; empty for Arma 3.
	Description string
}

// bohemiaMod is one mod record of the message.
type bohemiaMod struct {
	Hash uint32
	ID   uint64 // Steam Workshop ID; 0 for a local mod
	Name string
}

// idLengthMask and idDLC split the ID length byte of a mod record.
const (
	idLengthMask = 0x0F
	idDLC        = 0x10
)

// decodeBohemia decodes an unescaped, reassembled server browser message.
func decodeBohemia(msg []byte, layout bohemiaLayout) (*bohemia, error) {
	var version byte
	switch layout {
	case layoutArma3:
		version = 3
	case layoutDayZ:
		version = 2
	default:
		return nil, fmt.Errorf("%w: no server browser layout for this game", wire.ErrMalformed)
	}
	c := steam.NewCursor(msg)
	b := &bohemia{Version: c.Uint8("sbp version")}
	if c.Err() == nil && b.Version != version {
		// Another version may lay the fields out differently: do not guess.
		return nil, fmt.Errorf("%w: server browser version %d, want %d", wire.ErrMalformed, b.Version, version)
	}
	b.Flags = c.Uint8("sbp flags")
	b.DLC = c.Uint16LE("sbp dlc flags")
	if layout == layoutArma3 {
		c.Skip(2, "sbp difficulty")
	}
	c.Skip(4*bits.OnesCount16(b.DLC), "sbp dlc hashes")
	n := int(c.Uint8("sbp mod count"))
	if err := c.Err(); err != nil {
		return nil, err
	}
	// A record takes at least 6 bytes: allocate for what can be there.
	b.Mods = make([]bohemiaMod, 0, min(n, c.Len()/6, maxMods))
	for i := 0; i < n && len(b.Mods) < maxMods; i++ {
		hash := c.Uint32LE("sbp mod hash")
		idb := c.Uint8("sbp mod id length")
		if idb&idLengthMask > 8 {
			return nil, fmt.Errorf("%w: mod %d id length %d at offset %d", wire.ErrMalformed, i, idb&idLengthMask, c.Offset()-1)
		}
		var id uint64
		for j, x := range c.Bytes(int(idb&idLengthMask), "sbp mod id") {
			id |= uint64(x) << (8 * j)
		}
		name := c.Str8("sbp mod name")
		if err := c.Err(); err != nil {
			return nil, fmt.Errorf("mod %d: %w", i, err)
		}
		if idb&idDLC != 0 {
			// A creator DLC (Steam AppID, no name in practice): not a mod.
			b.CreatorDLC = append(b.CreatorDLC, id)
			continue
		}
		b.Mods = append(b.Mods, bohemiaMod{Hash: hash, ID: id, Name: name})
	}
	b.Signatures = int(c.Uint8("sbp signature count"))
	for range b.Signatures {
		c.Str8("sbp signature")
	}
	if layout == layoutDayZ {
		b.Description = c.Str8("sbp description")
	}
	// Bytes after the last field are left alone: a later revision may append fields.
	if err := c.Err(); err != nil {
		return nil, err
	}
	return b, nil
}

// result returns the mods as the exporter reports them: names as valid UTF-8, IDs
// as decimal strings ("" for a local mod). Never nil: the server listed its mods.
func (b *bohemia) result() []protocols.Mod {
	out := make([]protocols.Mod, len(b.Mods))
	for i, m := range b.Mods {
		out[i].Name = steam.Text(m.Name)
		if m.ID != 0 {
			out[i].ID = strconv.FormatUint(m.ID, 10)
		}
	}
	return out
}

// isChunkKey reports whether a rule key is a chunk key: index and count, 1-based.
func isChunkKey(k string) bool {
	return len(k) == 2 && k[0] >= 1 && k[0] <= k[1]
}

// chunkRun counts the chunk pairs the rules start with. The servers send them
// before the textual rules (gamedig reads them the same way); only a leading run is
// taken, so that a textual two-letter rule ("ab") later on is never mistaken for one.
func chunkRun(list []protocols.KV) int {
	n := 0
	for n < len(list) && isChunkKey(list[n].Key) {
		n++
	}
	return n
}

// reassembleBohemia puts chunk pairs back together in index order and unescapes the
// message. Every chunk must be there once, with the same count.
func reassembleBohemia(chunks []protocols.KV) ([]byte, error) {
	if len(chunks) == 0 {
		return nil, fmt.Errorf("%w: no server browser chunks", wire.ErrMalformed)
	}
	total := int(chunks[0].Key[1])
	if len(chunks) != total {
		return nil, fmt.Errorf("%w: %d server browser chunks, the keys say %d", wire.ErrMalformed, len(chunks), total)
	}
	var pos [256]int // 1 + where chunk idx is in chunks; indexes are one byte
	size := 0
	for i, kv := range chunks {
		if !isChunkKey(kv.Key) || int(kv.Key[1]) != total {
			return nil, fmt.Errorf("%w: server browser chunk %d key % x disagrees with count %d", wire.ErrMalformed, i, kv.Key, total)
		}
		idx := kv.Key[0]
		if pos[idx] != 0 {
			return nil, fmt.Errorf("%w: server browser chunk %d/%d twice", wire.ErrMalformed, idx, total)
		}
		pos[idx] = i + 1
		size += len(kv.Value)
	}
	// total distinct indexes, each in 1..total: every chunk is there once.
	escaped := make([]byte, 0, size)
	for idx := 1; idx <= total; idx++ {
		escaped = append(escaped, chunks[pos[idx]-1].Value...)
	}
	// Unescaped after joining: an escape pair may straddle two chunks when the
	// escaped message is cut at a fixed size.
	return unescapeBohemia(escaped)
}

// unescapeBohemia undoes the escapes in place.
func unescapeBohemia(b []byte) ([]byte, error) {
	out := b[:0]
	for i := 0; i < len(b); i++ {
		if b[i] != 0x01 {
			out = append(out, b[i])
			continue
		}
		if i+1 == len(b) {
			return nil, fmt.Errorf("%w: server browser message ends inside an escape", wire.ErrTruncated)
		}
		i++
		switch b[i] {
		case 0x01:
			out = append(out, 0x01)
		case 0x02:
			out = append(out, 0x00)
		case 0x03:
			out = append(out, 0xFF)
		default:
			return nil, fmt.Errorf("%w: server browser escape 01 %02x at offset %d", wire.ErrMalformed, b[i], i-1)
		}
	}
	return out, nil
}

// rulesFor returns the rules as valid UTF-8 key/values for the game with this
// AppID. For Arma 3 and DayZ it also returns the mods of the server browser message
// and leaves the message's chunk pairs out of the rules: they are not readable
// rules. Mods is nil when the rules carry no message, or one that cannot be read;
// err then says why (a bad mod list never fails the rules phase: the textual rules
// still count).
func rulesFor(r *steam.Rules, appID uint32) (rules []protocols.KV, mods []protocols.Mod, err error) {
	layout := bohemiaLayoutOf(appID)
	n := 0
	if layout != layoutNone {
		n = chunkRun(r.List)
	}
	rules = steam.ResultKV(r.List[n:])
	if n == 0 {
		return rules, nil, nil
	}
	msg, err := reassembleBohemia(r.List[:n])
	if err != nil {
		return rules, nil, err
	}
	b, err := decodeBohemia(msg, layout)
	if err != nil {
		return rules, nil, err
	}
	return rules, b.result(), nil
}

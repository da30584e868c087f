package samp

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"net/netip"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// Opcodes.
const (
	opInfo     = 'i'
	opRules    = 'r'
	opClients  = 'c'
	opDetailed = 'd'
	opExtra    = 'o' // open.mp
)

// headerLen is the magic, the address, the port and the opcode.
const headerLen = 4 + 4 + 2 + 1

// Caps on what a reply can make the decoder hold. A reply is one datagram, so
// every length is also bounded by what is left of it.
const (
	maxString     = 4096 // an info string (open.mp caps host names at 63 bytes)
	maxRules      = 256  // SA-MP sends about 6, open.mp about 10
	maxVersionLen = 12   // VC:MP's fixed version name field
)

var (
	magicSAMP  = [4]byte{'S', 'A', 'M', 'P'}
	magicVCMP  = [4]byte{'V', 'C', 'M', 'P'}
	magicMP04  = [4]byte{'M', 'P', '0', '4'} // VC:MP's replies
	unknownIP4 = [4]byte{}
)

// request builds the 11-byte request for op to addr: the magic, the IPv4 address
// (zeros for an IPv6 target, which these servers never listen on), the port.
func request(magic [4]byte, addr netip.AddrPort, op byte) []byte {
	b := make([]byte, 0, headerLen)
	b = append(b, magic[:]...)
	ip := unknownIP4
	if a := addr.Addr().Unmap(); a.Is4() {
		ip = a.As4()
	}
	b = append(b, ip[:]...)
	b = binary.LittleEndian.AppendUint16(b, addr.Port())
	return append(b, op)
}

// replyHeader is the header a reply to req starts with: the request's, with
// VC:MP's reply magic.
func replyHeader(req []byte) []byte {
	h := bytes.Clone(req[:headerLen])
	if [4]byte(h[:4]) == magicVCMP {
		copy(h, magicMP04[:])
	}
	return h
}

// answers tells whether b answers the request whose reply starts with head: nil
// if so, else why b is skipped. A reply to another opcode or address (a late
// answer to an earlier request, another client's) is ErrMismatch; anything
// without the magic ErrMalformed.
func answers(b, head []byte) error {
	if len(b) < headerLen || !bytes.Equal(b[:4], head[:4]) {
		n := min(len(b), 4)
		return fmt.Errorf("%w: a %d-byte datagram that does not start with %q (starts %q)", wire.ErrMalformed, len(b), head[:4], b[:n])
	}
	if b[10] != head[10] {
		return fmt.Errorf("%w: a reply to opcode %q, asked %q", wire.ErrMismatch, b[10], head[10])
	}
	if !bytes.Equal(b[4:10], head[4:10]) {
		return fmt.Errorf("%w: a reply for address bytes % x, asked % x", wire.ErrMismatch, b[4:10], head[4:10])
	}
	return nil
}

// info is a decoded 'i' reply; strings are the server's bytes.
type info struct {
	version           []byte // VC:MP only
	password          bool
	players, max      uint16
	name, mode, third []byte // third: language since SA-MP 0.3.7, map before and on VC:MP
	trailing          int
}

// lenString reads a uint32 length and that many bytes.
func lenString(r *wire.Reader, what string) []byte {
	n := r.Uint32LE(what + " length")
	if r.Err() == nil && n > maxString {
		r.Fail(fmt.Errorf("%w: %s of %d bytes at offset %d, at most %d", wire.ErrTooLarge, what, n, r.Offset()-4, maxString))
		return nil
	}
	return r.Bytes(int(n), what)
}

// newReader reads a reply past its header (checked by answers): offsets in
// errors count from the datagram's start.
func newReader(b []byte) wire.Reader {
	r := wire.NewReader(b)
	r.Skip(headerLen, "header")
	return r
}

// decodeInfo reads an 'i' reply.
func decodeInfo(b []byte, vcmp bool) (*info, error) {
	r := newReader(b)
	in := &info{}
	if vcmp {
		in.version = bytes.TrimRight(r.Bytes(maxVersionLen, "version name"), "\x00")
	}
	pw := r.Uint8("password")
	in.players = r.Uint16LE("players")
	in.max = r.Uint16LE("max players")
	in.name = lenString(&r, "host name")
	in.mode = lenString(&r, "game mode")
	in.third = lenString(&r, "language")
	if err := r.Err(); err != nil {
		return nil, err
	}
	if pw > 1 {
		return nil, fmt.Errorf("%w: password flag %d at offset %d, want 0 or 1", wire.ErrMalformed, pw, pwAt(vcmp))
	}
	in.password = pw == 1
	in.trailing = r.Len()
	return in, nil
}

// decodeRules reads an 'r' reply: name and value byte strings.
func decodeRules(b []byte) ([][2][]byte, error) {
	r := newReader(b)
	n := int(r.Uint16LE("rule count"))
	if r.Err() == nil && n > maxRules {
		return nil, fmt.Errorf("%w: %d rules, at most %d", wire.ErrTooLarge, n, maxRules)
	}
	rules := make([][2][]byte, 0, min(n, r.Len()/2))
	for i := range n {
		k := r.Bytes(int(r.Uint8("rule name length")), fmt.Sprintf("rule %d name", i))
		v := r.Bytes(int(r.Uint8("rule value length")), fmt.Sprintf("rule %d value", i))
		if r.Err() != nil {
			break
		}
		rules = append(rules, [2][]byte{k, v})
	}
	if err := r.Err(); err != nil {
		return nil, err
	}
	return rules, nil
}

// player is one record of a 'd' or 'c' reply.
type player struct {
	id       int // -1 in a client list
	name     []byte
	score    int32
	ping     uint32
	hasScore bool
	hasPing  bool
}

// decodePlayers reads a 'd' (detailed) or 'c' (client list) reply;
// VC:MP's client list has names only. The count is checked against the bytes
// left before anything is allocated.
func decodePlayers(b []byte, op byte, vcmp bool) ([]player, error) {
	r := newReader(b)
	n := int(r.Uint16LE("player count"))
	minRecord := 1 // a name length
	switch {
	case op == opDetailed:
		minRecord = 1 + 1 + 4 + 4
	case !vcmp:
		minRecord = 1 + 4
	}
	if r.Err() == nil && n*minRecord > r.Len() {
		return nil, fmt.Errorf("%w: %d players need at least %d bytes, %d left", wire.ErrTruncated, n, n*minRecord, r.Len())
	}
	ps := make([]player, 0, n)
	for i := range n {
		p := player{id: -1}
		if op == opDetailed {
			p.id = int(r.Uint8("player id"))
		}
		p.name = r.Bytes(int(r.Uint8("player name length")), fmt.Sprintf("player %d name", i))
		if op == opDetailed || !vcmp {
			p.score, p.hasScore = r.Int32LE("player score"), true
		}
		if op == opDetailed {
			p.ping, p.hasPing = r.Uint32LE("player ping"), true
		}
		if r.Err() != nil {
			break
		}
		ps = append(ps, p)
	}
	if err := r.Err(); err != nil {
		return nil, err
	}
	return ps, nil
}

// extra is open.mp's 'o' reply.
type extra struct {
	discord, bannerLight, bannerDark, logo []byte
}

func decodeExtra(b []byte) (*extra, error) {
	r := newReader(b)
	e := &extra{
		discord:     lenString(&r, "discord invite"),
		bannerLight: lenString(&r, "light banner URL"),
		bannerDark:  lenString(&r, "dark banner URL"),
		logo:        lenString(&r, "logo URL"),
	}
	if err := r.Err(); err != nil {
		return nil, err
	}
	return e, nil
}

// pwAt is the password flag's offset.
func pwAt(vcmp bool) int {
	if vcmp {
		return headerLen + maxVersionLen
	}
	return headerLen
}

package teeworlds

import (
	"bytes"
	"encoding/binary"
	"fmt"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// 0.7 packet header: byte 0 holds the flags (shifted left by 2) and, for
// connectionless packets, the packet version in its low 2 bits.
const (
	flagControl  = 1
	flagConnless = 8

	packetVersion = 1
	ctrlToken     = 5          // NET_CTRLMSG_TOKEN
	tokenNone     = 0xFFFFFFFF // NET_TOKEN_NONE
	// tokenRequestSize is NET_TOKENREQUEST_DATASIZE: the token request is
	// padded so that the answer is never larger than the question.
	tokenRequestSize = 512
	headerSize07     = 7 // flags/ack, ack, chunks, token
	connlessHeader07 = 9 // flags/version, token, response token
)

var (
	getInfo   = []byte("\xff\xff\xff\xffgie3")
	infoMagic = []byte("\xff\xff\xff\xffinf3")
	// the 0.5/0.6 connectionless header: six 0xff bytes
	connlessHeader06 = []byte("\xff\xff\xff\xff\xff\xff")
)

// tokenRequest07 is a control packet NET_CTRLMSG_TOKEN carrying our token,
// addressed to no token yet, padded to 512 bytes of control data.
func tokenRequest07(mine uint32) []byte {
	b := make([]byte, headerSize07+1+tokenRequestSize)
	b[0] = flagControl << 2
	binary.BigEndian.PutUint32(b[3:], tokenNone)
	b[7] = ctrlToken
	binary.BigEndian.PutUint32(b[8:], mine)
	return b
}

// tokenResponse07 reads the server's token from its answer to tokenRequest07:
// a control packet addressed to our token, NET_CTRLMSG_TOKEN, then its token.
// A datagram that is not such an answer is ErrMalformed (or ErrMismatch for a
// token answer addressed to another token).
func tokenResponse07(b []byte, mine uint32) (uint32, error) {
	if len(b) < headerSize07+1+4 {
		return 0, fmt.Errorf("%w: %d-byte datagram is not a token response", wire.ErrMalformed, len(b))
	}
	if flags := b[0] >> 2; flags&flagControl == 0 || flags&flagConnless != 0 || b[7] != ctrlToken {
		return 0, fmt.Errorf("%w: not a token control message (byte 0 %#02x, control %d)", wire.ErrMalformed, b[0], b[7])
	}
	if got := binary.BigEndian.Uint32(b[3:]); got != mine {
		return 0, fmt.Errorf("%w: token response for %08x, ours is %08x", wire.ErrMismatch, got, mine)
	}
	return binary.BigEndian.Uint32(b[8:]), nil
}

// infoRequest07 is the connectionless gie3 request carrying the server's
// token, our token and the browser token the server echoes.
func infoRequest07(server, mine uint32, browser int32) []byte {
	b := make([]byte, connlessHeader07, connlessHeader07+len(getInfo)+5)
	b[0] = flagConnless<<2 | packetVersion
	binary.BigEndian.PutUint32(b[1:], server)
	binary.BigEndian.PutUint32(b[5:], mine)
	b = append(b, getInfo...)
	return appendInt(b, browser)
}

// connless07 returns the payload of a 0.7 connectionless packet addressed to
// our token.
func connless07(b []byte, mine uint32) ([]byte, error) {
	if len(b) < connlessHeader07 {
		return nil, fmt.Errorf("%w: %d-byte datagram has no connectionless header", wire.ErrMalformed, len(b))
	}
	if b[0]>>2&flagConnless == 0 || b[0]&3 != packetVersion {
		return nil, fmt.Errorf("%w: byte 0 %#02x is not a version-1 connectionless packet", wire.ErrMalformed, b[0])
	}
	if got := binary.BigEndian.Uint32(b[1:]); got != mine {
		return nil, fmt.Errorf("%w: connectionless packet for token %08x, ours is %08x", wire.ErrMismatch, got, mine)
	}
	return b[connlessHeader07:], nil
}

// infoRequest06 is the 0.5/0.6 connectionless gie3 with a one-byte token.
func infoRequest06(token byte) []byte {
	b := append(append([]byte(nil), connlessHeader06...), getInfo...)
	return append(b, token)
}

// connless06 returns the payload of a 0.5/0.6 connectionless packet.
func connless06(b []byte) ([]byte, error) {
	if !bytes.HasPrefix(b, connlessHeader06) {
		return nil, fmt.Errorf("%w: datagram does not start with the 0.6 connectionless header", wire.ErrMalformed)
	}
	return b[len(connlessHeader06):], nil
}

// appendInt appends v in Teeworlds' packed-int format: the first byte holds
// an extension bit, a sign bit and 6 bits; later bytes an extension bit and
// 7 bits. A negative v is stored as its complement with the sign bit set.
func appendInt(b []byte, v int32) []byte {
	var first byte
	u := uint32(v)
	if v < 0 {
		first = 0x40
		u = ^u
	}
	first |= byte(u & 0x3F)
	u >>= 6
	if u == 0 {
		return append(b, first)
	}
	b = append(b, first|0x80)
	for {
		c := byte(u & 0x7F)
		u >>= 7
		if u == 0 {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}

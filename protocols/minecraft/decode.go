package minecraft

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// maxPacket caps a status frame. A status JSON with a 64×64 favicon is 5-30 KiB;
// big Forge mod lists are compressed by Forge itself. The cap is checked before
// the frame is allocated.
const maxPacket = 256 << 10

// maxPong caps the frame read as the pong (9 bytes when well formed).
const maxPong = 64

// Packet ids of the status state.
const (
	idStatus = 0x00 // handshake / status request / status response
	idPing   = 0x01 // ping request / pong response
)

// statusRequest is the empty Status Request packet (length 1, id idStatus). A
// constant, so that no code can alter the bytes every probe sends.
const statusRequest = "\x01\x00"

// appendVarInt appends v in the protocol's VarInt encoding: 7 bits per byte, low
// group first, negative values as their 32-bit two's complement (5 bytes).
func appendVarInt(b []byte, v int32) []byte {
	u := uint32(v)
	for u >= 0x80 {
		b = append(b, byte(u)|0x80)
		u >>= 7
	}
	return append(b, byte(u))
}

// readVarInt reads a VarInt of at most 5 bytes. Like the vanilla reader it keeps
// the low 32 bits of a 5th byte's group; a 6th byte is ErrMalformed. An end of
// input is ErrTruncated; other read errors pass through.
func readVarInt(r io.ByteReader, what string) (int32, error) {
	var v uint32
	for i := range 5 {
		c, err := r.ReadByte()
		if err != nil {
			return 0, eofAs(err, fmt.Errorf("%w: %s VarInt ends after %d bytes", wire.ErrTruncated, what, i))
		}
		v |= uint32(c&0x7F) << (7 * i)
		if c&0x80 == 0 {
			return int32(v), nil
		}
	}
	return 0, fmt.Errorf("%w: %s VarInt longer than 5 bytes", wire.ErrMalformed, what)
}

// eofAs returns short for an end of input and err itself otherwise (socket
// errors, already wrapping a sentinel).
func eofAs(err, short error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return short
	}
	return err
}

// byteReader is what the packet readers need: bufio.Reader and bytes.Reader fit.
type byteReader interface {
	io.Reader
	io.ByteReader
}

// readPacket reads one frame, Length:VarInt then Length bytes, and returns its
// packet id and the data after the id. A length over max is ErrTooLarge before
// anything is allocated.
func readPacket(r byteReader, max int) (id int32, data []byte, err error) {
	n, err := readVarInt(r, "frame length")
	if err != nil {
		return 0, nil, err
	}
	switch {
	case n <= 0:
		return 0, nil, fmt.Errorf("%w: frame length %d", wire.ErrMalformed, n)
	case int64(n) > int64(max):
		return 0, nil, fmt.Errorf("%w: frame length %d over the %d-byte cap", wire.ErrTooLarge, n, max)
	}
	frame := make([]byte, n)
	if got, err := io.ReadFull(r, frame); err != nil {
		return 0, nil, eofAs(err, fmt.Errorf("%w: frame of %d bytes ends after %d", wire.ErrTruncated, n, got))
	}
	// The id is a VarInt inside the frame: decode it from the frame's bytes.
	br := sliceReader{b: frame}
	id, err = readVarInt(&br, "packet id")
	if err != nil {
		return 0, nil, err
	}
	return id, frame[br.off:], nil
}

// sliceReader is an io.ByteReader over a slice that reports how far it got.
type sliceReader struct {
	b   []byte
	off int
}

func (s *sliceReader) ReadByte() (byte, error) {
	if s.off >= len(s.b) {
		return 0, io.EOF
	}
	c := s.b[s.off]
	s.off++
	return c, nil
}

// handshake builds the Handshake packet asking for the status state (next state 1).
func handshake(host string, port uint16, version int32) []byte {
	body := appendVarInt(nil, idStatus)
	body = appendVarInt(body, version)
	body = appendVarInt(body, int32(len(host)))
	body = append(body, host...)
	body = binary.BigEndian.AppendUint16(body, port)
	body = appendVarInt(body, 1)
	return append(appendVarInt(make([]byte, 0, len(body)+5), int32(len(body))), body...)
}

// pingRequest builds the Ping Request packet carrying payload.
func pingRequest(payload int64) []byte {
	return binary.BigEndian.AppendUint64([]byte{9, idPing}, uint64(payload))
}

// decodePong checks a frame read as the pong: id 1 and the ping's payload echoed.
func decodePong(id int32, data []byte, want int64) error {
	if id != idPing {
		return fmt.Errorf("%w: packet id %#x where the pong (0x01) was expected", wire.ErrMalformed, id)
	}
	if len(data) < 8 {
		return fmt.Errorf("%w: pong payload of %d bytes, want 8", wire.ErrTruncated, len(data))
	}
	if got := int64(binary.BigEndian.Uint64(data)); got != want {
		return fmt.Errorf("%w: pong echoes %d, ping sent %d", wire.ErrMismatch, got, want)
	}
	return nil
}

// decodeStatusResponse decodes the data of a Status Response packet (after the
// id): the JSON as a String (VarInt byte length + UTF-8). Bytes after the string
// are counted in status.Trailing; the Better Compatibility Checker mod puts a
// second String there (its modpack, bcc.go), anything else is ignored.
func decodeStatusResponse(data []byte) (status, error) {
	br := sliceReader{b: data}
	n, err := readVarInt(&br, "JSON string length")
	if err != nil {
		return status{}, err
	}
	left := len(data) - br.off
	switch {
	case n < 0:
		return status{}, fmt.Errorf("%w: JSON string length %d", wire.ErrMalformed, n)
	case int(n) > left:
		return status{}, fmt.Errorf("%w: JSON string length %d at offset %d, %d bytes left in the frame", wire.ErrTruncated, n, br.off, left)
	}
	st, err := parseStatusJSON(data[br.off : br.off+int(n)])
	if err != nil {
		return status{}, err
	}
	st.Trailing = left - int(n)
	if st.Trailing > 0 && st.Pack == nil {
		st.packAfter(data[br.off+int(n):])
	}
	return st, nil
}

// closedError marks a connection that ended (EOF, reset) before its first byte:
// the server did not answer this request at all, so another request may work.
type closedError struct{ err error }

func (e *closedError) Error() string { return e.err.Error() }
func (e *closedError) Unwrap() error { return e.err }

// readResponse reads the server's answer to a status request from r: a Status
// Response frame, or a legacy kick (0xFF, u16 BE length in UTF-16 code units,
// UTF-16BE text). It is also the decoder of a recorded server byte stream.
//
// A first byte 0xFF is ambiguous: a frame length of 127+128k starts with it too.
// In a kick, the u16 length is below 0x8000 and the text's first code unit has a
// zero high byte ("§1…" or a plain MOTD); in a frame of that length the next
// bytes are a VarInt continuation, packet id 0, and the JSON length VarInt (≥ 252,
// so its first byte has the high bit set). The two never overlap for real replies.
func readResponse(r *bufio.Reader) (status, error) {
	first, err := r.Peek(1)
	if err != nil {
		return status{}, &closedError{eofAs(err, fmt.Errorf("%w: connection closed before any reply", wire.ErrTruncated))}
	}
	if first[0] == 0xFF {
		head, err := r.Peek(4)
		if err != nil && !errors.Is(err, io.EOF) {
			return status{}, err
		}
		if isLegacyKick(head) {
			return readLegacyKick(r)
		}
	}
	id, data, err := readPacket(r, maxPacket)
	if err != nil {
		return status{}, err
	}
	if id != idStatus {
		return status{}, fmt.Errorf("%w: packet id %#x where the status response (0x00) was expected", wire.ErrMalformed, id)
	}
	return decodeStatusResponse(data)
}

func isLegacyKick(h []byte) bool {
	switch {
	case len(h) < 2:
		return true // a lone 0xFF: readLegacyKick reports the truncation
	case h[1] >= 0x80:
		return false // frame length ≥ 16511 (a kick that long would be ≥ 64 KiB)
	case len(h) < 4:
		return true // a frame of ≥ 255 bytes has more than 3
	}
	return !(h[2] == 0 && h[3] >= 0x80)
}

// readLegacyKick reads a whole 0xFF kick packet and decodes its text.
func readLegacyKick(r *bufio.Reader) (status, error) {
	var head [3]byte
	if got, err := io.ReadFull(r, head[:]); err != nil {
		return status{}, eofAs(err, fmt.Errorf("%w: legacy kick header ends after %d of 3 bytes", wire.ErrTruncated, got))
	}
	units := int(binary.BigEndian.Uint16(head[1:]))
	text := make([]byte, 2*units) // at most 128 KiB
	if got, err := io.ReadFull(r, text); err != nil {
		return status{}, eofAs(err, fmt.Errorf("%w: legacy kick text of %d code units ends after %d bytes", wire.ErrTruncated, units, got))
	}
	return decodeLegacyKick(text)
}

package wire

import (
	"encoding/binary"
	"fmt"
	"math"
)

// Reader is a bounds-checked cursor over a reply. The first failed read sets a sticky
// error naming the field and offset; later reads return zero values, so a decoder can
// read a whole record and check Err once.
type Reader struct {
	b   []byte
	off int
	err error
}

// NewReader returns a Reader positioned at the start of b.
func NewReader(b []byte) Reader { return Reader{b: b} }

// Err returns the first error, wrapping ErrTruncated.
func (r *Reader) Err() error { return r.err }

// Offset is the position of the next read.
func (r *Reader) Offset() int { return r.off }

// Len is the number of unread bytes.
func (r *Reader) Len() int {
	if r.err != nil {
		return 0
	}
	return len(r.b) - r.off
}

// Fail records err (if none is set yet) so that later reads stop.
func (r *Reader) Fail(err error) {
	if r.err == nil {
		r.err = err
	}
}

func (r *Reader) take(n int, what string) []byte {
	if r.err != nil {
		return nil
	}
	if n < 0 || len(r.b)-r.off < n {
		r.err = fmt.Errorf("%w: %s at offset %d needs %d bytes, %d left", ErrTruncated, what, r.off, n, len(r.b)-r.off)
		return nil
	}
	p := r.b[r.off : r.off+n]
	r.off += n
	return p
}

// Bytes returns the next n bytes (a sub-slice, not a copy).
func (r *Reader) Bytes(n int, what string) []byte { return r.take(n, what) }

// Rest returns every unread byte.
func (r *Reader) Rest() []byte {
	if r.err != nil {
		return nil
	}
	p := r.b[r.off:]
	r.off = len(r.b)
	return p
}

// Skip advances n bytes.
func (r *Reader) Skip(n int, what string) { r.take(n, what) }

// Peek returns the next byte without consuming it; ok is false at the end.
func (r *Reader) Peek() (byte, bool) {
	if r.err != nil || r.off >= len(r.b) {
		return 0, false
	}
	return r.b[r.off], true
}

func (r *Reader) Uint8(what string) uint8 {
	if p := r.take(1, what); p != nil {
		return p[0]
	}
	return 0
}

func (r *Reader) Uint16LE(what string) uint16 {
	if p := r.take(2, what); p != nil {
		return binary.LittleEndian.Uint16(p)
	}
	return 0
}

func (r *Reader) Uint16BE(what string) uint16 {
	if p := r.take(2, what); p != nil {
		return binary.BigEndian.Uint16(p)
	}
	return 0
}

func (r *Reader) Uint32LE(what string) uint32 {
	if p := r.take(4, what); p != nil {
		return binary.LittleEndian.Uint32(p)
	}
	return 0
}

func (r *Reader) Uint32BE(what string) uint32 {
	if p := r.take(4, what); p != nil {
		return binary.BigEndian.Uint32(p)
	}
	return 0
}

func (r *Reader) Int32LE(what string) int32 { return int32(r.Uint32LE(what)) }

func (r *Reader) Uint64LE(what string) uint64 {
	if p := r.take(8, what); p != nil {
		return binary.LittleEndian.Uint64(p)
	}
	return 0
}

func (r *Reader) Float32LE(what string) float32 { return math.Float32frombits(r.Uint32LE(what)) }

// CString reads bytes up to a NUL and consumes the NUL. The bytes are returned as is
// (a sub-slice); convert them with UTF8 or Latin1. A missing NUL is ErrTruncated.
func (r *Reader) CString(what string) []byte {
	if r.err != nil {
		return nil
	}
	for i := r.off; i < len(r.b); i++ {
		if r.b[i] == 0 {
			p := r.b[r.off:i]
			r.off = i + 1
			return p
		}
	}
	r.err = fmt.Errorf("%w: %s at offset %d has no NUL terminator", ErrTruncated, what, r.off)
	return nil
}

// Until reads bytes up to (not including) the first delim and consumes the delim; at
// the end of the buffer it returns the rest and ok=false.
func (r *Reader) Until(delim byte) (p []byte, ok bool) {
	if r.err != nil {
		return nil, false
	}
	for i := r.off; i < len(r.b); i++ {
		if r.b[i] == delim {
			p = r.b[r.off:i]
			r.off = i + 1
			return p, true
		}
	}
	p = r.b[r.off:]
	r.off = len(r.b)
	return p, false
}

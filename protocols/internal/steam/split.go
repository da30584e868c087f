package steam

import (
	"bytes"
	"compress/bzip2"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// Layout is the header layout of split reply fragments (spec §8).
type Layout uint8

const (
	LayoutAuto         Layout = iota // detect from fragment 0 (spec §8.5)
	LayoutSource                     // 12-byte header: id, total, number, split size
	LayoutSourceNoSize               // 10-byte header of older Source builds
	LayoutGoldSrc                    // 9-byte header: id, number<<4 | total
)

func (l Layout) String() string {
	switch l {
	case LayoutSource:
		return "source"
	case LayoutSourceNoSize:
		return "source_without_size"
	case LayoutGoldSrc:
		return "goldsrc"
	}
	return "auto"
}

// Caps on split replies. Real replies use a handful of fragments of about 1.2 KB;
// GoldSrc cannot exceed 15 fragments (4-bit fields).
const (
	MaxFragments    = 64        // fragments of one message
	MaxSplitBytes   = 128 << 10 // payload bytes of one message, compressed or not
	MaxDecompressed = 256 << 10 // a bzip2 message's uncompressed size
	maxSets         = 2         // messages reassembled at once (a retry's answer beside the first one's)
)

const compressedBit = 0x80000000

// Assembler reassembles split replies from any sequence of datagrams (spec §8.4):
// fragments may come out of order or duplicated (the first copy is kept), and the
// fragments of two messages (say, the answers to a request and to its re-send) may
// interleave. The zero value detects the layout from each message's fragment 0.
// An Assembler is not safe for concurrent use.
type Assembler struct {
	// Layout forces a header layout; LayoutAuto (zero) detects it.
	Layout Layout

	sets [maxSets]fragSet
	seq  uint32
}

type fragSet struct {
	used    bool
	id      uint32
	started uint32 // Assembler.seq when the set opened: the oldest set is evicted first
	layout  Layout
	total   int
	got     int
	have    uint64 // bit n: fragment n is stored
	bytes   int
	raw     [][]byte // datagrams seen before the layout was known
	parts   [][]byte // payload by fragment number
	size    uint32   // compressed messages: uncompressed size and CRC32 from fragment 0
	crc     uint32
}

// Reset forgets every pending fragment.
func (a *Assembler) Reset() {
	for i := range a.sets {
		a.sets[i] = fragSet{}
	}
}

// Add takes one datagram. A complete (FF FF FF FF) datagram is returned as is with
// done set. A fragment (FE FF FF FF) is stored, and when it completes its message
// the reassembled (and decompressed) message is returned with done set. An error
// means the datagram is not A2S or its message cannot be reassembled; the message's
// fragments are dropped, others stay pending.
func (a *Assembler) Add(d []byte) (msg []byte, done bool, err error) {
	if len(d) < 4 {
		return nil, false, fmt.Errorf("%w: datagram of %d bytes", wire.ErrTruncated, len(d))
	}
	switch binary.LittleEndian.Uint32(d) {
	case 0xFFFFFFFF:
		return d, true, nil
	case 0xFFFFFFFE:
	default:
		return nil, false, fmt.Errorf("%w: datagram header % x is neither ff ff ff ff nor fe ff ff ff", wire.ErrMalformed, d[:4])
	}
	if len(d) < 9 {
		return nil, false, fmt.Errorf("%w: split fragment of %d bytes, shorter than any split header", wire.ErrTruncated, len(d))
	}
	s := a.set(binary.LittleEndian.Uint32(d[4:]))
	msg, done, err = s.add(d, a.Layout)
	if done || err != nil {
		*s = fragSet{}
	}
	return msg, done, err
}

// set returns the pending set for id, opening one (and evicting the oldest) if needed.
func (a *Assembler) set(id uint32) *fragSet {
	var free, oldest *fragSet
	for i := range a.sets {
		s := &a.sets[i]
		switch {
		case s.used && s.id == id:
			return s
		case !s.used:
			if free == nil {
				free = s
			}
		case oldest == nil || s.started < oldest.started:
			oldest = s
		}
	}
	if free == nil {
		free = oldest
	}
	a.seq++
	*free = fragSet{used: true, id: id, started: a.seq}
	return free
}

func (s *fragSet) add(d []byte, forced Layout) ([]byte, bool, error) {
	if s.layout == LayoutAuto {
		s.layout = forced
		if s.layout == LayoutAuto {
			s.layout = DetectLayout(d, s.id&compressedBit != 0)
		}
		if s.layout == LayoutAuto {
			// Fragment 0 tells the layout; keep the others until it comes.
			if len(s.raw) >= MaxFragments {
				return nil, false, fmt.Errorf("%w: split message 0x%08x: %d fragments without a recognisable fragment 0", wire.ErrTooLarge, s.id, len(s.raw)+1)
			}
			if s.bytes += len(d); s.bytes > MaxSplitBytes {
				return nil, false, fmt.Errorf("%w: split message 0x%08x over %d bytes", wire.ErrTooLarge, s.id, MaxSplitBytes)
			}
			s.raw = append(s.raw, d)
			return nil, false, nil
		}
		s.bytes = 0
		for _, r := range s.raw {
			if err := s.place(r); err != nil {
				return nil, false, err
			}
		}
		s.raw = nil
	}
	if err := s.place(d); err != nil {
		return nil, false, err
	}
	if s.got < s.total {
		return nil, false, nil
	}
	return s.join()
}

// DetectLayout recognises fragment 0 by the complete message's FF FF FF FF (or, when
// compressed, the bzip2 magic) right after the header (spec §8.5).
func DetectLayout(d []byte, compressed bool) Layout {
	switch {
	case len(d) >= 13 && d[8]>>4 == 0 && d[8]&0x0F != 0 && isSingle(d[9:13]):
		// A Source fragment 0 has byte 9 = 0, never FF: no ambiguity.
		return LayoutGoldSrc
	case len(d) < 10 || d[9] != 0:
		return LayoutAuto
	case compressed && len(d) >= 23 && string(d[20:23]) == "BZh":
		return LayoutSource
	case compressed && len(d) >= 21 && string(d[18:21]) == "BZh":
		return LayoutSourceNoSize
	case !compressed && len(d) >= 16 && isSingle(d[12:16]):
		return LayoutSource
	case !compressed && len(d) >= 14 && isSingle(d[10:14]):
		return LayoutSourceNoSize
	}
	return LayoutAuto
}

func isSingle(b []byte) bool { return b[0] == 0xFF && b[1] == 0xFF && b[2] == 0xFF && b[3] == 0xFF }

// place stores one fragment whose layout is known.
func (s *fragSet) place(d []byte) error {
	var total, num, hdr int
	switch s.layout {
	case LayoutGoldSrc:
		total, num, hdr = int(d[8]&0x0F), int(d[8]>>4), 9
	case LayoutSource:
		hdr = 12
	case LayoutSourceNoSize:
		hdr = 10
	}
	if len(d) < hdr {
		return fmt.Errorf("%w: split fragment of %d bytes, shorter than the %d-byte %s header", wire.ErrTruncated, len(d), hdr, s.layout)
	}
	if s.layout != LayoutGoldSrc {
		total, num = int(d[8]), int(d[9])
	}
	switch {
	case total == 0:
		return fmt.Errorf("%w: split message 0x%08x: fragment total 0", wire.ErrMalformed, s.id)
	case total > MaxFragments:
		return fmt.Errorf("%w: split message 0x%08x: %d fragments, cap %d", wire.ErrTooLarge, s.id, total, MaxFragments)
	case num >= total:
		return fmt.Errorf("%w: split message 0x%08x: fragment number %d of %d", wire.ErrMalformed, s.id, num, total)
	case s.total != 0 && total != s.total:
		return fmt.Errorf("%w: split message 0x%08x: fragment total %d, earlier fragments said %d", wire.ErrMalformed, s.id, total, s.total)
	}
	if s.total == 0 {
		s.total = total
		s.parts = make([][]byte, total)
	}
	if s.have&(1<<num) != 0 {
		return nil // duplicate: keep the first copy
	}
	p := d[hdr:]
	if num == 0 && s.compressed() {
		if len(p) < 8 {
			return fmt.Errorf("%w: compressed split message 0x%08x: fragment 0 ends before size and CRC", wire.ErrTruncated, s.id)
		}
		s.size, s.crc = binary.LittleEndian.Uint32(p), binary.LittleEndian.Uint32(p[4:])
		if s.size > MaxDecompressed {
			return fmt.Errorf("%w: compressed split message 0x%08x: uncompressed size %d, cap %d", wire.ErrTooLarge, s.id, s.size, MaxDecompressed)
		}
		p = p[8:]
	}
	if s.bytes += len(p); s.bytes > MaxSplitBytes {
		return fmt.Errorf("%w: split message 0x%08x over %d bytes", wire.ErrTooLarge, s.id, MaxSplitBytes)
	}
	s.parts[num] = p
	s.have |= 1 << num
	s.got++
	return nil
}

func (s *fragSet) compressed() bool { return s.layout != LayoutGoldSrc && s.id&compressedBit != 0 }

// join concatenates the fragments and decompresses them if flagged.
func (s *fragSet) join() ([]byte, bool, error) {
	msg := make([]byte, 0, s.bytes)
	for _, p := range s.parts {
		msg = append(msg, p...)
	}
	if s.compressed() {
		var err error
		if msg, err = s.decompress(msg); err != nil {
			return nil, false, err
		}
	}
	if len(msg) < 5 || !isSingle(msg) {
		return nil, false, fmt.Errorf("%w: reassembled split message 0x%08x does not start with ff ff ff ff", wire.ErrMalformed, s.id)
	}
	return msg, true, nil
}

func (s *fragSet) decompress(stream []byte) ([]byte, error) {
	var out bytes.Buffer
	out.Grow(int(s.size))
	// The declared size is capped, but the stream may lie: read at most one byte past it.
	n, err := out.ReadFrom(io.LimitReader(bzip2.NewReader(bytes.NewReader(stream)), int64(s.size)+1))
	switch {
	case err != nil:
		return nil, fmt.Errorf("%w: compressed split message 0x%08x: bzip2: %v", wire.ErrMalformed, s.id, err)
	case n > int64(s.size):
		return nil, fmt.Errorf("%w: compressed split message 0x%08x: bzip2 output exceeds the declared %d bytes", wire.ErrTooLarge, s.id, s.size)
	case n < int64(s.size):
		return nil, fmt.Errorf("%w: compressed split message 0x%08x: %d bytes after bzip2, header says %d", wire.ErrMalformed, s.id, n, s.size)
	case crc32.ChecksumIEEE(out.Bytes()) != s.crc:
		return nil, fmt.Errorf("%w: compressed split message 0x%08x: CRC32 %08x, header says %08x", wire.ErrMalformed, s.id, crc32.ChecksumIEEE(out.Bytes()), s.crc)
	}
	return out.Bytes(), nil
}

package ase

import (
	"bytes"
	"fmt"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// Some BF1942-era servers split a long reply (spec §5, as qstat reads it): a datagram
// of exactly fragmentSize bytes, or one whose 4th magic byte is not '1', is a
// fragment; that byte is the 1-based fragment number and the last 4 bytes are a reply
// id. Fragment 1 keeps its magic, later ones drop it, every one drops the id.
const (
	fragmentSize = 1364
	maxFragments = 9 // the fragment number is one ASCII digit
	idLen        = 4
)

type fragment struct {
	num     int  // 1-based
	last    bool // shorter than fragmentSize: no fragment follows it
	id      [idLen]byte
	payload []byte
}

// parseFragment classifies one reply datagram: single is an ordinary, unsplit reply;
// otherwise f is a fragment to reassemble.
func parseFragment(b []byte) (f fragment, single bool, err error) {
	if len(b) < len(magic) || !bytes.Equal(b[:3], magic[:3]) {
		return f, false, fmt.Errorf("%w: datagram does not start with \"EYE\"", wire.ErrMalformed)
	}
	d := b[3]
	if d == '1' && len(b) != fragmentSize {
		return f, true, nil
	}
	if d < '1' || d > '0'+maxFragments {
		return f, false, fmt.Errorf("%w: fragment number byte 0x%02x at offset 3", wire.ErrMalformed, d)
	}
	if len(b) < len(magic)+idLen {
		return f, false, fmt.Errorf("%w: fragment of %d bytes has no room for its reply id", wire.ErrTruncated, len(b))
	}
	f.num = int(d - '0')
	f.last = len(b) != fragmentSize
	copy(f.id[:], b[len(b)-idLen:])
	if f.num == 1 {
		f.payload = b[:len(b)-idLen]
	} else {
		f.payload = b[len(magic) : len(b)-idLen]
	}
	return f, false, nil
}

// assembler collects the fragments of one reply, in any order, once each.
type assembler struct {
	frags [maxFragments][]byte
	have  int
	total int // 0 until the last fragment arrived
	id    [idLen]byte
	idSet bool
}

// add stores f; a non-empty return says why f was not used.
func (a *assembler) add(f fragment) string {
	switch {
	case a.idSet && f.id != a.id:
		return fmt.Sprintf("fragment %d belongs to another reply (id %x, want %x)", f.num, f.id, a.id)
	case a.frags[f.num-1] != nil:
		return fmt.Sprintf("duplicate fragment %d", f.num)
	case a.total > 0 && f.num > a.total:
		return fmt.Sprintf("fragment %d past the last one (%d)", f.num, a.total)
	case f.last && f.num < a.highest():
		return fmt.Sprintf("fragment %d claims to be last but %d arrived", f.num, a.highest())
	}
	a.id, a.idSet = f.id, true
	a.frags[f.num-1] = f.payload
	a.have++
	if f.last {
		a.total = f.num
	}
	return ""
}

func (a *assembler) highest() int {
	for i := len(a.frags) - 1; i >= 0; i-- {
		if a.frags[i] != nil {
			return i + 1
		}
	}
	return 0
}

func (a *assembler) complete() bool { return a.total > 0 && a.have == a.total }

// body concatenates the fragments from the first up to the first gap: the whole
// reply once complete, what can be decoded of it otherwise.
func (a *assembler) body() []byte {
	var out []byte
	for _, p := range a.frags {
		if p == nil {
			break
		}
		out = append(out, p...)
	}
	return out
}

// missing lists the fragment numbers that never arrived (up to the highest seen
// when the last one is unknown).
func (a *assembler) missing() []int {
	n := a.total
	if n == 0 {
		n = a.highest() + 1
	}
	var out []int
	for i := 0; i < n && i < maxFragments; i++ {
		if a.frags[i] == nil {
			out = append(out, i+1)
		}
	}
	return out
}

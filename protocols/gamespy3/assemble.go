package gamespy3

import (
	"fmt"
	"slices"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

const (
	maxPackets = 128       // the packet number has 7 bits
	maxBytes   = 256 << 10 // bodies of one reply
)

// assembler collects the packets of one stat reply (spec §5.3): keyed by index,
// duplicates ignored, complete when every index up to the one flagged last is in.
type assembler struct {
	parts  [maxPackets]*packet
	have   int
	total  int // 0 until the last packet arrived
	size   int
	single bool // JC2-MP: the first packet is the whole reply (spec §7)
}

// add stores p. dup reports a packet already held; err a reply that lies about
// its numbering or exceeds the byte cap.
func (a *assembler) add(p packet) (done, dup bool, err error) {
	if a.single {
		if a.have > 0 {
			return true, true, nil
		}
		a.parts[0], a.have, a.total = &p, 1, 1
		return true, false, nil
	}
	if a.parts[p.index] != nil {
		return a.complete(), true, nil
	}
	switch {
	case p.last && a.total != 0:
		return false, false, fmt.Errorf("%w: packets %d and %d are both flagged last", wire.ErrMalformed, a.total-1, p.index)
	case p.last && a.highest() > p.index:
		return false, false, fmt.Errorf("%w: packet %d flagged last after packet %d", wire.ErrMalformed, p.index, a.highest())
	case a.total != 0 && p.index >= a.total:
		return false, false, fmt.Errorf("%w: packet %d after last packet %d", wire.ErrMalformed, p.index, a.total-1)
	}
	if a.size += len(p.body); a.size > maxBytes {
		return false, false, fmt.Errorf("%w: stat reply over %d bytes", wire.ErrTooLarge, maxBytes)
	}
	if p.last {
		a.total = p.index + 1
	}
	a.parts[p.index] = &p
	a.have++
	return a.complete(), false, nil
}

func (a *assembler) complete() bool { return a.total > 0 && a.have == a.total }

func (a *assembler) highest() int {
	for i := maxPackets - 1; i >= 0; i-- {
		if a.parts[i] != nil {
			return i
		}
	}
	return -1
}

// missing lists the absent packet numbers: below the last one, or up to the
// highest seen (and one more) while the last never came.
func (a *assembler) missing() []int {
	end := a.total
	if end == 0 {
		end = a.highest() + 2
	}
	var out []int
	for i := range min(end, maxPackets) {
		if a.parts[i] == nil {
			out = append(out, i)
		}
	}
	return out
}

// decode decodes the packets held, in index order. cut wraps ErrTruncated when
// packets are missing or the K/V section never ended.
func (a *assembler) decode() (r *reply, cut error, err error) {
	r = &reply{}
	for _, p := range a.parts {
		if p == nil {
			continue
		}
		if err := r.decodeBody(*p); err != nil {
			return nil, nil, err
		}
	}
	switch m := a.missing(); {
	case len(m) > 0:
		cut = fmt.Errorf("%w: split reply incomplete: packets %v missing", wire.ErrTruncated, m)
	case !r.kvDone && !slices.ContainsFunc(a.parts[:], func(p *packet) bool { return p != nil && p.section != 0 }):
		cut = fmt.Errorf("%w: key/value section has no end", wire.ErrTruncated)
	}
	return r, cut, nil
}

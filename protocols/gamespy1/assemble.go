package gamespy1

import (
	"errors"
	"fmt"
	"slices"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/gamespy"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// assembler puts the datagrams of one reply back together (spec §5): it locks onto
// the first queryid seen, drops duplicates and other queries' packets, learns the
// packet count from the packet carrying \final\, and bounds what it reads.
type assembler struct {
	query     string
	locked    bool
	parts     [maxPackets + 1]*packet // by packet number, 1-based
	have      int
	highest   int
	total     int // 0 until the \final\ packet arrives
	datagrams int
	size      int
	exclude   []string // queryids of earlier replies on the same socket
	garbled   bool     // some datagram had pairs dropped after an unparsable key
}

// add feeds one datagram. done reports a complete reply; ignore says why a datagram
// was skipped (a stray or a duplicate); err is fatal (over a cap, lying numbering).
func (a *assembler) add(b []byte) (done bool, ignore string, err error) {
	if a.datagrams++; a.datagrams > maxDatagrams {
		return false, "", fmt.Errorf("%w: more than %d datagrams in one reply", wire.ErrTooLarge, maxDatagrams)
	}
	if a.size += len(b); a.size > maxReply {
		return false, "", fmt.Errorf("%w: reply over %d bytes", wire.ErrTooLarge, maxReply)
	}
	p, err := parsePacket(b)
	if errors.Is(err, errNotGameSpy) {
		return false, "not a GameSpy reply", nil
	}
	if err != nil {
		return false, "", err
	}
	switch {
	case p.query == "" && a.locked:
		return false, "no queryid in a multi-packet reply", nil
	case p.query == "":
		// No queryid at all: this datagram is the whole reply (spec §5 step 5).
		a.parts[1], a.have, a.highest, a.total, a.locked = &p, 1, 1, 1, true
		a.garbled = p.garbled
		return true, "", nil
	case slices.Contains(a.exclude, p.query):
		return false, "late packet of an earlier reply", nil
	case !a.locked:
		a.query, a.locked = p.query, true
	case p.query != a.query:
		return false, "packet of another reply", nil
	}
	if a.parts[p.num] != nil {
		return false, "duplicate packet", nil
	}
	if a.total > 0 && p.num > a.total {
		return false, "", fmt.Errorf("%w: packet %d after final packet %d", wire.ErrMalformed, p.num, a.total)
	}
	if p.final {
		if a.highest > p.num {
			return false, "", fmt.Errorf("%w: final packet %d before packet %d", wire.ErrMalformed, p.num, a.highest)
		}
		a.total = p.num
	}
	a.parts[p.num] = &p
	a.have++
	a.garbled = a.garbled || p.garbled
	a.highest = max(a.highest, p.num)
	return a.total > 0 && a.have == a.total, "", nil
}

// missing lists the packet numbers not received: below the final one, or below the
// highest seen when \final\ never came.
func (a *assembler) missing() []int {
	last := a.total
	if last == 0 {
		last = a.highest
	}
	var m []int
	for i := 1; i <= last; i++ {
		if a.parts[i] == nil {
			m = append(m, i)
		}
	}
	return m
}

// result merges the packets in number order (later packets win on key collisions,
// spec §5 step 6). When packets are missing it returns what it has and an error
// wrapping ErrTruncated. A reply whose \final\ never came but has no gap is taken as
// complete: some servers never send it.
func (a *assembler) result() ([]gamespy.Pair, error) {
	if a.have == 0 {
		return nil, fmt.Errorf("%w: no GameSpy reply", wire.ErrTruncated)
	}
	var pairs []gamespy.Pair
	for _, p := range a.parts[1 : a.highest+1] {
		if p != nil {
			pairs = append(pairs, p.pairs...)
		}
	}
	if pairs == nil {
		pairs = []gamespy.Pair{}
	}
	if m := a.missing(); len(m) > 0 {
		of := "?"
		if a.total > 0 {
			of = fmt.Sprint(a.total)
		}
		return pairs, fmt.Errorf("%w: reply packets %v of %s missing", wire.ErrTruncated, m, of)
	}
	return pairs, nil
}

// complete reports whether the \final\ packet and every one before it arrived.
func (a *assembler) complete() bool { return a.total > 0 && a.have == a.total }

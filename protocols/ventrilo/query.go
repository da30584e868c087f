package ventrilo

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

type querier struct {
	password protocols.Secret
	players  bool
	retries  int
	text     func([]byte) string // the server's code page
}

// String keeps the password out of any print of the querier.
func (q *querier) String() string   { return "ventrilo querier" }
func (q *querier) GoString() string { return q.String() }

// maxReads bounds the datagrams read for one answer: every fragment twice, and
// strays.
const maxReads = 2*maxPackets + 32

// request builds the detailed status request with a fresh id and keys (none of
// whose bytes is 0: a 0 step would leave the datagram plain).
func (q *querier) request() ([]byte, uint16) {
	var r [6]byte
	rand.Read(r[:])
	for i := range r {
		if r[i] == 0 {
			r[i] = 1
		}
	}
	data := make([]byte, 16)
	copy(data, q.password.Reveal())
	h := header{
		Key: binary.BigEndian.Uint16(r[0:]), Cmd: cmdDetailed, ID: binary.BigEndian.Uint16(r[2:]),
		TotLen: 16, Len: 16, TotPck: 1, DataKey: binary.BigEndian.Uint16(r[4:]), CRC: crc16(data),
	}
	return encode(h, data), h.ID
}

// mask rewrites the request req in place as the same request with no password
// (its data and CRC those of 16 zero bytes).
func mask(req []byte) {
	h, _ := decode(req)
	zero := make([]byte, 16)
	h.CRC = crc16(zero)
	copy(req, encode(h, zero))
}

// Query sends the detailed status request and reads its answer, in one phase.
func (q *querier) Query(ctx context.Context, t protocols.Target, tr *wire.Trace) (*protocols.Result, error) {
	return protocols.InfoPhase(ctx, t, tr, q.query)
}

func (q *querier) query(ctx context.Context, t protocols.Target, tr *wire.Trace) (*protocols.Result, error) {
	conn, err := protocols.DialUDP(ctx, t, tr, q.retries)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	req, id := q.request()
	if q.password != "" {
		// The cipher's keys are public: the request as sent would show the
		// password to anyone reading the trace (debug output). Once the exchange
		// is over, the request the trace holds is overwritten with the same one
		// carrying no password.
		defer mask(req)
	}
	a := &assembly{id: id}
	var (
		done bool
		ferr error
	)
	if _, err := conn.Request(ctx, req, func(d []byte) bool {
		done, ferr = a.add(d)
		return !errors.Is(ferr, errSkip)
	}); err != nil {
		return nil, err
	}
	if dl, ok := ctx.Deadline(); ok {
		conn.SetReadDeadline(dl) // the rest of the fragments may take the time left
	}
	for reads := 0; ferr == nil && !done; reads++ {
		if reads >= maxReads {
			return nil, fmt.Errorf("%w: %d datagrams without completing the answer", wire.ErrTooLarge, reads)
		}
		d, err := conn.Recv()
		if err != nil {
			return nil, fmt.Errorf("answer incomplete (%d of %d packets): %w", a.got, a.totPck, err)
		}
		if done, ferr = a.add(d); errors.Is(ferr, errSkip) {
			tr.Ignore(ferr.Error())
			ferr = nil
		}
	}
	if ferr != nil {
		return nil, ferr
	}
	return result(a.text(), q.players, q.text)
}

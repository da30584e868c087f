package skycoop

import (
	"context"
	"errors"
	"fmt"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

type querier struct {
	retries  int
	players  bool
	packetID int32
}

// Query sends the status ping and decodes the reply. The player names come in the
// same reply; when the config carrying them is broken, the counts are still returned
// and the failure is a "players" phase error.
//
// Datagrams with another packet id are skipped while waiting (game traffic, or not
// Sky Co-op); if only such datagrams came before the deadline, the error is
// ErrMismatch naming the id seen, not ErrTimeout.
func (q *querier) Query(ctx context.Context, t protocols.Target, tr *wire.Trace) (*protocols.Result, error) {
	addr := t.Addr
	conn, err := wire.DialUDP(ctx, addr, tr)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	conn.Retries = q.retries

	p := tr.Begin("info")
	var skipped error
	reply, err := conn.Request(ctx, request(), func(b []byte) bool {
		if e := answers(b, q.packetID); e != nil {
			skipped = e
			tr.Logf("skipped datagram: %v", e)
			return false
		}
		return true
	})
	if err != nil {
		if skipped != nil && (errors.Is(err, wire.ErrTimeout) || errors.Is(err, wire.ErrMalformed)) {
			err = fmt.Errorf("no status reply, last datagram skipped: %w", skipped)
		}
		tr.End(p, err)
		return nil, err
	}
	st, err := decodeReply(reply, q.packetID)
	tr.End(p, err)
	if err != nil {
		return nil, err
	}
	if st.ConfigErr != nil {
		tr.Logf("config: %v", st.ConfigErr)
	}
	if st.Trailing > 0 {
		tr.Logf("ignored %d bytes after the config", st.Trailing)
	}
	return st.Result(q.players), nil
}

package minecraft

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net/netip"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

type querier struct {
	host    string
	version int32
	ping    bool
	players bool
	payload func() int64 // the ping payload; vanilla sends a millisecond clock
}

// handshakeHost picks the server address: the module's host, the host name the
// target was given as (proxies route virtual hosts on it), else the IP the probe
// connects to.
func (q *querier) handshakeHost(t protocols.Target) string {
	if q.host != "" {
		return q.host
	}
	if h := t.Host; h != "" && len(h) <= maxHost {
		return h
	}
	return t.Addr.Addr().Unmap().WithZone("").String()
}

// Query reads the status ("info" phase, the legacy fallback included) and then,
// on a modern server, times a ping/pong ("ping" phase). A failed ping is a phase
// error: the status is still returned.
//
// Not a protocols.UDPExchange: TCP, the status and then a ping.
func (q *querier) Query(ctx context.Context, t protocols.Target, tr *wire.Trace) (*protocols.Result, error) {
	p := tr.Begin("info")
	st, sess, err := q.status(ctx, t, tr)
	tr.End(p, err)
	if err != nil {
		return nil, err
	}
	for _, w := range st.Warnings {
		tr.Logf("status: %s", w)
	}
	if st.Trailing > 0 {
		tr.Logf("ignored %d bytes after the status JSON", st.Trailing)
	}
	res := st.Result(q.players)
	if sess == nil {
		return res, nil
	}
	defer sess.conn.Close()
	if q.ping {
		protocols.Phase(&res.PhaseErrors, tr, "ping", func() (struct{}, error) { return struct{}{}, sess.pingPong(q.payload()) })
	}
	return res, nil
}

// session is an open modern connection, kept for the ping.
type session struct {
	conn *wire.TCPConn
	r    *bufio.Reader
}

func (s *session) pingPong(payload int64) error {
	if _, err := s.conn.Write(pingRequest(payload)); err != nil {
		return err
	}
	id, data, err := readPacket(s.r, maxPong)
	if err != nil {
		return err
	}
	return decodePong(id, data, payload)
}

// status runs the modern exchange and, when the server closed without a word or
// kicked with something that is not a status, the legacy ping on a new
// connection. The session is returned open for a modern reply only.
func (q *querier) status(ctx context.Context, t protocols.Target, tr *wire.Trace) (status, *session, error) {
	addr := t.Addr
	req := append(handshake(q.handshakeHost(t), addr.Port(), q.version), statusRequest...)
	st, sess, err := exchange(ctx, addr, tr, req)
	if err == nil {
		if st.Format != formatSLP {
			sess.conn.Close()
			sess = nil
		}
		return st, sess, nil
	}
	var closed *closedError
	if !errors.As(err, &closed) && !errors.Is(err, wire.ErrServer) {
		return status{}, nil, err
	}
	tr.Logf("no status for the modern handshake (%v): trying the legacy ping", err)
	st, sess, err2 := exchange(ctx, addr, tr, []byte(legacyPing))
	if sess != nil {
		sess.conn.Close() // whatever the format, the legacy ping ends here
	}
	if err2 != nil {
		if errors.As(err2, &closed) {
			err2 = closed.err
		}
		return status{}, nil, fmt.Errorf("legacy ping after %v: %w", err, err2)
	}
	return st, nil, nil
}

// exchange connects, sends req in one write and reads the reply. On success the
// connection stays open in the session.
func exchange(ctx context.Context, addr netip.AddrPort, tr *wire.Trace, req []byte) (status, *session, error) {
	conn, err := wire.DialTCP(ctx, addr, tr)
	if err != nil {
		return status{}, nil, err
	}
	// A server that kicks at once may close before reading: the write can fail
	// while its kick waits in our buffer, so read anyway.
	if _, err := conn.Write(req); err != nil {
		tr.Logf("request not fully sent (%v); reading what the server sent", err)
	}
	r := bufio.NewReaderSize(conn, 4096)
	st, err := readResponse(r)
	if err != nil {
		conn.Close()
		return status{}, nil, err
	}
	return st, &session{conn: conn, r: r}, nil
}

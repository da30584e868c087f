package teamspeak3

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

type querier struct {
	// queryPort is the ServerQuery port; 0 (tests only) means the target's own port.
	queryPort uint16
	players   bool
}

// Query connects to the query port on the target's address, selects the virtual
// server whose voice port the target names and asks serverinfo (phase "info"),
// then clientlist when the module wants players (phase "players"; a failure there
// is a phase error), and quits.
//
// Not a protocols.UDPExchange: TCP ServerQuery, a conversation of commands.
func (q *querier) Query(ctx context.Context, t protocols.Target, tr *wire.Trace) (*protocols.Result, error) {
	conn, p, err := protocols.DialTCP(ctx, t.OnPort(q.queryPort), tr, "info")
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	lr := lineReader{r: bufio.NewReaderSize(conn, 4096)}
	s := session{
		next: lr.next,
		// A server that turns the address away answers and closes without reading:
		// a failed write is noted and the reply still read.
		send: func(cmd string) error {
			if _, err := conn.Write([]byte(cmd)); err != nil {
				tr.Logf("%q not sent (%v); reading what the server sent", cmd, err)
			}
			return nil
		},
	}
	res, err := s.run(t.Addr.Port())
	tr.End(p, err)
	if err != nil {
		return nil, err
	}
	if q.players {
		res.PlayerList, _ = protocols.Phase(&res.PhaseErrors, tr, "players", s.clients) // nil when it fails
	}
	// Polite, not needed: closing the connection ends the session too.
	if _, err := conn.Write([]byte("quit\n")); err != nil {
		tr.Logf("quit not sent: %v", err)
	}
	return res, nil
}

// lineReader reads "\n"-terminated lines of at most the limit the caller gives.
// A line that the close ends without "\n" is returned as is.
type lineReader struct {
	r    *bufio.Reader
	long []byte // a line longer than the buffer, put together
}

func (l *lineReader) next(limit int) ([]byte, error) {
	l.long = l.long[:0]
	for {
		b, err := l.r.ReadSlice('\n')
		if len(l.long)+len(b) > limit+1 { // +1: the '\n'
			return nil, fmt.Errorf("%w: line longer than %d bytes", wire.ErrTooLarge, limit)
		}
		switch {
		case err == nil:
			if len(l.long) > 0 {
				l.long = append(l.long, b...)
				b = l.long
			}
			return b[:len(b)-1], nil
		case errors.Is(err, bufio.ErrBufferFull):
			l.long = append(l.long, b...)
		case err == io.EOF:
			l.long = append(l.long, b...)
			if len(l.long) > 0 {
				return l.long, nil
			}
			return nil, fmt.Errorf("%w: connection closed mid-exchange", wire.ErrTruncated)
		default:
			return nil, err
		}
	}
}

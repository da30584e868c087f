package teamspeak2

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

type querier struct {
	// queryPort is the TCP query port; 0 (tests only) means the target's own port.
	queryPort      uint16
	players, rules bool
	text           func([]byte) string // the server's code page
}

// Query connects to the query port on the target's address, selects the virtual
// server on the target's voice port and asks si (phase "info"), then pl when the
// module wants players (phase "players"; a failure there is a phase error), and
// quits.
func (q *querier) Query(ctx context.Context, t protocols.Target, tr *wire.Trace) (*protocols.Result, error) {
	conn, p, err := protocols.DialTCP(ctx, t.OnPort(q.queryPort), tr, "info")
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	s := &session{r: bufio.NewReaderSize(conn, maxLine), w: conn, text: q.text}
	res, err := s.info(t.Addr.Port())
	tr.End(p, err)
	if err != nil {
		return nil, err
	}
	if q.players {
		res.PlayerList, _ = protocols.Phase(&res.PhaseErrors, tr, "players", s.players) // nil when it fails
	}
	if q.rules {
		res.Rules = res.Info
	}
	// Polite, not needed: closing the connection ends the session too.
	if _, err := conn.Write([]byte("quit\n")); err != nil {
		tr.Logf("quit not sent: %v", err)
	}
	return res, nil
}

// session is the client's side of the exchange.
type session struct {
	r    *bufio.Reader
	w    io.Writer
	text func([]byte) string // the server's code page
}

// info reads the greeting, selects the voice port's server and decodes si.
func (s *session) info(voice uint16) (*protocols.Result, error) {
	line, err := s.line()
	if err != nil {
		return nil, err
	}
	if !bytes.Equal(line, []byte("[TS]")) {
		return nil, fmt.Errorf("%w: greeting %q is not [TS]", wire.ErrMalformed, clip(line))
	}
	if _, err := s.command("sel "+strconv.Itoa(int(voice)), 0); err != nil {
		if errors.Is(err, wire.ErrServer) {
			err = fmt.Errorf("%w (no virtual server on voice port %d?)", err, voice)
		}
		return nil, err
	}
	lines, err := s.command("si", maxLines)
	if err != nil {
		return nil, err
	}
	return decodeServerInfo(lines, s.text)
}

// players asks pl and decodes it.
func (s *session) players() ([]protocols.Player, error) {
	lines, err := s.command("pl", maxPlayers+1)
	if err != nil {
		return nil, err
	}
	return decodePlayers(lines, s.text)
}

// command sends cmd and returns its data lines, at most max of them, up to the
// OK (an ERROR line is the server's error).
func (s *session) command(cmd string, max int) ([][]byte, error) {
	if _, err := s.w.Write([]byte(cmd + "\n")); err != nil {
		return nil, err
	}
	var data [][]byte
	for {
		line, err := s.line()
		if err != nil {
			return nil, err
		}
		if end, err := replyEnd(line, cmd); end {
			return data, err
		}
		if len(data) >= max {
			return nil, fmt.Errorf("%w: %s answered more than %d lines", wire.ErrTooLarge, cmd, max)
		}
		data = append(data, bytes.Clone(line))
	}
}

// line reads one line without its "\r\n" (or "\n"), at most maxLine bytes.
func (s *session) line() ([]byte, error) {
	b, err := s.r.ReadSlice('\n')
	switch {
	case errors.Is(err, bufio.ErrBufferFull):
		return nil, fmt.Errorf("%w: a line longer than %d bytes", wire.ErrTooLarge, maxLine)
	case errors.Is(err, io.EOF):
		return nil, fmt.Errorf("%w: connection closed mid-exchange", wire.ErrTruncated)
	case err != nil:
		return nil, err
	}
	return bytes.TrimRight(b, "\r\n"), nil
}

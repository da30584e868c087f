package soldat

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

type querier struct {
	password protocols.Secret
	players  bool
	text     func([]byte) string // the server's code page
}

// String keeps the password out of any print of the querier.
func (q *querier) String() string   { return "soldat admin querier" }
func (q *querier) GoString() string { return "soldat admin querier" }

// Bounds on the text the admin connection carries before the record.
const (
	maxLine      = 1024
	maxLines     = 64 // console lines skipped while waiting for the welcome or the record
	greeting     = "Soldat Admin Connection Established."
	welcome      = "Welcome, you are in command of the server now."
	versionLabel = "Server Version: "
)

// Query logs in (phase "login"), asks REFRESHX and reads the record (phase
// "info").
func (q *querier) Query(ctx context.Context, t protocols.Target, tr *wire.Trace) (*protocols.Result, error) {
	conn, p, err := protocols.DialTCP(ctx, t.Addr, tr, "login")
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	r := bufio.NewReaderSize(conn, recordLen)
	version, err := q.login(conn, r)
	tr.End(p, err)
	if err != nil {
		return nil, err
	}
	p = tr.Begin("info")
	rf, err := refreshX(conn, r, tr, q.text)
	tr.End(p, err)
	if err != nil {
		return nil, err
	}
	res := rf.result(q.players)
	res.Version = version
	return res, nil
}

// secretWriter writes a line the trace must not keep (wire.TCPConn).
type secretWriter interface {
	WriteSecret(b []byte, what string) (int, error)
}

// login reads the greeting, sends the password and reads the welcome up to the
// version line.
func (q *querier) login(w secretWriter, r *bufio.Reader) (string, error) {
	l, err := line(r)
	if errors.Is(err, wire.ErrTruncated) {
		return "", fmt.Errorf("%w (Soldat closes at once on an address its admin flood ban holds)", err)
	}
	if err != nil {
		return "", err
	}
	if l != greeting {
		return "", fmt.Errorf("%w: greeting %q is not Soldat's admin greeting", wire.ErrMalformed, clip(l))
	}
	if q.password == "" {
		return "", fmt.Errorf("%w: the admin connection needs the server's admin password: set soldat: {password_file: ...}", wire.ErrServer)
	}
	if _, err := w.WriteSecret([]byte(q.password.Reveal()+"\r\n"), "<admin password>\r\n"); err != nil {
		return "", err
	}
	welcomed := false
	for range maxLines {
		l, err := line(r)
		switch {
		case err != nil:
			return "", err
		case l == "Invalid password." || l == "Password request timed out.":
			return "", fmt.Errorf("%w: %s: authentication failed (check the module's password)", wire.ErrServer, l)
		case l == welcome:
			welcomed = true
		case welcomed && len(l) > len(versionLabel) && l[:len(versionLabel)] == versionLabel:
			return wire.UTF8([]byte(l[len(versionLabel):])), nil
		}
	}
	return "", fmt.Errorf("%w: no welcome and version within %d lines", wire.ErrMalformed, maxLines)
}

// refreshX sends REFRESHX and reads the record, skipping the console lines the
// admin connection carries before it.
func refreshX(w io.Writer, r *bufio.Reader, tr *wire.Trace, text func([]byte) string) (*refresh, error) {
	if _, err := w.Write([]byte("REFRESHX\r\n")); err != nil {
		return nil, err
	}
	for range maxLines {
		peek, err := r.Peek(len(header))
		if err != nil {
			return nil, wire.Closed(err, "REFRESHX record")
		}
		if string(peek) == header {
			b := make([]byte, recordLen)
			if err := wire.ReadFull(r, b, "REFRESHX record"); err != nil {
				return nil, err
			}
			return decodeRefresh(b, text)
		}
		l, err := line(r)
		if err != nil {
			return nil, err
		}
		tr.Logf("console line skipped: %q", clip(l))
	}
	return nil, fmt.Errorf("%w: no REFRESHX record within %d lines", wire.ErrMalformed, maxLines)
}

// line reads one line without its "\r\n", at most maxLine bytes.
func line(r *bufio.Reader) (string, error) {
	var b []byte
	for {
		chunk, err := r.ReadSlice('\n')
		b = append(b, chunk...)
		if len(b) > maxLine {
			return "", fmt.Errorf("%w: a line longer than %d bytes", wire.ErrTooLarge, maxLine)
		}
		switch {
		case err == nil:
			return string(bytes.TrimRight(b, "\r\n")), nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		default:
			return "", wire.Closed(err, "line")
		}
	}
}

func clip(s string) string {
	if len(s) > 64 {
		return s[:64]
	}
	return s
}

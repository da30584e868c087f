package wire

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/netip"
)

// TCPConn is a TCP connection bound to one probe's deadline that records every
// segment it reads and writes.
type TCPConn struct {
	c    net.Conn
	tr   *Trace
	stop func() bool
}

// DialTCP connects to addr within ctx's deadline, which then bounds every read and
// write; a ctx without a deadline can be cancelled instead (see watchCancel). A
// dial that fails once ctx is done is ErrTimeout, whatever the socket said.
func DialTCP(ctx context.Context, addr netip.AddrPort, tr *Trace) (*TCPConn, error) {
	var d net.Dialer
	c, err := d.DialContext(ctx, "tcp", addr.String())
	if err != nil {
		if ctx.Err() != nil { // a dial the probe gave up on is not a network fault
			return nil, fmt.Errorf("%w: %v", ErrTimeout, ctx.Err())
		}
		return nil, netErr(err)
	}
	t := &TCPConn{c: c, tr: tr}
	if dl, ok := ctx.Deadline(); ok {
		c.SetDeadline(dl)
		t.stop = closeOnCancel(ctx, c, nil)
	} else {
		t.stop = watchCancel(ctx, c)
	}
	return t, nil
}

// Close releases the connection.
func (t *TCPConn) Close() error {
	if t.stop != nil {
		t.stop()
	}
	return t.c.Close()
}

// Write sends b. b must not be modified afterwards: the trace keeps it.
func (t *TCPConn) Write(b []byte) (int, error) {
	t.tr.Sent(b)
	if t.tr != nil {
		t.tr.Attempts++
	}
	n, err := t.c.Write(b)
	if err != nil {
		return n, netErr(err)
	}
	return n, nil
}

// WriteSecret sends b, which holds a secret (a password line): the trace records
// what in its place, never b.
func (t *TCPConn) WriteSecret(b []byte, what string) (int, error) {
	t.tr.Sent([]byte(what))
	if t.tr != nil {
		t.tr.Attempts++
	}
	n, err := t.c.Write(b)
	if err != nil {
		return n, netErr(err)
	}
	return n, nil
}

// Read implements io.Reader, recording each segment read. io.EOF passes through.
func (t *TCPConn) Read(p []byte) (int, error) {
	n, err := t.c.Read(p)
	if n > 0 {
		t.tr.Received(bytes.Clone(p[:n]))
	}
	if err != nil && !errors.Is(err, io.EOF) {
		return n, netErr(err)
	}
	return n, err
}

// ReadLine reads up to and including '\n', or to EOF after some data, and returns the
// line without its terminator. A line longer than max is ErrTooLarge: a peer that
// never ends its line cannot make the probe buffer without bound.
func (t *TCPConn) ReadLine(max int) ([]byte, error) {
	var line []byte
	buf := make([]byte, 512)
	for {
		n, err := t.Read(buf)
		if n > 0 {
			if i := bytes.IndexByte(buf[:n], '\n'); i >= 0 {
				return append(line, buf[:i]...), nil
			}
			line = append(line, buf[:n]...)
			if len(line) > max {
				return nil, fmt.Errorf("%w: line longer than %d bytes", ErrTooLarge, max)
			}
		}
		if errors.Is(err, io.EOF) {
			if len(line) > 0 {
				return line, nil
			}
			return nil, fmt.Errorf("%w: connection closed before any reply", ErrTruncated)
		}
		if err != nil {
			return nil, err
		}
	}
}

// ReadAll reads until EOF, failing with ErrTooLarge past max bytes.
func (t *TCPConn) ReadAll(max int) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(t, int64(max)+1))
	if err != nil {
		return nil, err
	}
	if len(b) > max {
		return nil, fmt.Errorf("%w: reply longer than %d bytes", ErrTooLarge, max)
	}
	return b, nil
}

// ReadFull reads exactly len(b) bytes of what from r (io.ReadFull): a close
// before them is ErrTruncated, saying how much of what came.
func ReadFull(r io.Reader, b []byte, what string) error {
	return readFull(r, b, what, "")
}

// ReadFrame reads one length-prefixed frame of what (a packet, an answer) from
// r: its fixed header into hdr, then the rest of the frame, whose whole length
// size reads from the header, capping it before anything is allocated. The frame
// returned starts with the header.
func ReadFrame(r io.Reader, hdr []byte, what string, size func(hdr []byte) (int, error)) ([]byte, error) {
	if err := readFull(r, hdr, what, "header"); err != nil {
		return nil, err
	}
	n, err := size(hdr)
	if err != nil {
		return nil, err
	}
	b := make([]byte, n)
	copy(b, hdr)
	if err := readFull(r, b[len(hdr):], what, "body"); err != nil {
		return nil, err
	}
	return b, nil
}

// readFull is ReadFull of part ("header") of what, named only in an error.
func readFull(r io.Reader, b []byte, what, part string) error {
	n, err := io.ReadFull(r, b)
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		if part != "" {
			what += " " + part
		}
		return fmt.Errorf("%w: connection closed after %d of %d bytes of the %s", ErrTruncated, n, len(b), what)
	}
	return err
}

// Closed names a close mid-exchange, before what, as ErrTruncated; other errors
// (the socket's) already carry a reason and pass through.
func Closed(err error, what string) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return fmt.Errorf("%w: connection closed before the %s", ErrTruncated, what)
	}
	return err
}

package starmade

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

type querier struct{}

// Query sends the status command and reads its answer, in one phase.
func (querier) Query(ctx context.Context, t protocols.Target, tr *wire.Trace) (*protocols.Result, error) {
	p := tr.Begin("info")
	res, err := query(ctx, t, tr)
	tr.End(p, err)
	return res, err
}

func query(ctx context.Context, t protocols.Target, tr *wire.Trace) (*protocols.Result, error) {
	conn, err := wire.DialTCP(ctx, t.Addr, tr)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	if _, err := conn.Write(request); err != nil {
		return nil, err
	}
	var hdr [headerLen]byte
	if _, err := io.ReadFull(conn, hdr[:]); err != nil {
		return nil, eof(err, "answer header")
	}
	n, err := bodyLen(hdr[:])
	if err != nil {
		return nil, err
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(conn, body); err != nil {
		return nil, eof(err, fmt.Sprintf("answer body (%d bytes)", n))
	}
	ps, err := decodeBody(body)
	if err != nil {
		return nil, err
	}
	return result(ps)
}

// eof names a close mid-answer as truncation; socket errors already carry a reason.
func eof(err error, what string) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return fmt.Errorf("%w: connection closed before the %s", wire.ErrTruncated, what)
	}
	return err
}

package master

import (
	"context"
	"errors"
	"fmt"
	"net/netip"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// QuakeWorld masters (qstat's QWM type): the request is `c` and a newline; the
// reply is one datagram, FF FF FF FF `d` newline and 6-byte entries (IPv4
// address, big-endian port).

// DefaultQuakeWorldMaster is a public QuakeWorld master.
const DefaultQuakeWorldMaster = "master.quakeservers.net:27000"

var (
	quakeWorldRequest = []byte("c\n")
	quakeWorldHeader  = "\xff\xff\xff\xffd\n"
)

type quakeWorld struct{ udpMaster }

func newQuakeWorld(s Source, retries int) (Lister, error) {
	if s.Query != "" {
		return nil, errNoQuery(s.Type)
	}
	m, err := newUDPMaster(s, DefaultQuakeWorldMaster, retries)
	if err != nil {
		return nil, err
	}
	return &quakeWorld{m}, nil
}

var errNotQuakeWorld = fmt.Errorf("%w: not a QuakeWorld master reply (FF FF FF FF d)", wire.ErrMalformed)

// decodeQuakeWorld reads the reply's addresses.
func decodeQuakeWorld(b []byte) ([]netip.AddrPort, error) {
	if len(b) < len(quakeWorldHeader) || string(b[:len(quakeWorldHeader)]) != quakeWorldHeader {
		return nil, errNotQuakeWorld
	}
	body := b[len(quakeWorldHeader):]
	if len(body)%6 != 0 {
		return nil, fmt.Errorf("%w: %d bytes of entries is no whole number of 6-byte entries (offset %d)",
			wire.ErrTruncated, len(body), len(quakeWorldHeader)+len(body)/6*6)
	}
	addrs := make([]netip.AddrPort, 0, len(body)/6)
	for off := 0; off < len(body); off += 6 {
		addrs = append(addrs, addr4(body[off:]))
	}
	return addrs, nil
}

func (q *quakeWorld) List(ctx context.Context, tr *wire.Trace) (l *List, err error) {
	conn, err := q.dial(ctx, tr)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	p := tr.Begin("list")
	defer func() { tr.End(p, err) }()
	addrs, err := wire.Exchange(ctx, conn, quakeWorldRequest, func(b []byte) ([]netip.AddrPort, error, error) {
		addrs, err := decodeQuakeWorld(b)
		if errors.Is(err, errNotQuakeWorld) {
			return nil, err, nil
		}
		return addrs, nil, err
	})
	if err != nil {
		return nil, err
	}
	c := newCollector(q.max)
	for i, a := range addrs {
		c.addr(a)
		if c.full() {
			c.list.Capped = i < len(addrs)-1
			break
		}
	}
	return c.done(tr), nil
}

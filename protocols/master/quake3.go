package master

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/netip"
	"strings"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// Quake 3 and DarkPlaces masters (ioquake3's server browser, dpmaster's
// techinfo.txt): the request is FF FF FF FF and a `getservers <protocol>
// [keywords]` line, or `getserversExt <game> <protocol> [keywords]` for IPv6 too.
// The reply is one or more datagrams, each FF FF FF FF `getserversResponse` (or
// `getserversExtResponse`) and entries: `\` and 6 bytes (IPv4 address, big-endian
// port) or, in the Ext reply, `/` and 18 (IPv6). The last datagram ends with the
// entry `\EOT` (EOT followed by three NULs, so that it fills 6 bytes).

// DefaultQuake3Master is dpmaster's public master.
const DefaultQuake3Master = "dpmaster.deathmask.net:27950"

// DefaultQuake3Query asks for every Quake 3 (protocol 68) server, full or empty.
const DefaultQuake3Query = "getservers 68 empty full"

type quake3 struct {
	udpMaster
	query string
	ext   bool
}

func newQuake3(s Source, retries int) (Lister, error) {
	m, err := newUDPMaster(s, DefaultQuake3Master, retries)
	if err != nil {
		return nil, err
	}
	q := s.Query
	if q == "" {
		q = DefaultQuake3Query
	}
	cmd, _, _ := strings.Cut(q, " ")
	if cmd != "getservers" && cmd != "getserversExt" || !strings.Contains(q, " ") {
		return nil, fmt.Errorf("query %q: want `getservers <protocol> [keywords]` or `getserversExt <game> <protocol> [keywords]`", q)
	}
	return &quake3{udpMaster: m, query: q, ext: cmd == "getserversExt"}, nil
}

var eotMark = []byte("EOT")

var errNotQuake3 = fmt.Errorf("%w: not a getservers reply", wire.ErrMalformed)

// decodeQuake3 reads one datagram of a getservers reply: its addresses and
// whether it holds the end mark. ext accepts the Ext reply and its IPv6 entries.
func decodeQuake3(b []byte, ext bool) (addrs []netip.AddrPort, eot bool, err error) {
	header := "\xff\xff\xff\xffgetserversResponse"
	if ext {
		header = "\xff\xff\xff\xffgetserversExtResponse"
	}
	if !bytes.HasPrefix(b, []byte(header)) {
		return nil, false, errNotQuake3
	}
	off := len(header)
	addrs = make([]netip.AddrPort, 0, (len(b)-off)/7)
	for off < len(b) {
		rest := b[off+1:]
		switch b[off] {
		case '\\':
			if bytes.HasPrefix(rest, eotMark) {
				return addrs, true, nil
			}
			if len(rest) < 6 {
				return nil, false, fmt.Errorf("%w: IPv4 entry at offset %d needs 6 bytes, %d left", wire.ErrTruncated, off, len(rest))
			}
			addrs = append(addrs, addr4(rest))
			off += 7
		case '/':
			if !ext {
				return nil, false, fmt.Errorf("%w: IPv6 entry at offset %d in a getserversResponse", wire.ErrMalformed, off)
			}
			if len(rest) < 18 {
				return nil, false, fmt.Errorf("%w: IPv6 entry at offset %d needs 18 bytes, %d left", wire.ErrTruncated, off, len(rest))
			}
			addrs = append(addrs, addr6(rest))
			off += 19
		default:
			return nil, false, fmt.Errorf("%w: byte %#02x at offset %d where an entry (\\ or /) starts", wire.ErrMalformed, b[off], off)
		}
	}
	return addrs, false, nil
}

func (q *quake3) List(ctx context.Context, tr *wire.Trace) (l *List, err error) {
	conn, err := q.dial(ctx, tr)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	c := newCollector(q.max)
	p := tr.Begin("list")
	defer func() { tr.End(p, err) }()
	err = readList(ctx, conn, tr, []byte("\xff\xff\xff\xff"+q.query), q.retries, func(b []byte) (bool, error, error) {
		addrs, eot, err := decodeQuake3(b, q.ext)
		if errors.Is(err, errNotQuake3) {
			return false, err, nil
		}
		if err != nil {
			return false, nil, err
		}
		for i, a := range addrs {
			c.addr(a)
			if c.full() {
				// The rest of this datagram, or datagrams still to come.
				c.list.Capped = c.list.Capped || !eot || i < len(addrs)-1
				return true, nil, nil
			}
		}
		return eot, nil, nil
	})
	if err != nil {
		return nil, err
	}
	return c.done(tr), nil
}

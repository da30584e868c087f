package frostbite

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/netip"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

type querier struct{}

// requestSeq is the sequence number of our one request; bits 31 and 30 clear: a
// request, sent by the client. (The BC2 document's wording of bit 31 reads the
// other way round; servers answer clients that leave it clear, as every tool does.)
const requestSeq = 1

var request = encodePacket(requestSeq, "serverInfo")

// maxPackets bounds the packets read while waiting for the answer (a server has no
// reason to send anything else before it, but a packet of its own is skipped).
const maxPackets = 8

// Query opens one connection, sends serverInfo and reads its answer.
func (querier) Query(ctx context.Context, t protocols.Target, tr *wire.Trace) (*protocols.Result, error) {
	addr := t.Addr
	p := tr.Begin("info")
	res, err := query(ctx, addr, tr)
	tr.End(p, err)
	return res, err
}

func query(ctx context.Context, addr netip.AddrPort, tr *wire.Trace) (*protocols.Result, error) {
	conn, err := wire.DialTCP(ctx, addr, tr)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	if _, err := conn.Write(request); err != nil {
		return nil, err
	}
	var hdr [headerLen]byte
	for n := range maxPackets {
		b, err := readPacket(conn, hdr[:])
		if err != nil {
			return nil, err
		}
		p, err := decodePacket(b)
		if err != nil {
			return nil, err
		}
		if !p.response || p.seq != requestSeq {
			tr.Logf("packet %d skipped: response %v, sequence %d, not the answer to request %d", n, p.response, p.seq, requestSeq)
			continue
		}
		return decodeServerInfo(p.words)
	}
	return nil, fmt.Errorf("%w: no answer to serverInfo among %d packets", wire.ErrMismatch, maxPackets)
}

// readPacket reads one packet, its size checked against the cap before the body
// is read.
func readPacket(conn *wire.TCPConn, hdr []byte) ([]byte, error) {
	if _, err := io.ReadFull(conn, hdr); err != nil {
		return nil, eof(err, "packet header")
	}
	_, size, err := header(hdr)
	if err != nil {
		return nil, err
	}
	b := make([]byte, size)
	copy(b, hdr)
	if _, err := io.ReadFull(conn, b[headerLen:]); err != nil {
		return nil, eof(err, fmt.Sprintf("packet body (%d bytes)", size-headerLen))
	}
	return b, nil
}

// eof names a close mid-packet as truncation; socket errors already carry a reason.
func eof(err error, what string) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return fmt.Errorf("%w: connection closed before the %s", wire.ErrTruncated, what)
	}
	return err
}

package master

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net/netip"
	"strconv"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// SCUM's master server list, as opengsq-python's protocols/scum.py and GameQ's
// Protocols/Scum.php read it (SCUM servers answer no query of their own, and
// gamedig reads none). The client connects over TCP to a master on port 1040,
// sends 04 03 00 00, and reads a little-endian uint16, the number of servers,
// then one 127-byte record per server:
//
//	0    IPv4 address, its four bytes in reverse order
//	4    port, uint16 LE: the server's query port, its game port + 2 (GameQ)
//	6    name, 100 bytes, NUL-padded
//	107  players, 108 max players
//	109  the hour of the in-game day
//	111  flags: bit 1 a password
//	119  version, 8 bytes: LE32 build at 119, LE16 at 123, minor at 125, major
//	     at 126, read as major.minor.(123).(119)
//
// Records may span TCP segments; the master closes after the last one.

// The public masters opengsq tries, in its order (GameQ asks the second only).
var scumMasters = []string{"176.57.138.2:1040", "172.107.16.215:1040", "206.189.248.133:1040"}

const (
	scumRecord = 127
	scumName   = 100
)

var scumRequest = []byte{0x04, 0x03, 0x00, 0x00}

type scum struct {
	masters []udpMaster
	max     int
}

func newSCUM(s Source, retries int) (Lister, error) {
	if err := plainSource(s); err != nil {
		return nil, err
	}
	addrs := scumMasters
	if s.Address != "" {
		addrs = []string{s.Address}
	}
	l := &scum{max: s.MaxEntries}
	for _, a := range addrs {
		s.Address = a
		m, err := newUDPMaster(s, "", retries)
		if err != nil {
			return nil, err
		}
		l.masters = append(l.masters, m)
	}
	return l, nil
}

// List asks each master in turn, each given an even share of the time left,
// until one gives its list.
func (l *scum) List(ctx context.Context, tr *wire.Trace) (*List, error) {
	var err error
	for i, m := range l.masters {
		mctx, cancel := protocols.Share(ctx, len(l.masters)-i)
		var list *List
		list, err = l.from(mctx, m, tr)
		cancel()
		if err == nil {
			return list, nil
		}
		if i < len(l.masters)-1 {
			tr.Logf("SCUM master %s: %v; trying %s", m.address, err, l.masters[i+1].address)
		}
	}
	return nil, err
}

func (l *scum) from(ctx context.Context, m udpMaster, tr *wire.Trace) (list *List, err error) {
	ap, err := m.resolve(ctx, tr)
	if err != nil {
		return nil, err
	}
	p := tr.Begin("list")
	defer func() { tr.End(p, err) }()
	conn, err := wire.DialTCP(ctx, ap, tr)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	if _, err := conn.Write(scumRequest); err != nil {
		return nil, err
	}
	c := newCollector(l.max)
	if err := decodeSCUMStream(conn, c); err != nil {
		return nil, err
	}
	return c.done(tr), nil
}

// decodeSCUMStream reads the master's answer into c, record by record, until
// the count it announced, the end of the stream (a short list is the list), or
// c is full.
func decodeSCUMStream(r io.Reader, c *collector) error {
	br := bufio.NewReaderSize(r, 4096)
	var hdr [2]byte
	if _, err := io.ReadFull(br, hdr[:]); err != nil {
		return scumErr(err, "count")
	}
	n := int(binary.LittleEndian.Uint16(hdr[:]))
	var rec [scumRecord]byte
	for i := 0; i < n; i++ {
		if _, err := io.ReadFull(br, rec[:]); err != nil {
			if errors.Is(err, io.EOF) && i > 0 {
				return nil // the master ended early: keep what came
			}
			return scumErr(err, "server "+strconv.Itoa(i))
		}
		e, ok := scumEntry(rec[:])
		if !ok {
			c.skip(SkipNoAddress)
			continue
		}
		if !c.add(e) && c.full() {
			return nil
		}
	}
	return nil
}

func scumErr(err error, what string) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return fmt.Errorf("%w: SCUM master list ends inside the %s", wire.ErrTruncated, what)
	}
	return err // the wire's reason (timeout, reset)
}

// scumEntry maps one 127-byte record; false when its address is unusable.
func scumEntry(b []byte) (Entry, bool) {
	ip := netip.AddrFrom4([4]byte{b[3], b[2], b[1], b[0]})
	ap := netip.AddrPortFrom(ip, binary.LittleEndian.Uint16(b[4:6]))
	if !usable(ap) {
		return Entry{}, false
	}
	name := b[6 : 6+scumName]
	if i := bytes.IndexByte(name, 0); i >= 0 {
		name = name[:i]
	}
	return Entry{
		Addr:     ap,
		Name:     wire.UTF8(name),
		Players:  protocols.Known(int64(b[107])),
		Max:      protocols.Known(int64(b[108])),
		Password: protocols.FlagOf(b[111]&0x02 != 0),
		Version: strconv.Itoa(int(b[126])) + "." + strconv.Itoa(int(b[125])) + "." +
			strconv.Itoa(int(binary.LittleEndian.Uint16(b[123:125]))) + "." + strconv.FormatUint(uint64(binary.LittleEndian.Uint32(b[119:123])), 10),
	}, true
}

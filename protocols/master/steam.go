package master

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"strings"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// Valve's master server query protocol (Valve Developer Community, "Master Server
// Query Protocol"): the request is 0x31, a region byte, the address to continue
// after ("0.0.0.0:0" first) and a filter string (`\appid\440\gamedir\tf`), each
// NUL-terminated. The reply is FF FF FF FF 66 0A and 6-byte entries (IPv4 address,
// big-endian port); the next page is asked for after the page's last address,
// and the entry 0.0.0.0:0 ends the list.

// DefaultSteamMaster is Valve's public master.
const DefaultSteamMaster = "hl2master.steampowered.com:27011"

var steamHeader = []byte{0xFF, 0xFF, 0xFF, 0xFF, 0x66, 0x0A}

// steamRegions are the region bytes by name.
var steamRegions = map[string]byte{
	"us_east": 0x00, "us_west": 0x01, "south_america": 0x02, "europe": 0x03,
	"asia": 0x04, "australia": 0x05, "middle_east": 0x06, "africa": 0x07, "all": 0xFF,
}

type steam struct {
	udpMaster
	region byte
	filter string
}

func newSteam(s Source, retries int) (Lister, error) {
	m, err := newUDPMaster(s, DefaultSteamMaster, retries)
	if err != nil {
		return nil, err
	}
	if s.Query != "" && !strings.HasPrefix(s.Query, `\`) {
		return nil, fmt.Errorf(`query %q: a Steam filter starts with a backslash (\appid\440)`, s.Query)
	}
	region := byte(0xFF)
	if s.Region != "" {
		r, ok := steamRegions[s.Region]
		if !ok {
			return nil, fmt.Errorf("region %q unknown (us_east, us_west, south_america, europe, asia, australia, middle_east, africa, all)", s.Region)
		}
		region = r
	}
	return &steam{udpMaster: m, region: region, filter: s.Query}, nil
}

// steamRequest asks for the page after seed.
func steamRequest(region byte, seed netip.AddrPort, filter string) []byte {
	s := seed.String()
	b := make([]byte, 0, 2+len(s)+1+len(filter)+1)
	b = append(b, 0x31, region)
	b = append(b, s...)
	b = append(b, 0)
	b = append(b, filter...)
	return append(b, 0)
}

// decodeSteamPage reads one reply: its addresses, and whether it ends the list
// (the entry 0.0.0.0:0, after which nothing counts). A datagram without the
// header is no reply (errNotSteam).
func decodeSteamPage(b []byte) (addrs []netip.AddrPort, end bool, err error) {
	if len(b) < len(steamHeader) || string(b[:len(steamHeader)]) != string(steamHeader) {
		return nil, false, errNotSteam
	}
	body := b[len(steamHeader):]
	if len(body)%6 != 0 {
		return nil, false, fmt.Errorf("%w: %d bytes of entries is no whole number of 6-byte entries (offset %d)",
			wire.ErrTruncated, len(body), len(steamHeader)+len(body)/6*6)
	}
	addrs = make([]netip.AddrPort, 0, len(body)/6)
	for off := 0; off < len(body); off += 6 {
		a := addr4(body[off:])
		if a.Port() == 0 && a.Addr().IsUnspecified() {
			return addrs, true, nil
		}
		addrs = append(addrs, a)
	}
	return addrs, false, nil
}

var errNotSteam = fmt.Errorf("%w: not a master server reply (FF FF FF FF 66 0A)", wire.ErrMalformed)

func (s *steam) List(ctx context.Context, tr *wire.Trace) (l *List, err error) {
	conn, err := s.dial(ctx, tr)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	c := newCollector(s.max)
	seed := netip.AddrPortFrom(netip.IPv4Unspecified(), 0)
	p := tr.Begin("list")
	defer func() { tr.End(p, err) }()
	for page := 0; ; page++ {
		if page >= maxDatagrams {
			return nil, fmt.Errorf("%w: the list goes on past %d pages", wire.ErrTooLarge, maxDatagrams)
		}
		type reply struct {
			addrs []netip.AddrPort
			end   bool
		}
		r, err := wire.Exchange(ctx, conn, steamRequest(s.region, seed, s.filter), func(b []byte) (reply, error, error) {
			addrs, end, err := decodeSteamPage(b)
			if errors.Is(err, errNotSteam) {
				return reply{}, err, nil
			}
			return reply{addrs, end}, nil, err
		})
		if err != nil {
			return nil, fmt.Errorf("page %d: %w", page+1, err)
		}
		fresh := 0
		for i, a := range r.addrs {
			if c.addr(a) {
				fresh++
			}
			if c.full() {
				c.list.Capped = c.list.Capped || !r.end || i < len(r.addrs)-1
				return c.done(tr), nil
			}
		}
		if r.end {
			return c.done(tr), nil
		}
		if fresh == 0 || len(r.addrs) == 0 {
			// A page of nothing new would be asked for again and again.
			return nil, fmt.Errorf("%w: page %d after %s lists no new server", wire.ErrMalformed, page+1, seed)
		}
		seed = r.addrs[len(r.addrs)-1]
	}
}

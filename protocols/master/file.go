package master

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/netip"
	"strconv"
	"strings"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// A file of targets the operator maintains (type file): one host:port per
// line (an IP address, [IPv6]:port, or a host name), blank lines and # comments
// ignored, re-read at every refresh. The file is the operator's, but its
// content is echoed to nobody: an error names a line's number, never the line
// (a path mistyped as /etc/shadow must not show up on /modules).

// MaxFile caps a file of targets: a million host:port lines fit.
const MaxFile = 32 << 20

type fileList struct {
	path string
	max  int
}

func newFile(s Source) (Lister, error) {
	if s.Path == "" {
		return nil, fmt.Errorf("type %s needs a path (a file of host:port lines)", s.Type)
	}
	if s.Address != "" || s.URL != "" {
		return nil, fmt.Errorf("type %s takes a path, not an address or url", s.Type)
	}
	if err := plainSource(s); err != nil {
		return nil, err
	}
	return &fileList{path: s.Path, max: s.MaxEntries}, nil
}

func (f *fileList) String() string { return "file " + f.path }

func (f *fileList) List(ctx context.Context, tr *wire.Trace) (l *List, err error) {
	p := tr.Begin("list")
	defer func() { tr.End(p, err) }()
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("%w: %v", wire.ErrTimeout, err)
	}
	b, err := protocols.ReadFile(f.path, MaxFile)
	if err != nil {
		// ReadFile's reasons name the path and the OS's error, never content.
		if strings.Contains(err.Error(), "over the limit") {
			return nil, fmt.Errorf("%w: %v", wire.ErrTooLarge, err)
		}
		return nil, fmt.Errorf("%w: %v", wire.ErrServer, err)
	}
	c := newCollector(f.max)
	if err := decodeFile(b, c); err != nil {
		return nil, err
	}
	return c.done(tr), nil
}

// decodeFile reads the lines of a file of targets into c until c is full.
// A line that is no host:port fails the whole file: a typo would otherwise
// drop a server silently.
func decodeFile(b []byte, c *collector) error {
	for n := 1; len(b) > 0; n++ {
		line := b
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			line, b = b[:i], b[i+1:]
		} else {
			b = nil
		}
		if i := bytes.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		e, ok := fileEntry(string(line))
		if !ok {
			return fmt.Errorf("%w: line %d: not host:port", wire.ErrMalformed, n)
		}
		if !c.add(e) && c.full() {
			return nil
		}
	}
	return nil
}

// fileEntry parses one host:port strictly: a port of 1..65535 in decimal and an
// IP address or a host name.
func fileEntry(s string) (Entry, bool) {
	host, p, err := net.SplitHostPort(s)
	if err != nil || p == "" || p[0] == '+' || p[0] == '-' {
		return Entry{}, false
	}
	port, err := strconv.Atoi(p)
	if err != nil || port < 1 || port > 65535 {
		return Entry{}, false
	}
	if ip, err := netip.ParseAddr(host); err == nil {
		if ip.Zone() != "" {
			return Entry{}, false
		}
		return Entry{Addr: netip.AddrPortFrom(ip, uint16(port))}, true
	}
	if !hostName(host) {
		return Entry{}, false
	}
	return Entry{Host: net.JoinHostPort(strings.ToLower(strings.TrimSuffix(host, ".")), strconv.Itoa(port))}, true
}

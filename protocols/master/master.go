// Package master fetches server lists: the master servers of Steam (Valve's master
// server query protocol), Quake 3 / DarkPlaces (dpmaster), QuakeWorld and SCUM,
// DDNet's HTTP master, RAGE MP's list, any JSON list over HTTP with a field map,
// a Pterodactyl panel's servers, and a local file of targets. Package discovery turns
// the lists into Prometheus targets and answers "is this server listed?".
//
// One file per source type holds its framing: a pure decoder (bytes -> addresses
// or entries, no I/O) and the fetch around it. Every fetch is bounded: by ctx's
// deadline, by MaxEntries (entries past it are dropped and the list says Capped),
// by a cap on datagrams or pages for UDP masters and on the body for HTTP lists,
// which are decoded entry by entry as they arrive, never held whole.
//
// Byte layouts, from the public descriptions: Valve Developer Community "Master
// Server Query Protocol"; ioquake3's and dpmaster's getservers/getserversExt
// (dpmaster's doc/techinfo.txt); QuakeWorld's master `c` query; DDNet's HTTP
// master servers.json; Pterodactyl's Application API (its transformers and
// documentation).
package master

import (
	"context"
	"crypto/x509"
	"fmt"
	"net"
	"net/netip"
	"strings"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// Entry is one server of a list. UDP masters know only addresses; HTTP lists
// often know more. Strings are valid UTF-8; the caller sanitises and caps them.
type Entry struct {
	// Addr is the server's address. A list may name a server by host name
	// instead: Host is then "name:port" and Addr is invalid.
	Addr    netip.AddrPort
	Host    string
	Name    string
	Map     string
	Game    string
	Version string
	Country string // ISO 3166 alpha-2, upper case, when the list has one
	Players protocols.Count
	Max     protocols.Count
	// Password says whether joining needs a password.
	Password protocols.Flag
	// PlayerNames are the names of the players the list gives, one a line (at
	// most maxNames of at most maxNameLen bytes): a string keeps Entry small
	// and comparable.
	PlayerNames string
}

// Target is the entry's address as Prometheus is told it: "ip:port" or "name:port".
func (e *Entry) Target() string {
	if e.Host != "" {
		return e.Host
	}
	return e.Addr.String()
}

// List is one fetched list.
type List struct {
	Entries []Entry
	// Capped says the list had more than MaxEntries entries; the rest were dropped.
	Capped bool
	// Skipped counts entries dropped as unusable (port 0, 0.0.0.0, no address),
	// as repeats of an earlier one or as undecodable; Skips splits it by reason
	// (Skip*).
	Skipped int
	Skips   map[string]int
}

// Why an entry was skipped (List.Skips): one bad entry costs that entry, the
// rest of the list is served.
const (
	SkipNoAddress = "no_address" // no usable address (port 0, 0.0.0.0, none)
	SkipRepeat    = "repeat"     // the address of an earlier entry
	SkipMalformed = "malformed"  // it does not decode as the list's entry
	SkipTooLarge  = "too_large"  // longer than maxValue: not read into memory
	SkipTooDeep   = "too_deep"   // nested deeper than maxDepth
)

// A Lister fetches one source's list. It is built once per source and is safe
// for concurrent use.
type Lister interface {
	List(ctx context.Context, tr *wire.Trace) (*List, error)
}

// Source types.
const (
	TypeSteam       = "steam"
	TypeQuake3      = "quake3"
	TypeQuakeWorld  = "quakeworld"
	TypeDDNet       = "ddnet"
	TypeHTTPJSON    = "http_json"
	TypeGeneshift   = "geneshift"
	TypeFile        = "file"
	TypePterodactyl = "pterodactyl"
	TypeRageMP      = "ragemp"
	TypeSCUM        = "scum"
)

// Types lists the source types, for messages.
var Types = []string{TypeDDNet, TypeFile, TypeGeneshift, TypeHTTPJSON, TypePterodactyl, TypeQuake3, TypeQuakeWorld, TypeRageMP, TypeSCUM, TypeSteam}

// Limits.
const (
	// DefaultMaxEntries is a source's cap when it sets none.
	DefaultMaxEntries = 100000
	// MaxEntries is the most a source may set: a list entry costs a few hundred
	// bytes, a Prometheus target far more.
	MaxEntries = 1000000
	// maxDatagrams bounds the datagrams (or pages) one UDP list is read from: an
	// honest master fills each with a couple of hundred entries.
	maxDatagrams = 16384
	// DefaultMaxBody caps an HTTP list's body. The body streams through the
	// decoder, so the cap bounds time and traffic rather than memory.
	DefaultMaxBody = 256 << 20
	// maxQuery bounds a query or filter string.
	maxQuery = 512
)

// Source says where one list comes from and how it is asked for.
type Source struct {
	Type string
	// Address is a UDP master's host:port (default: the public master of the
	// type); URL an HTTP list's (default for ddnet: DDNet's master).
	Address string
	URL     string
	// Path is a file of targets (type file).
	Path string
	// Query is the type's request: Steam's filter (`\appid\440`), Quake 3's
	// getservers line (`getservers 68 empty full`).
	Query string
	// Region is Steam's region name (default all).
	Region     string
	MaxEntries int
	// MaxBody caps an HTTP list's body (default DefaultMaxBody).
	MaxBody int
	// Fields maps an http_json list's fields.
	Fields Fields
	// RootCAs verifies an HTTPS list (nil: the system's roots).
	RootCAs *x509.CertPool
	// Retries re-sends an unanswered UDP request (default 2).
	Retries *int
	// KeyFile holds a Steam Web API key (type steam then asks the Web API's
	// GetServerList instead of Valve's UDP master) or a Pterodactyl panel's
	// application API key (type pterodactyl, required). Key is the key it
	// holds (read by New).
	KeyFile string
	Key     protocols.Secret
	// Preset names a built-in list (Presets): it gives the type, the URL
	// and the field map the source leaves unset.
	Preset string
	// Codes is the byte that starts the list's two-byte colour codes in
	// server names (a preset's), 0 for none.
	Codes byte
	// Username and TokenFile sign in to a list that lists only to signed-in
	// players (a preset that says Credential: factorio); Token is the token
	// the file holds (read by New). They go to the list's URL and nowhere else.
	Username  string
	TokenFile string
	Token     protocols.Secret
	// Headers are request headers of an HTTP list (a key the list wants:
	// then its URL carries none); HeaderFiles name files holding header
	// values. Pages, logs and traces show neither value.
	Headers     map[string]protocols.Secret
	HeaderFiles map[string]string
	header      map[string]protocols.Secret // both, read by New
}

// checkQuery bounds a source's request text: it goes into a datagram or a URL.
func checkQuery(q string) error {
	if len(q) > maxQuery {
		return fmt.Errorf("query longer than %d bytes", maxQuery)
	}
	for _, c := range []byte(q) {
		if c < 0x20 || c >= 0x7f {
			return fmt.Errorf("query %q: only printable ASCII", q)
		}
	}
	return nil
}

// New validates s, fills its defaults and returns its Lister.
func New(s Source) (Lister, error) {
	if err := s.prepare(); err != nil {
		return nil, err
	}
	if s.MaxEntries == 0 {
		s.MaxEntries = DefaultMaxEntries
	}
	if s.MaxEntries < 0 || s.MaxEntries > MaxEntries {
		return nil, fmt.Errorf("max_targets %d out of range 1..%d", s.MaxEntries, MaxEntries)
	}
	if s.MaxBody == 0 {
		s.MaxBody = DefaultMaxBody
	}
	if err := checkQuery(s.Query); err != nil {
		return nil, err
	}
	if s.Path != "" && s.Type != TypeFile {
		return nil, fmt.Errorf("path is for type %s only", TypeFile)
	}
	if s.Region != "" && s.Type != TypeSteam {
		return nil, fmt.Errorf("region is for type %s only", TypeSteam)
	}
	return s.lister()
}

// lister builds the Lister of a checked source's type.
func (s Source) lister() (Lister, error) {
	retries := 2
	if s.Retries != nil {
		retries = *s.Retries
	}
	switch s.Type {
	case TypeSteam:
		if s.Key != "" {
			return newSteamWeb(s)
		}
		return newSteam(s, retries)
	case TypeQuake3:
		return newQuake3(s, retries)
	case TypeQuakeWorld:
		return newQuakeWorld(s, retries)
	case TypeDDNet:
		return newDDNet(s)
	case TypeHTTPJSON:
		return newHTTPJSON(s)
	case TypeGeneshift:
		return newGeneshift(s)
	case TypeFile:
		return newFile(s)
	case TypePterodactyl:
		return newPterodactyl(s)
	case TypeRageMP:
		return newRageMP(s)
	case TypeSCUM:
		return newSCUM(s, retries)
	case "":
		return nil, fmt.Errorf("type is required (one of %s)", strings.Join(Types, ", "))
	}
	return nil, fmt.Errorf("unknown type %q (known: %s)", s.Type, strings.Join(Types, ", "))
}

// prepare applies s's preset and reads its key or token file.
func (s *Source) prepare() error {
	if s.Preset != "" {
		if err := s.applyPreset(); err != nil {
			return err
		}
	}
	if err := s.loadToken(); err != nil {
		return err
	}
	if err := s.loadHeaders(); err != nil {
		return err
	}
	if s.KeyFile != "" {
		if s.Type != TypeSteam && s.Type != TypePterodactyl {
			return fmt.Errorf("key_file is for types %s and %s only", TypePterodactyl, TypeSteam)
		}
		key, err := protocols.LoadSecret("", s.KeyFile)
		if err != nil {
			return fmt.Errorf("key_file: %v", err)
		}
		if key == "" {
			return fmt.Errorf("key_file %s is empty", s.KeyFile)
		}
		s.Key = key
	}
	return nil
}

// udpMaster is the address part of a UDP master's source.
type udpMaster struct {
	address string
	retries int
	max     int
}

func newUDPMaster(s Source, def string, retries int) (udpMaster, error) {
	if s.URL != "" {
		return udpMaster{}, fmt.Errorf("type %s takes an address, not a url", s.Type)
	}
	addr := s.Address
	if addr == "" {
		addr = def
	}
	if _, _, err := net.SplitHostPort(addr); err != nil {
		return udpMaster{}, fmt.Errorf("address %q: %v", addr, err)
	}
	return udpMaster{address: addr, retries: retries, max: s.MaxEntries}, nil
}

// resolve returns the master's address (an address, or a name looked up now:
// masters move). SCUM's TCP master resolves its address here too.
func (m udpMaster) resolve(ctx context.Context, tr *wire.Trace) (netip.AddrPort, error) {
	ap, err := netip.ParseAddrPort(m.address)
	if err == nil {
		return ap, nil
	}
	host, port, _ := net.SplitHostPort(m.address)
	p := tr.Begin("resolve")
	ips, err := net.DefaultResolver.LookupNetIP(ctx, "ip", host)
	if err == nil && len(ips) == 0 {
		err = fmt.Errorf("no address")
	}
	tr.End(p, err)
	if err != nil {
		return netip.AddrPort{}, fmt.Errorf("%w: master %s: %v", wire.ErrDNS, host, err)
	}
	ap, err = netip.ParseAddrPort(net.JoinHostPort(ips[0].Unmap().String(), port))
	if err != nil {
		return netip.AddrPort{}, fmt.Errorf("%w: master port %q", wire.ErrMalformed, port)
	}
	return ap, nil
}

// dial resolves the master and opens a socket to it.
func (m udpMaster) dial(ctx context.Context, tr *wire.Trace) (*wire.UDPConn, error) {
	ap, err := m.resolve(ctx, tr)
	if err != nil {
		return nil, err
	}
	conn, err := wire.DialUDPList(ctx, ap, tr)
	if err != nil {
		return nil, err
	}
	conn.Retries = m.retries
	return conn, nil
}

// collector gathers a list's entries: repeats and unusable entries are
// skipped, entries past max dropped.
type collector struct {
	max   int
	list  List
	addrs map[netip.AddrPort]struct{}
	hosts map[string]struct{}
	// chunks hold the entries until done copies them into one slice of the
	// right size: appending to one slice would allocate about five times the
	// final size on the way (large slices grow by a quarter).
	chunks [][]Entry
	n      int
}

const chunkEntries = 4096

func newCollector(max int) *collector {
	return &collector{max: max, addrs: map[netip.AddrPort]struct{}{}}
}

// full reports whether the list holds max entries.
func (c *collector) full() bool { return c.n >= c.max }

// push appends e to the last chunk.
func (c *collector) push(e Entry) {
	if len(c.chunks) == 0 || len(c.chunks[len(c.chunks)-1]) == cap(c.chunks[len(c.chunks)-1]) {
		c.chunks = append(c.chunks, make([]Entry, 0, min(chunkEntries, c.max-c.n)))
	}
	last := &c.chunks[len(c.chunks)-1]
	*last = append(*last, e)
	c.n++
}

// addr adds a bare address and reports whether it was new.
func (c *collector) addr(a netip.AddrPort) bool { return c.add(Entry{Addr: a}) }

// add adds e and reports whether it was new and usable.
func (c *collector) add(e Entry) bool {
	if e.Host != "" {
		if c.hosts == nil {
			c.hosts = map[string]struct{}{}
		}
		if _, dup := c.hosts[e.Host]; dup {
			c.skip(SkipRepeat)
			return false
		}
		if c.full() {
			c.list.Capped = true
			return false
		}
		c.hosts[e.Host] = struct{}{}
		c.push(e)
		return true
	}
	e.Addr = netip.AddrPortFrom(e.Addr.Addr().Unmap(), e.Addr.Port())
	if !usable(e.Addr) {
		c.skip(SkipNoAddress)
		return false
	}
	if _, dup := c.addrs[e.Addr]; dup {
		c.skip(SkipRepeat)
		return false
	}
	if c.full() {
		c.list.Capped = true
		return false
	}
	c.addrs[e.Addr] = struct{}{}
	c.push(e)
	return true
}

// skip counts an entry dropped for reason.
func (c *collector) skip(reason string) {
	if c.list.Skips == nil {
		c.list.Skips = map[string]int{}
	}
	c.list.Skips[reason]++
	c.list.Skipped++
}

// usable says whether a listed address can be probed: not 0.0.0.0, port 0,
// multicast or broadcast (masters list what servers claimed, lies included).
func usable(a netip.AddrPort) bool {
	ip := a.Addr()
	return a.IsValid() && a.Port() != 0 && !ip.IsUnspecified() && !ip.IsMulticast() &&
		ip != netip.AddrFrom4([4]byte{255, 255, 255, 255})
}

// done finishes the list, noting caps in the trace.
func (c *collector) done(tr *wire.Trace) *List {
	if c.chunks != nil {
		c.list.Entries = c.entries()
	}
	tr.Logf("%d entries, %d skipped, capped: %v", len(c.list.Entries), c.list.Skipped, c.list.Capped)
	return &c.list
}

// slot is how long to wait for a first reply before re-sending: the time left
// split evenly across the attempts left.
func slot(ctx context.Context, attemptsLeft int) time.Time {
	dl, ok := ctx.Deadline()
	if !ok {
		return time.Time{}
	}
	return time.Now().Add(time.Until(dl) / time.Duration(attemptsLeft))
}

// addr4 reads a 6-byte entry: IPv4 address and big-endian port.
func addr4(b []byte) netip.AddrPort {
	return netip.AddrPortFrom(netip.AddrFrom4([4]byte(b[:4])), uint16(b[4])<<8|uint16(b[5]))
}

// addr6 reads an 18-byte entry: IPv6 address and big-endian port.
func addr6(b []byte) netip.AddrPort {
	return netip.AddrPortFrom(netip.AddrFrom16([16]byte(b[:16])), uint16(b[16])<<8|uint16(b[17]))
}

func errNoQuery(typ string) error { return fmt.Errorf("type %s takes no query", typ) }

// plainSource refuses what only other types take: a query (the masters') and a
// field map (http_json's).
func plainSource(s Source) error {
	if s.Query != "" {
		return errNoQuery(s.Type)
	}
	if s.Fields != (Fields{}) {
		return fmt.Errorf("fields are for type %s only", TypeHTTPJSON)
	}
	return nil
}

// entries copies the chunks into one slice.
func (c *collector) entries() []Entry {
	out := make([]Entry, 0, c.n)
	for _, ch := range c.chunks {
		out = append(out, ch...)
	}
	c.chunks = nil
	return out
}

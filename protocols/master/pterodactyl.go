package master

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"mime"
	"net/url"
	"strings"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// A Pterodactyl (or Pelican) panel's Application API (type pterodactyl):
// GET {url}/api/application/servers?include=allocations with an application
// API key as a bearer token. Its reply, from the panel's ServerTransformer and
// AllocationTransformer (pterodactyl/panel, app/Transformers/Api/Application)
// and its API documentation: {"object": "list", "data": [{"object": "server",
// "attributes": {"name", "allocation" (the default allocation's id), ...,
// "relationships": {"allocations": {"object": "list", "data": [{"object":
// "allocation", "attributes": {"id", "ip", "alias", "port", ...}}]}}}}],
// "meta": {"pagination": {"total", "count", "per_page", "current_page",
// "total_pages", "links": {"next": URL}}}} (links is [] on the last page, and
// relationships [] when nothing was included: PHP's empty arrays). The next
// link carries the page number only (Laravel's paginator): the include and the
// page size are set on it again. Each
// server's default allocation is a target (its alias when it has one, else
// its ip), named after the server.
//
// The key goes to the configured panel only: no redirect is followed, a next
// page on another origin is refused, and the key is in a header (never in a
// URL, which traces and errors show) and cut out of any error.

// A refresh of a panel reads at most panelPages pages, each at most
// maxPanelPage bytes, all of them at most the source's body cap
// (DefaultMaxBody): a page holds 50 servers by default, each a few KiB with
// its environment. A next-page link longer than maxPanelLink is refused
// (Laravel's is the panel's URL and a page number).
const (
	maxPanelPage = 16 << 20
	maxPanelLink = 2048
)

// panelPerPage is the page size asked for: twice the panel's default, half
// the requests (the Application API allows 240 a minute by default).
const panelPerPage = "100"

type pterodactyl struct {
	httpList
	key    protocols.Secret
	origin string // scheme://host[:port] of url: the only place pages are read from
}

// String keeps the key out of %v.
func (p *pterodactyl) String() string { return "pterodactyl panel " + RedactURL(p.url) }

func newPterodactyl(s Source) (Lister, error) {
	if err := plainSource(s); err != nil {
		return nil, err
	}
	if s.Key == "" {
		return nil, fmt.Errorf("type %s needs key_file (an application API key of the panel)", s.Type)
	}
	for _, c := range []byte(s.Key) {
		if c <= ' ' || c >= 0x7f {
			return nil, fmt.Errorf("key_file %s: the key holds a character an HTTP header cannot carry", s.KeyFile)
		}
	}
	h, err := newHTTPList(s, "")
	if err != nil {
		return nil, err
	}
	u, _ := url.Parse(h.url)
	if u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("url %q: the panel's base URL, without query or fragment", RedactURL(h.url))
	}
	origin := u.Scheme + "://" + strings.ToLower(u.Host)
	u.Path = strings.TrimSuffix(u.Path, "/") + "/api/application/servers"
	u.RawPath = ""
	u.RawQuery = "include=allocations&per_page=" + panelPerPage
	h.url = u.String()
	return &pterodactyl{httpList: h, key: s.Key, origin: origin}, nil
}

func (p *pterodactyl) List(ctx context.Context, tr *wire.Trace) (l *List, err error) {
	ph := tr.Begin("list")
	defer func() { tr.End(ph, err) }()
	c := newCollector(p.max)
	// Pages already read are known by a hash of their link, not the link: the
	// set costs a few bytes a page, whatever a panel's links hold.
	seen := map[uint64]struct{}{}
	next := p.url
	budget := int64(p.maxBody)
	maxPages := panelPages(p.max)
	for page := 1; next != ""; page++ {
		if page > maxPages {
			return nil, fmt.Errorf("%w: more than %d pages for at most %d servers", wire.ErrTooLarge, maxPages, p.max)
		}
		h := fnv.New64a()
		h.Write([]byte(next))
		if _, dup := seen[h.Sum64()]; dup {
			return nil, fmt.Errorf("%w: page %d links back to an earlier page", wire.ErrMalformed, page-1)
		}
		seen[h.Sum64()] = struct{}{}
		if next, err = p.page(ctx, tr, next, c, &budget); err != nil {
			return nil, fmt.Errorf("page %d: %w", page, err)
		}
		if next != "" {
			if next, err = p.nextPage(next); err != nil {
				return nil, fmt.Errorf("page %d: %w", page, err)
			}
		}
		if next != "" && c.full() {
			c.list.Capped = true
			break
		}
	}
	return c.done(tr), nil
}

// panelPages is a refresh's page budget for at most max servers: a page holds
// up to 100 servers (50 on a panel that ignores per_page), ten a page on
// average is generous, and bounds a panel that links on forever with empty
// pages.
func panelPages(max int) int { return max/10 + 10 }

// nextPage checks a next-page link and asks it for the allocations again:
// the panel's links (Laravel's paginator) carry the page number only.
func (p *pterodactyl) nextPage(link string) (string, error) {
	if len(link) > maxPanelLink {
		return "", fmt.Errorf("%w: the next page's link is longer than %d bytes: not followed", wire.ErrMalformed, maxPanelLink)
	}
	u, err := url.Parse(link)
	if err != nil || u.User != nil || u.Host == "" || u.Scheme+"://"+strings.ToLower(u.Host) != p.origin {
		return "", fmt.Errorf("%w: the next page's link leaves the panel's origin %s: not followed", wire.ErrMismatch, p.origin)
	}
	q := u.Query()
	q.Set("include", "allocations")
	if q.Get("per_page") == "" {
		q.Set("per_page", panelPerPage)
	}
	u.RawQuery = q.Encode()
	u.Fragment = ""
	return u.String(), nil
}

// page fetches one page into c and returns the next page's link; budget is
// what the refresh may still read, less this page's length.
func (p *pterodactyl) page(ctx context.Context, tr *wire.Trace, link string, c *collector, budget *int64) (string, error) {
	if *budget <= 0 {
		return "", fmt.Errorf("%w: the pages so far hold the refresh's %d bytes", wire.ErrTooLarge, p.maxBody)
	}
	hdr := map[string][]string{
		"Accept":        {"application/json"},
		"Authorization": {"Bearer " + p.key.Reveal()},
	}
	s, err := wire.OpenHTTP(ctx, wire.HTTPRequest{URL: link, MaxBody: int(min(maxPanelPage, *budget)), RootCAs: p.rootCAs, Header: hdr}, tr)
	if err != nil {
		return "", &redacted{err: err, cut: []string{p.key.Reveal()}}
	}
	defer s.Close()
	if s.Status < 200 || s.Status > 299 {
		return "", wire.StatusError(&wire.HTTPResponse{Status: s.Status})
	}
	if mt, _, _ := mime.ParseMediaType(s.Header.Get("Content-Type")); mt == "text/html" || mt == "application/xhtml+xml" {
		return "", fmt.Errorf("%w: expected JSON, got %s", wire.ErrMalformed, mt)
	}
	body := &counted{r: s.Body}
	defer func() { *budget -= body.n }()
	return decodePterodactyl(body, c)
}

// counted counts the bytes read through it.
type counted struct {
	r io.Reader
	n int64
}

func (c *counted) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// pteroMeta is a page's meta.
type pteroMeta struct {
	Pagination struct {
		// Links is {"next": ...} or, on the last page, [].
		Links json.RawMessage `json:"links"`
	} `json:"pagination"`
}

type pteroServer struct {
	Attributes struct {
		Name       string `json:"name"`
		Allocation *int64 `json:"allocation"`
		// Relationships is an object, or [] (an empty PHP array) when
		// nothing was included.
		Relationships json.RawMessage `json:"relationships"`
	} `json:"attributes"`
}

type pteroRelationships struct {
	Allocations *struct {
		// Object is "null_resource" when the key may not read allocations.
		Object string `json:"object"`
		Data   []struct {
			Attributes struct {
				ID    int64   `json:"id"`
				IP    string  `json:"ip"`
				Alias *string `json:"alias"`
				Port  int     `json:"port"`
			} `json:"attributes"`
		} `json:"data"`
	} `json:"allocations"`
}

// object decodes raw into v when it is a JSON object, and leaves v as it is
// when raw is anything else (PHP's empty array, null, absent).
func object(raw json.RawMessage, v any) error {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		return nil
	}
	return json.Unmarshal(raw, v)
}

// decodePterodactyl reads one page of the panel's server list into c and
// returns the next page's link ("" on the last page, or when c is full). The
// page is walked as the JSON lists are (eachElement): server by server, a bad
// one costing itself, whatever order its keys come in.
func decodePterodactyl(r io.Reader, c *collector) (string, error) {
	w := newWalker(r)
	if err := w.expect('{'); err != nil {
		return "", err
	}
	var obj string
	var meta pteroMeta
	servers, withAllocations, full := 0, false, false
	for first := true; ; first = false {
		key, end, err := w.member(first)
		if err != nil {
			return "", err
		}
		if end {
			break
		}
		switch key {
		case "object":
			err = w.small("object", &obj)
		case "meta":
			err = w.small("meta", &meta)
		case "data":
			err = w.elements(c, func(raw []byte) bool {
				servers++
				switch pteroEntry(raw, c) {
				case SkipMalformed, "": // no sign of a key that may not read them
					withAllocations = true
				}
				full = c.full() && c.list.Capped
				return full
			})
		default:
			err = w.skip()
		}
		if err != nil {
			return "", err
		}
		if full {
			return "", nil
		}
	}
	if obj != "list" {
		return "", fmt.Errorf("%w: not a list of servers (object %q)", wire.ErrMalformed, trimObject(obj))
	}
	if servers > 0 && !withAllocations {
		return "", fmt.Errorf("%w: the servers carry no allocations: the API key needs read access to allocations", wire.ErrServer)
	}
	var links struct {
		Next string `json:"next"`
	}
	if err := object(meta.Pagination.Links, &links); err != nil {
		return "", fmt.Errorf("%w: meta.pagination.links: no object of links", wire.ErrMalformed)
	}
	return links.Next, nil
}

// pteroEntry adds the server raw to c: a target at its default allocation.
// It returns why it was skipped ("" when it was not).
func pteroEntry(raw []byte, c *collector) string {
	var srv pteroServer
	var rel pteroRelationships
	if json.Unmarshal(raw, &srv) != nil || object(srv.Attributes.Relationships, &rel) != nil {
		c.skip(SkipMalformed)
		return SkipMalformed
	}
	a := &srv.Attributes
	if rel.Allocations == nil || rel.Allocations.Object == "null_resource" {
		c.skip(SkipNoAddress)
		return SkipNoAddress
	}
	e := Entry{Name: a.Name}
	for _, al := range rel.Allocations.Data {
		at := &al.Attributes
		if a.Allocation == nil || at.ID != *a.Allocation || at.Port < 1 || at.Port > 65535 {
			continue
		}
		host := at.IP
		if at.Alias != nil && strings.TrimSpace(*at.Alias) != "" {
			host = *at.Alias
		}
		if place(&e, host, at.Port, 0) {
			c.add(e)
			return ""
		}
		break
	}
	c.skip(SkipNoAddress)
	return "" // it carries allocations
}

// trimObject bounds a peer's string quoted in an error.
func trimObject(s string) string {
	if len(s) > 32 {
		return s[:32] + "..."
	}
	return s
}

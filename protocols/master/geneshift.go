package master

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// Geneshift's (and Mutant Factions') lobby list, as gamedig's
// protocols/geneshift.js reads it: plain text, one server per record, records
// separated by "<br/>", fields by "::": country code, country, ip, port,
// name, map, players, max players, then game settings, the version at 19.

type geneshift struct{ httpList }

func newGeneshift(s Source) (Lister, error) {
	if err := plainSource(s); err != nil {
		return nil, err
	}
	h, err := newHTTPList(s, "")
	if err != nil {
		return nil, err
	}
	h.text = true
	return &geneshift{h}, nil
}

func (g *geneshift) List(ctx context.Context, tr *wire.Trace) (*List, error) {
	return g.fetch(ctx, tr, decodeGeneshift)
}

// maxRecord bounds one server's record: an honest one is a few hundred bytes.
const maxRecord = 64 << 10

var recordSep = []byte("<br/>")

// splitRecords is a bufio.SplitFunc cutting at "<br/>".
func splitRecords(data []byte, atEOF bool) (int, []byte, error) {
	if i := bytes.Index(data, recordSep); i >= 0 {
		return i + len(recordSep), data[:i], nil
	}
	if atEOF && len(data) > 0 {
		return len(data), data, nil
	}
	return 0, nil, nil
}

// decodeGeneshift reads the lobby list into c, record by record, until c is full.
func decodeGeneshift(r io.Reader, c *collector) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), maxRecord)
	sc.Split(splitRecords)
	for sc.Scan() {
		rec := strings.TrimSpace(wire.UTF8(sc.Bytes())) // the list is Latin-1 or UTF-8
		if rec == "" {
			continue
		}
		e, ok := geneshiftEntry(rec)
		if !ok {
			c.skip(SkipNoAddress)
			continue
		}
		if !c.add(e) && c.full() {
			return nil
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return fmt.Errorf("%w: a list record longer than %d bytes", wire.ErrTooLarge, maxRecord)
		}
		return err // the wire's reason (too large, deadline)
	}
	return nil
}

// geneshiftEntry maps one record; false when it has no usable address.
func geneshiftEntry(rec string) (Entry, bool) {
	f := strings.SplitN(rec, "::", 21)
	if len(f) < 8 {
		return Entry{}, false
	}
	port, err := strconv.Atoi(strings.TrimSpace(f[3]))
	if err != nil || port <= 0 || port > 65535 {
		return Entry{}, false
	}
	e := Entry{Country: country(strings.TrimSpace(f[0])), Name: f[4], Map: f[5], Players: protocols.ParseCount(f[6]), Max: protocols.ParseCount(f[7])}
	if len(f) > 19 {
		e.Version = strings.TrimSpace(f[19])
	}
	return e, place(&e, f[2], port, 0)
}

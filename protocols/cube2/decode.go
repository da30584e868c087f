package cube2

import (
	"bytes"
	"encoding/binary"
	"fmt"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// Layouts of the info reply's attributes, told apart by their count.
const (
	layoutSauerbraten = "sauerbraten" // 5 attributes, 7 while paused or at another game speed
	layoutRedEclipse  = "redeclipse"  // 8 or more (15 in 1.5 and 1.6)
	layoutUnknown     = "unknown"     // anything else: only counts and strings are read
)

const (
	// maxAttrs caps the attribute count a peer sends (Red Eclipse sends 15).
	maxAttrs = 64
	// maxString caps the characters kept per string (the engine's MAXSTRLEN is 260);
	// longer strings are consumed but cut.
	maxString = 512
	// maxPlayers caps player names, client numbers and stats kept from one reply
	// (MAXCLIENTS is 128, bots get numbers from 128 up).
	maxPlayers = 256
	// botCN is Sauerbraten's MAXCLIENTS: bots' client numbers start here.
	botCN = 128
	// mmPassword is the master mode a password-protected server reports
	// (Sauerbraten MM_PASSWORD, Red Eclipse's fifth master mode).
	mmPassword = 4
	// reMinBranch is the first Red Eclipse game version sending its version branch.
	reMinBranch = 227
)

// info is a decoded server info reply. Strings are UTF-8 with colour codes removed.
type info struct {
	Players int32 // connected clients (Sauerbraten: spectators included, bots not)
	Attrs   []int32
	Layout  string
	Map     string
	Desc    string // the server description: its name
	// Red Eclipse only: the version branch (game version 227 and later), then the
	// names and account handles of the Players clients.
	Branch   string
	Names    []string
	Handles  []string
	NamesErr error // the names were missing or cut: the counts are still good
	Trailing int   // bytes after what the layout explains
}

// infoRequest is the server info request: the packed int ping, which the server
// echoes with the rest of the request. A zero ping would ask for extended info.
func infoRequest(ping int32) []byte {
	if ping == 0 {
		ping = 1
	}
	if ping > -127 && ping < 128 {
		return []byte{byte(ping)}
	}
	b := []byte{0x81, 0, 0, 0, 0}
	binary.LittleEndian.PutUint32(b[1:], uint32(ping))
	return b
}

// getInt reads a packed int: a signed byte, 0x80 and an int16 LE, or 0x81 and an
// int32 LE. Errors stick in r.
func getInt(r *wire.Reader, what string) int32 {
	switch c := int8(r.Uint8(what)); c {
	case -128:
		return int32(int16(r.Uint16LE(what)))
	case -127:
		return int32(r.Uint32LE(what))
	default:
		return int32(c)
	}
}

// getString reads a string: one packed int per character (its low byte is the
// character, as the engine stores it in a char), up to a 0 character. Characters
// past maxString are consumed and dropped.
func getString(r *wire.Reader, what string) ([]byte, error) {
	start := r.Offset()
	var s []byte
	for {
		c := byte(getInt(r, what))
		if r.Err() != nil {
			return nil, fmt.Errorf("%w: %s at offset %d has no terminating 0", wire.ErrTruncated, what, start)
		}
		if c == 0 {
			return s, nil
		}
		if len(s) < maxString {
			s = append(s, c)
		}
	}
}

// echo checks that b starts with the request (the server echoes it whole) and
// returns a reader past it.
func echo(b, req []byte) (wire.Reader, error) {
	if !bytes.HasPrefix(b, req) {
		n := min(len(b), len(req))
		return wire.Reader{}, fmt.Errorf("%w: reply starts % X, not the echoed request % X", wire.ErrMismatch, b[:n], req)
	}
	r := wire.NewReader(b)
	r.Skip(len(req), "echo")
	return r, nil
}

// decodeInfo parses a server info reply to req.
func decodeInfo(b, req []byte) (*info, error) {
	r, err := echo(b, req)
	if err != nil {
		return nil, err
	}
	in := &info{}
	in.Players = getInt(&r, "client count")
	off := r.Offset()
	n := getInt(&r, "attribute count")
	if err := r.Err(); err != nil {
		return nil, err
	}
	switch {
	case in.Players < 0:
		return nil, fmt.Errorf("%w: client count %d at offset %d", wire.ErrMalformed, in.Players, len(req))
	case n < 0:
		return nil, fmt.Errorf("%w: attribute count %d at offset %d", wire.ErrMalformed, n, off)
	case n > maxAttrs:
		return nil, fmt.Errorf("%w: attribute count %d at offset %d, cap %d", wire.ErrTooLarge, n, off, maxAttrs)
	}
	in.Attrs = make([]int32, n)
	for i := range in.Attrs {
		in.Attrs[i] = getInt(&r, "attribute")
	}
	if err := r.Err(); err != nil {
		return nil, err
	}
	in.Layout = layoutOf(in.Attrs)
	re := in.Layout == layoutRedEclipse
	m, err := getString(&r, "map name")
	if err != nil {
		return nil, err
	}
	d, err := getString(&r, "server description")
	if err != nil {
		return nil, err
	}
	in.Map, in.Desc = text(stripColours(m, re)), text(stripColours(d, re))
	if re {
		in.NamesErr = in.readRedEclipse(&r)
	}
	in.Trailing = r.Len()
	return in, nil
}

func layoutOf(attrs []int32) string {
	switch n := len(attrs); {
	case n == 5 || n == 7:
		return layoutSauerbraten
	case n >= 8:
		return layoutRedEclipse
	}
	return layoutUnknown
}

// readRedEclipse reads what Red Eclipse sends after the description: the version
// branch, then one name per client, then one account handle per client.
func (in *info) readRedEclipse(r *wire.Reader) error {
	if in.Attrs[0] >= reMinBranch {
		b, err := getString(r, "version branch")
		if err != nil {
			return err
		}
		in.Branch = text(b)
	}
	n := min(int(in.Players), maxPlayers)
	in.Names = make([]string, 0, n)
	for i := range n {
		b, err := getString(r, "player name")
		if err != nil {
			return fmt.Errorf("player %d of %d: %w", i+1, in.Players, err)
		}
		in.Names = append(in.Names, text(stripColours(b, true)))
	}
	// Handles (game version 226 and later) are optional here: older servers end
	// after the names.
	for range n {
		if r.Len() == 0 {
			break
		}
		b, err := getString(r, "player handle")
		if err != nil {
			break // the names are complete; a cut handle list is not worth failing for
		}
		in.Handles = append(in.Handles, text(b))
	}
	return nil
}
